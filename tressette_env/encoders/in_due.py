"""Tressette in due's observation and state vector (pieces as in ``observation``, plus the game's own).

Seats are relative: 0 = you, 1 = your opponent. The layout is the same for every switch
(pieces a form does not use stay 0), so one policy fits them all.
"""

from __future__ import annotations

from functools import cache

from ..engine.cards import cards_of
from ..engine.state import GameState, PublicState, Table
from ..games.in_due import PLAY_PACKETS, PLAY_STOCK, SELECT_PACKETS, STOCK_SIZE, TURN_PACKETS, InDueRules
from .global_state import ExtraStatePiece, StateEncoder
from .layout import Piece
from .observation import ExtraPiece, Observation

_M40 = (1 << 40) - 1
_PHASE_BIT = {SELECT_PACKETS: 0, TURN_PACKETS: 1, PLAY_STOCK: 2, PLAY_PACKETS: 3}


def _stock(p: PublicState, me: int, hand: int) -> int:
    return (1 << p.table.extra.stock) - 1


def _opponent_hand(p: PublicState, me: int, hand: int) -> int:
    """The opponent's cards that the observer knows: those face up, and all of them once the stock is gone."""
    other = 1 - me
    known = p.exposed_by(other)
    if p.rules.deal == "stock" and p.table.extra.stock == 0 and p.status == 0:
        known |= _M40 & ~(hand | p.all_played)  # ten cards each, twenty played: the rest is his
    return known


def _no_card(table: Table) -> int:
    return 0


def _phase(p: PublicState, me: int, hand: int) -> int:
    bit = _PHASE_BIT.get(p.table.phase)
    return 0 if bit is None or p.status != 0 else 1 << bit


def _own_packets(p: PublicState, me: int, hand: int) -> int:
    """While turning packets up: the bottom card of each of your four packets (numbered by card id)."""
    if p.table.phase != TURN_PACKETS:
        return 0
    bits = 0
    for k, card in enumerate(cards_of(hand)):  # the hand holds the four bottom cards
        bits |= 1 << (40 * k + card)
    return bits


def _turned(p: PublicState, me: int, hand: int) -> int:
    if p.table.phase != TURN_PACKETS:
        return 0
    turned = p.table.extra.turned[me]  # bottom cards; the packets are numbered as in own_packets, by bottom card
    return sum(1 << k for k, card in enumerate(cards_of(hand)) if card in turned)


def _packet_sizes(p: PublicState, me: int, hand: int) -> int:
    bits = 0
    sizes = p.table.extra.sizes
    for rel in (0, 1):
        for j, n in enumerate(sizes[(me + rel) % 2]):
            bits |= ((1 << n) - 1) << (5 * (2 * rel + j))
    return bits


# The marks say how the plain card play (phase ``PLAY``: after the stock or the packets are gone, the
# part of a hand a mirror plays, ``envs.mirror``) changes each piece: ``opponent_hand`` is then the
# opponent's whole hand (or, with packets, its face-up cards), which only loses the cards it plays;
# ``phase``, ``own_packets`` and ``turned`` are 0 throughout it. While the stock lasts or packets remain,
# ``envs.in_due_mirror``'s ``StockMirror`` and ``PacketMirror`` play the tricks by the same marks and set
# what a draw or an uncovered card changes themselves: its ``opponent_hand`` bit (when face up), the
# ``stock`` and ``packet_sizes`` thermometers, and the ``phase`` bit when the last packet is gone.
EXTRAS = (
    ExtraPiece(Piece("stock", (STOCK_SIZE,), "cards left in the stock, as a thermometer"), _stock, of_table=True),
    ExtraPiece(
        Piece(
            "opponent_hand", (40,), "the opponent's cards you know: face up, and all of them once the stock is empty"
        ),
        _opponent_hand,
        played_out=True,
    ),
    ExtraPiece(
        Piece(
            "phase", (4,), "one-hot: select packets, turn packets up, play with a stock, play with packets (0 after)"
        ),
        _phase,
        changed_by=_no_card,
    ),
    ExtraPiece(
        Piece("own_packets", (4, 40), "while turning packets up: the bottom card of each of your four packets"),
        _own_packets,
        changed_by=_no_card,
    ),
    ExtraPiece(
        Piece("turned", (4,), "while turning packets up: the packets you have turned face up"),
        _turned,
        changed_by=_no_card,
    ),
    ExtraPiece(
        Piece("packet_sizes", (2, 2, 5), "cards left in each relative seat's two face-up packets, as thermometers"),
        _packet_sizes,
        of_table=True,
    ),
)


@cache
def observation(rules: InDueRules) -> Observation:
    """The observation of a seat of Tressette in due (the same layout for every rule set)."""
    return OBSERVATION


OBSERVATION = Observation(2, 2, 20, 2, signals=False, accusi=True, exposed=True, extras=EXTRAS, side_word="player")


def _stock_order(state: GameState) -> int:
    bits = 0
    for i, card in enumerate(state.hidden.stock):
        bits |= 1 << (40 * i + card)
    return bits


def _under_packets(state: GameState) -> int:
    """The cards still face down under each seat's face-up packets."""
    bits = 0
    packets = state.hidden.packets
    for s in (0, 1):
        if state.public.table.phase in (SELECT_PACKETS, TURN_PACKETS):
            continue
        for j, under in enumerate(packets[s]):
            for card in under:
                bits |= 1 << (40 * (2 * s + j) + card)
    return bits


STATE = StateEncoder(
    2,
    2,
    20,
    2,
    signals=False,
    accusi=True,
    side_word="player",
    extras=(
        ExtraStatePiece(
            Piece("stock_order", (STOCK_SIZE, 40), "the stock's cards in order, the next drawn first"), _stock_order
        ),
        ExtraStatePiece(
            Piece("under_packets", (2, 2, 40), "seat x face-up packet: the cards still face down under it"),
            _under_packets,
        ),
    ),
)


def state_encoder(rules: InDueRules) -> StateEncoder:
    """``env.state()``'s vector for Tressette in due."""
    return STATE
