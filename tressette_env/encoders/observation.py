"""One seat's observation as a flat float32 vector, built from a ``SeatView`` only.

The layout is the list ``LAYOUT`` of named pieces; ``piece_slices()`` maps each
name to its slice of the vector and ``layout_table()`` writes the table below
(the README shows the same table; a test keeps them equal). Seats are relative
to the observer: 0 = you, 1 = the opponent after you (your right), 2 = your
partner, 3 = the opponent before you. Pieces by team list your team first.

Every entry is 0 or 1 (int8): numbers are thermometers, as in OpenSpiel's card
games. That keeps the encoder to one big int and one ``unpackbits``, and gives a
network the order of the numbers for free.

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (4, 40) | 40:200 | the cards on the table in the current trick, by relative seat |
| `leader` | (4,) | 200:204 | one-hot: the relative seat that leads the current trick |
| `played` | (4, 40) | 204:364 | every card each relative seat has played this hand (the current trick included) |
| `signals` | (4, 4, 3) | 364:412 | relative seat x suit x (busso, striscio, volo): signals given this hand |
| `voids` | (4, 4) | 412:428 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `accusi` | (4, 40) | 428:588 | the cards each relative seat's declarations revealed |
| `trick_number` | (10,) | 588:598 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `declared_points` | (2, 20) | 598:638 | declaration points (your team, the other) as thermometers: entry k is 1 when more than k |
| `thirds` | (2, 35) | 638:708 | thirds of a point taken this hand (your team, the other) as thermometers |
| `to_target` | (2, 41) | 708:790 | match points each team still needs to reach `target_score` (yours, the other) as thermometers capped at 41; all 0 in `episode="hand"` |

Example:
    >>> from tressette_env.engine import new_game, view
    >>> obs = encode(view(new_game(seed=0), 1))
    >>> obs.shape, obs.dtype, int(obs[piece_slices()["hand"]].sum())
    ((790,), dtype('int8'), 10)
"""

from __future__ import annotations

import numpy as np

from ..engine.state import PublicState, SeatView
from .layout import Piece, slices_of, table_of

THERMOMETERS = {"declared_points": 20, "thirds": 35, "to_target": 41}
"""Width of each thermometer piece: a value v sets its first min(v, width) entries."""

LAYOUT: tuple[Piece, ...] = (
    Piece("hand", (40,), "1 for each card id in your hand"),
    Piece("trick", (4, 40), "the cards on the table in the current trick, by relative seat"),
    Piece("leader", (4,), "one-hot: the relative seat that leads the current trick"),
    Piece("played", (4, 40), "every card each relative seat has played this hand (the current trick included)"),
    Piece("signals", (4, 4, 3), "relative seat x suit x (busso, striscio, volo): signals given this hand"),
    Piece("voids", (4, 4), "relative seat x suit: the seat failed to follow that suit, so it has none left"),
    Piece("accusi", (4, 40), "the cards each relative seat's declarations revealed"),
    Piece("trick_number", (10,), "one-hot: which trick of the hand is being played (all 0 once the hand is over)"),
    Piece(
        "declared_points",
        (2, 20),
        "declaration points (your team, the other) as thermometers: entry k is 1 when more than k",
    ),
    Piece("thirds", (2, 35), "thirds of a point taken this hand (your team, the other) as thermometers"),
    Piece(
        "to_target",
        (2, 41),
        "match points each team still needs to reach `target_score` (yours, the other) as thermometers capped at 41; "
        'all 0 in `episode="hand"`',
    ),
)


def piece_slices() -> dict[str, slice]:
    """Name -> slice of the observation vector, in layout order."""
    return slices_of(LAYOUT)


SLICES = piece_slices()
SIZE = sum(p.size for p in LAYOUT)
_OFF = {name: s.start for name, s in SLICES.items()}
_TRICK, _LEADER, _PLAYED, _SIGNALS = _OFF["trick"], _OFF["leader"], _OFF["played"], _OFF["signals"]
_VOIDS, _ACCUSI, _TRICK_NUMBER = _OFF["voids"], _OFF["accusi"], _OFF["trick_number"]
_DECLARED, _THIRDS, _TO_TARGET = _OFF["declared_points"], _OFF["thirds"], _OFF["to_target"]
_W_DECLARED, _W_THIRDS, _W_TARGET = THERMOMETERS["declared_points"], THERMOMETERS["thirds"], THERMOMETERS["to_target"]


def layout_table() -> str:
    """The Markdown table of the layout (piece, shape, slice, meaning)."""
    return table_of(LAYOUT)


def unflatten(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Name -> piece of an observation vector, reshaped to the piece's shape."""
    return {p.name: obs[..., SLICES[p.name]].reshape(obs.shape[:-1] + p.shape) for p in LAYOUT}


def thermometer(value: int, width: int) -> int:
    """``width`` bits of which the lowest ``min(value, width)`` are set."""
    return (1 << min(value, width)) - 1


_M160, _M48, _M16 = (1 << 160) - 1, (1 << 48) - 1, (1 << 16) - 1


def encode_bits(view: SeatView) -> int:
    """The observation of ``view`` as an int: bit i is entry i of the vector."""
    return encode_seat_bits(view.public, view.seat, view.hand)


def encode_seat_bits(p: PublicState, me: int, hand: int) -> int:
    """``encode_bits`` of the view ``SeatView(me, hand, p)``, without building the view.

    This is the environments' hot path, so ``state.rotate_seats`` and ``thermometer``
    are written out inline; ``tests/encoders`` checks them against the plain forms.
    """
    bits = hand
    leader = p.leader
    trick = p.trick
    if trick:
        at = _TRICK + 40 * ((leader - me) % 4)  # first card: the leader's block
        for card in trick:
            bits |= 1 << (at + card)
            at = at + 40 if at < _TRICK + 120 else _TRICK
    if p.turn >= 0:
        bits |= 1 << (_LEADER + (leader - me) % 4) | 1 << (_TRICK_NUMBER + p.tricks_done)
    # Per-seat facts: rotate the 4 seat blocks so that block 0 is the observer.
    s = 40 * me
    x = p.played
    bits |= (((x >> s) | (x << (160 - s))) & _M160) << _PLAYED
    x = p.accusi.revealed
    bits |= (((x >> s) | (x << (160 - s))) & _M160) << _ACCUSI
    s = 12 * me
    x = p.signals
    bits |= (((x >> s) | (x << (48 - s))) & _M48) << _SIGNALS
    s = 4 * me
    x = p.voids
    bits |= (((x >> s) | (x << (16 - s))) & _M16) << _VOIDS
    # Team numbers as thermometers, own team first.
    team = me & 1
    d = p.accusi.points
    bits |= ((1 << min(d[team], _W_DECLARED)) - 1) << _DECLARED
    bits |= ((1 << min(d[1 - team], _W_DECLARED)) - 1) << (_DECLARED + _W_DECLARED)
    t = p.thirds
    bits |= ((1 << t[team]) - 1) << _THIRDS | ((1 << t[1 - team]) - 1) << (_THIRDS + _W_THIRDS)
    rules = p.rules
    if rules.episode == "match":
        score = p.match_score
        bits |= thermometer(max(rules.target_score - score[team], 0), _W_TARGET) << _TO_TARGET
        bits |= thermometer(max(rules.target_score - score[1 - team], 0), _W_TARGET) << (_TO_TARGET + _W_TARGET)
    return bits


def unpack(bits: int, size: int) -> np.ndarray:
    """The first ``size`` bits of ``bits`` as an int8 array of 0s and 1s (bit i -> entry i)."""
    # Positional arguments: NumPy's keyword parsing costs as much as the work here.
    packed = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), np.uint8)
    return np.unpackbits(packed, -1, size, "little").view(np.int8)


def encode(view: SeatView) -> np.ndarray:
    """The observation of ``view``: an int8 vector of 0s and 1s, shape ``(SIZE,)``."""
    return unpack(encode_bits(view), SIZE)
