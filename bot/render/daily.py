"""The day's deal's result as its reader sees it (:class:`~bot.runtime.outcome.DailyResult`):
to the person, his score in the game's terms and his place among the day's finished tries;
to the group he started it from, one line."""

from __future__ import annotations

from bot.game_names import game_name
from bot.i18n import Translator
from bot.markup import Html
from bot.numbers import signed
from bot.runtime.daily_deals import SETUPS, DailyScore, DailyTold
from bot.runtime.outcome import DailyResult


def score_text(game: str, score: int, tr: Translator) -> Html:
    """His score in the game's terms: the trick family's points written off (or its remise),
    the money won or lost (Копилка, Лентюрлю), the deal's points (Кончинка)."""
    match SETUPS[game].scored:
        case DailyScore.WRITTEN_OFF if score < 0:
            return tr.n_html("Remise: {n} point.", "Remise: {n} points.", -score)
        case DailyScore.WRITTEN_OFF:
            return tr.n_html("You wrote off {n} point.", "You wrote off {n} points.", score)
        case DailyScore.NET:
            return tr.html("Your net: {net}.", net=signed(score))
        case DailyScore.POINTS:
            return tr.n_html("You scored {n} point.", "You scored {n} points.", score)


def daily_text(screen: DailyResult, tr: Translator) -> Html:
    game = game_name(screen.game, tr.locale)
    standing = screen.standing
    if screen.told is DailyTold.GROUP:
        return tr.html(
            "🗓 The day's deal ({game}): {name} {score} (place {place} of {tries})",
            game=game,
            name=screen.name,
            score=signed(screen.score),
            place=standing.place,
            tries=standing.tries,
        )
    if screen.told is DailyTold.AGAIN:
        head = tr.html("🗓 You have played today's deal of {game}: one try a day.", game=game)
    else:
        head = tr.html("🗓 The day's deal of {game} is played.", game=game)
    if standing.tries <= 1:
        board = tr.html("You are the first to finish it today.")
    else:
        board = tr.html(
            "Place {place} of {tries} · better than {percent}% · best: {name} {best}",
            place=standing.place,
            tries=standing.tries,
            percent=standing.better_than,
            name=standing.best_name,
            best=signed(standing.best),
        )
    lines = [head, score_text(screen.game, screen.score, tr), board]
    if screen.stood_in:  # his time ran out: the computer played on for him, as it stood
        lines.append(tr.html("🤖 While you were away, the computer played your turns."))
    lines.append(tr.html("A new deal comes tomorrow (UTC)."))
    return Html("\n".join(lines))
