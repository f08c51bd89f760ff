"""Tressette in due's card play with a stock on a mirror: ``StockMirror``, the tricks and the draws after them.

While the stock lasts, in due plays its cards in a phase of its own (``PLAY_STOCK``): after each
trick the winner draws the stock's top card and the loser the next (``games.in_due``). A
``StockMirror`` plays those tricks as ``envs.mirror.FaceUpMirror`` plays the plain card play, and
the draws too, patching what each changes in every watched seat's observation:

| a draw changes | in the drawer's view | in the other seat's view |
| --- | --- | --- |
| the drawer's hand | its ``hand`` bit | nothing (a hidden card) |
| with ``show_drawn`` (the default) | its ``exposed`` bit (your face-up cards) | its ``exposed`` bit (seat 1) and its ``opponent_hand`` bit |
| without ``show_drawn`` | the drawer's voids forgotten | the drawer's voids forgotten |
| the stock | the ``stock`` thermometer, two cards fewer | the same |

and keeps the core's table (its ``exposed`` cards and stock count) and hidden stock, so that
``state()`` is the core's state. The stock's last trick, whose draws empty it (the table then
moves to phase ``PLAY``: every card is known and the suit must be followed), is the core's
(``takes`` is False for its last card), and a ``FaceUpMirror`` plays the rest of the hand.

Where it fits (``stock_mirror``, the catalog's ``mirror`` of Tressette in due, which
``envs.mirror.MirroredGame`` asks after each step of the core): the suit followed while the
stock lasts (``follow_suit_with_stock``, the default: the legal cards are then the plain card
play's, ``legal_mask_for``'s) and no declaration of drawn cards (``accusi`` other than
``"dealt_and_drawn"``), and no piece of the observation that a card's play changes
(``ExtraPiece.changed_by``: ``FaceUpMirror`` would fill it before the draw; in due has none). Elsewhere, and in the packet form, the core plays until the plain card
play. ``tests/envs/test_mirror.py`` pins it to the core: the state, every observation, mask,
reward and info after every step, under every in due rule set of ``tests/games/family.py`` and
``show_drawn=False``. Its figures: docs/benchmarks.md ("In due's stock on the mirror").
"""

from __future__ import annotations

from ..encoders.observation import Observation
from ..engine.actions import CALL_OUT
from ..engine.state import FIXED_FIELDS, GameState, PublicState
from ..games.in_due import PLAY_STOCK, STOCK_SIZE, InDueRules
from .mirror import FaceUpMirror, MirrorLayout

__all__ = ["StockMirror", "stock_mirror"]


def stock_mirror(
    game: GameState, watched: tuple[int, ...], encoder: Observation, layout: MirrorLayout
) -> StockMirror | None:
    """A ``StockMirror`` of ``game``'s hand where one fits (see the module docstring), else None."""
    p = game.public
    rules = p.rules
    if (
        p.table.phase == PLAY_STOCK
        and type(rules) is InDueRules
        and p.table.must_follow
        and rules.accusi != "dealt_and_drawn"
        and "stock" in layout.at
        and "opponent_hand" in layout.at
        and layout.exposed >= 0
    ):
        mirror = StockMirror(game, watched, encoder, layout)
        if not mirror.changing:  # (a piece a card changes, ``changed_by``, would be filled before the draw: none is)
            return mirror
    return None


class StockMirror(FaceUpMirror):
    """A ``FaceUpMirror`` of Tressette in due's card play with a stock: each trick ends in two draws (the module docstring).

    A second implementation of ``games.in_due``'s ``_draw``, pinned to it by ``tests/envs/test_mirror.py``.
    """

    __slots__ = ("places",)

    def __init__(self, game: GameState, watched: tuple[int, ...], encoder: Observation, layout: MirrorLayout) -> None:
        super().__init__(game, watched, encoder, layout)
        at = layout.at
        self.places = (
            at["hand"], at["stock"], at["opponent_hand"], layout.exposed, layout.voids,
            ~(((1 << STOCK_SIZE) - 1) << at["stock"]), game.public.rules.show_drawn,
        )  # fmt: skip
        """Where the pieces a draw changes start (and every bit but the ``stock`` piece's), and whether draws are shown."""

    def copy(self) -> StockMirror:
        other = FaceUpMirror.copy(self)
        other.places = self.places
        return other

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
        self.hidden = self.hidden._replace(stock=stock[2:])
        table = self.table = table._replace(exposed=exposed, extra=table.extra._replace(stock=left))
        self.fixed = self.fixed[:_TABLE] + (table,)
        self.voids = voids
        now = ((1 << left) - 1) << stock_at
        for me in watched:
            obs[me] = obs[me] & keep | now


_TABLE = FIXED_FIELDS - 1
"""Where ``table`` lies in ``CardPlayMirror.fixed`` (``PublicState``'s fields from ``rules`` to ``table``)."""
if PublicState._fields[_TABLE] != "table":  # pragma: no cover - a guard for whoever reorders PublicState
    raise ImportError("envs.in_due_mirror: PublicState's field before FIXED_FIELDS is no longer table")
