-- /score shows a game's own points beside its money (#15): Копилка's partia points, Кончинка's
-- totals, summed over the games played (engine Result.points).
ALTER TABLE ledger ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
