"""The shared machine of the trick family (RULES.md §1; RECORD.md §R6).

One :class:`TrickState` plays one pulka of ``mushka``, ``pamfil``, ``shutikha`` or ``mistigri``:
deal, trump (and Памфил's re-trump), hand checks, the declaration and exchange round, Шутиха's
deal-out, five tricks, scoring against the count, and the next deal until the pulka ends.
What is legal at each decision, and why anything else is refused, is :mod:`engine.trick.legal`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from engine.cards import SUIT_ORDER, Card, Suit, canonical_codes, rank_index
from engine.chance import Chance
from engine.core import Line, Result, Seat, game_line, seats_line
from engine.errors import IllegalAction, Refusal
from engine.options import options_dict

from .actions import (
    CODE,
    Announce,
    Discard,
    Exchange,
    Pass,
    PlayCard,
    Retrump,
    TrickAction,
    parse_trick_action,
)
from .legal import TrickLegality
from .options import MistigriOptions, MushkaOptions, PamfilOptions
from .scoring import Figures, Trick, apply_count, pulka_money, trick_points, zero_order
from .variant import FLUSH_POINTS, JC, KC, QS, SUIT_RANK, Variant, deck_for
from .view import TrickView


class TrickState(TrickLegality):
    """One pulka of a trick-family game. Drive it with :meth:`apply` only."""

    __slots__ = (
        "_announced",
        "_chance",
        "_counts",
        "_deal_before",
        "_deal_no",
        "_dealer",
        "_deck",
        "_declared",
        "_discard_queue",
        "_discards",
        "_flushes",
        "_hands",
        "_held",
        "_jc_dealt",
        "_last_trick",
        "_leader",
        "_pamfil",
        "_phase",
        "_playing",
        "_received",
        "_side",
        "_sort_key",
        "_stock",
        "_strength",
        "_trick",
        "_trick_no",
        "_tricks",
        "_tricks_won",
        "_trump",
        "_turn_up",
        "_won",
        "options",
        "variant",
    )

    def __init__(
        self,
        variant: Variant,
        players: int,
        options: MushkaOptions,
        seed: int,
        chance: Chance,
        prev_dealer: Seat | None,
    ) -> None:
        super().__init__(variant.name, players, seed)
        self.variant = variant
        self.options = options
        self._chance = chance
        self._deck = deck_for(players)
        self._pamfil = variant.name == "pamfil"
        self._strength = rank_index(variant.order)
        pos = {r: i for i, r in enumerate(variant.order)}
        self._sort_key = {c: SUIT_ORDER.index(c.suit) * 20 + pos[c.rank] for c in self._deck}
        self._write(game_line(variant.name, players, seed, options_dict(options)))
        line, first = seats_line(chance, self._deck, variant.order, players, prev_dealer)
        self._write(line)
        self._counts = [options.target] * players
        self._side = [0] * players
        self._dealer = (first - 1) % players  # _start_deal passes the deal to ``first``
        self._deal_no = 0
        self._legal = ()
        self._legal_version = -1
        self._phase = "deal"
        self._start_deal(first)

    # --- the State protocol (``legal_actions`` is in TrickLegality) ----------------------------

    @property
    def counts(self) -> tuple[int, ...]:
        """Every seat's count now (§1.1.8)."""
        return tuple(self._counts)

    @property
    def side(self) -> tuple[int, ...]:
        """The side ledger so far (§1.6.3)."""
        return tuple(self._side)

    @property
    def phase(self) -> str:
        """``retrump``, ``declare``, ``discard``, ``play`` or ``over``."""
        return self._phase

    @property
    def dealer(self) -> Seat:
        return self._dealer

    @property
    def deal_no(self) -> int:
        return self._deal_no

    @property
    def trump(self) -> Suit:
        return self._trump

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand now."""
        return tuple(self._hands[seat])

    def places(self) -> dict[str, list[Card]]:
        """Where every card of the deck is now (conservation checks, RECORD.md §R10.6)."""
        out: dict[str, list[Card]] = {f"hand{s}": list(h) for s, h in enumerate(self._hands)}
        out["stock"] = list(self._stock)
        out["turn_up"] = [self._turn_up] if self._turn_up is not None else []
        out["discards"] = list(self._discards)
        out["trick"] = [c for _, c in self._trick]
        for seat, pile in enumerate(self._won):
            out[f"won{seat}"] = list(pile)
        return out

    def parse_action(self, text: str) -> TrickAction:
        return parse_trick_action(text)

    def apply(self, seat: Seat, action: object) -> tuple[Line, ...]:
        if isinstance(action, str):
            action = parse_trick_action(action)
        if not isinstance(action, Pass | Exchange | Announce | Retrump | Discard | PlayCard):
            raise IllegalAction(Refusal.WRONG_GAME)
        if self._result is not None:
            raise IllegalAction(Refusal.GAME_OVER)
        if seat != self._to_act:
            raise IllegalAction(Refusal.NOT_YOUR_TURN, seat=seat)
        if not self._is_legal(seat, action):
            raise self._refusal(seat, action)
        start = self._act(seat, action)
        match action:
            case PlayCard(card):
                self._play(seat, card)
            case Exchange():
                self._exchange(seat, action)
            case Pass():
                self._declared[seat] = "pass"
                self._discards.extend(self._hands[seat])
                self._hands[seat] = []
                self._next_declarer(seat)
            case Announce():
                self._announce(seat)
            case Retrump(suit, discard):
                self._retrump(suit, discard)
            case Discard(cards):
                self._discard(seat, cards)
        return tuple(self._record[start:])

    def view(self, seat: Seat | None) -> TrickView:
        playing = self._phase == "play"
        return TrickView(
            game=self.game,
            players=self.players,
            seat=seat,
            version=self._version,
            to_act=self._to_act,
            phase=self._phase,
            dealer=self._dealer,
            deal_no=self._deal_no,
            hand=tuple(self._hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in self._hands),
            legal=self.legal_actions(seat) if seat is not None else (),
            trump=self._trump,
            turn_up=self._turn_up,
            privileged=self.variant.privileged,
            counts=tuple(self._counts),
            target=self.options.target,
            declared=tuple(self._declared),
            tricks_won=tuple(self._tricks_won),
            trick=tuple(self._trick),
            leader=self._leader if playing else None,
            last_trick=self._last_trick.plays if self._last_trick is not None else None,
            last_winner=self._last_trick.winner if self._last_trick is not None else None,
            trick_no=self._trick_no if playing else 0,
            stock_size=len(self._stock),
            side=tuple(self._side),
            announced=self._announced,
        )

    def abandon(self) -> tuple[Line, ...]:
        if self._result is not None:
            raise IllegalAction(Refusal.GAME_OVER)
        line = self._abandon()
        self._phase = "over"
        return (line,)

    def clone(self) -> TrickState:
        # The variant and the rank strengths are immutable (mapping proxies cannot be copied).
        shared: dict[int, object] = {
            id(self.variant): self.variant,
            id(self._strength): self._strength,
        }
        return copy.deepcopy(self, shared)

    # --- the deal ----------------------------------------------------------------------------

    def _sorted(self, cards: list[Card]) -> list[Card]:
        return sorted(cards, key=self._sort_key.__getitem__)

    def _from_left(self) -> list[Seat]:
        """Every seat in turn from the dealer's left, the dealer last (§0.1)."""
        n = self.players
        return [(self._dealer + 1 + i) % n for i in range(n)]

    def _start_deal(self, dealer: Seat) -> None:
        """§1.1.6–§1.1.9: shuffle, deal, trump, the checks after the deal."""
        n = self.players
        self._dealer = dealer
        self._deal_no += 1
        deck = self._chance.shuffled(self._deck)
        self._write(
            {"t": "deal", "no": self._deal_no, "dealer": dealer, "deck": [CODE[c] for c in deck]}
        )
        hands: list[list[Card]] = [[] for _ in range(n)]
        for k in range(5 * n):
            hands[(dealer + 1 + k) % n].append(deck[k])
        self._hands = [self._sorted(h) for h in hands]
        rest = deck[5 * n :]
        self._turn_up = rest[0] if self.variant.turn_up else None
        self._stock = rest[1:] if self.variant.turn_up else rest
        self._trump = self._turn_up.suit if self._turn_up is not None else Suit.SPADES
        self._discards: list[Card] = []
        self._declared: list[str | None] = [None] * n
        self._jc_dealt = next((s for s, h in enumerate(self._hands) if JC in h), None)
        if self.game != "pamfil":
            self._jc_dealt = None
        self._announced: Seat | None = None
        self._flushes: list[tuple[int, int, int, Seat]] = []
        self._received = [0] * n
        self._discard_queue: list[Seat] = []
        self._playing: list[Seat] = []
        self._held: Seat | None = None
        self._trick: list[tuple[Seat, Card]] = []
        self._leader: Seat = (dealer + 1) % n
        self._trick_no = 0
        self._tricks: list[Trick] = []
        self._tricks_won = [0] * n
        self._won: list[list[Card]] = [[] for _ in range(n)]
        self._last_trick: Trick | None = None
        self._deal_before = list(self._counts)
        turn_up = str(self._turn_up) if self._turn_up is not None else None
        self._event("trump", card=turn_up, suit=self._trump.value, retrump=False)
        if self.game == "pamfil" and self._turn_up == JC:
            self._phase = "retrump"  # §1.2.4
            self._to_act = dealer
            return
        self._after_deal()

    def _after_deal(self) -> None:
        """§1.3.9–§1.3.11 checks after the deal, then the declaration round."""
        if self._check_hands(self._from_left()):
            return
        self._phase = "declare"
        self._to_act = (self._dealer + 1) % self.players

    def _check_hands(self, seats: Sequence[Seat]) -> bool:
        """Show flushes, then look for an instant win; True when the pulka ended."""
        if self.game == "mistigri":
            for seat in seats:
                hand = self._hands[seat]
                if len(hand) == 5 and all(c.suit == hand[0].suit for c in hand):
                    suit = hand[0].suit
                    points = sum(FLUSH_POINTS[c.rank] for c in hand)
                    self._flushes.append((SUIT_RANK[suit], points, -len(self._flushes), seat))
                    self._event(
                        "flush",
                        seat=seat,
                        suit=suit.value,
                        cards=canonical_codes(hand, self.variant.order),
                        points=points,
                    )
            for seat in seats:
                hand = self._hands[seat]
                others = [c for c in hand if c != KC]
                if len(others) == 4 == len(hand) - 1 and len({c.suit for c in others}) == 1:
                    self._instant_win(seat, "kc_four")
                    return True
        elif self.game == "shutikha":
            for seat in seats:
                hand = self._hands[seat]
                if len(hand) == 5 and QS in hand and all(c.suit == Suit.SPADES for c in hand):
                    self._instant_win(seat, "five_spades")
                    return True
        return False

    # --- declarations ------------------------------------------------------------------------

    def _retrump(self, suit: Suit, discard: Card) -> None:
        hand = self._hands[self._dealer]
        hand.remove(discard)
        hand.append(JC)
        self._hands[self._dealer] = self._sorted(hand)
        self._discards.append(discard)
        self._turn_up = None
        self._trump = suit
        self._event("trump", card=str(JC), suit=suit.value, retrump=True)
        self._after_deal()

    def _announce(self, seat: Seat) -> None:
        assert isinstance(self.options, PamfilOptions)
        amount = self.options.pamfil_bonus
        self._announced = seat
        self._book_side(seat, amount)
        self._event("pamfil_bonus", seat=seat, amount=amount)

    def _book_side(self, seat: Seat, amount: int) -> None:
        for other in range(self.players):
            if other != seat:
                self._side[other] -= amount
                self._side[seat] += amount

    def _exchange(self, seat: Seat, action: Exchange) -> None:
        hand = self._hands[seat]
        for card in action.cards:
            hand.remove(card)
        self._discards.extend(action.cards)
        count = len(action.cards) - (1 if action.up else 0)
        drawn = self._stock[:count]
        del self._stock[:count]
        if action.up:
            assert self._turn_up is not None
            hand.append(self._turn_up)
            self._turn_up = None
        hand.extend(drawn)
        self._hands[seat] = self._sorted(hand)
        self._declared[seat] = "play"
        self._event(
            "exchange",
            seat=seat,
            discarded=[CODE[c] for c in action.cards],
            drawn=[CODE[c] for c in drawn],
            up=action.up,
        )
        if action.cards and self._check_hands((seat,)):
            return
        self._next_declarer(seat)

    def _next_declarer(self, seat: Seat) -> None:
        """§1.3.1, §1.3.5: the next seat to declare, the walkover, or the end of the round."""
        if seat == self._dealer:
            self._end_round()
            return
        following = (seat + 1) % self.players
        if following == self._dealer and self._plays_declared() == 0:
            self._walkover()
            return
        self._to_act = following

    def _end_round(self) -> None:
        """§1.3.8, §1.3.12: the playing players; Шутиха's deal-out; then play."""
        self._playing = [s for s in self._from_left() if self._declared[s] == "play"]
        if self.game == "shutikha" and QS in self._stock:
            turn = 0
            while True:
                card = self._stock.pop(0)
                seat = self._playing[turn % len(self._playing)]
                turn += 1
                self._hands[seat].append(card)
                self._received[seat] += 1
                self._event("deal_out", seat=seat, card=str(card))
                if card == QS:
                    break
            for seat in self._playing:
                self._hands[seat] = self._sorted(self._hands[seat])
            self._discard_queue = [s for s in self._from_left() if self._received[s]]
            self._phase = "discard"
            self._to_act = self._discard_queue[0]
            return
        self._start_play()

    def _discard(self, seat: Seat, cards: tuple[Card, ...]) -> None:
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
        self._discards.extend(cards)
        self._received[seat] = 0
        if self._check_hands((seat,)):
            return
        self._discard_queue.pop(0)
        if self._discard_queue:
            self._to_act = self._discard_queue[0]
        else:
            self._start_play()

    def _walkover(self) -> None:
        """§1.3.5, §1.5.6: the lone dealer is credited with five plain tricks."""
        dealer = self._dealer
        self._declared[dealer] = "walkover"
        self._event("walkover", seat=dealer)
        self._award_flush()
        before = self._counts[dealer]
        figures = []
        for seat in range(self.players):
            count = self._counts[seat]
            if seat == dealer:
                w = min(5, before)
                figures.append(Figures(seat, "walkover", False, 5, w, 0, count, count - w, False))
            else:
                figures.append(Figures(seat, "passed", False, 0, 0, 0, count, count, False))
        zero = [dealer] if before <= 5 else []
        self._end_deal("walkover", figures, zero)

    def _award_flush(self) -> None:
        """§1.3.10.2: once per deal, the best flush shown receives the bonus."""
        if self.game != "mistigri" or not self._flushes:
            return
        seat = max(self._flushes)[3]
        assert isinstance(self.options, MistigriOptions)
        amount = self.options.flush_bonus
        self._book_side(seat, amount)
        self._event("flush_bonus", seat=seat, amount=amount)

    def _instant_win(self, seat: Seat, kind: str) -> None:
        """§1.3.9, §1.3.11, §1.6.4: the pulka ends at once; the deal is not scored."""
        hand = self._hands[seat]
        self._event(
            "instant_win", seat=seat, kind=kind, cards=canonical_codes(hand, self.variant.order)
        )
        self._award_flush()
        figures = [
            Figures(
                s,
                "played" if self._declared[s] == "play" else "passed",
                False,
                0,
                0,
                0,
                self._counts[s],
                self._counts[s],
                False,
            )
            for s in range(self.players)
        ]
        self._deal_end_line("instant", figures, [])
        self._settle("instant", seat)

    # --- tricks ------------------------------------------------------------------------------

    def _start_play(self) -> None:
        self._award_flush()
        priv = self.variant.privileged
        self._held = next((s for s in self._playing if priv in self._hands[s]), None)
        self._phase = "play"
        self._trick_no = 1
        self._leader = self._playing[0]
        self._to_act = self._leader

    def _play(self, seat: Seat, card: Card) -> None:
        self._hands[seat].remove(card)
        self._trick.append((seat, card))
        playing = self._playing
        if len(self._trick) < len(playing):
            self._to_act = playing[(playing.index(seat) + 1) % len(playing)]
            return
        plays = tuple(self._trick)
        winner = self._trick_winner(plays)
        trick = Trick(self._trick_no, self._leader, plays, winner)
        self._tricks.append(trick)
        self._last_trick = trick
        self._trick = []
        self._tricks_won[winner] += 1
        self._won[winner].extend(c for _, c in plays)
        self._event(
            "trick",
            no=trick.no,
            leader=trick.leader,
            plays=[[s, CODE[c]] for s, c in plays],
            winner=winner,
        )
        if self._trick_no == 5:
            self._score_deal()
            return
        self._trick_no += 1
        self._leader = winner
        self._to_act = winner

    def _trick_winner(self, plays: tuple[tuple[Seat, Card], ...]) -> Seat:
        """§1.4.5: the first rule that applies."""
        priv = self.variant.privileged
        if self.game == "pamfil":
            for seat, card in plays:
                if card == JC:
                    return seat
        elif self.game != "shutikha":
            for seat, card in plays[1:]:
                if card == priv:
                    return seat
        strength = self._strength
        trump = self._trump
        trumps = [(strength[c.rank], s) for s, c in plays if self._effective(c) == trump]
        if trumps:
            return max(trumps)[1]
        led = self._effective(plays[0][1])
        return max((strength[c.rank], s) for s, c in plays if self._effective(c) == led)[1]

    # --- scoring and the end -----------------------------------------------------------------

    def _score_deal(self) -> None:
        """§1.5: figures of the deal, applied to the counts together (§1.5.7)."""
        won, written, remise, last = trick_points(
            self.variant, self._trump, self._held, self._tricks, self.players
        )
        target = self.options.target
        figures = []
        reached = []
        for seat in range(self.players):
            before = self._counts[seat]
            if self._declared[seat] != "play":
                figures.append(Figures(seat, "passed", False, 0, 0, 0, before, before, False))
                continue
            w = written[seat]
            r = remise[seat] if won[seat] == 0 else 0
            after, over = apply_count(before, w, r, target)
            if after == 0:
                reached.append(seat)
            figures.append(
                Figures(seat, "played", seat == self._held, won[seat], w, r, before, after, over)
            )
        zero = zero_order(reached, last, self._dealer, self.players)
        self._end_deal("played", figures, zero)

    def _deal_end_line(self, result: str, figures: list[Figures], zero: list[Seat]) -> None:
        self._write(
            {
                "t": "deal_end",
                "no": self._deal_no,
                "result": result,
                "trump": self._trump.value,
                "seats": [f.line() for f in figures],
                "zero": zero,
            }
        )

    def _end_deal(self, result: str, figures: list[Figures], zero: list[Seat]) -> None:
        self._deal_end_line(result, figures, zero)
        self._counts = [f.after for f in figures]
        if zero:
            self._settle("zero", zero[0])
        else:
            self._start_deal((self._dealer + 1) % self.players)

    def _settle(self, reason: str, winner: Seat) -> None:
        """§1.6: pulka money plus the side ledger."""
        opts = self.options
        pulka = pulka_money(self._counts, winner, opts.point_value, opts.pulka_fee)
        net = [p + s for p, s in zip(pulka, self._side, strict=True)]
        self._write(
            {
                "t": "end",
                "reason": reason,
                "winner": winner,
                "deals": self._deal_no,
                "counts": list(self._counts),
                "pulka": pulka,
                "side": list(self._side),
                "net": net,
            }
        )
        self._finish(Result(reason, winner, tuple(net)))

    def _finish(self, result: Result) -> None:
        self._result = result
        self._phase = "over"
        self._to_act = None
