"""Tressette in due's card play with a stock or face-up packets on a mirror: ``StockMirror`` and ``PacketMirror``.

In due plays its cards in a phase of its own while its stock lasts (``PLAY_STOCK``: after each
trick the winner draws the stock's top card and the loser the next) and while face-up packets
remain (``PLAY_PACKETS``: a packet's top played uncovers the next card of the packet, into its
owner's hand, face up; with ``pizzichi_pickup`` again while that card is an asso, a 2 or a 3).
These mirrors play those tricks as ``envs.mirror.FaceUpMirror`` plays the plain card play, and
the draws and the uncovered cards too (second implementations of ``games.in_due``'s ``_draw``,
``_uncover`` and ``_pickups``), patching what each changes in every watched seat's observation:

| what changes | in the owner's view | in the other seat's view |
| --- | --- | --- |
| a card drawn or uncovered joins a hand | its ``hand`` bit | nothing, unless face up |
| face up (drawn with ``show_drawn``, the default; every uncovered card) | its ``exposed`` bit (your face-up cards) | its ``exposed`` bit (seat 1) and its ``opponent_hand`` bit |
| a card drawn without ``show_drawn`` | the drawer's voids forgotten | the drawer's voids forgotten |
| the stock | the ``stock`` thermometer, two cards fewer | the same |
| a packet | its ``packet_sizes`` thermometer, a card fewer (more with the pickups) | the same |
| the last packet gone | the ``phase`` piece's bit cleared (the plain card play) | the same |

They keep the core's table (its ``exposed`` cards, the stock count, the packets' tops and
sizes, the phase) and hidden record (the stock, the cards under the tops), so that ``state()``
is the core's state. The stock's last trick, whose draws empty it (the table then moves to
phase ``PLAY``: every card is known and the suit must be followed), is the core's (``takes`` is
False for its last card), and a ``FaceUpMirror`` plays the rest of the hand; a
``PacketMirror`` plays on to the hand's last card, which is the core's as in every game.

Where they fit (``phase_mirror``, the catalog's ``mirror`` of Tressette in due, which
``envs.mirror.MirroredGame`` asks after each step of the core where the plain card play's mirror
does not fit): the suit followed (with the stock: ``follow_suit_with_stock``, the default; the
legal cards are then the plain card play's, ``legal_mask_for``'s), no declaration of drawn cards
(``accusi`` other than ``"dealt_and_drawn"``), and no piece of the observation that a card's play
changes (``ExtraPiece.changed_by``: ``FaceUpMirror`` would fill it before the draw; in due has
none). Elsewhere, and while the packets are chosen and turned up, the core plays.
``tests/envs/test_mirror.py`` pins them to the core: the state, every observation, mask, reward
and info after every step, under every in due rule set of ``tests/games/family.py``,
``show_drawn=False`` and three packet rule sets (random play and the face-up cards first, which
empties the packets early). Their figures: docs/benchmarks.md ("In due's stock and packets on
the mirror").
"""

from __future__ import annotations

from ..encoders.in_due import _PHASE_BIT
from ..encoders.observation import Observation
from ..engine.actions import CALL_OUT
from ..engine.state import FIXED_FIELDS, PLAY, GameState, PublicState, Table
from ..games.in_due import _PIZZICHI, PLAY_PACKETS, PLAY_STOCK, STOCK_SIZE, InDueHidden, InDuePublic, InDueRules
from .mirror import FaceUpMirror, MirrorLayout

__all__ = ["PacketMirror", "StockMirror", "phase_mirror"]


def phase_mirror(
    game: GameState, watched: tuple[int, ...], encoder: Observation, layout: MirrorLayout
) -> FaceUpMirror | None:
    """A ``StockMirror`` or a ``PacketMirror`` of ``game``'s hand where one fits (see the module docstring), else None.

    The catalog's ``mirror`` of Tressette in due: ``envs.mirror.MirroredGame`` asks it after each
    step of the core where the plain card play's mirror does not fit.
    """
    p = game.public
    rules = p.rules
    phase = p.table.phase
    if (
        type(rules) is not InDueRules
        or not p.table.must_follow
        or layout.exposed < 0
        or not {"opponent_hand", "stock", "packet_sizes", "phase"} <= layout.at.keys()
    ):
        return None
    if phase == PLAY_STOCK and rules.accusi != "dealt_and_drawn":
        mirror: FaceUpMirror = StockMirror(game, watched, encoder, layout)
    elif phase == PLAY_PACKETS:
        mirror = PacketMirror(game, watched, encoder, layout)
    else:
        return None
    # (A piece a card's play changes, ``changed_by``, would be filled before the draw or the packet's next card: in
    # due has none.)
    return None if mirror.changing else mirror


class _InDueMirror(FaceUpMirror):
    """What both of in due's own mirrors keep besides a ``FaceUpMirror``'s: ``places``, made once a hand by ``_places``."""

    __slots__ = ("places",)

    def __init__(self, game: GameState, watched: tuple[int, ...], encoder: Observation, layout: MirrorLayout) -> None:
        super().__init__(game, watched, encoder, layout)
        self.places = self._places(layout.at, layout, game.public.rules)
        """Where the pieces the mirror patches itself start, and the rules it reads (the subclass's ``_places``)."""

    @staticmethod
    def _places(at: dict[str, int], layout: MirrorLayout, rules: InDueRules) -> tuple:
        raise NotImplementedError

    def copy(self) -> _InDueMirror:
        other = FaceUpMirror.copy(self)
        other.places = self.places
        return other


class StockMirror(_InDueMirror):
    """A ``FaceUpMirror`` of Tressette in due's card play with a stock: each trick ends in two draws (the module docstring).

    A second implementation of ``games.in_due``'s ``_draw``, pinned to it by ``tests/envs/test_mirror.py``.
    """

    __slots__ = ()

    @staticmethod
    def _places(at: dict[str, int], layout: MirrorLayout, rules: InDueRules) -> tuple:
        """Where the pieces a draw changes start (and every bit but the ``stock`` piece's), and whether draws are shown."""
        keep = ~(((1 << STOCK_SIZE) - 1) << at["stock"])
        return at["hand"], at["stock"], at["opponent_hand"], layout.exposed, layout.voids, keep, rules.show_drawn

    def takes(self, action: int) -> bool:
        """Whether ``play`` may take this legal action: a card, but not the one that ends the stock's last trick."""
        return action < CALL_OUT and (len(self.trick) < self.n - 1 or self.table.extra.stock > 2)

    def play(self, action: int) -> None:
        FaceUpMirror.play(self, action)
        if self.trick:  # the trick goes on: nothing is drawn
            return
        hand_at, stock_at, opponent_at, exposed_at, voids_at, keep, show = self.places
        stock = self.hidden.stock
        table = self.table
        exposed, voids = table.exposed, self.voids
        hands, obs, watched = self.hands, self.obs, self.watched
        winner = self.turn  # (the trick's winner leads the next)
        for seat, card in ((winner, stock[0]), (1 - winner, stock[1])):
            hands[seat] |= 1 << card
            if show:
                exposed |= 1 << (40 * seat + card)
            else:
                voids &= ~(0xF << (4 * seat))
            for me in watched:
                bits = obs[me]
                if me == seat:
                    bits |= 1 << (hand_at + card)
                    bits = bits | 1 << (exposed_at + card) if show else bits & ~(0xF << voids_at)
                elif show:
                    bits |= 1 << (exposed_at + 40 + card) | 1 << (opponent_at + card)
                else:
                    bits &= ~(0xF << (voids_at + 4))
                obs[me] = bits
        left = len(stock) - 2
        # ``_replace`` of the three records, written out (each ``stock`` first; ``exposed`` and ``extra`` last)
        self.hidden = _new(InDueHidden, (stock[2:],) + self.hidden[1:])
        table = self.table = _new(Table, table[:-2] + (exposed, _new(InDuePublic, (left,) + table.extra[1:])))
        self.fixed = self.fixed[:_TABLE] + (table,)
        self.voids = voids
        now = ((1 << left) - 1) << stock_at
        for me in watched:
            obs[me] = obs[me] & keep | now


class PacketMirror(_InDueMirror):
    """A ``FaceUpMirror`` of Tressette in due's card play with face-up packets: a packet's top played uncovers the next.

    A second implementation of ``games.in_due``'s ``_uncover`` (with ``pizzichi_pickup`` its
    ``_pickups``), pinned to it by ``tests/envs/test_mirror.py``; the module docstring has the pieces.
    """

    __slots__ = ()

    @staticmethod
    def _places(at: dict[str, int], layout: MirrorLayout, rules: InDueRules) -> tuple:
        """Where the pieces an uncovered card changes start, the ``phase`` piece's bit of this phase, and the pickups."""
        phase_bit = 1 << (at["phase"] + _PHASE_BIT[PLAY_PACKETS])
        return at["hand"], at["opponent_hand"], layout.exposed, at["packet_sizes"], phase_bit, rules.pizzichi_pickup

    def play(self, action: int) -> None:
        seat = self.turn
        card = action % 40
        FaceUpMirror.play(self, action)
        table = self.table
        extra = table.extra
        tops = extra.tops[seat]
        if card not in tops:  # a card from the hand
            return
        hand_at, opponent_at, exposed_at, sizes_at, phase_bit, pickup = self.places
        j = tops.index(card)
        tops, sizes = list(tops), list(extra.sizes[seat])
        packets = list(self.hidden.packets[seat])
        exposed = table.exposed
        obs, watched = self.obs, self.watched
        while True:  # the packet's next card turned up (with the pickups: while it is an asso, a 2 or a 3)
            under = packets[j]
            packets[j] = under[1:]
            sizes[j] -= 1
            top = under[0] if under else -1
            tops[j] = top
            if top >= 0:
                self.hands[seat] |= 1 << top
                exposed |= 1 << (40 * seat + top)
                for me in watched:
                    if me == seat:
                        obs[me] |= 1 << (hand_at + top) | 1 << (exposed_at + top)
                    else:
                        obs[me] |= 1 << (exposed_at + 40 + top) | 1 << (opponent_at + top)
            if not (pickup and top >= 0 and _PIZZICHI >> top & 1):
                break
        for me in watched:  # the packet's size, a thermometer of five for (relative seat, packet)
            at = sizes_at + 5 * (2 * ((seat - me) % 2) + j)
            obs[me] = obs[me] & ~(0x1F << at) | ((1 << sizes[j]) - 1) << at
        pair = (tuple(tops), extra.tops[1]) if seat == 0 else (extra.tops[0], tuple(tops))
        counts = (tuple(sizes), extra.sizes[1]) if seat == 0 else (extra.sizes[0], tuple(sizes))
        table = table._replace(exposed=exposed, extra=extra._replace(tops=pair, sizes=counts))
        if not any(counts[0]) and not any(counts[1]):  # every packet gone: the plain card play from here on
            table = table._replace(phase=PLAY)
            for me in watched:
                obs[me] &= ~phase_bit
        held = self.hidden.packets
        self.hidden = self.hidden._replace(
            packets=(tuple(packets), held[1]) if seat == 0 else (held[0], tuple(packets))
        )
        self.table = table
        self.fixed = self.fixed[:_TABLE] + (table,)


_TABLE = FIXED_FIELDS - 1
"""Where ``table`` lies in ``CardPlayMirror.fixed`` (``PublicState``'s fields from ``rules`` to ``table``)."""
if PublicState._fields[_TABLE] != "table":  # pragma: no cover - a guard for whoever reorders PublicState
    raise ImportError("envs.in_due_mirror: PublicState's field before FIXED_FIELDS is no longer table")
if (
    InDueHidden._fields[0] != "stock" or InDuePublic._fields[0] != "stock" or Table._fields[-2:] != ("exposed", "extra")
):  # pragma: no cover - a guard for whoever reorders them (``StockMirror.play`` builds them from slices)
    raise ImportError("envs.in_due_mirror: StockMirror.play needs stock first and Table's exposed and extra last")
_new = tuple.__new__
