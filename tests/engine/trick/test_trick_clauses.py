"""The trick family (RULES.md §1), clause by clause, through the public API.

Each test stacks a fixed deal (the dealer chosen by a stacked first-dealer draw), plays it in
RECORD.md notation and checks the record's lines against figures worked out from the clause.

Clauses without a test of their own:

§1.4.9 advice for the computer player, not a rule: nothing is compelled beyond §1.4.3, whose
  tests (test_1_4_3_*) already show every card the rules allow being offered.
"""

from __future__ import annotations

import pytest

from engine import InvalidOption, Line, StackedChance, State, new_game

from ..clause_helpers import (
    TRICK_GAMES,
    acts,
    complete,
    deal_lines,
    deck_codes,
    events,
    kinds,
    legal,
    only,
    play,
    play_first_legal,
    refused,
    start,
    trick_deal,
)

PRIVILEGED = {"mushka": "AS", "pamfil": "JC", "shutikha": "QS", "mistigri": "KC"}  # §1.1.4


def exchange_offers(state: State, seat: int) -> set[str]:
    """The cards ``seat`` may discard one at a time: his hand without the privileged card."""
    return {a.split()[2] for a in legal(state, seat) if a.startswith("play 1 ") and "up" not in a}


def deal_end(lines: list[Line]) -> Line:
    (line,) = only(lines, "deal_end")
    return line


def tricks(lines: list[Line]) -> list[Line]:
    return events(lines, "trick")


# --- §1.1 common ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_1_1_1_three_to_seven_players(game: str) -> None:
    for players in range(3, 8):
        assert new_game(game, players, 5).record()[0]["players"] == players
    for players in (2, 8):
        with pytest.raises(InvalidOption):
            new_game(game, players, 5)


@pytest.mark.parametrize(("players", "lowest", "size"), [(3, "7", 32), (4, "6", 36), (5, "2", 52),
                                                         (6, "2", 52), (7, "2", 52)])  # fmt: skip
def test_1_1_2_deck_by_players(players: int, lowest: str, size: int) -> None:
    for game in TRICK_GAMES:
        deck = new_game(game, players, 11).record()[2]["deck"]
        assert len(deck) == size == len(set(deck))
        assert set(deck) == set(deck_codes(lowest))
        assert {c[:-1] for c in deck} == {"A", "K", "Q", "J", *map(str, range(int(lowest), 11))}


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_1_1_4_the_privileged_card_of_each_game(game: str) -> None:
    # seat 0 holds this game's privileged card, seat 1 the other three games' ones
    mine = PRIVILEGED[game]
    others = " ".join(c for c in PRIVILEGED.values() if c != mine)
    hands = [f"{mine} 7H 8H 9D 10D", f"{others} 7D 8D", "8C 9C 10C QD KD"]
    turn_up = None if game == "shutikha" else "AH"
    state = start(game, 3, 2, trick_deal(game, 3, 2, hands, turn_up, "7C JD"))
    if game == "shutikha":  # §1.3.3 a: the QS holder may pass like anyone else
        assert "pass" in legal(state, 0)
    else:
        assert "pass" not in legal(state, 0)
        assert refused(state, 0, "pass").code.value == "privileged_may_not_pass"
    assert refused(state, 0, f"play 1 {mine}").code.value == "privileged_not_discarded"
    play(state, (0, "play 0"))
    assert "pass" in legal(state, 1)  # the other games' cards are ordinary here
    assert {f"play 1 {c}" for c in others.split()} <= set(legal(state, 1))


def test_1_1_6_five_cards_each_dealt_from_the_top() -> None:
    # 5 players, dealer 3: deck[k] goes to seat (3 + 1 + k) mod 5, k < 25 (worked out by hand)
    top = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    deal = complete("mushka", 5, [*top.split(), "2D"])
    expected = {
        4: {"2S", "7S", "QS", "4C", "9C"},
        0: {"3S", "8S", "KS", "5C", "10C"},
        1: {"4S", "9S", "AS", "6C", "JC"},
        2: {"5S", "10S", "2C", "7C", "QC"},
        3: {"6S", "JS", "3C", "8C", "KC"},
    }
    state = start("mushka", 5, 3, deal)
    assert events(state.record(), "trump")[0]["card"] == "2D"  # deck[25], not dealt
    for seat in (4, 0, 1, 2, 3):
        assert state.to_act == seat
        offered = exchange_offers(state, seat)
        if seat == 1:  # the AS holder: the AS is never offered for discard, he may not pass
            assert offered == expected[1] - {"AS"} and "pass" not in legal(state, 1)
        else:
            assert offered == expected[seat]
        play(state, (seat, "play 0"))


@pytest.mark.parametrize("game", ["mushka", "shutikha"])
def test_1_1_7_stock_is_drawn_from_the_top_and_never_replenished(game: str) -> None:
    # 4 players, 36 cards, dealer 3; nobody holds the privileged card, so all may exchange 5
    hands = ["6S 7S 8S 9S 10S", "6C 7C 8C 9C 10C", "6D 7D 8D 9D 10D", "6H 7H 8H 9H 10H"]
    stock = "JH JS JC JD QH QC QD KS KC KD KH AH AC AD AS QS"
    turn_up, stock = (None, stock) if game == "shutikha" else ("JH", stock[3:])
    state = start(game, 4, 3, trick_deal(game, 4, 3, hands, turn_up, stock))
    deck = state.record()[2]["deck"]
    first = 20 if game == "shutikha" else 21  # §1.1.7: deck[5n …], or after the turn-up deck[5n]
    lines = play(state, *((s, "play 5 " + hands[s]) for s in range(3)))
    drawn = [e["drawn"] for e in events(lines, "exchange")]
    assert drawn == [deck[first + 5 * i : first + 5 * i + 5] for i in range(3)]
    assert [c for d in drawn for c in d] == stock.split()[:15]  # the stock's top, in order
    assert not {c for e in events(lines, "exchange") for c in e["discarded"]} & {
        c for d in drawn for c in d
    }
    left = len(deck) - first - 15  # mushka 0, shutikha 1: the 15 discards are not added
    assert left == (1 if game == "shutikha" else 0)
    dealer = legal(state, 3)
    plain = [a for a in dealer if a.startswith("play ") and not a.endswith(" up")]
    assert {a.split()[1] for a in plain} == ({"0", "1"} if left else {"0"})


def test_1_1_8_every_count_starts_at_target() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"]
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, hands, "AS"), {"target": 17})
    lines = play(state, (0, "pass"), (1, "pass"))  # a walkover: the quickest deal
    end = deal_end(lines)
    assert [s["before"] for s in end["seats"]] == [17, 17, 17]
    assert [s["after"] for s in end["seats"]] == [17, 17, 12]


def test_1_1_9_sequence_of_a_deal() -> None:
    # Мистигри, 4 players, dealer 3: seat 1 is dealt a heart flush
    hands = ["6S 7S 8C 9D 10D", "AH 10H 9H 8H 7H", "6C 7C 9C JD QD", "8S 9S 10S 6D 7D"]
    state = start("mistigri", 4, 3, trick_deal("mistigri", 4, 3, hands, "KD", "JS QS"))
    play(state, (0, "play 0"), (1, "play 0"), (2, "play 0"), (3, "play 1 6D"))
    play_first_legal(state)
    lines = deal_lines(state, 1)
    seq = kinds(lines)
    # deal → trump → after-deal checks → declarations (+ exchange events) → flush bonus →
    # five tricks → scoring
    head = ["deal", "event:trump", "event:flush", "act", "event:exchange", "act"]
    head += ["event:exchange", "act", "event:exchange", "act", "event:exchange"]
    assert seq[: len(head) + 1] == [*head, "event:flush_bonus"]
    play_part = seq[len(head) + 1 :]
    assert play_part[-1] == "deal_end" and play_part.count("event:trick") == 5
    assert set(play_part[:-1]) == {"act", "event:trick"}
    assert [x["a"].split()[0] for x in lines if x["t"] == "act"][4:] == ["card"] * 20


# --- §1.2 trump -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["mushka", "pamfil", "mistigri"])
def test_1_2_1_the_turn_up_is_deck_5n_and_names_trump(game: str) -> None:
    hands = ["7S 8S 9S 10C 10D", "7C 8C 9C JD QD", "6S 6C 6D 6H 7D", "8D 9D 7H 8H 9H"]
    state = start(game, 4, 1, trick_deal(game, 4, 1, hands, "QH"))
    deck = state.record()[2]["deck"]
    assert deck[20] == "QH"
    assert events(state.record(), "trump") == [
        {"t": "event", "e": "trump", "card": "QH", "suit": "H", "retrump": False}
    ]
    for seat in (2, 3, 0, 1):
        assert state.to_act == seat and "QH" not in exchange_offers(state, seat)  # in no hand
        play(state, (seat, "play 0"))
    play_first_legal(state)
    record = deal_lines(state, 1)
    assert "QH" not in {c for t in tricks(record) for _, c in t["plays"]}
    assert deal_end(record)["trump"] == "H"


def test_1_2_2_only_the_dealer_takes_the_turn_up_and_trump_stays() -> None:
    hands = ["7S 8S 9S 10S JS", "7D 8D 9D 10D JD", "7C 8H 10H JH QH"]
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, hands, "9H", "AC KC"))
    assert refused(state, 0, "play 1 7S up").code.value == "up_dealer_only"
    play(state, (0, "play 1 7S"), (1, "play 0"))
    lines = play(state, (2, "play 1 7C up"))
    assert events(lines, "exchange") == [
        {"t": "event", "e": "exchange", "seat": 2, "discarded": ["7C"], "drawn": [], "up": True}
    ]  # N − 1 = 0 cards from the stock: the turn-up replaced the one he would draw
    # the dealer now holds five hearts, the turn-up among them: he plays it to the first trick
    lines = play(state, (0, "card 8S"), (1, "card 7D"), (2, "card 9H"))
    (trick,) = tricks(lines)
    assert trick["plays"] == [[0, "8S"], [1, "7D"], [2, "9H"]] and trick["winner"] == 2
    play_first_legal(state)
    record = deal_lines(state, 1)
    assert len(events(record, "trump")) == 1 and deal_end(record)["trump"] == "H"


def test_1_2_2_a_turn_up_not_taken_stays_out_of_play() -> None:
    hands = ["7S 8S 9S 10S JS", "7D 8D 9D 10D JD", "7C 8H 10H JH QH"]
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, hands, "9H", "AC KC"))
    play(state, (0, "play 1 7S"), (1, "play 1 7D"), (2, "pass"))
    play_first_legal(state)
    record = deal_lines(state, 1)
    played = {c for t in tricks(record) for _, c in t["plays"]}
    drawn = {c for e in events(record, "exchange") for c in e["drawn"]}
    assert "9H" not in played | drawn and drawn == {"AC", "KC"}
    assert deal_end(record)["trump"] == "H"


def test_1_2_3_shutikha_nothing_turned_up_spades_trump() -> None:
    hands = ["AD KD 8C 9C 10C", "7D 7S 7H 8H 9H", "8D 9D 10H JH QS"]
    state = start("shutikha", 3, 2, trick_deal("shutikha", 3, 2, hands, stock="JC"))
    assert events(state.record(), "trump") == [
        {"t": "event", "e": "trump", "card": None, "suit": "S", "retrump": False}
    ]
    play(state, (0, "play 0"), (1, "play 0"))
    assert not [a for a in legal(state, 2) if a.endswith(" up")]
    play(state, (2, "play 0"))
    lines = play(state, (0, "card AD"), (1, "card 7D"), (2, "card 8D"))
    assert tricks(lines)[0]["winner"] == 0
    # diamonds led again, seat 1 now void: the smallest spade beats the KD
    lines = play(state, (0, "card KD"), (1, "card 7S"), (2, "card 9D"))
    assert tricks(lines)[0]["winner"] == 1
    lines = play(state, (1, "card 9H"), (2, "card JH"), (0, "card 8C"))
    assert tricks(lines)[0]["winner"] == 2
    assert deal_end(play_first_legal(state))["trump"] == "S"


# --- §1.3 declaration round -------------------------------------------------------------------


def test_1_3_1_one_declaration_each_from_the_dealers_left_dealer_last() -> None:
    hands = ["7S 8S 9S 10C 10D", "7C 8C 9C JD QD", "6S 6C 6D 6H 7D", "8D 9D 7H 8H 9H"]
    state = start("mushka", 4, 1, trick_deal("mushka", 4, 1, hands, "QH"))
    order: list[int] = []
    for _ in range(4):
        seat = state.to_act
        assert seat is not None
        assert all(not legal(state, s) for s in range(4) if s != seat)
        order.append(seat)
        play(state, (seat, "play 0"))
    assert order == [2, 3, 0, 1]
    # the round is over: the first trick's leader acts with cards, nobody declares again
    assert state.to_act == 2 and all(a.startswith("card ") for a in legal(state, 2))


def test_1_3_2_a_passed_player_takes_no_part_in_the_deal() -> None:
    hands = ["7S 8S 9S 10C 10D", "7C 8C 9C JD QD", "6S 6C 6D 6H 7D", "8D 9D 7H 8H 9H"]
    state = start("mushka", 4, 1, trick_deal("mushka", 4, 1, hands, "QH"), {"target": 20})
    play(state, (2, "pass"), (3, "play 0"), (0, "play 0"), (1, "play 0"))
    seen: set[int | None] = set()
    while not only(deal_lines(state, 1), "deal_end"):
        seen.add(state.to_act)
        play_first_legal(state, until="event")
    record = deal_lines(state, 1)
    assert 2 not in seen
    assert all(seat != 2 for t in tricks(record) for seat, _ in t["plays"])
    row = deal_end(record)["seats"][2]
    assert row["status"] == "passed" and row["tricks"] == 0
    assert (row["written_off"], row["remise"], row["before"], row["after"]) == (0, 0, 20, 20)


def test_1_3_8_the_playing_players_and_the_walkover_goes_to_scoring() -> None:
    hands = ["7S 8S 9S 10C 10D", "7C 8C 9C JD QD", "6S 6C 6D 6H 7D", "8D 9D 7H 8H 9H"]
    state = start("mushka", 4, 1, trick_deal("mushka", 4, 1, hands, "QH"))
    play(state, (2, "play 0"), (3, "pass"), (0, "play 1 7S"), (1, "pass"))
    play_first_legal(state)
    record = deal_lines(state, 1)
    assert all({seat for seat, _ in t["plays"]} == {0, 2} for t in tricks(record))
    statuses = [s["status"] for s in deal_end(record)["seats"]]
    assert statuses == ["played", "passed", "played", "passed"]
    # all pass: the deal goes straight to scoring
    walk = start("mushka", 4, 1, trick_deal("mushka", 4, 1, hands, "QH"))
    lines = play(walk, (2, "pass"), (3, "pass"), (0, "pass"))
    assert kinds(lines)[:4] == ["act", "act", "act", "event:walkover"]
    assert kinds(lines)[4] == "deal_end"


def test_1_3_10_1_a_flush_is_shown_at_once_even_if_its_holder_passes() -> None:
    # Мистигри, 4 players (36 cards), dealer 3: seat 1 hearts, seat 3 diamonds (H > D)
    hands = ["6S 7S 8C 9C 10C", "AH 10H 9H 8H 7H", "6C 7C JS QS KS", "6D 7D 8D 9D 10D"]
    state = start("mistigri", 4, 3, trick_deal("mistigri", 4, 3, hands, "AS", "JC"))
    flushes = events(state.record(), "flush")
    assert [(f["seat"], f["suit"], f["points"]) for f in flushes] == [
        (1, "H", 1 + 10 + 9 + 8 + 7),
        (3, "D", 6 + 7 + 8 + 9 + 10),
    ]
    lines = play(state, (0, "play 0"), (1, "pass"), (2, "play 1 6C"))
    assert not events(lines, "flush")  # play 0 and a non-flush exchange show nothing new
    lines = play(state, (3, "play 0"))
    assert not events(lines, "flush")  # his flush was shown at the deal, not again
    assert events(lines, "flush_bonus") == [
        {"t": "event", "e": "flush_bonus", "seat": 1, "amount": 5}
    ]  # the passed player's hearts win


def test_1_3_10_3_a_second_flush_after_the_exchange_competes() -> None:
    # Мистигри, 5 players (52 cards), dealer 4: seat 0 AD JD QD KD 6D (18 points) and seat 2
    # 2D 3D 4D 5D 7D (21) at the deal; seat 0 exchanges the AD for the 10D: 27 points
    hands = ["AD JD QD KD 6D", "2S 3S 4C 5C 6H", "2D 3D 4D 5D 7D", "7S 8S 9C 10C 7H",
             "9S 10S 2C 3C 8H"]  # fmt: skip
    state = start("mistigri", 5, 4, trick_deal("mistigri", 5, 4, hands, "2H", "10D"))
    at_deal = events(state.record(), "flush")
    assert [(f["seat"], f["points"]) for f in at_deal] == [(0, 18), (2, 21)]
    lines = play(state, (0, "play 1 AD"))
    (again,) = events(lines, "flush")
    assert (again["seat"], again["points"]) == (0, 10 + 2 + 4 + 5 + 6)
    assert again["cards"] == ["KD", "QD", "JD", "10D", "6D"]
    lines = play(state, (1, "play 0"), (2, "play 0"), (3, "play 0"), (4, "play 0"))
    assert events(lines, "flush_bonus") == [
        {"t": "event", "e": "flush_bonus", "seat": 0, "amount": 5}
    ]
    play_first_legal(state)
    assert len(events(deal_lines(state, 1), "flush_bonus")) == 1  # one bonus per deal


# --- §1.4 tricks ------------------------------------------------------------------------------


def test_1_4_1_first_playing_player_left_of_the_dealer_leads_five_tricks() -> None:
    hands = ["7S 8S 9S 10C 10D", "7C 8C 9C JD QD", "6S 6C 6D 6H 7D", "8D 9D 7H 8H 9H"]
    state = start("mushka", 4, 1, trick_deal("mushka", 4, 1, hands, "QH"))
    play(state, (2, "pass"), (3, "play 0"), (0, "play 0"), (1, "play 0"))
    assert state.to_act == 3  # seat 2, the dealer's left, passed
    play_first_legal(state)
    record = deal_lines(state, 1)
    found = tricks(record)
    assert [t["no"] for t in found] == [1, 2, 3, 4, 5] and found[0]["leader"] == 3
    for trick in found:
        seats = [seat for seat, _ in trick["plays"]]
        lead = trick["leader"]
        in_turn = [s for s in ((lead + i) % 4 for i in range(4)) if s != 2]
        assert seats == in_turn  # every playing player once, in turn from the leader
    played = [c for t in found for _, c in t["plays"]]
    assert len(played) == 15 == len(set(played))


def test_1_4_8_the_trick_winner_leads_to_the_next() -> None:
    hands = ["7S 8S 9S 10C 10D", "7C 8C 9C JD QD", "6S 6C 6D 6H 7D", "8D 9D 7H 8H 9H"]
    state = start("mushka", 4, 1, trick_deal("mushka", 4, 1, hands, "QH"))
    play(state, (2, "play 0"), (3, "play 0"), (0, "play 0"), (1, "play 0"))
    winners: list[int] = []
    for _ in range(5):
        lines = play_first_legal(state, until="event")
        (trick,) = tricks(lines)
        if winners:
            assert trick["leader"] == winners[-1]
        winners.append(trick["winner"])
        if len(winners) < 5:
            assert state.to_act == trick["winner"]
    played = [c for t in tricks(deal_lines(state, 1)) for _, c in t["plays"]]
    assert len(played) == len(set(played)) == 20  # trick cards are out of play


# --- §1.5 scoring -----------------------------------------------------------------------------


def test_1_5_1_held_means_in_hand_when_the_first_trick_is_led() -> None:
    # seat 1 draws the AS from the stock in his exchange: he holds it at the first lead
    hands = ["7S 8S 9S 10C 10D", "7C 8C 9C JD QD", "KS QS JS 10S 7D"]
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, hands, "9H", "AS"))
    lines = play(state, (0, "play 0"), (1, "play 1 7C"))
    assert events(lines, "exchange")[-1]["drawn"] == ["AS"]
    play(state, (2, "play 0"))
    play_first_legal(state)
    record = deal_lines(state, 1)
    row = deal_end(record)["seats"][1]
    won = sum(1 for t in tricks(record) if t["winner"] == 1)
    assert [s["held"] for s in deal_end(record)["seats"]] == [False, True, False]
    # §1.5.3 with the AS held, spades not trump: t + 5, or remise 10 without a trick
    assert (row["tricks"], row["written_off"], row["remise"]) == (
        (won, won + 5, 0) if won else (0, 0, 10)
    )


def test_1_5_2_passed_players_score_nothing() -> None:
    # seat 2 passes holding nothing: a playing player without a trick would take remise 5
    hands = ["AS AD KD QD 7C", "7D 8D 9D 7H 8C", "7S 8S 9S 10S JS"]
    state = start("mushka", 3, 2, trick_deal("mushka", 3, 2, hands, "9H"))
    play(state, (0, "play 0"), (1, "pass"), (2, "play 0"))
    play(state, (0, "card AD"), (2, "card JS"), (0, "card KD"), (2, "card 10S"))
    play(state, (0, "card QD"), (2, "card 9S"), (0, "card AS"), (2, "card 8S"))
    lines = play(state, (0, "card 7C"), (2, "card 7S"))
    rows = deal_end(lines)["seats"]
    assert [(r["status"], r["tricks"], r["written_off"], r["remise"]) for r in rows] == [
        ("played", 5, 5 + 5, 0),  # the AS held, spades not trump: t + 5
        ("passed", 0, 0, 0),
        ("played", 0, 0, 5),
    ]


def test_1_5_9_next_deal_passes_left_and_counts_carry_over() -> None:
    hands = ["7S 8S 8C 10D KD", "AH KH QH JH 7C", "9S 10S 9C JC QC"]
    deal = trick_deal("mushka", 3, 2, hands, "AS")
    # deal 2 (dealer 0): seat 1 and seat 2 pass, seat 0 has a walkover too
    hands2 = ["9S 10S 9C JC QC", "7S 8S 8C 10D KD", "AH KH QH JH 7C"]
    deal2 = trick_deal("mushka", 3, 0, hands2, "AS")
    state = start("mushka", 3, 2, deal, {"target": 12}, more=[deal2, deal2])
    play(state, (0, "pass"), (1, "pass"))
    first = deal_end(deal_lines(state, 1))
    assert [s["after"] for s in first["seats"]] == [12, 12, 7]
    assert deal_lines(state, 2)[0]["dealer"] == 0 and state.to_act == 1
    play(state, (1, "pass"), (2, "pass"))
    second = deal_end(deal_lines(state, 2))
    assert [s["before"] for s in second["seats"]] == [12, 12, 7]  # carried over
    assert [s["after"] for s in second["seats"]] == [7, 12, 7]
    assert deal_lines(state, 3)[0]["dealer"] == 1


# --- §1.6 settlement --------------------------------------------------------------------------


def test_1_6_2_pulka_fee_is_the_fixed_price_of_the_pulka() -> None:
    # seed 000: 10 kopecks a pulka, 6 players: the winner gets 50. A walkover ends it.
    hands = ["2S 3S 4S 5S 6S", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H",
             "7S 8S 9S 10S JS", "AS 7C 8C 9C 10C"]  # fmt: skip
    options = {"target": 5, "pulka_fee": 10, "point_value": 0}
    state = start("mushka", 6, 5, trick_deal("mushka", 6, 5, hands, "7D"), options)
    play(state, *((seat, "pass") for seat in range(5)))
    end = state.record()[-1]
    assert end["t"] == "end" and end["winner"] == 5
    assert end["pulka"] == [-10, -10, -10, -10, -10, 50] == end["net"]


def test_1_6_3_pamfil_announcement_is_booked_on_the_side_ledger() -> None:
    # seat 0 is dealt the JC, announces (bonus 7), then takes all five tricks: count 5 → 0
    hands = ["JC AH KH QH JH", "7S 8S 9S 10S JS", "7D 8D 9D 10D 10H"]
    options = {"target": 5, "pamfil_bonus": 7}
    state = start("pamfil", 3, 2, trick_deal("pamfil", 3, 2, hands, "9H"), options)
    lines = play(state, (0, "announce"))
    assert events(lines, "pamfil_bonus") == [
        {"t": "event", "e": "pamfil_bonus", "seat": 0, "amount": 7}
    ]
    play(state, (0, "play 0"), (1, "pass"), (2, "play 0"))  # the dealer defends (§1.3.3 b)
    for lead, answer in [("JC", "10H"), ("AH", "7D"), ("KH", "8D"), ("QH", "9D"), ("JH", "10D")]:
        play(state, (0, f"card {lead}"), (2, f"card {answer}"))
    record = state.record()
    rows = deal_end(record)["seats"]
    assert [(r["before"], r["after"]) for r in rows] == [(5, 0), (5, 5), (5, 10)]  # counts
    end = record[-1]
    assert end["pulka"] == [5 + 10, -5, -10]
    assert end["side"] == [14, -7, -7]  # +7 from each other seat, −7 each
    assert end["net"] == [15 + 14, -5 - 7, -10 - 7]


def test_1_6_4_instant_win_collects_the_counts_before_the_deal() -> None:
    # deal 1: a walkover for dealer 2 (count 25 → 20); deal 2 (dealer 0): seat 1 is dealt
    # five spades with the QS and wins at once
    hands = ["7H 8H 8C 10D KD", "AH KH 9H JH 7C", "QS 9S 10S 9C QC"]
    hands2 = ["7H 8H 8C 10D KD", "QS 7S 8S 9S 10S", "AH KH 9H JH 7C"]
    deal, deal2 = (trick_deal("shutikha", 3, d, h) for d, h in [(2, hands), (0, hands2)])
    options = {"point_value": 2, "pulka_fee": 3}
    state = start("shutikha", 3, 2, deal, options, more=[deal2])
    play(state, (0, "pass"), (1, "pass"))
    record = state.record()
    assert state.is_over and record[-1]["reason"] == "instant"
    scored = only(record, "deal_end")[-1]
    assert scored["result"] == "instant"
    assert [(s["before"], s["after"], s["written_off"]) for s in scored["seats"]] == [
        (25, 25, 0),
        (25, 25, 0),
        (20, 20, 0),
    ]  # the current deal is not scored
    end = record[-1]
    assert end["counts"] == [25, 25, 20] and end["winner"] == 1
    assert end["pulka"] == [-(25 * 2 + 3), 25 * 2 + 3 + 20 * 2 + 3, -(20 * 2 + 3)]


def test_1_6_5_net_is_pulka_money_plus_side_ledger() -> None:
    # Мистигри: seat 0 shows a heart flush and passes; seat 1 passes: dealer 2's walkover
    hands = ["AH KH QH JH 10H", "7S 8S 9C 10C JC", "7D 8D 9D 10D JD"]
    options = {"target": 5, "flush_bonus": 4, "point_value": 3, "pulka_fee": 1}
    state = start("mistigri", 3, 2, trick_deal("mistigri", 3, 2, hands, "9S"), options)
    play(state, (0, "pass"), (1, "pass"))
    end = state.record()[-1]
    assert end["winner"] == 2 and end["counts"] == [5, 5, 0]
    assert end["pulka"] == [-(5 * 3 + 1), -(5 * 3 + 1), 2 * (5 * 3 + 1)]
    assert end["side"] == [8, -4, -4]
    assert end["net"] == [p + s for p, s in zip(end["pulka"], end["side"], strict=True)]
    assert sum(end["net"]) == 0


def test_1_6_6_next_pulka_resets_counts_and_ledger_dealer_continues() -> None:
    hands = ["AH KH QH JH 10H", "7S 8S 9C 10C JC", "7D 8D 9D 10D JD"]
    options = {"target": 5, "flush_bonus": 4}
    state = start("mistigri", 3, 2, trick_deal("mistigri", 3, 2, hands, "9S"), options)
    play(state, (0, "pass"), (1, "pass"))
    last_dealer = only(state.record(), "deal")[-1]["dealer"]
    assert last_dealer == 2 and state.record()[-1]["side"] == [8, -4, -4]
    # the next pulka: a new record, first dealer left of the last one, no draw
    hands2 = ["7D 8D 9D 10D JS", "7S 8S 9C 10C JC", "7H 8H 9H 10H JD"]
    deal = trick_deal("mistigri", 3, 0, hands2, "9S")
    nxt = new_game("mistigri", 3, 2, options, chance=StackedChance.of([deal]), prev_dealer=2)
    record = nxt.record()
    assert record[0]["t"] == "game" and record[1]["by"] == "series"
    assert record[1]["first_dealer"] == 0 and record[2]["dealer"] == 0
    play(nxt, (1, "pass"), (2, "pass"))
    record = nxt.record()
    assert [s["before"] for s in only(record, "deal_end")[0]["seats"]] == [5, 5, 5]
    assert record[-1]["side"] == [0, 0, 0]  # no flush in this pulka: nothing carried over
    assert acts(record) == [(1, "pass"), (2, "pass")]
