"""An independent referee for trick-family records (RULES.md §0, §1; RECORD.md §R5, §R6, §R10).

It knows only the two documents: from the ``game`` and ``seats`` lines, each ``deal.deck`` and the
``act`` lines it rebuilds every hand, the turn-up, the stock and the discards, checks that every
action is by the seat to act and legal, recomputes every event, ``deal_end`` and ``end`` line and
requires exact equality in the same position. Nothing from ``engine`` is imported: cards are
plain strings (``"10H"``). The first disagreement raises an ``AssertionError`` naming the line
(0-based index in the record) and the clause.

Use :func:`referee` on one record; it returns a :class:`Tally` of what happened in it (how many
flushes, instant wins, re-trumps, …), so that tests can show the rare paths were exercised.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Line = dict[str, Any]

SUITS = ("S", "C", "D", "H")
A_HIGH = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
K_HIGH = ("K", "Q", "J", "A", "10", "9", "8", "7", "6", "5", "4", "3", "2")
ORDER = {"mushka": A_HIGH, "pamfil": A_HIGH, "shutikha": K_HIGH, "mistigri": K_HIGH}  # §1.1.3
PRIVILEGED = {"mushka": "AS", "pamfil": "JC", "shutikha": "QS", "mistigri": "KC"}  # §1.1.4
MONEY = (0, 1_000_000)
OPTIONS: dict[str, dict[str, tuple[int, int] | None]] = {  # §1.7; None = bool
    "mushka": {"target": (5, 100), "pulka_fee": MONEY, "point_value": MONEY, "must_trump": None},
}
OPTIONS["shutikha"] = dict(OPTIONS["mushka"])
OPTIONS["pamfil"] = {**OPTIONS["mushka"], "pamfil_bonus": MONEY}
OPTIONS["mistigri"] = {**OPTIONS["mushka"], "flush_bonus": MONEY}
FLUSH_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}  # §1.3.10.2: H > D > C > S
FLUSH_POINTS = {"K": 5, "Q": 4, "J": 2, "A": 1}
SEAT_KEYS = ("status", "held", "tricks", "written_off", "remise", "before", "after", "overshoot")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def deck_of(players: int) -> list[str]:
    """§1.1.2: 3 → 32 cards (7–A), 4 → 36 (6–A), 5–7 → 52."""
    low = {3: "7", 4: "6"}.get(players, "2")
    ranks = A_HIGH[: A_HIGH.index(low) + 1]
    return [r + s for s in SUITS for r in ranks]


@dataclass
class Tally:
    """What one record contained (counts of the rare paths)."""

    deals: int = 0
    retrump: int = 0
    announce: int = 0
    flush: int = 0
    flush_bonus: int = 0
    instant_win: int = 0
    walkover: int = 0
    qs_pass: int = 0  # Шутиха's QS holder passed (§1.3.3 a)
    deal_out: int = 0
    up: int = 0
    overshoot: int = 0
    multi_zero: int = 0
    zero_same_trick: int = 0
    multi_flush: int = 0
    abandoned: int = 0
    kinds: Counter[str] = field(default_factory=Counter)


class _Abandoned(Exception):
    pass


class _Over(Exception):
    pass


class Referee:
    """Walks one record line by line; every check is an assertion naming line and clause."""

    def __init__(self, record: list[Line]) -> None:
        self.lines = record
        self.pos = 0
        self.tally = Tally()
        head = self._line()
        self.head = head
        self._check(head.get("t") == "game", "R1.3", "the first line is not `game`")
        self.game: str = head.get("game", "")
        self._check(self.game in ORDER, "R5.1", f"not a trick-family game: {self.game!r}")
        self.n: int = head.get("players", 0)
        self._check(set(head) == {"t", "v", "game", "players", "seed", "options"}, "R5.1", "keys")
        self._check(head["v"] == 1 and type(head["seed"]) is int, "R5.1", "v/seed")
        self._check(type(self.n) is int and 3 <= self.n <= 7, "§1.1.1", "3–7 players")
        self.opts: dict[str, Any] = head["options"]
        self._check_options()
        self.order = [r for r in ORDER[self.game] if r + "S" in deck_of(self.n)]
        self.strength = {r: len(self.order) - i for i, r in enumerate(self.order)}
        self.deck = deck_of(self.n)
        self.priv = PRIVILEGED[self.game]
        self.target: int = self.opts["target"]
        self.counts = [self.target] * self.n
        self.side = [0] * self.n

    # ---------------------------------------------------------------- plumbing

    def _fail(self, clause: str, msg: str) -> None:
        index = self.pos - 1
        line = self.lines[index] if 0 <= index < len(self.lines) else None
        raise AssertionError(f"line {index} {line}: {clause}: {msg}")

    def _check(self, ok: bool, clause: str, msg: str) -> None:
        if not ok:
            self._fail(clause, msg)

    def _line(self) -> Line:
        if self.pos >= len(self.lines):
            self.pos += 1
            self._fail("R1.2", "the record ends before its `end` line")
        line = self.lines[self.pos]
        self.pos += 1
        return line

    def _expect(self, expected: Line, clause: str) -> None:
        line = self._line()
        if line != expected:
            self._fail(clause, f"expected {expected}")

    def _event(self, clause: str, e: str, **keys: Any) -> None:
        self._expect({"t": "event", "e": e, **keys}, clause)

    def _act(self, seat: int) -> str:
        """The next line must be an action by ``seat`` (or the abandonment, R5.7)."""
        line = self._line()
        if line.get("t") == "end" and line.get("reason") == "abandoned":
            self._check(line == {"t": "end", "reason": "abandoned", "net": [0] * self.n},
                        "§0.11", "abandoned line")  # fmt: skip
            raise _Abandoned
        self._check(line.get("t") == "act" and set(line) == {"t", "seat", "a"}, "R4.1", "an act")
        self._check(line["seat"] == seat, "R4.4", f"not the seat to act (seat {seat} is)")
        a: str = line["a"]
        self._check(isinstance(a, str) and a == a.strip() and "  " not in a, "R4.1", "grammar")
        return a

    def _cards(self, words: list[str]) -> list[str]:
        deck = set(self.deck)
        for w in words:
            self._check(w in deck, "R2.1", f"{w!r} is not a card of the deck")
        self._check(len(set(words)) == len(words), "§1.3.4", "cards are not distinct")
        return words

    def _canon(self, cards: list[str]) -> list[str]:
        """RECORD.md §R1.8: suits S C D H, then the game's rank order, highest first."""
        return sorted(cards, key=lambda c: (SUITS.index(suit(c)), self.order.index(rank(c))))

    def _from_left(self, dealer: int) -> list[int]:
        return [(dealer + 1 + i) % self.n for i in range(self.n)]

    # ---------------------------------------------------------------- game, seats

    def _check_options(self) -> None:
        table = OPTIONS[self.game]
        self._check(set(self.opts) == set(table), "R5.1", f"options must be exactly {set(table)}")
        for key, bounds in table.items():
            value = self.opts[key]
            if bounds is None:
                self._check(type(value) is bool, "§1.7", f"{key} must be a bool")
            else:
                ok = type(value) is int and bounds[0] <= value <= bounds[1]
                self._check(ok, "§1.7", f"{key}={value!r} outside {bounds}")

    def _seats(self) -> int:
        line = self._line()
        self._check(line.get("t") == "seats" and line.get("players") == self.n, "R5.2", "seats")
        n = self.n
        if line.get("by") == "series":
            self._check(set(line) == {"t", "players", "by", "draw", "prev_dealer", "first_dealer"},
                        "R5.2", "keys")  # fmt: skip
            prev = line["prev_dealer"]
            self._check(type(prev) is int and 0 <= prev < n and line["draw"] == [], "R5.2", "draw")
            self._check(line["first_dealer"] == (prev + 1) % n, "§0.8", "left of prev_dealer")
            return int(line["first_dealer"])
        self._check(line.get("by") == "draw", "R5.2", "`by` is draw or series")
        self._check(set(line) == {"t", "players", "by", "draw", "first_dealer"}, "R5.2", "keys")
        rounds = line["draw"]
        drawing = list(range(n))
        self._check(isinstance(rounds, list) and len(rounds) >= 1, "§0.5", "at least one round")
        for k, row in enumerate(rounds):
            self._check(len(row) == n, "R5.2", f"round {k} is not indexed by seat")
            self._check([s for s in range(n) if row[s] is not None] == drawing, "§0.5.3",
                        f"round {k}: the seats drawing must be {drawing}")  # fmt: skip
            cards = self._cards([row[s] for s in drawing])
            low = min(self.strength[rank(c)] for c in cards)
            drawing = [s for s in drawing if self.strength[rank(row[s])] == low]
            if len(drawing) == 1:
                self._check(k == len(rounds) - 1, "§0.5.3", "rounds after a single lowest seat")
        self._check(len(drawing) == 1, "§0.5.3", "the last round has a tie")
        self._check(line["first_dealer"] == drawing[0], "§0.5.2", f"dealer is {drawing[0]}")
        return drawing[0]

    # ---------------------------------------------------------------- the pulka

    def run(self) -> Tally:
        try:
            dealer = self._seats()
            no = 0
            while True:
                no += 1
                self._deal(no, dealer)
                dealer = (dealer + 1) % self.n  # §1.1.5
        except _Abandoned:
            self.tally.abandoned += 1
        except _Over:
            pass
        self._check(self.pos == len(self.lines), "R1.2", "lines after the `end` line")
        return self.tally

    def _deal(self, no: int, dealer: int) -> None:
        n = self.n
        line = self._line()
        if line.get("t") == "end" and line.get("reason") == "abandoned":
            self._check(line == {"t": "end", "reason": "abandoned", "net": [0] * n}, "§0.11", "")
            raise _Abandoned
        self._check(line.get("t") == "deal" and set(line) == {"t", "no", "dealer", "deck"},
                    "R5.3", "a deal line")  # fmt: skip
        self._check(line["no"] == no, "R5.3", f"deal number {no}")
        self._check(line["dealer"] == dealer, "§1.1.5", f"the dealer is seat {dealer}")
        deck = list(line["deck"])
        self._check(sorted(deck) == sorted(self.deck), "R5.3", "deck is not the game's deck")
        self.tally.deals += 1
        d = _Deal(self, no, dealer, deck)
        d.play()


class _Deal:
    """One deal: the table's state and the line-by-line checks of §1.2–§1.5."""

    def __init__(self, ref: Referee, no: int, dealer: int, deck: list[str]) -> None:
        self.ref, self.no, self.dealer, self.deck = ref, no, dealer, deck
        n = ref.n
        self.n = n
        self.game = ref.game
        self.priv = ref.priv
        self.hands: list[list[str]] = [[] for _ in range(n)]
        for k in range(5 * n):  # §0.6, §1.1.6
            self.hands[(dealer + 1 + k) % n].append(deck[k])
        self.dealt_jc = next((s for s in range(n) if "JC" in self.hands[s]), None)
        self.turnup: str | None = None if self.game == "shutikha" else deck[5 * n]  # §1.1.7
        self.stock = deck[5 * n :] if self.turnup is None else deck[5 * n + 1 :]
        self.trump = "S" if self.turnup is None else suit(self.turnup)
        self.discards: list[str] = []
        self.played: list[str] = []
        self.declared: dict[int, str] = {}
        self.flushes: list[tuple[int, int, int, int]] = []  # (suit rank, points, -order, seat)
        self.left = ref._from_left(dealer)
        self.before = list(ref.counts)

    def _conserved(self) -> None:  # §R10.6
        places = [*self.stock, *self.discards, *self.played, *(c for h in self.hands for c in h)]
        if self.turnup is not None:
            places.append(self.turnup)
        self.ref._check(sorted(places) == sorted(self.deck), "R10.6", "cards not conserved")

    def play(self) -> None:
        ref = self.ref
        ref._event("§1.2", "trump", card=self.turnup, suit=self.trump, retrump=False)
        if self.game == "pamfil" and self.turnup == "JC":
            self._retrump()
        self._conserved()
        if self._checks(self.left):  # §1.1.9: hand checks after the deal
            return
        if self._declarations():
            return
        self._conserved()
        self._tricks()

    # ---------------------------------------------------------------- §1.2.4, §1.3

    def _retrump(self) -> None:
        ref, dealer = self.ref, self.dealer
        words = ref._act(dealer).split(" ")
        ref._check(len(words) == 3 and words[0] == "retrump", "§1.2.4", "the dealer must retrump")
        ref._check(words[1] in SUITS, "R2.2", "a suit")
        card = ref._cards([words[2]])[0]
        hand = self.hands[dealer]
        ref._check(card in hand, "§1.2.4", "the discard is not in the dealer's hand")
        hand.remove(card)
        hand.append("JC")
        self.discards.append(card)
        self.turnup, self.trump = None, words[1]
        ref._event("§1.2.4", "trump", card="JC", suit=self.trump, retrump=True)
        ref.tally.retrump += 1

    def _checks(self, seats: list[int]) -> bool:
        """§1.3.9–§1.3.11 at one check moment; True if an instant win ended the pulka."""
        ref = self.ref
        if self.game == "mistigri":
            for s in seats:
                hand = self.hands[s]
                if len({suit(c) for c in hand}) == 1:
                    pts = sum(FLUSH_POINTS.get(rank(c), 0) or int(rank(c)) for c in hand)
                    ref._event("§1.3.10.1", "flush", seat=s, suit=suit(hand[0]),
                               cards=ref._canon(hand), points=pts)  # fmt: skip
                    self.flushes.append((FLUSH_SUIT[suit(hand[0])], pts, -len(self.flushes), s))
                    ref.tally.flush += 1
            for s in seats:
                hand = self.hands[s]
                rest = [c for c in hand if c != "KC"]
                if "KC" in hand and len({suit(c) for c in rest}) == 1:
                    self._instant(s, "kc_four", "§1.3.11")
                    return True
        if self.game == "shutikha":
            for s in seats:
                hand = self.hands[s]
                if "QS" in hand and all(suit(c) == "S" for c in hand):
                    self._instant(s, "five_spades", "§1.3.9")
                    return True
        return False

    def _instant(self, seat: int, kind: str, clause: str) -> None:
        ref = self.ref
        ref._event(clause, "instant_win", seat=seat, kind=kind, cards=ref._canon(self.hands[seat]))
        ref.tally.instant_win += 1
        ref.tally.kinds[kind] += 1
        self._award_flush()
        status = ["played" if self.declared.get(s) == "play" else "passed" for s in range(self.n)]
        seats = [
            self._seat_line(s, status[s], False, 0, 0, 0, self.before[s], False)
            for s in range(self.n)
        ]
        self._deal_end("instant", seats, [])
        self._settle("instant", seat, self.before)

    def _award_flush(self) -> None:
        if len(self.flushes) > 1:
            self.ref.tally.multi_flush += 1
        if self.flushes:  # §1.3.10.2
            best = max(self.flushes)
            self.ref._event("§1.3.10.2", "flush_bonus", seat=best[3],
                            amount=self.ref.opts["flush_bonus"])  # fmt: skip
            self._book(best[3], self.ref.opts["flush_bonus"])
            self.ref.tally.flush_bonus += 1

    def _book(self, seat: int, amount: int) -> None:  # §1.6.3
        for s in range(self.n):
            self.ref.side[s] += amount * (self.n - 1) if s == seat else -amount

    def _declarations(self) -> bool:
        """§1.3.1–§1.3.12; True if the deal ended (walkover or instant win)."""
        ref, game = self.ref, self.game
        announced = False
        for s in self.left:
            hand = self.hands[s]
            m = list(self.declared.values()).count("play")
            if s == self.dealer and m == 0:  # §1.3.5
                ref._event("§1.3.5", "walkover", seat=s)
                ref.tally.walkover += 1
                self._award_flush()
                self._walkover()
                return True
            a = ref._act(s)
            if a == "announce":  # §1.3.7
                ok = game == "pamfil" and not announced and self.dealt_jc == s and "JC" in hand
                ref._check(ok, "§1.3.7", "announce is not available")
                announced = True
                ref._event("§1.3.7", "pamfil_bonus", seat=s, amount=ref.opts["pamfil_bonus"])
                self._book(s, ref.opts["pamfil_bonus"])
                ref.tally.announce += 1
                a = ref._act(s)
            words = a.split(" ")
            if a == "pass":
                # §1.3.3 a: the AS, JC and KC holders may not pass; Шутиха's QS holder may
                may = game == "shutikha" or self.priv not in hand
                ref._check(may, "§1.3.3 a", "the privileged card's holder")
                ref.tally.qs_pass += self.priv in hand
                ref._check(s != self.dealer or m != 1, "§1.3.3 b", "the dealer must defend")
                self.declared[s] = "pass"
                continue
            ref._check(words[0] == "play" and len(words) >= 2, "§1.3.4", f"{a!r}: play or pass")
            self._exchange(s, words)
            self.declared[s] = "play"
            if len(words) > 2 and self._checks([s]):
                return True
        if game == "shutikha" and "QS" in self.stock and self._deal_out():
            return True
        self._award_flush()
        return False

    def _exchange(self, s: int, words: list[str]) -> None:
        ref, hand = self.ref, self.hands[s]
        num = words[1]
        ok = num.isdigit() and (num == "0" or not num.startswith("0")) and int(num) <= 5
        ref._check(ok, "§1.3.4", "0 ≤ N ≤ 5")
        k = int(num)
        up = len(words) == k + 3 and words[-1] == "up"
        ref._check(len(words) == k + 2 + up, "R4.3", "play N lists exactly N cards")
        cards = ref._cards(words[2 : 2 + k])
        ref._check(all(c in hand for c in cards), "§1.3.4", "discards not in hand")
        ref._check(self.priv not in cards, "§1.3.4.1", "the privileged card is never discarded")
        if up:
            ok = s == self.dealer and self.turnup is not None and k >= 1
            ref._check(ok, "§1.3.4", "`up` only by the dealer, N ≥ 1, turn-up on the table")
        take = k - up
        ref._check(take <= len(self.stock), "§1.3.4.2", "more cards than the stock holds")
        for c in cards:
            hand.remove(c)
        self.discards.extend(cards)
        drawn, self.stock = self.stock[:take], self.stock[take:]
        hand.extend(drawn)
        if up:
            assert self.turnup is not None
            hand.append(self.turnup)
            self.turnup = None
            ref.tally.up += 1
        ref._event("§1.3.4", "exchange", seat=s, discarded=cards, drawn=drawn, up=up)
        self._conserved()

    def _deal_out(self) -> bool:
        """Шутиха §1.3.12; True if a five-spades win ended the pulka."""
        ref = self.ref
        playing = [s for s in self.left if self.declared.get(s) == "play"]
        got = dict.fromkeys(playing, 0)
        i = 0
        while True:
            card, self.stock = self.stock[0], self.stock[1:]
            seat = playing[i % len(playing)]
            i += 1
            ref._event("§1.3.12", "deal_out", seat=seat, card=card)
            ref.tally.deal_out += 1
            self.hands[seat].append(card)
            got[seat] += 1
            if card == "QS":
                break
        for s in playing:
            if not got[s]:
                continue
            words = ref._act(s).split(" ")
            ref._check(words[0] == "discard", "§1.3.12", "the discard after the deal-out")
            cards = ref._cards(words[1:])
            ref._check(len(cards) == got[s], "§1.3.12", f"discard exactly {got[s]} cards")
            ref._check(all(c in self.hands[s] for c in cards), "§1.3.12", "not in hand")
            ref._check("QS" not in cards, "§1.3.4.1", "the QS is never discarded")
            for c in cards:
                self.hands[s].remove(c)
            self.discards.extend(cards)
            self._conserved()
            if self._checks([s]):
                return True
        return False

    # ---------------------------------------------------------------- §1.4 tricks

    def _effective(self, card: str) -> str:  # §1.4.2
        return self.trump if self.game == "pamfil" and card == "JC" else suit(card)

    def _legal(self, hand: list[str], led: str | None) -> set[str]:
        """§1.4.3, §1.4.4: the cards a seat may play."""
        if led is None:
            return set(hand)
        pam = self.game == "pamfil"
        h = [c for c in hand if not (pam and c == "JC")]
        follow = [c for c in h if suit(c) == led]
        extra = {"JC"} & set(hand) if pam else set()
        if follow:
            return set(follow) | extra
        trumps = [c for c in h if suit(c) == self.trump]
        if self.ref.opts["must_trump"] and trumps:
            return set(trumps) | ({self.priv} & set(hand))
        return set(hand)

    def _winner(self, plays: list[tuple[int, str]]) -> int:  # §1.4.5
        cards = [c for _, c in plays]
        if self.game == "pamfil" and "JC" in cards:
            return plays[cards.index("JC")][0]
        if self.game in ("mushka", "mistigri") and self.priv in cards[1:]:
            return plays[cards.index(self.priv)][0]
        trumps = [p for p in plays if self._effective(p[1]) == self.trump]
        led = self._effective(cards[0])
        pool = trumps or [p for p in plays if suit(p[1]) == led]
        return max(pool, key=lambda p: self.ref.strength[rank(p[1])])[0]

    def _tricks(self) -> None:
        ref = self.ref
        playing = [s for s in self.left if self.declared.get(s) == "play"]
        held = {s: self.priv in self.hands[s] for s in playing}  # §1.5.1
        tricks: list[tuple[list[tuple[int, str]], int]] = []
        leader = playing[0]  # §1.4.1
        for no in range(1, 6):
            start = playing.index(leader)
            plays: list[tuple[int, str]] = []
            for s in playing[start:] + playing[:start]:
                words = ref._act(s).split(" ")
                ref._check(len(words) == 2 and words[0] == "card", "R4.1", "`card X` expected")
                card = ref._cards(words[1:])[0]
                hand = self.hands[s]
                ref._check(card in hand, "§1.4.1", "the card is not in the hand")
                led = self._effective(plays[0][1]) if plays else None
                ref._check(card in self._legal(hand, led), "§1.4.3", "must follow / must trump")
                hand.remove(card)
                self.played.append(card)
                plays.append((s, card))
                self._conserved()
            winner = self._winner(plays)
            ref._event("§1.4.5", "trick", no=no, leader=leader,
                       plays=[[s, c] for s, c in plays], winner=winner)  # fmt: skip
            tricks.append((plays, winner))
            leader = winner
        self._score(playing, held, tricks)

    # ---------------------------------------------------------------- §1.5, §1.6

    def _score(
        self, playing: list[int], held: dict[int, bool], tricks: list[tuple[list[Any], int]]
    ) -> None:
        game = self.game
        t = dict.fromkeys(playing, 0)
        w = dict.fromkeys(playing, 0)
        last = dict.fromkeys(playing, -1)  # index of the last scoring trick (§1.5.8)
        qs_holder = next((s for s in playing if any(c == "QS" for p, _ in tricks
                                                    for ps, c in p if ps == s)), None)  # fmt: skip
        for i, (plays, winner) in enumerate(tricks):
            t[winner] += 1
            last[winner] = i
            if game == "shutikha":  # §1.5.5
                cards = {c: s for s, c in plays}
                if cards.get("QS") == winner:
                    w[winner] += 8
                elif "QS" in cards and cards.get("KS") == winner:
                    w[winner] += 5
                    w[cards["QS"]] += 4
                    last[cards["QS"]] = i
                else:
                    w[winner] += 1
            else:
                w[winner] += 1
        seats = []
        zero: list[tuple[int, int, int]] = []
        for s in range(self.n):
            if s not in t:
                seats.append(self._seat_line(s, "passed", False, 0, 0, 0, self.before[s], False))
                continue
            r = 0
            if game in ("mushka", "mistigri"):  # §1.5.3, §1.5.4
                trump_suit = "S" if game == "mushka" else "C"
                if t[s] and held[s]:
                    w[s] = t[s] + 5 if self.trump != trump_suit else 2 * t[s] + 8
                r = 0 if t[s] else 10 if held[s] else 5
            elif game == "pamfil":
                r = 0 if t[s] else 5
            else:
                r = 0 if t[s] or s == qs_holder else 5
            after = self.before[s] - w[s] + r  # §1.5.7
            if after == 0:
                zero.append((last[s], self.left.index(s), s))
            seats.append(self._seat_line(s, "played", held[s], t[s], w[s], r,
                                         self.before[s], after < 0))  # fmt: skip
        if len({z[0] for z in zero}) < len(zero):
            self.ref.tally.zero_same_trick += 1
        self._finish("played", seats, [s for _, _, s in sorted(zero)])

    def _walkover(self) -> None:  # §1.3.5, §1.5.6
        seats = []
        for s in range(self.n):
            if s == self.dealer:
                w = min(5, self.before[s])
                seats.append(self._seat_line(s, "walkover", False, 5, w, 0, self.before[s], False))
            else:
                seats.append(self._seat_line(s, "passed", False, 0, 0, 0, self.before[s], False))
        zero = [self.dealer] if self.before[self.dealer] <= 5 else []
        self._finish("walkover", seats, zero)

    def _seat_line(
        self, s: int, status: str, held: bool, t: int, w: int, r: int, before: int, over: bool
    ) -> Line:
        after = self.ref.target if over else before - w + r
        values = (status, held, t, w, r, before, after, over)
        return {"seat": s, **dict(zip(SEAT_KEYS, values, strict=True))}

    def _deal_end(self, result: str, seats: list[Line], zero: list[int]) -> None:
        self.ref._expect({"t": "deal_end", "no": self.no, "result": result, "trump": self.trump,
                          "seats": seats, "zero": zero}, "R6.3")  # fmt: skip

    def _finish(self, result: str, seats: list[Line], zero: list[int]) -> None:
        ref = self.ref
        self._deal_end(result, seats, zero)
        ref.counts = [x["after"] for x in seats]
        ref.tally.overshoot += sum(x["overshoot"] for x in seats)
        if len(zero) > 1:
            ref.tally.multi_zero += 1
        if zero:  # §1.5.8
            self._settle("zero", zero[0], ref.counts)

    def _settle(self, reason: str, winner: int, counts: list[int]) -> None:  # §1.6
        ref, n = self.ref, self.n
        pay = [0 if s == winner else counts[s] * ref.opts["point_value"] + ref.opts["pulka_fee"]
               for s in range(n)]  # fmt: skip
        pulka = [sum(pay) if s == winner else -pay[s] for s in range(n)]
        net = [p + q for p, q in zip(pulka, ref.side, strict=True)]
        ref._check(sum(net) == 0 and sum(ref.side) == 0, "R5.8", "nets must sum to zero")
        ref._expect({"t": "end", "reason": reason, "winner": winner, "deals": self.no,
                     "counts": counts, "pulka": pulka, "side": ref.side, "net": net},
                    "R6.4")  # fmt: skip
        raise _Over


def referee(record: list[Line]) -> Tally:
    """Check one trick-family record (RULES.md §1, RECORD.md §R6, §R10); return its tally."""
    return Referee(record).run()
