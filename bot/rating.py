"""Skill ratings (PRODUCT.md §20): OpenSkill's Plackett-Luce model over each finished
game's places (:meth:`engine.core.Result.places`), per person (or computer level) and game, in a
group and across groups. Pure: no I/O; the same games in the same order give the same figures.

Why OpenSkill's Plackett-Luce: a maintained library (MIT) of the Weng-Lin Bayesian ratings for
free-for-all games of any number of players with ties — the Мушка family's 2 to 8 seats. TrueSkill's
licence limits it to non-commercial use; Elo and Glicko-2 rate pairs.

The scale: OpenSkill's default (μ 25, σ 25/3) times four, so a whole number shows what a game did
(a first game moves a rating by about a dozen, not by three). The rating is the conservative
μ − 3σ, 0 for a newcomer: it rises as the games show both skill and certainty. The screens show
it from a base (:data:`bot.numbers.RATING_BASE`, 1000), so no newcomer's figure reads as a debt;
what is stored here has no base.

A computer is rated once per level (:data:`computer`): the level is the player — at a computer
seat, and at a person's seat whose decisions were mostly the computer's. That person is rated
for the seat only where it lowers his rating: the computer's play never lifts it nor counts as
his win, and handing a losing seat to the computer never hides the loss (:meth:`Book._stood_in`).
When one level holds several seats of a game, each seat is rated as its own copy from the level's
rating and the level takes every copy's evidence (the sum of their changes of μ, the
product of their shrinkings of σ) — as if it had played the seats one after another.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.storage.rows import RatingRow, ResultRow, ResultSeat

SCALE = 4.0
MU = 25.0 * SCALE
SIGMA = MU / 3
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=MU / 300)
"""The model: its parameters are the library's defaults at :data:`SCALE` (immutable use: it
only computes)."""

EVERYWHERE = 0
"""The scope of the ratings across every group (a chat's id is never 0)."""


@dataclass(frozen=True, slots=True, order=True)
class Player:
    """Who is rated: a person (``user_id``, ``level`` "") or a computer level (``user_id`` 0)."""

    user_id: int
    level: str = ""

    @classmethod
    def computer(cls, level: str) -> Player:
        return cls(0, level)

    @property
    def is_computer(self) -> bool:
        return self.user_id == 0


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: the model's belief (μ, σ), and the games it rests on (``solo``: of them, at a
    table of one person and computers)."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    solo: int = 0

    @property
    def shown(self) -> int:
        """The conservative rating, μ − 3σ, as a whole number (0 for a newcomer)."""
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    value = mu - 3 * sigma
    return math.floor(value + 0.5) if abs(value) > 1e-9 else 0


def rate(
    players: Sequence[Player], skills: Sequence[Skill], places: Sequence[int], *, solo: bool
) -> dict[Player, Skill]:
    """Every player's rating after one game: ``players[i]`` held seat ``i`` with
    ``skills[i]`` (its rating before the game; the same for every seat of one player) and
    finished ``places[i]`` (1 best, ties equal)."""
    teams = [[PlackettLuceRating(s.mu, s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    mu: dict[Player, float] = {}
    shrink: dict[Player, float] = {}
    before: dict[Player, Skill] = {}
    for player, skill, (new,) in zip(players, skills, after, strict=True):
        before[player] = skill
        mu[player] = mu.get(player, skill.mu) + (new.mu - skill.mu)
        shrink[player] = shrink.get(player, 1.0) * (new.sigma / skill.sigma)
    return {
        p: Skill(mu[p], s.sigma * shrink[p], s.games + 1, s.solo + int(solo))
        for p, s in before.items()
    }


def player_of(seat: ResultSeat) -> Player:
    """Who a seat is rated as: its holder, or the computer level that made most of its
    person's decisions for him (:attr:`ResultSeat.stand_in`)."""
    if seat.stand_in:
        return Player.computer(seat.stand_in)
    return Player(seat.user_id, seat.level)


Key = tuple[int, str, Player]
"""A rating's place in the book: scope, game, player."""


@dataclass(slots=True)
class Book:
    """Ratings being computed: the rows read (or none, for a rebuild), each finished match rated
    in turn (:meth:`add`), the rows changed written back (:meth:`changed`). The one path both a
    match's end and a rebuild take, so both give the same figures."""

    rows: dict[Key, RatingRow] = dataclasses.field(default_factory=dict)
    touched: set[Key] = dataclasses.field(default_factory=set)

    def load(self, rows: Iterable[RatingRow]) -> None:
        for r in rows:
            self.rows[(r.scope, r.game, Player(r.user_id, r.level))] = r

    def skill(self, key: Key) -> Skill:
        r = self.rows.get(key)
        return Skill() if r is None else Skill(r.mu, r.sigma, r.games, r.solo)

    def add(self, result: ResultRow) -> ResultRow:
        """Rate one finished match in its chat and across chats; the match's seats come back
        with the chat's rating after it and the change."""
        players = [player_of(s) for s in result.seats]
        places = [s.place for s in result.seats]
        seats = list(result.seats)
        for scope in (result.chat_id, EVERYWHERE):
            keys = [(scope, result.game, p) for p in players]
            skills = [self.skill(k) for k in keys]
            after = rate(players, skills, places, solo=result.solo)
            for player, skill in after.items():
                key = (scope, result.game, player)
                mine = [s for s in result.seats if player_of(s) == player]
                old = self.rows.get(key)
                self.rows[key] = RatingRow(
                    scope,
                    result.game,
                    player.user_id,
                    player.level,
                    old.name if old is not None else "",
                    skill.mu,
                    skill.sigma,
                    skill.games,
                    skill.solo,
                    (old.won if old else 0) + int(any(s.place == 1 for s in mine)),
                    (old.money if old else 0) + sum(s.money for s in mine),
                )
                self.touched.add(key)
            shown = [
                (after[p].shown, after[p].shown - k.shown)
                for p, k in zip(players, skills, strict=True)
            ]
            for at, seat in enumerate(result.seats):
                if seat.stand_in:  # the computer's play lifts nobody; his losses stay his
                    shown[at] = self._stood_in(scope, result, at, players, skills)
            if scope == result.chat_id:
                seats = [
                    dataclasses.replace(s, rating=rating, change=change)
                    for s, (rating, change) in zip(result.seats, shown, strict=True)
                ]
        return dataclasses.replace(result, seats=tuple(seats))

    def _stood_in(
        self,
        scope: int,
        result: ResultRow,
        at: int,
        players: Sequence[Player],
        skills: Sequence[Skill],
    ) -> tuple[int, int]:
        """Seat ``at``'s person, whose decisions were mostly the computer's: the seat is rated
        as that computer (:func:`player_of`), and he is rated as if he had held it only where
        that lowers his rating — a computer's play never lifts it (nor counts as his win), and
        handing a losing seat over never hides the loss. His rating after, and its change."""
        seat = result.seats[at]
        person = Player(seat.user_id)
        key = (scope, result.game, person)
        before = self.skill(key)
        held = [person if i == at else p for i, p in enumerate(players)]
        mine = [before if i == at else k for i, k in enumerate(skills)]
        after = rate(held, mine, [s.place for s in result.seats], solo=result.solo)[person]
        if after.shown >= before.shown:
            return before.shown, 0
        old = self.rows.get(key)
        self.rows[key] = RatingRow(
            scope,
            result.game,
            person.user_id,
            "",
            old.name if old is not None else "",
            after.mu,
            after.sigma,
            after.games,
            after.solo,
            old.won if old else 0,
            (old.money if old else 0) + seat.money,
        )
        self.touched.add(key)
        return after.shown, after.shown - before.shown

    def changed(self) -> list[RatingRow]:
        return [self.rows[k] for k in sorted(self.touched)]
