"""The shared machine of the trick family (RULES.md §1; RECORD.md §R6).

One :class:`TrickState` plays one pulka of ``mushka``, ``pamfil``, ``shutikha`` or ``mistigri``
on the skeleton of :mod:`engine.core`: deal, trump (and Памфил's re-trump), hand checks, the
declaration and exchange round, Шутиха's deal-out, five tricks, scoring against the count, and
the next deal until the pulka ends. What differs between the games is the
:class:`~engine.trick.rules.Variant`; what is legal is :mod:`.legal`; the figures are
:mod:`.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from engine.cards import SUIT_ORDER, Card, Suit, canonical_codes, codes, rank_index
from engine.chance import Chance
from engine.core import EndReason, Places, Result, Seat, deal_hands
from engine.errors import IllegalAction, Refusal
from engine.skeleton import StateBase, owners

from . import legal, scoring
from .actions import PLAY_CARD, Announce, Discard, Exchange, Pass, PlayCard, Retrump, TrickAction
from .actions import parse_trick_action as parse
from .options import MushkaOptions
from .rules import HAND_SIZE, Flush, Trick, TrickPhase
from .scoring import Figures
from .variant import VARIANTS, deck_for
from .view import SeatExchange, SideBonus, TrickView


class TrickState(StateBase[MushkaOptions, TrickAction, TrickView, TrickPhase]):
    """One pulka of a trick-family game (one record). Drive it with :meth:`apply` only."""

    ACTIONS: ClassVar = (PlayCard, Exchange, Pass, Announce, Retrump, Discard)
    PHASES: ClassVar = TrickPhase

    __slots__ = (
        "_announced",
        "_announcer",
        "_bonuses",
        "_counts",
        "_declared",
        "_discard_queue",
        "_ended_bonuses",
        "_exchanges",
        "_flushes",
        "_held",
        "_last_trick",
        "_leader",
        "_out",
        "_playing",
        "_previous_bonuses",
        "_received",
        "_side",
        "_sort_key",
        "_stock",
        "_strength",
        "_taken",
        "_taken_up",
        "_trick",
        "_trick_no",
        "_tricks",
        "_tricks_won",
        "_trump",
        "_turn_up",
        "variant",
    )

    def __init__(
        self, game: str, players: int, options: MushkaOptions, seed: int, chance: Chance
    ) -> None:
        variant = VARIANTS[game]
        assert isinstance(options, variant.options_type)
        # §1.1.2 the deck; §1.1.3 the rank order, also the first-dealer draw's (§0.5.2, §1.1.5)
        super().__init__(
            game, players, options, seed, chance, deck=deck_for(players), order=variant.order
        )
        self.variant = variant
        self._strength = rank_index(variant.order)
        pos = {r: i for i, r in enumerate(variant.order)}
        self._sort_key = {c: SUIT_ORDER.index(c.suit) * 20 + pos[c.rank] for c in self.deck}
        # §1.1.8 counts at target; §1.6.3 the side ledger. §1.6.6: the next pulka is a new state
        # and record, so both start afresh; its first dealer follows on (``prev_dealer``, §0.8).
        self._counts = [options.target] * players
        self._side = [0] * players
        self._ended_bonuses: tuple[SideBonus, ...] = ()
        self._previous_bonuses: tuple[SideBonus, ...] = ()
        self._reset_deal()

    def _reset_deal(self) -> None:
        n = self.players
        self._hands = [[] for _ in range(n)]
        self._stock: list[Card] = []
        self._turn_up: Card | None = None
        self._taken_up: Card | None = None  # the turn-up the dealer took (public, §1.2.2)
        self._trump: Suit = self.variant.trump or Suit.SPADES
        self._out: list[Card] = []  # discards and thrown-in hands (§1.1.7, §1.3.2)
        self._declared: list[str | None] = [None] * n
        self._announcer: Seat | None = None
        self._announced: Seat | None = None
        self._flushes: list[Flush] = []
        self._exchanges: list[SeatExchange | None] = [None] * n
        self._bonuses: list[SideBonus] = []  # public, in booking order
        self._received = [0] * n
        self._discard_queue: list[Seat] = []
        self._playing: list[Seat] = []
        self._held: Seat | None = None
        self._trick: list[tuple[Seat, Card]] = []
        self._leader: Seat = (self._dealer + 1) % n
        self._trick_no = 0
        self._tricks: list[Trick] = []
        self._tricks_won = [0] * n
        self._taken: list[list[Card]] = [[] for _ in range(n)]  # §1.4.8: out of play
        self._last_trick: Trick | None = None

    # --- the standard API ----------------------------------------------------------------------

    @property
    def counts(self) -> tuple[int, ...]:
        """Every seat's count now (§1.1.8)."""
        return tuple(self._counts)

    @property
    def side(self) -> tuple[int, ...]:
        """The side ledger so far (§1.6.3)."""
        return tuple(self._side)

    @property
    def trump(self) -> Suit:
        return self._trump

    def parse_action(self, text: str) -> TrickAction:
        return parse(text)

    def view(self, seat: Seat | None) -> TrickView:
        playing = self._phase == TrickPhase.PLAY
        last = self._last_trick
        return TrickView(
            **self._view_base(seat),
            legal=self.legal_actions(seat) if seat is not None else (),
            trump=self._trump if self._deal_no else None,
            turn_up=self._turn_up,
            taken_up=self._taken_up,
            privileged=self.variant.privileged,
            counts=tuple(self._counts),
            target=self.options.target,
            declared=tuple(self._declared),
            tricks_won=tuple(self._tricks_won),
            trick=tuple(self._trick),
            led=legal.effective_suit(self._trick[0][1], self._trump, self.variant)
            if playing and self._trick
            else None,
            leader=self._leader if playing else None,
            last_trick=last.plays if last is not None else None,
            last_winner=last.winner if last is not None else None,
            trick_no=self._trick_no if playing else 0,
            stock_size=len(self._stock),
            side=tuple(self._side),
            announced=self._announced,
            deck_size=len(self.deck),
            exchanged=tuple(None if x is None else len(x.discarded) for x in self._exchanges),
            exchange=self._exchanges[seat] if seat is not None else None,
            ended_bonuses=self._ended_bonuses,
            result=self.result,
            tricks=tuple(t.plays for t in self._tricks) if playing else (),
            must_trump=self.options.must_trump,
            flushes=tuple((f.seat, f.suit) for f in self._flushes),
            previous_bonuses=self._previous_bonuses,
        )

    # --- the skeleton's hooks ------------------------------------------------------------------

    def _list_legal(self, seat: Seat) -> tuple[TrickAction, ...]:
        hand = self._hands[seat]
        phase = self._phase
        variant = self.variant
        priv = variant.privileged
        if phase == TrickPhase.PLAY:
            cards = legal.playable(hand, self._trick, self._trump, variant, self.options.must_trump)
            return tuple([PLAY_CARD[c] for c in cards])
        if phase == TrickPhase.DECLARE:
            dealer = seat == self._dealer
            return legal.declarations(
                hand,
                priv,
                may_announce=seat == self._announcer and self._announced is None,  # §1.3.7
                # §1.3.3 a: not with the privileged card (but Шутиха's QS); b: the dealer
                # against a lone player
                may_pass=legal.may_pass(variant, hand)
                and not (dealer and self._plays_declared() == 1),
                stock=len(self._stock),
                may_take_up=dealer and self._turn_up is not None,  # §1.2.2
            )
        if phase == TrickPhase.RETRUMP:
            return legal.retrumps(hand, priv)
        if phase == TrickPhase.DISCARD:
            return legal.discards(hand, priv, self._received[seat])
        return ()

    def _refusal(self, seat: Seat, action: TrickAction) -> IllegalAction:
        """Why ``action`` is not among the legal actions, the most specific reason first."""
        hand = self._hands[seat]
        priv = self.variant.privileged
        phase = self._phase
        if phase == TrickPhase.RETRUMP and not isinstance(action, Retrump):
            return IllegalAction(Refusal.RETRUMP_FIRST)  # §1.2.4: before anything else
        match action:
            case PlayCard(card) if phase == TrickPhase.PLAY:
                trump, must_trump = self._trump, self.options.must_trump
                return legal.play_refusal(hand, card, self._trick, trump, self.variant, must_trump)
            case Pass() if phase == TrickPhase.DECLARE:
                return legal.pass_refusal(hand, self.variant)
            case Exchange() if phase == TrickPhase.DECLARE:
                dealer, lying = seat == self._dealer, self._turn_up is not None
                return legal.exchange_refusal(hand, action, priv, dealer, lying, len(self._stock))
            case Announce() if phase == TrickPhase.DECLARE:
                return IllegalAction(Refusal.ANNOUNCE_NOT_ALLOWED)  # §1.3.7
            case Retrump(_, discard) if phase == TrickPhase.RETRUMP:
                refusal = legal.cards_refusal(hand, (discard,), priv)
                if refusal is not None:
                    return refusal
            case Discard(cards) if phase == TrickPhase.DISCARD:
                return legal.discard_refusal(hand, cards, priv, self._received[seat])
            case _:
                pass
        return IllegalAction(Refusal.NOT_NOW, action=str(action))

    def _perform(self, seat: Seat, action: TrickAction) -> None:
        match action:
            case PlayCard(card):
                self._play(seat, card)
            case Exchange():
                self._exchange(seat, action)
            case Pass():
                self._pass(seat)
            case Announce():
                self._announce(seat)
            case Retrump(suit, discard):
                self._retrump(suit, discard)
            case Discard(cards):
                self._discard(seat, cards)

    def _places(self) -> Places:
        n = self.players
        return {
            **owners(n, "hand", self._hands),
            "stock": tuple(self._stock),
            "turn_up": () if self._turn_up is None else (self._turn_up,),  # §1.2.2
            "trick": tuple(c for _, c in self._trick),
            **owners(n, "taken", self._taken),
            "out": tuple(self._out),
        }

    def _shown_hand(self, seat: Seat) -> tuple[Card, ...]:
        return tuple(self._hands[seat])  # kept in canonical order (:meth:`_sorted`)

    def _shared(self) -> dict[int, object]:
        # immutable (a mapping proxy cannot even be copied); cards copy as themselves
        return {id(part): part for part in (self.variant, self._strength, self._sort_key)}

    # --- the deal (§1.1.5–§1.1.9, §1.2) ----------------------------------------------------------

    def _deal(self, dealer: Seat) -> None:
        """§1.1.6–§1.1.9: shuffle and deal five each (§0.6), trump (§1.2), the checks."""
        n = self.players
        variant = self.variant
        deck = self._open_deal(dealer)
        self._reset_deal()
        self._hands = [self._sorted(h) for h in deal_hands(deck, dealer, n, HAND_SIZE)]
        rest = deck[HAND_SIZE * n :]
        if variant.trump is None:  # §1.1.7, §1.2.1: the turn-up, then the stock
            self._turn_up = rest[0]
            self._stock = rest[1:]
            self._trump = rest[0].suit
        else:  # §1.2.3: Шутиха turns nothing up; spades are trump
            self._stock = rest
            self._trump = variant.trump
        if variant.announce_bonus is not None:  # §1.3.7: a privileged card received in the deal
            priv = variant.privileged
            self._announcer = next((s for s, h in enumerate(self._hands) if priv in h), None)
        turn_up = str(self._turn_up) if self._turn_up is not None else None
        self._event("trump", card=turn_up, suit=self._trump.value, retrump=False)
        if variant.retrump and self._turn_up == variant.privileged:
            self._phase = TrickPhase.RETRUMP  # §1.2.4
            self._to_act = dealer
            return
        self._after_deal()

    def _after_deal(self) -> None:
        """§1.3.9–§1.3.11 checks after the deal, then the declaration round (§1.3.1)."""
        if self._check_hands(self._from_left()):
            return
        self._phase = TrickPhase.DECLARE
        self._to_act = (self._dealer + 1) % self.players

    def _check_hands(self, seats: Sequence[Seat]) -> bool:
        """§1.3.9–§1.3.11: show the flushes found, then an instant win; True when it ended."""
        check = self.variant.check
        if check is None:
            return False
        shown = check([(s, self._hands[s]) for s in seats])
        for flush in shown.flushes:  # §1.3.10.1, §1.3.10.3: every flush shown is kept
            self._flushes.append(flush)
            cards = canonical_codes(self._hands[flush.seat], self.order)
            self._event(
                "flush", seat=flush.seat, suit=flush.suit.value, cards=cards, points=flush.points
            )
        if shown.win is None:
            return False
        self._instant_win(*shown.win)
        return True

    # --- declarations (§1.2.4, §1.3) -------------------------------------------------------------

    def _retrump(self, suit: Suit, discard: Card) -> None:
        """§1.2.4: the dealer takes the JC, discards a card, names the trump."""
        priv = self.variant.privileged
        hand = self._hands[self._dealer]
        hand.remove(discard)
        hand.append(priv)
        self._hands[self._dealer] = self._sorted(hand)
        self._out.append(discard)
        self._turn_up = None
        self._taken_up = priv
        self._trump = suit
        self._event("trump", card=str(priv), suit=suit.value, retrump=True)
        self._after_deal()

    def _announce(self, seat: Seat) -> None:
        """§1.3.7: each other seat pays the bonus on the side ledger (§1.6.3)."""
        bonus = self.variant.announce_bonus
        assert bonus is not None
        amount = bonus(self.options)
        self._announced = seat
        self._book_side(seat, amount)
        self._bonuses.append(SideBonus("pamfil", seat, amount))
        self._event("pamfil_bonus", seat=seat, amount=amount)

    def _book_side(self, seat: Seat, amount: int) -> None:
        for other in range(self.players):
            if other != seat:
                self._side[other] -= amount
                self._side[seat] += amount

    def _pass(self, seat: Seat) -> None:
        """§1.3.2: the hand is thrown in face down."""
        self._declared[seat] = "pass"
        self._out.extend(self._hands[seat])
        self._hands[seat] = []
        self._next_declarer(seat)

    def _exchange(self, seat: Seat, action: Exchange) -> None:
        """§1.3.4: discard the named cards, draw from the top (``up``: the turn-up first)."""
        hand = self._hands[seat]
        for card in action.cards:
            hand.remove(card)
        self._out.extend(action.cards)
        count = len(action.cards) - (1 if action.up else 0)
        drawn = self._stock[:count]
        del self._stock[:count]
        up_card = self._turn_up if action.up else None
        if up_card is not None:  # §1.2.2
            hand.append(up_card)
            self._turn_up = None
            self._taken_up = up_card
        else:
            assert not action.up
        self._exchanges[seat] = SeatExchange(tuple(action.cards), tuple(drawn), up_card)
        hand.extend(drawn)
        self._hands[seat] = self._sorted(hand)
        self._declared[seat] = "play"
        discarded, up = codes(action.cards), action.up
        self._event("exchange", seat=seat, discarded=discarded, drawn=codes(drawn), up=up)
        if action.cards and self._check_hands((seat,)):  # §1.3.9, §1.3.10.1: N ≥ 1
            return
        self._next_declarer(seat)

    def _plays_declared(self) -> int:
        return sum(1 for d in self._declared if d == "play")

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
        """§1.3.8: the playing players; §1.3.12: the privileged card dealt out; then play."""
        self._playing = [s for s in self._from_left() if self._declared[s] == "play"]
        deal_out = self.variant.deal_out
        dealt = deal_out(self._stock, self._playing) if deal_out is not None else []
        if not dealt:
            self._start_play()
            return
        del self._stock[: len(dealt)]
        for seat, card in dealt:
            self._hands[seat].append(card)
            self._received[seat] += 1
            self._event("deal_out", seat=seat, card=str(card))
        for seat in self._playing:
            self._hands[seat] = self._sorted(self._hands[seat])
        self._discard_queue = [s for s in self._from_left() if self._received[s]]
        self._phase = TrickPhase.DISCARD
        self._to_act = self._discard_queue[0]

    def _discard(self, seat: Seat, cards: tuple[Card, ...]) -> None:
        """§1.3.12: back to five cards, in turn from the dealer's left; §1.3.9 after each."""
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
        self._out.extend(cards)
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
        figures, zero = scoring.walkover_figures(dealer, self._counts)
        self._end_deal("walkover", figures, zero)

    def _award_flush(self) -> None:
        """§1.3.10.2: once per deal, the best flush shown receives the bonus."""
        award = self.variant.flush_award
        if award is None or not self._flushes:
            return
        seat, amount = award(self._flushes, self.options)
        self._book_side(seat, amount)
        self._bonuses.append(SideBonus("flush", seat, amount))
        self._event("flush_bonus", seat=seat, amount=amount)

    def _instant_win(self, seat: Seat, kind: str) -> None:
        """§1.3.9, §1.3.11, §1.6.4: the pulka ends at once; the deal is not scored."""
        cards = canonical_codes(self._hands[seat], self.order)
        self._event("instant_win", seat=seat, kind=kind, cards=cards)
        self._award_flush()  # §1.3.11: the flushes shown so far are awarded first
        self._deal_end_line("instant", scoring.instant_figures(self._declared, self._counts), [])
        self._settle(EndReason.INSTANT, seat)

    # --- tricks (§1.4) ---------------------------------------------------------------------------

    def _start_play(self) -> None:
        self._award_flush()  # §1.3.10.2: the round is complete
        priv = self.variant.privileged
        # §1.5.1: held = in his hand when the first trick is led
        self._held = next((s for s in self._playing if priv in self._hands[s]), None)
        self._phase = TrickPhase.PLAY
        self._trick_no = 1
        self._leader = self._playing[0]  # §1.4.1: the first playing player left of the dealer
        self._to_act = self._leader

    def _play(self, seat: Seat, card: Card) -> None:
        """§1.4.1: each playing player in turn from the leader plays one card."""
        self._hands[seat].remove(card)
        self._trick.append((seat, card))
        playing = self._playing
        if len(self._trick) < len(playing):
            self._to_act = playing[(playing.index(seat) + 1) % len(playing)]
            return
        plays = tuple(self._trick)
        winner = legal.trick_winner(plays, self._trump, self.variant, self._strength)
        trick = Trick(self._trick_no, self._leader, plays, winner)
        self._tricks.append(trick)
        self._last_trick = trick
        self._trick = []
        self._tricks_won[winner] += 1
        self._taken[winner].extend(c for _, c in plays)  # §1.4.8: out of play for the deal
        shown = [[s, str(c)] for s, c in plays]
        self._event("trick", no=trick.no, leader=trick.leader, plays=shown, winner=winner)
        if self._trick_no == HAND_SIZE:
            self._score_deal()
            return
        self._trick_no += 1
        self._leader = winner  # §1.4.8: the winner leads to the next trick
        self._to_act = winner

    # --- scoring and the end (§1.5, §1.6) --------------------------------------------------------

    def _score_deal(self) -> None:
        """§1.5: figures of the deal, applied to the counts together (§1.5.7)."""
        n, held = self.players, self._held
        points = scoring.trick_points(self.variant, self._trump, held, self._tricks, n)
        target = self.options.target
        figures, reached = scoring.played_figures(
            self._declared, self._counts, points, held, target
        )
        zero = scoring.zero_order(reached, points[3], self._dealer, n)  # §1.5.8
        self._end_deal("played", figures, zero)

    def _deal_end_line(self, result: str, figures: list[Figures], zero: list[Seat]) -> None:
        self._previous_bonuses = self._ended_bonuses
        self._ended_bonuses = tuple(self._bonuses)
        self._write(scoring.deal_end_line(self._deal_no, result, self._trump, figures, zero))

    def _end_deal(self, result: str, figures: list[Figures], zero: list[Seat]) -> None:
        self._deal_end_line(result, figures, zero)
        self._counts = [f.after for f in figures]
        if zero:
            self._settle(EndReason.ZERO, zero[0])  # §1.5.8
        else:
            # §1.5.9, §1.1.5: the deal passes left; counts carry over
            self._deal_next((self._dealer + 1) % self.players)

    def _settle(self, reason: EndReason, winner: Seat) -> None:
        """§1.6: the pulka money and the side ledger settled together (RECORD.md §R6.4)."""
        line = scoring.end_line(
            reason, winner, self._deal_no, self._counts, self._side, self.options
        )
        self._write(line)
        self._finish(Result(reason, winner, tuple(line["net"])))

    # --- small helpers ---------------------------------------------------------------------------

    def _sorted(self, cards: list[Card]) -> list[Card]:
        """A hand in canonical order (§R1.8), as views show it."""
        return sorted(cards, key=self._sort_key.__getitem__)

    def _from_left(self) -> list[Seat]:
        """Every seat in turn from the dealer's left, the dealer last (§0.1)."""
        n = self.players
        return [(self._dealer + 1 + i) % n for i in range(n)]
