"""The independent trick-family referee (``referee.py``) over golden, simulated and tampered
records (RULES.md §1, RECORD.md §R6, §R10).

The referee imports nothing from ``engine.trick``; these tests only feed it records made by the
engine (through the generic ``engine.games`` / ``engine.simulate`` entry points) and check that it
accepts them, that the rare paths (flushes, instant wins, re-trumps, announcements, walkovers,
deal-outs, several seats at zero) really occurred, and that it rejects records that were tampered
with or extended by an illegal action.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from engine.cards import parse_cards
from engine.chance import StackedChance
from engine.core import State
from engine.errors import IllegalAction, InvalidNotation
from engine.games import new_game
from engine.record import read_records, replay
from engine.simulate import simulate

from .referee import Line, Tally, referee

GOLDEN = Path(__file__).parent.parent.parent / "golden" / "records"
GAMES = ("mushka", "pamfil", "shutikha", "mistigri")
PLAYERS = (3, 4, 5, 6, 7)
GOLDEN_FILES = sorted(p.name for p in GOLDEN.glob("*.jsonl") if p.name.split("-")[0] in GAMES)


def option_sets(game: str) -> list[dict[str, object]]:
    """Targets 5 and 25, must_trump both ways, a pulka fee, a point value, the bonuses."""
    extra = {"pamfil": "pamfil_bonus", "mistigri": "flush_bonus"}.get(game)
    sets: list[dict[str, object]] = [
        {"target": 5},
        {"target": 5, "must_trump": True, "pulka_fee": 10, "point_value": 3},
        {"target": 25, "pulka_fee": 50},
    ]
    if extra:
        sets[0][extra] = 0
        sets[1][extra] = 7
    return sets


def add(total: Counter[str], tally: Tally) -> None:
    fields = asdict(tally)
    del fields["kinds"]  # asdict would turn the Counter into a Counter of its pairs
    total.update(fields)
    total.update(tally.kinds)


# ---------------------------------------------------------------- (a) golden records


def test_golden_trick_files_are_present() -> None:
    assert {name.split("-")[0] for name in GOLDEN_FILES} == set(GAMES)


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_r10_golden_records_pass_the_referee(name: str) -> None:
    records = read_records(GOLDEN / name)
    assert records
    for record in records:
        tally = referee(record)
        assert tally.deals >= 1 and tally.abandoned == 0
        assert replay(record).record() == record


# ---------------------------------------------------------------- (b) simulated records


def sweep(game: str, games: int, seed: int) -> Counter[str]:
    total: Counter[str] = Counter()
    for players in PLAYERS:
        for k, options in enumerate(option_sets(game)):
            start = seed + 1000 * players + 100 * k
            for record in simulate(game, players, games, start, options):
                assert record[0]["options"].items() >= options.items()
                add(total, referee(record))
    return total


RARE = {
    "mushka": ("walkover", "multi_zero", "overshoot"),
    "pamfil": ("retrump", "announce", "walkover", "multi_zero"),
    "shutikha": ("deal_out", "five_spades", "walkover", "multi_zero", "qs_pass"),
    "mistigri": ("flush", "flush_bonus", "kc_four", "walkover", "multi_zero"),
}


@pytest.mark.parametrize("game", GAMES)
def test_r10_simulated_pulkas_pass_the_referee(game: str) -> None:
    total = sweep(game, 8, 0)
    assert total["deals"] > 500
    for what in RARE[game]:
        assert total[what] > 0, f"{game}: no {what} in the sweep"


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_r10_many_simulated_pulkas_pass_the_referee(game: str) -> None:
    total = sweep(game, 60, 500_000)
    for what in RARE[game]:
        assert total[what] > 5, f"{game}: only {total[what]} {what}"
    if game == "mistigri":
        assert total["multi_flush"] > 0


def uniform(game: str, players: int, seed: int, cap: int) -> State:
    """Uniformly random legal play (``up`` included); abandoned after ``cap`` actions."""
    state = new_game(game, players, seed, {"target": 5})
    rng = random.Random(f"referee:{seed}")
    for _ in range(cap):
        seat = state.to_act
        if seat is None:
            return state
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, str(action) if rng.random() < 0.5 else action)
    state.abandon()
    return state


def test_r10_uniformly_random_play_passes_the_referee() -> None:
    total: Counter[str] = Counter()
    for game in GAMES:
        for players in PLAYERS:
            for seed in range(6):
                record = uniform(game, players, 100 * players + seed, 300).record()
                add(total, referee(record))
                assert replay(record).record() == record
    for what in ("up", "abandoned", "deal_out", "overshoot"):
        assert total[what] > 0, f"no {what}"


def test_1_5_8_two_seats_at_zero_on_one_trick_from_the_dealers_left() -> None:
    """Шутиха, dealer 1, target 5: seat 2 wins trick 1 with the KH, then leads the QS and seat 0
    beats it with the KS (5 for seat 0, 4 for seat 2): both reach zero on trick 2. Seat 1 wins
    tricks 3–5. The tie goes to seat 2, first from the dealer's left (not seat 0)."""
    hands = {2: "KH QS 7C 8C 9C", 0: "KS 7H 7D 8D 9D", 1: "8H 7S KD QD JD"}
    split = {s: h.split() for s, h in hands.items()}
    top = [split[(2 + k) % 3][k // 3] for k in range(15)]
    chance = StackedChance.of([parse_cards(" ".join(top))])
    state = new_game("shutikha", 3, 1, {"target": 5}, chance=chance, prev_dealer=0)
    script = ["play 0", "play 0", "play 0", "card KH", "card 7H", "card 8H", "card QS",
              "card KS", "card 7S", "card 7D", "card KD", "card 7C", "card QD", "card 8C",
              "card 8D", "card JD", "card 9C", "card 9D"]  # fmt: skip
    for text in script:
        seat = state.to_act
        assert seat is not None
        state.apply(seat, text)
    record = state.record()
    tally = referee(record)
    assert tally.zero_same_trick == 1 and tally.multi_zero == 1
    assert record[-2]["zero"] == [2, 0] and record[-1]["winner"] == 2
    assert record[-1]["counts"] == [0, 2, 0]


# ---------------------------------------------------------------- (c) tampered records


def rejection(record: list[Line]) -> str:
    with pytest.raises(AssertionError) as info:
        referee(record)
    return str(info.value)


def golden(name: str, index: int = 0) -> list[Line]:
    return copy.deepcopy(read_records(GOLDEN / name)[index])


def where(record: list[Line], **keys: Any) -> Iterator[int]:
    return (i for i, x in enumerate(record) if keys.items() <= x.items())


def test_tampered_trick_winner_is_rejected() -> None:
    record = golden("mushka-3p-record-example.jsonl")
    i = next(where(record, e="trick"))
    record[i]["winner"] = 0
    assert rejection(record).startswith(f"line {i} ") and "§1.4.5" in rejection(record)


def test_tampered_deck_is_rejected() -> None:
    record = golden("mushka-3p-record-example.jsonl")
    deck = record[2]["deck"]
    deck[0], deck[1] = deck[1], deck[0]  # seat 0 now holds AH, seat 1 the AS
    assert "line" in rejection(record)
    deck[1] = deck[0]  # a duplicate card
    assert "R5.3" in rejection(record)


def test_0_5_tampered_draw_is_rejected() -> None:
    record = golden("mushka-3p-record-example.jsonl")
    record[1]["first_dealer"] = 0
    assert "§0.5.2" in rejection(record)
    record = golden("mushka-3p-record-example.jsonl")
    record[1]["draw"][1][1] = "9S"  # seat 1 did not tie in round 1
    assert "§0.5.3" in rejection(record)


def test_1_7_options_must_be_exact_and_allowed() -> None:
    record = golden("pamfil-4p-target5.jsonl")
    record[0]["options"]["target"] = 4
    assert "§1.7" in rejection(record)
    record = golden("pamfil-4p-target5.jsonl")
    del record[0]["options"]["pamfil_bonus"]
    assert "R5.1" in rejection(record)
    record = golden("mushka-3p-target5.jsonl")
    record[0]["options"]["flush_bonus"] = 5
    assert "R5.1" in rejection(record)
    record = golden("mushka-3p-target5.jsonl")
    record[0]["options"]["must_trump"] = 0
    assert "§1.7" in rejection(record)


def test_r4_4_act_by_the_wrong_seat_is_rejected() -> None:
    record = golden("mushka-3p-record-example.jsonl")
    i = next(where(record, t="act"))
    record[i]["seat"] = 1
    assert "R4.4" in rejection(record)


def test_1_1_5_dealer_rotation_is_checked() -> None:
    record = golden("mushka-3p-target5.jsonl")
    i = list(where(record, t="deal"))[1]
    record[i]["dealer"] = (record[i]["dealer"] + 1) % 3
    assert "§1.1.5" in rejection(record)


def test_r6_tampered_figures_are_rejected() -> None:
    for key, value in (("after", 99), ("held", True), ("remise", 1), ("overshoot", True)):
        record = golden("mushka-6p-target5.jsonl")
        i = next(where(record, t="deal_end"))
        record[i]["seats"][0][key] = value
        assert f"line {i} " in rejection(record) and "R6.3" in rejection(record)
    record = golden("mushka-3p-record-example.jsonl")
    record[-1]["net"] = [-14, 19, -5]
    assert "R6.4" in rejection(record)
    record = golden("mushka-3p-record-example.jsonl")
    record[-2]["zero"] = []
    assert "R6.3" in rejection(record)
    record = golden("mushka-3p-record-example.jsonl")
    record[-2]["extra"] = 1  # R1.7: unknown keys are an error
    assert "R6.3" in rejection(record)


def test_r6_missing_or_moved_events_are_rejected() -> None:
    record = golden("shutikha-5p-target5.jsonl", 1)
    i = next(where(record, e="deal_out"))
    assert "§1.3.12" in rejection(record[:i] + record[i + 1 :])
    record = golden("mushka-3p-record-example.jsonl")
    i = next(where(record, e="exchange"))
    record[i], record[i + 1] = record[i + 1], record[i]
    assert "§1.3.4" in rejection(record)
    record = golden("pamfil-4p-target5.jsonl")
    i = next(where(record, e="pamfil_bonus"))
    record[i]["amount"] = 4
    assert "§1.3.7" in rejection(record)


def test_r5_7_abandonment_must_settle_nothing() -> None:
    state = uniform("mistigri", 4, 3, 5)
    record = state.record()
    assert record[-1]["reason"] == "abandoned" and referee(record).abandoned == 1
    record[-1]["net"] = [1, -1, 0, 0]
    assert "§0.11" in rejection(record)
    assert "R1.2" in rejection(state.record()[:-1])  # no end at all


def test_1_3_10_and_1_3_11_flush_and_instant_win_lines_are_checked() -> None:
    found = Counter[str]()
    for seed in range(400):
        record = next(simulate("mistigri", 4, 1, seed, {"target": 5, "flush_bonus": 3}))
        for i, line in enumerate(record):
            if line.get("e") == "flush" and not found["flush"]:
                bad = copy.deepcopy(record)
                bad[i]["points"] += 1
                assert "§1.3.10.1" in rejection(bad)
                found["flush"] += 1
            if line.get("e") == "instant_win" and not found["instant"]:
                bad = copy.deepcopy(record)
                bad[-1]["counts"][0] += 1
                assert "R6.4" in rejection(bad)
                assert "§1.3.11" in rejection(record[:i] + record[i + 1 :])
                found["instant"] += 1
        if len(found) == 2:
            return
    raise AssertionError(f"only {found} in 400 pulkas")


# ---------------------------------------------------------------- legality, both ways


def candidates(state: State, seat: int) -> set[str]:
    """Actions to try at a decision: every single card, pass, announce, exchanges, retrumps."""
    hand = [str(c) for c in state.view(seat).hand]
    texts = {f"card {c}" for c in hand} | {"pass", "announce", "play 0"}
    texts |= {f"play 1 {c}" for c in hand} | {f"play 1 {c} up" for c in hand}
    texts |= {f"play 5 {' '.join(hand)}", f"play 4 {' '.join(hand[1:])} up"}
    texts |= {f"discard {c}" for c in hand} | {f"retrump H {c}" for c in hand}
    texts |= {f"discard {' '.join(hand[:2])}"}
    return texts


def test_r4_4_referee_and_engine_agree_on_every_tried_action() -> None:
    """At each decision of a few random pulkas, a candidate action appended to the record is
    accepted by the referee (it then waits for the action's consequences: R1.2) exactly when
    the engine lists it as legal."""
    tried = Counter[str]()
    for game in GAMES:
        for players in (3, 5):
            state = new_game(game, players, 77 + players, {"target": 5})
            rng = random.Random(players)
            steps = 0
            while state.to_act is not None and steps < 120:
                seat = state.to_act
                legal = {str(a) for a in state.legal_actions(seat)}
                prefix = state.record()
                for text in sorted(candidates(state, seat)):
                    try:
                        ok = state.parse_action(text) in state.legal_actions(seat)
                    except (InvalidNotation, IllegalAction):  # malformed for the engine
                        ok = False
                    message = rejection([*prefix, {"t": "act", "seat": seat, "a": text}])
                    accepted = "R1.2" in message
                    assert accepted == ok, f"{game}: {text!r} engine {ok}, referee: {message}"
                    tried["legal" if ok else "illegal"] += 1
                other = (seat + 1) % players
                message = rejection([*prefix, {"t": "act", "seat": other, "a": sorted(legal)[0]}])
                assert "R4.4" in message
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                steps += 1
    assert tried["legal"] > 100 and tried["illegal"] > 1000
