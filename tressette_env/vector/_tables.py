"""Bit conventions and lookup tables of the batched engine (internal).

Inside ``tressette_env.vector`` a set of cards is a *reversed* 40-bit mask: card
``c`` is bit ``39 - c`` (the engine's masks use bit ``c``). With that order a
40-bit field can be ORed straight into the observation's 64-bit words in the
layout that ``np.unpackbits`` reads fastest (big-endian bytes, most significant
bit first): entry ``j`` of a vector is bit ``63 - j % 64`` of word ``j // 64``.
``placements(offset, width)`` says where a ``width``-bit field, its first entry
in its highest bit, lands in those words.
"""

from __future__ import annotations

import numpy as np

from ..encoders.observation import SIZE, SLICES, THERMOMETERS
from ..engine.actions import CALL_OUT, NUM_ACTIONS
from ..engine.cards import THIRDS

U64 = np.uint64
OBS_WORDS = (SIZE + 63) // 64
MASK_WORDS = (NUM_ACTIONS + 63) // 64
M40 = (1 << 40) - 1

OFF = {name: s.start for name, s in SLICES.items()}
W_DECLARED, W_THIRDS, W_TARGET = THERMOMETERS["declared_points"], THERMOMETERS["thirds"], THERMOMETERS["to_target"]

if SIZE != 790 or [p for p in SLICES] != [
    "hand",
    "trick",
    "leader",
    "played",
    "signals",
    "voids",
    "accusi",
    "trick_number",
    "declared_points",
    "thirds",
    "to_target",
]:  # pragma: no cover - a guard for whoever changes the observation layout
    raise ImportError("tressette_env.vector was written for the 790-entry observation layout: update it too")
if OFF["voids"] != OFF["signals"] + 48:  # pragma: no cover
    raise ImportError("tressette_env.vector packs signals and voids as one 64-bit field")


def placements(offset: int, width: int) -> tuple[tuple[int, int], ...]:
    """(word, left shift) pairs that place a ``width``-bit field whose first entry is ``offset``.

    A negative shift is a right shift. Bits shifted past bit 63 belong to the
    word before and are dropped by the uint64 arithmetic.
    """
    return tuple((k, 64 * (k + 1) - offset - width) for k in range(offset // 64, (offset + width - 1) // 64 + 1))


def shifted(value: np.ndarray, shift: int) -> np.ndarray:
    """``value`` moved left by ``shift`` bits (right for a negative shift), as uint64."""
    if shift > 0:
        return value << U64(shift)
    if shift < 0:
        return value >> U64(-shift)
    return value


def put(words: list, value: np.ndarray, offset: int, width: int) -> None:
    """OR the field ``value`` into ``words`` (a list of uint64 arrays or None) at ``offset``."""
    for k, shift in placements(offset, width):
        v = shifted(value, shift)
        words[k] = v if words[k] is None else words[k] | v


# --- cards -----------------------------------------------------------------

CARD_BIT = np.array([1 << (39 - c) for c in range(40)] + [0], dtype=U64)
"""Reversed bit of card c; index 40 (no card) is 0."""
NO_SUIT = 4
"""The led suit while nobody has led: every per-suit table maps it to 0."""
SUIT_BITS = np.array([0x3FF << (30 - 10 * s) for s in range(4)] + [0], dtype=U64)
SUIT_SHIFT = np.array([30 - 10 * s for s in range(4)] + [0], dtype=U64)
"""``(mask >> SUIT_SHIFT[s]) & 0x3FF``: suit s as a 10-bit field, rank index r at bit 9 - r."""
WIN_BIT = np.concatenate([CARD_BIT[:40], np.zeros(10, dtype=U64)])
"""Reversed bit of card ``10 * suit + rank``; 0 for the no-suit 4."""
ASSI = U64(sum(1 << (39 - c) for c in range(40) if THIRDS[c] == 3))
FIGURES = U64(sum(1 << (39 - c) for c in range(40) if THIRDS[c] == 1))
FULL = U64(M40)

# Strongest rank index present in a 10-bit suit field (rank r at bit 9 - r); 0 for an empty field.
_ORDER = (2, 1, 0, 9, 8, 7, 6, 5, 4, 3)  # rank indices by taking power, highest first
TOP_RANK = np.zeros(1024, dtype=np.int64)
for _f in range(1, 1024):
    TOP_RANK[_f] = next(r for r in _ORDER if _f >> (9 - r) & 1)


def rev40(masks: np.ndarray) -> np.ndarray:
    """Engine card masks (bit c) <-> reversed masks (bit 39 - c); the map is its own inverse."""
    x = np.asarray(masks, dtype=U64)
    return (REV16[x & U64(0xFFFF)] << U64(24)) | (REV16[(x >> U64(16)) & U64(0xFFFF)] << U64(8)) | REV8[x >> U64(32)]


REV8 = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=U64)
REV16 = (REV8[np.arange(1 << 16) & 0xFF] << U64(8)) | REV8[np.arange(1 << 16) >> 8]

# --- actions ---------------------------------------------------------------

_A = np.arange(NUM_ACTIONS)
ACTION_CARD = np.where(_A < CALL_OUT, _A % 40, 40)
"""Card of an action; 40 (no card) for calling out."""
ACTION_CARD_BIT = CARD_BIT[ACTION_CARD]
ACTION_SUIT = np.where(_A < CALL_OUT, (_A % 40) // 10, 0)
ACTION_WORD = (_A // 64).astype(np.int64)
ACTION_BIT = np.array([1 << (63 - a % 64) for a in range(NUM_ACTIONS)], dtype=U64)

# --- per-observer signals + voids field (64 bits at OFF["signals"]) ---------
# Signals: 12 entries per relative seat (3 * suit + signal - 1), then voids: 4 entries per
# relative seat (suit). The batch keeps each observer's field. These tables give the bit
# that the seat on turn sets in its own field; the observer k seats after it sees it as
# relative seat (-k) % 4, the same bit 12 * ((-k) % 4) (signals) or 4 * ((-k) % 4) (voids)
# places lower.

SIGNAL_0 = np.array(
    [1 << (63 - (3 * ((a % 40) // 10) + a // 40 - 1)) if 40 <= a < CALL_OUT else 0 for a in range(NUM_ACTIONS)],
    dtype=U64,
)
"""The signals+voids bit of leading ``action``, seen by the signaller itself (relative seat 0)."""
VOID_0 = np.array([1 << (63 - 48 - u) for u in range(4)] + [0], dtype=U64)
"""The bit of failing to follow ``suit``, seen by the seat itself; suit 4 -> 0."""

# --- fields of the observation ---------------------------------------------


def thermometer_fields(width: int, top: int) -> np.ndarray:
    """Field values of a ``width``-entry thermometer for values 0..top (capped at width)."""
    return np.array([((1 << min(v, width)) - 1) << (width - min(v, width)) for v in range(top + 1)], dtype=U64)


THERMO_DECLARED = thermometer_fields(W_DECLARED, 64)
THERMO_THIRDS = thermometer_fields(W_THIRDS, W_THIRDS)
LEADER_FIELD = np.array([1 << (3 - r) for r in range(4)] + [0], dtype=U64)
"""One-hot relative leader (4 entries); index 4 (no card being played) is 0."""
TRICK_NUMBER_FIELD = np.array([1 << (9 - t) for t in range(10)] + [0], dtype=U64)
"""One-hot trick number (10 entries); index 10 (hand over) is 0."""

TRICK_AT = [OFF["trick"] + 40 * k for k in range(4)]
PLAYED_AT = [OFF["played"] + 40 * k for k in range(4)]
ACCUSI_AT = [OFF["accusi"] + 40 * k for k in range(4)]
STATIC_WORDS = sorted(
    {k for at in ACCUSI_AT for k, _ in placements(at, 40)}
    | {k for k, _ in placements(OFF["declared_points"], 2 * W_DECLARED)}
)
"""The words that hold the accusi and declared points: fixed for a hand, kept per observer."""

ROW = np.arange(4, dtype=np.int64)[:, None]

# --- random legal actions from the mask words -------------------------------

POP8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.int16)
SELECT8 = np.zeros((256, 8), dtype=np.int64)
"""[byte, k] -> position (0 = most significant bit) of the k-th set bit of ``byte``."""
for _b in range(256):
    _pos = [i for i in range(8) if _b >> (7 - i) & 1]
    SELECT8[_b, : len(_pos)] = _pos
SELECT8 = SELECT8.reshape(-1)

THERMO_TARGET = thermometer_fields(W_TARGET, W_TARGET)
HONOURS = np.array([CARD_BIT[r] | CARD_BIT[10 + r] | CARD_BIT[20 + r] | CARD_BIT[30 + r] for r in range(3)], dtype=U64)
