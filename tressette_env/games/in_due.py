"""Tressette in due: two players, ten cards each, then the stock (or the packets), twenty tricks.

FAMILY.md section 1. Two forms share the name:

- **the stock form** (a metà mazzo, ``deal="stock"``, the default): ten cards each, the other
  twenty face down in a stock; after each of the first ten tricks the winner draws the top
  card, then the loser (the drawn cards are shown, ``show_drawn``). Then ten more tricks
  with the hands emptied. Once the stock is empty each player knows the other's ten cards:
  the last ten tricks are a perfect-information endgame.
- **the packet form** (a pizzichino, ``deal="packets"``): eight packets of five; each player
  sees the bottom card of each of his four packets, takes two into his hand and turns the
  other two face up (the bottom card is now the top); he plays from his hand or from the
  top of a face-up packet, which uncovers the next card.

The non-dealer leads the first trick; the winner of a trick leads the next. No partner,
so no signals. Each player's thirds are rounded down: 11 points a hand between them.

| phase | who | legal actions |
| --- | --- | --- |
| select packets (``packet_deal="choose"``) | non-dealer, four times | ``PACKET + k``, k one of the eight packets not yet taken (blind) |
| turn packets up (packet form) | non-dealer twice, then the dealer twice | ``CALL + c`` (``volta c``), c the bottom card of one of his four packets not yet turned (he sees them) |
| play with a stock | leader, follower | a card; the follower follows suit if able (``follow_suit_with_stock``), then both draw |
| play with packets | leader, follower | a card of the hand or a face-up top; follow suit with either if able |
| play (the stock or the packets gone) | leader, follower | a card, following suit if able (the core's card play) |

Switches (``InDueRules``):

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `deal` | `"stock"` | `"stock"`, `"packets"` | metà mazzo (ten cards and a stock of twenty) or pizzichino (packets of five) |
| `follow_suit_with_stock` | `True` | bool | the follower must follow suit while cards remain in the stock (only with `deal="stock"`) |
| `show_drawn` | `True` | bool | each drawn card is shown to the opponent (only with `deal="stock"`) |
| `accusi` | `"none"` | `"none"`, `"dealt"`, `"dealt_and_drawn"` | declarations: none, from the ten dealt cards, or also whenever a draw completes a new combination (only with `deal="stock"`) |
| `objective` | `"take"` | `"take"`, `"avoid"` | take points, or avoid them: the hand's points count against the taker and the first to the target loses |
| `packet_deal` | `"dealt"` | `"dealt"`, `"choose"` | each player is dealt four packets, or the non-dealer picks four of the eight blind (only with `deal="packets"`) |
| `pizzichi_pickup` | `False` | bool | a face-up top that is an asso, 2 or 3 goes into its owner's hand, uncovering the next card (only with `deal="packets"`) |
| `target_score` | `21` | int 1..10000 | match target (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `cappotto_bonus` | `0` | int 0..10000 | extra points to the player who makes every point of a hand |
| `calling_out` | `False` | bool | chiamarsi fuori: the leader may claim the match (not with `objective="avoid"`) (only with `episode="match"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action loses the hand 11-0, or raises ValueError |

Decisions where FAMILY.md leaves a point open (docs/games/in_due.md says why):

- ``dealt_and_drawn``: after a draw, a combination is declared when it holds the card just
  drawn and the player has not declared those same cards this hand.
- The packets are turned up in turn, the non-dealer's two first, each shown at once (so the
  dealer chooses knowing the non-dealer's tops). A packet is turned up by naming its bottom
  card, ``CALL + c`` (``volta c``: the family's "name a card" ids), which the table sees at
  once: a number for the packet would tell the other player something of the bottoms he has
  not seen.
- With ``objective="avoid"`` a renuncio charges the offender 11 points (the opponent 0), and
  calling out is refused (a claim to have reached the target is a claim to have lost).
- Accusi in the packet form are refused (no source says which cards they count from).

Example:
    >>> from tressette_env.engine import apply, legal_actions, new_game
    >>> state = new_game(InDueRules(), seed=0)
    >>> state.public.table.seats, state.public.extra.stock
    (2, 20)
    >>> while state.public.status == 0:
    ...     state = apply(state, legal_actions(state)[0])
    >>> sum(state.public.result.points)
    11
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..engine.actions import CALL, FAMILY_NUM_ACTIONS, PACKET
from ..engine.cards import HONOURS, NUM_CARDS, SUIT_MASK, CardMask, card_code, cards_of, mask_of, undealt
from ..engine.draws import shuffle
from ..engine.game import apply, check_cards, check_seat, illegal, legal_mask_for
from ..engine.scoring import RENUNCIO_POINTS, Declarations, HandScore, declare, find_accusi, no_declarations
from ..engine.state import PLAY, PLAYING, GameState, PublicState, SeatView, Table
from ..engine.switches import RuleSwitches, switch, when
from ..engine.variant import Game, with_public, with_table

SELECT_PACKETS, TURN_PACKETS, PLAY_STOCK, PLAY_PACKETS = 1, 2, 3, 4
"""The game's own phases (``PublicState.phase``); the plain card play is ``PLAY`` (0)."""
PHASE_NAMES = {SELECT_PACKETS: "select packets", TURN_PACKETS: "turn packets up", PLAY_STOCK: "play with a stock",
               PLAY_PACKETS: "play with packets"}  # fmt: skip
STOCK_SIZE = 20
PACKETS = 8
PACKET_SIZE = 5
_PIZZICHI = HONOURS[0] | HONOURS[1] | HONOURS[2] | HONOURS[3]


@dataclass(frozen=True)
class InDueRules(RuleSwitches):
    """Tressette in due's rule switches (see the module docstring's table)."""

    game: ClassVar[Any] = None

    deal: str = switch(
        "stock", ("stock", "packets"), "metà mazzo (ten cards and a stock of twenty) or pizzichino (packets of five)"
    )
    follow_suit_with_stock: bool = switch(
        True, bool, "the follower must follow suit while cards remain in the stock", needs=when(deal="stock")
    )
    show_drawn: bool = switch(True, bool, "each drawn card is shown to the opponent", needs=when(deal="stock"))
    accusi: str = switch(
        "none",
        ("none", "dealt", "dealt_and_drawn"),
        "declarations: none, from the ten dealt cards, or also whenever a draw completes a new combination",
        needs=when(deal="stock"),
    )
    objective: str = switch(
        "take",
        ("take", "avoid"),
        "take points, or avoid them: the hand's points count against the taker and the first to the target loses",
    )
    packet_deal: str = switch(
        "dealt",
        ("dealt", "choose"),
        "each player is dealt four packets, or the non-dealer picks four of the eight blind",
        needs=when(deal="packets"),
    )
    pizzichi_pickup: bool = switch(
        False,
        bool,
        "a face-up top that is an asso, 2 or 3 goes into its owner's hand, uncovering the next card",
        needs=when(deal="packets"),
    )
    target_score: int = switch(21, ("int", 1), "match target", needs=when(episode="match"))
    episode: str = switch("hand", ("hand", "match"), "one deal per episode, or a match to `target_score`")
    cappotto_bonus: int = switch(0, ("int", 0), "extra points to the player who makes every point of a hand")
    calling_out: bool = switch(
        False,
        bool,
        'chiamarsi fuori: the leader may claim the match (not with `objective="avoid"`)',
        needs=when(episode="match"),
    )
    illegal_action: str = switch(
        "renuncio", ("renuncio", "raise"), "an illegal action loses the hand 11-0, or raises ValueError"
    )

    def check_combinations(self) -> None:
        if self.calling_out and self.objective == "avoid":
            raise ValueError('rule switch calling_out=True needs objective="take": with "avoid" the target loses')


make_rules = InDueRules.make
"""``InDueRules`` from keyword switches (an unknown one is a TypeError naming the switches)."""


rules_table = InDueRules.table
"""The Markdown table of the switches."""


class InDuePublic(NamedTuple):
    """Tressette in due's public record (``Table.extra``)."""

    stock: int
    """Cards left in the stock (0 in the packet form)."""
    tops: tuple[tuple[int, ...], ...]
    """Per seat, the top card of each of its face-up packets (-1 once a packet is gone; packet form)."""
    sizes: tuple[tuple[int, ...], ...]
    """Per seat, the cards left in each of its face-up packets, the top included (packet form)."""
    turned: tuple[tuple[int, ...], ...]
    """Per seat, the bottom cards of the packets it has turned face up, in the order turned (seen by all)."""
    selected: tuple[int, ...]
    """The packets (0..7) the non-dealer has picked so far (``packet_deal="choose"``)."""


_EMPTY = InDuePublic(0, ((), ()), ((), ()), ((), ()), ())


class InDueHidden(NamedTuple):
    """Tressette in due's hidden record (``GameState.hidden``): never shown to a player."""

    stock: tuple[int, ...]
    """The stock's cards, the next to be drawn first."""
    packets: tuple[tuple[tuple[int, ...], ...], ...]
    """Per seat, its packets: while choosing, its four packets (bottom card first); in play,
    the cards under the top of each face-up packet (the next to be uncovered first)."""
    deck_packets: tuple[tuple[int, ...], ...]
    """The eight packets as dealt (bottom card first), for ``packet_deal="choose"``."""


_NO_HIDDEN = InDueHidden((), ((), ()), ())


def _table(rules: InDueRules, phase: int, exposed: int, extra: InDuePublic, must_follow: bool = True) -> Table:
    return Table(
        seats=2, tricks=20, sides=(0, 1), controllers=(0, 1), seat_of=(0, 1), signal_seats=0,
        calling_out=rules.calling_out, must_follow=must_follow, phase=phase, exposed=exposed, extra=extra,
    )  # fmt: skip


def _set(pair: tuple, seat: int, value: Any) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


class TressetteInDue(Game):
    """Tressette in due (see the module docstring)."""

    name = "tressette_in_due"
    rules_type = InDueRules
    num_actions = FAMILY_NUM_ACTIONS
    deal_options = ("hands", "stock", "packets", "dealer")
    side_word = "player"
    renuncio_text = "the player loses the hand 11-0"
    sampler_reads_deal = False
    """The deal sampler does not draw the stock's order: OpenSpiel's resampler renames the unseen cards at random."""
    search_mode = "endgame"
    """Once the stock (or the packets) is gone, in the phase ``PLAY``, every card is known: the endgame is solved."""

    def agents(self, rules: InDueRules) -> int:
        return 2

    # ------------------------------------------------------------------ dealing

    def checked_deal(self, rules: InDueRules, options: dict, first: bool) -> dict:
        out: dict = {}
        if "dealer" in options:
            if not first:
                raise TypeError("the next hand's dealer follows from the last hand: give the cards only")
            out["dealer"] = check_seat(options["dealer"], "dealer", 2)
        pool: dict = {}
        if rules.deal == "packets":
            for key in ("hands", "stock"):
                if key in options:
                    raise ValueError(
                        f'{key!r} is for deal="stock"; the packet form takes packets: 8 lists of 5 card ids'
                    )
            if "packets" in options:
                check_cards(options["packets"], (PACKET_SIZE,) * PACKETS, "packet", pool)
                out["packets"] = tuple(tuple(int(c) for c in packet) for packet in options["packets"])
            return out
        if "packets" in options:
            raise ValueError(
                'packets are for deal="packets"; the stock form takes hands (2 lists of 10) and a stock of 20'
            )
        if "hands" in options:
            out["hands"] = tuple(check_cards(options["hands"], (10, 10), "hand", pool))
        if "stock" in options:
            stock = options["stock"]
            check_cards([stock], (STOCK_SIZE,), "stock", pool)
            out["stock"] = tuple(int(c) for c in stock)
        return out

    def new_game(self, rules: InDueRules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer")
        if dealer is None:
            dealer = rng.randrange(2)
        return self._deal(rules, rng, options, dealer, (0, 0), 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        return self._deal(p.rules, rng, options, 1 - p.dealer, p.match_score, p.hand_number + 1)

    def _deal(
        self, rules: InDueRules, rng: random.Random, options: dict, dealer: int, score: tuple, number: int
    ) -> GameState:
        first = 1 - dealer  # the non-dealer leads
        if rules.deal == "packets":
            return self._deal_packets(rules, rng, options, dealer, score, number)
        hands, stock = options.get("hands"), options.get("stock")
        rest = undealt(mask_of(stock or ()), *(hands or ()))
        if hands is None and stock is None:
            deck = list(range(NUM_CARDS))
            shuffle(rng, deck)
            hands = (mask_of(deck[:10]), mask_of(deck[10:20]))
            stock = tuple(deck[20:])
        elif hands is None:
            shuffle(rng, rest)
            hands = (mask_of(rest[:10]), mask_of(rest[10:20]))
        elif stock is None:
            shuffle(rng, rest)
            stock = tuple(rest)
        accusi = declare(hands, (0, 1)) if rules.accusi != "none" else no_declarations(2, 2)
        table = _table(rules, PLAY_STOCK, 0, _EMPTY._replace(stock=STOCK_SIZE), rules.follow_suit_with_stock)
        public = _public(rules, dealer, first, accusi, score, number, table)
        return GameState(public, hands, hands, InDueHidden(stock, ((), ()), ()))

    def _deal_packets(
        self, rules: InDueRules, rng: random.Random, options: dict, dealer: int, score: tuple, number: int
    ) -> GameState:
        packets = options.get("packets")
        if packets is None:
            deck = list(range(NUM_CARDS))
            shuffle(rng, deck)
            packets = [tuple(deck[PACKET_SIZE * k : PACKET_SIZE * (k + 1)]) for k in range(PACKETS)]
        packets = tuple(tuple(p) for p in packets)
        non_dealer = 1 - dealer
        if rules.packet_deal == "choose":
            table = _table(rules, SELECT_PACKETS, 0, _EMPTY)
            public = _public(rules, dealer, non_dealer, no_declarations(2, 2), score, number, table)
            return GameState(public, (0, 0), (0, 0), InDueHidden((), ((), ()), packets))
        own = _set(_set(((), ()), non_dealer, packets[:4]), dealer, packets[4:])
        return self._start_turning(rules, dealer, score, number, own, packets)

    def _start_turning(self, rules, dealer, score, number, own, packets) -> GameState:
        """The phase in which each player turns two of his four packets face up (he sees their bottom cards)."""
        table = _table(rules, TURN_PACKETS, 0, _EMPTY)
        public = _public(rules, dealer, 1 - dealer, no_declarations(2, 2), score, number, table)
        # A seat's packets are numbered by their bottom cards, lowest id first (what it sees).
        own = tuple(tuple(sorted(own[s], key=lambda packet: packet[0])) for s in (0, 1))
        bottoms = tuple(mask_of(p[0] for p in own[s]) for s in (0, 1))
        return GameState(public, bottoms, bottoms, InDueHidden((), own, packets))

    # ------------------------------------------------------------------ the phases

    def phase_name(self, p: PublicState) -> str:
        return PHASE_NAMES.get(p.phase, f"phase {p.phase}")

    def legal_phase(self, state: GameState) -> int:
        p = state.public
        phase = p.table.phase
        if phase == SELECT_PACKETS:
            taken = p.extra.selected
            return sum(1 << (PACKET + k) for k in range(PACKETS) if k not in taken)
        if phase == TURN_PACKETS:  # the hand holds the four bottom cards
            return (state.hands[p.turn] & ~mask_of(p.extra.turned[p.turn])) << CALL
        hand = state.hands[p.turn]
        if p.trick and not p.table.must_follow:
            return hand  # while the stock lasts the follower may play any card (follow_suit_with_stock=False)
        return legal_mask_for(hand, p)

    def apply_phase(self, state: GameState, action: int) -> GameState:
        p = state.public
        phase = p.table.phase
        if phase == SELECT_PACKETS:
            if not self.legal_phase(state) >> action & 1 or action < PACKET:
                raise illegal(state, action, f"in this phase ({PHASE_NAMES[phase]}) choose one of the packets offered")
            return self._select(state, action - PACKET)
        if phase == TURN_PACKETS:
            if not self.legal_phase(state) >> action & 1 or not CALL <= action < CALL + 40:
                raise illegal(state, action, f"in this phase ({PHASE_NAMES[phase]}) name the bottom card of a packet")
            return self._turn(state, action - CALL)
        # A card play: the core's, then the stock's draws or the packets' uncovering.
        after = apply(with_public(state, with_table(p, self._plain(p.table))), action)
        q = after.public
        if q.status != PLAYING:  # a claim ended it (the stock form never ends the hand in this phase otherwise)
            return after
        if phase == PLAY_STOCK:
            if q.tricks_done > p.tricks_done:
                return self._draw(after, p.table)
            return with_public(after, with_table(q, p.table))
        return self._uncover(after, p.table, p.turn, action % 40)

    _plain_kept: tuple = (None, None)
    """(a table of the stock or packets phase, the same table in phase ``PLAY``): the last one made."""

    def _plain(self, table: Table) -> Table:
        """``table`` in phase ``PLAY``, for the core's card play: made once for each table (one for each trick)."""
        kept = self._plain_kept
        if kept[0] is table:
            return kept[1]
        plain = table._replace(phase=PLAY)
        self._plain_kept = (table, plain)  # one tuple, replaced whole (safe across threads)
        return plain

    def _select(self, state: GameState, k: int) -> GameState:
        """The non-dealer picks packet k (blind); after the fourth the dealer gets the other four."""
        p = state.public
        extra = p.extra._replace(selected=p.extra.selected + (k,))
        if len(extra.selected) < 4:
            table = p.table._replace(extra=extra)
            return with_public(state, p._replace(table=table, history=p.history + (PACKET + k,)))
        packets = state.hidden.deck_packets
        picked = tuple(packets[j] for j in extra.selected)
        rest = tuple(packets[j] for j in range(PACKETS) if j not in extra.selected)
        non_dealer = 1 - p.dealer
        own = _set(_set(((), ()), non_dealer, picked), p.dealer, rest)
        new = self._start_turning(p.rules, p.dealer, p.match_score, p.hand_number, own, packets)
        return with_public(new, new.public._replace(history=p.history + (PACKET + k,)))

    def _turn(self, state: GameState, bottom: int) -> GameState:
        """The seat on turn turns face up its packet whose bottom card is ``bottom``; when both have turned two, play begins."""
        p = state.public
        seat = p.turn
        turned = _set(p.extra.turned, seat, p.extra.turned[seat] + (bottom,))
        history = p.history + (CALL + bottom,)
        exposed = p.table.exposed | 1 << (40 * seat + bottom)  # turned face up: its top is seen at once
        if len(turned[seat]) < 2 or len(turned[1 - seat]) < 2:
            table = p.table._replace(exposed=exposed, extra=p.extra._replace(turned=turned))
            nxt = seat if len(turned[seat]) < 2 else 1 - seat  # the non-dealer chooses both, then the dealer
            return with_public(state, p._replace(table=table, history=history, turn=nxt, leader=nxt))
        # Both have chosen: the hands, the face-up tops, the cards under them.
        own = state.hidden.packets
        hands, exposed, under, tops = [0, 0], 0, [(), ()], [(), ()]
        for s in (0, 1):
            for packet in own[s]:
                if packet[0] in turned[s]:
                    hands[s] |= 1 << packet[0]  # the bottom card, now the top
                    exposed |= 1 << (40 * s + packet[0])
                else:
                    hands[s] |= mask_of(packet)
            up = [j for j, packet in enumerate(own[s]) if packet[0] in turned[s]]  # by bottom card
            tops[s] = tuple(own[s][j][0] for j in up)
            under[s] = tuple(own[s][j][1:] for j in up)
        sizes = ((PACKET_SIZE, PACKET_SIZE), (PACKET_SIZE, PACKET_SIZE))
        extra = InDuePublic(0, (tops[0], tops[1]), sizes, turned, p.extra.selected)
        first = 1 - p.dealer
        table = _table(p.rules, PLAY_PACKETS, exposed, extra)
        public = p._replace(table=table, history=history, turn=first, leader=first)
        hidden = state.hidden._replace(packets=(under[0], under[1]))
        state = GameState(public, (hands[0], hands[1]), (hands[0], hands[1]), hidden)
        if p.rules.pizzichi_pickup:
            for s in (0, 1):
                for j in (0, 1):
                    state = self._pickups(state, s, j)
        return state

    def _uncover(self, state: GameState, table: Table, seat: int, card: int) -> GameState:
        """After a card play in the packet form: a top that was played uncovers the next card of its packet."""
        p = state.public
        tops = table.extra.tops[seat]
        if card not in tops:  # a card from the hand
            return with_public(state, p._replace(table=_after_packets(table)))
        state = with_public(state, p._replace(table=table))
        state = _uncover_packet(state, seat, tops.index(card))
        if p.rules.pizzichi_pickup:
            state = self._pickups(state, seat, tops.index(card))
        return with_public(state, state.public._replace(table=_after_packets(state.public.table)))

    @staticmethod
    def _pickups(state: GameState, seat: int, j: int) -> GameState:
        """``pizzichi_pickup``: while the top of ``seat``'s packet ``j`` is an asso, 2 or 3, it goes into the hand.

        The card stays face up (everyone saw it) and playable; the packet uncovers its next card.
        """
        while True:
            top = state.public.table.extra.tops[seat][j]
            if top < 0 or not _PIZZICHI >> top & 1:
                return state
            state = _uncover_packet(state, seat, j)

    def _draw(self, state: GameState, table: Table) -> GameState:
        """After a trick while the stock lasts: the winner draws the top card, then the loser."""
        p = state.public
        rules = p.rules
        stock = state.hidden.stock
        winner = p.turn
        hands = list(state.hands)
        exposed = table.exposed
        voids = p.voids
        accusi = p.accusi
        for k, seat in enumerate((winner, 1 - winner)):
            card = stock[k]
            hands[seat] |= 1 << card
            if rules.show_drawn:
                exposed |= 1 << (40 * seat + card)
            else:  # a hidden card may be of a suit the seat had shown it lacked
                voids &= ~(0xF << (4 * seat))
            if rules.accusi == "dealt_and_drawn":
                accusi = _declare_drawn(accusi, seat, hands[seat] | p.played_by(seat), card)
        stock = stock[2:]
        extra = table.extra._replace(stock=len(stock))
        if stock:
            table = table._replace(exposed=exposed, extra=extra)
        else:  # the stock is gone: the core's card play, following suit, to the end
            table = table._replace(exposed=exposed, extra=extra, phase=PLAY, must_follow=True)
        public = p._replace(table=table, voids=voids, accusi=accusi)
        return GameState(public, (hands[0], hands[1]), state.dealt, state.hidden._replace(stock=stock))

    # ------------------------------------------------------------------ a determinization

    def determinize_refusal(self, rules: InDueRules) -> str | None:
        """The packet form: the cards under the packets' tops are not drawn from a view (the stock form's are)."""
        if rules.deal != "stock":
            return (
                f'its packet form (deal="{rules.deal}") has no determinization from a seat\'s view here (the cards '
                'under the packets\' tops are not drawn); the stock form (deal="stock") has one'
            )
        return None

    def drawn_state(
        self,
        view: SeatView,
        rng: random.Random,
        sample: Callable[[], tuple[tuple[CardMask, ...], CardMask]],
        strict: bool = True,
    ) -> GameState:
        """The stock form: the opponent's hand and the stock's order drawn here (the deal sampler knows no stock).

        The opponent holds the cards it has shown and not played, and as many more unseen cards
        as its hand has room for; ``strict``: none of a suit it is void in (a void may since have
        drawn into the suit, so a loose draw leaves it out). The stock is the other unseen
        cards, shuffled. ``sample`` is not called. Not read: what declarations (``accusi``) say of the
        cards a player was dealt without showing them (a tris's missing fourth card, a combination
        not declared): a draw may give the opponent such cards.
        """
        p = view.public
        me, other = view.seat, 1 - view.seat
        known = (p.exposed_by(other) | p.revealed_by(other)) & ~p.all_played
        free = view.unseen & ~known
        count = NUM_CARDS - view.hand.bit_count() - p.all_played.bit_count() - p.extra.stock - known.bit_count()
        pool = cards_of(free)
        if strict:
            voids = sum(SUIT_MASK[s] for s in range(4) if p.is_void(other, s))
            pool = [c for c in pool if not voids >> c & 1]
        if not 0 <= count <= len(pool):
            raise ValueError(f"no hand of {count} cards for the opponent among {len(pool)}")
        chosen = rng.sample(pool, count)
        hand = known | sum(1 << c for c in chosen)
        stock = [c for c in cards_of(free) if not hand >> c & 1]
        shuffle(rng, stock)
        hands = [0, 0]
        hands[me], hands[other] = view.hand, hand
        held = (hands[0], hands[1])
        return GameState(p, held, held, InDueHidden(tuple(stock), ((), ()), ()))

    # ------------------------------------------------------------------ scoring and the match

    def match_winner(self, rules: InDueRules, score: tuple[int, ...]) -> int | None:
        winner = super().match_winner(rules, score)
        if winner is None or rules.objective == "take":
            return winner
        return 1 - winner  # avoid: the first to the target loses

    def renuncio(self, state: GameState) -> GameState:
        p = state.public
        offender = p.turn
        if p.rules.objective == "take":
            points = _set((RENUNCIO_POINTS, RENUNCIO_POINTS), offender, 0)
        else:  # the offender is charged the hand
            points = _set((0, 0), offender, RENUNCIO_POINTS)
        result = HandScore(points, p.thirds, (0, 0), renuncio=offender)
        return with_public(state, self.close_hand(p, result))

    def returns(self, p: PublicState) -> tuple[float, ...]:
        """Points difference of the hand (the other way round with ``objective="avoid"``), or +1/-1 for the match."""
        if p.rules.episode == "match":
            return (1.0, -1.0) if p.winner == 0 else (-1.0, 1.0)
        diff = float(p.result.points[0] - p.result.points[1])
        if p.rules.objective == "avoid":
            diff = -diff
        return diff, -diff

    def zero_sum(self, rules: InDueRules) -> bool:
        return True

    def return_bound(self, rules: InDueRules) -> float:
        """11 for the cards and the declarations: at most 24, or 33 when a drawn fourth card adds a quattro to a tris."""
        return 11.0 + (33.0 if rules.accusi == "dealt_and_drawn" else 24.0) + rules.cappotto_bonus

    def points_sign(self, rules: InDueRules) -> int:
        return -1 if rules.objective == "avoid" else 1

    def lead(self, p: PublicState, seat: int) -> float:
        """The thirds lead in points; with ``objective="avoid"`` the thirds count against their taker."""
        lead = super().lead(p, seat)
        return -lead if p.rules.objective == "avoid" else lead

    # ------------------------------------------------------------------ text

    def hand_size(self, p: PublicState, seat: int) -> int:
        if p.table.phase in (SELECT_PACKETS, TURN_PACKETS):
            return 0
        if p.rules.deal == "stock":
            return 10 + min(p.tricks_done, 10) - p.played_by(seat).bit_count()
        # Ten cards in hand; each face-up packet has given its cards taken out, and its top.
        given = sum(PACKET_SIZE - n + (n > 0) for n in p.extra.sizes[seat])
        return 10 + given - p.played_by(seat).bit_count()

    def action_role(self, p: PublicState, action: int) -> str | None:
        """Turning packets up: ``CALL + c`` turns up the packet whose bottom card is c."""
        return "turn_up" if p.table.phase == TURN_PACKETS and CALL <= action < CALL + 40 else None

    def action_label(self, p: PublicState, action: int) -> str:
        """``volta Ad``: turn up the packet whose bottom card is the asso di denari."""
        if self.action_role(p, action) == "turn_up":
            return f"volta {card_code(action - CALL)}"
        return super().action_label(p, action)

    def card_play_begun(self, p: PublicState) -> bool:
        """The stock and packet forms play tricks in phases of their own."""
        return super().card_play_begun(p) or p.phase in (PLAY_STOCK, PLAY_PACKETS)

    def render_lines(self, p: PublicState, names: Any) -> list[str]:
        from ..engine.cards import card_code
        from ..engine.render import count_text

        extra = p.extra
        if p.rules.deal == "stock":
            return [f"stock: {count_text(extra.stock)}"]
        if p.table.phase == SELECT_PACKETS:
            return [f"packets picked by {names[1 - p.dealer]}: {len(extra.selected)} of 4"]
        if p.table.phase == TURN_PACKETS:
            return []
        lines = []
        for s in (0, 1):
            packets = [
                f"{card_code(t)} ({n} cards)" if t >= 0 else "gone"
                for t, n in zip(extra.tops[s], extra.sizes[s], strict=True)
            ]
            lines.append(f"{names[s]} face-up packets: " + " · ".join(packets))
        return lines

    def render_hidden(self, state: GameState) -> list[str]:
        from ..engine.cards import card_code

        hidden = state.hidden
        if hidden.stock:
            return ["stock (next first): " + " ".join(card_code(c) for c in hidden.stock)]
        return []


def _uncover_packet(state: GameState, seat: int, j: int) -> GameState:
    """``seat``'s face-up packet ``j`` loses its top: the next card (if any) is turned up, playable and public."""
    p = state.public
    table = p.table
    extra = table.extra
    under = state.hidden.packets[seat][j]
    tops = list(extra.tops[seat])
    sizes = list(extra.sizes[seat])
    sizes[j] -= 1
    hands = list(state.hands)
    exposed = table.exposed
    if under:
        tops[j] = under[0]
        hands[seat] |= 1 << under[0]
        exposed |= 1 << (40 * seat + under[0])
    else:
        tops[j] = -1
    packets = list(state.hidden.packets[seat])
    packets[j] = under[1:]
    extra = extra._replace(tops=_set(extra.tops, seat, tuple(tops)), sizes=_set(extra.sizes, seat, tuple(sizes)))
    hidden = state.hidden._replace(packets=_set(state.hidden.packets, seat, tuple(packets)))
    public = p._replace(table=table._replace(exposed=exposed, extra=extra))
    return GameState(public, (hands[0], hands[1]), state.dealt, hidden)


def _after_packets(table: Table) -> Table:
    """The table after a packet-form play: the core's plain card play once every packet is gone."""
    if not any(n for sizes in table.extra.sizes for n in sizes):
        return table._replace(phase=PLAY)
    return table


def _public(rules, dealer, first, accusi, score, number, table) -> PublicState:
    return PublicState(
        rules=rules, status=PLAYING, dealer=dealer, first_leader=first, accusi=accusi, match_score=score,
        hand_number=number, result=None, winner=None, table=table, leader=first, tricks_done=0, thirds=(0, 0),
        turn=first, trick=(), played=0, signals=0, voids=0, history=(),
    )  # fmt: skip


def _declare_drawn(accusi: Declarations, seat: int, cards: CardMask, drawn: int) -> Declarations:
    """``dealt_and_drawn``: the combinations of ``cards`` that hold the card just drawn and are new for the seat."""
    mine = accusi.by_seat[seat]
    had = {(a.kind, a.cards) for a in mine}
    new = tuple(a for a in find_accusi(cards) if a.cards >> drawn & 1 and (a.kind, a.cards) not in had)
    if not new:
        return accusi
    by_seat = _set(accusi.by_seat, seat, mine + new)
    revealed = accusi.revealed
    for a in new:
        revealed |= a.cards << (40 * seat)
    points = _set(accusi.points, seat, accusi.points[seat] + sum(a.points for a in new))
    return Declarations(by_seat, revealed, points)


IN_DUE = TressetteInDue()
InDueRules.game = IN_DUE
