"""Tressette in due's batched observation compiled by numba: ``InDueBatch.observe``'s fields and packing in one pass.

``InDueBatch.observe``'s 27 fields, row by row, shifted into the same little-endian words
(``_compiled`` says when it runs and how it is tested).
"""

from __future__ import annotations

import sys

import numpy as np

from ..engine.state import PLAY
from ..games.in_due import PACKET_SIZE, PLAY_PACKETS, STOCK_SIZE, TURN_PACKETS
from ._compiled import COMPILED, card_bit, jit, pack_row
from ._family import THERMO
from ._tricks import CARD_BIT, FULL
from .in_due import _NF, _PHASE_BIT, _WORDS, InDueBatch

__all__ = ["COMPILED", "packed", "packed_words"]

(P_MATCH, P_TARGET, P_PACKETS) = range(3)
"""The indices of ``params`` (int64): the rules ``packed_words`` reads."""


@jit
def packed_words(  # noqa: PLR0913, PLR0915 - one pass over the rows, compiled by numba
    out: np.ndarray,
    rows: np.ndarray,
    me: np.ndarray,
    hands: np.ndarray,
    played: np.ndarray,
    exposed: np.ndarray,
    trick: np.ndarray,
    leader: np.ndarray,
    voids: np.ndarray,
    revealed: np.ndarray,
    tricks_done: np.ndarray,
    declared: np.ndarray,
    thirds: np.ndarray,
    match_score: np.ndarray,
    phase: np.ndarray,
    playing: np.ndarray,
    turned: np.ndarray,
    pos: np.ndarray,
    places: np.ndarray,
    params: np.ndarray,
    f: np.ndarray,
    card_bits: np.ndarray,
    thermo: np.ndarray,
    phase_bits: np.ndarray,
) -> None:
    """Write each observed row's little-endian words into ``out`` (M, words) uint64: ``observe``'s fields, packed.

    ``f`` (fields,) uint64 is scratch; ``places`` is ``InDueBatch._placements``: where the fields these rules fill go.
    """
    is_match = params[P_MATCH] != 0
    target = params[P_TARGET]
    packets = params[P_PACKETS] != 0
    one = np.uint64(1)
    zero = np.uint64(0)
    for i in range(rows.shape[0]):
        r = rows[i]
        s = me[i]
        o = 1 - s
        for k in range(f.shape[0]):
            f[k] = zero
        hand = hands[s, r]
        played0 = played[s, r]
        played1 = played[o, r]
        exposed1 = exposed[o, r] & ~played1
        f[0] = hand
        c = trick[s, r]
        f[1] = card_bit(card_bits, c)
        c = trick[o, r]
        f[2] = card_bit(card_bits, c)
        on = one if playing[r] else zero
        f[3] = on << np.uint64((leader[r] - s) & 1)
        f[4] = played0
        f[5] = played1
        f[6] = voids[s, r] | (voids[o, r] << np.uint64(4))
        f[7] = revealed[s, r]
        f[8] = revealed[o, r]
        f[9] = exposed[s, r] & ~played0
        f[10] = exposed1
        done = tricks_done[r]
        f[11] = on << np.uint64(min(done, 19))
        f[12] = thermo[min(declared[s, r], 20)]
        f[13] = thermo[min(declared[o, r], 20)]
        f[14] = thermo[thirds[s, r]]
        f[15] = thermo[thirds[o, r]]
        if is_match:
            f[16] = thermo[min(max(target - match_score[s, r], 0), 41)]
            f[17] = thermo[min(max(target - match_score[o, r], 0), 41)]
        ph = phase[r]
        f[20] = phase_bits[ph] if playing[r] else zero
        if not packets:
            stock_left = STOCK_SIZE - 2 * min(done, 10)
            f[18] = thermo[stock_left]
            everything = (hand | played0 | played1) ^ FULL
            f[19] = exposed1 | (everything if playing[r] and stock_left == 0 else zero)
        else:
            f[19] = exposed1
            if ph == TURN_PACKETS:  # the hand holds the four bottom cards, lowest first
                rest = hand
                mine = turned[s, r]
                for k in range(4):
                    bottom = rest & (zero - rest)  # the lowest card left (0 when none)
                    rest ^= bottom
                    f[21 + k] = bottom & FULL
                    if bottom & mine:
                        f[25] |= one << np.uint64(k)
            if ph == PLAY_PACKETS or ph == PLAY:
                sizes = zero
                for rel in range(2):
                    seat = (s + rel) & 1
                    for j in range(2):
                        size = thermo[PACKET_SIZE - pos[r, seat, j]]
                        sizes |= size << np.uint64(5 * (2 * rel + j))
                f[26] = sizes
        pack_row(out, i, f, places)


def packed(batch: InDueBatch, rows: np.ndarray, me: np.ndarray) -> np.ndarray:
    """(M, 8 * words) uint8: the observations of seats ``me`` in deals ``rows`` of ``batch``, as ``_pack``'s bytes.

    ``InDueBatch.observe``'s rows and seats (already checked); ``unpack_little`` of each row gives the observation.
    """
    rules = batch.rules
    params = np.array([rules.episode == "match", rules.target_score, batch._packet_form], dtype=np.int64)
    out = np.empty((len(rows), _WORDS), dtype=np.uint64)
    packed_words(
        out,
        np.asarray(rows, dtype=np.int64),
        np.asarray(me, dtype=np.int64),
        batch._hands,
        batch._played,
        batch._exposed,
        batch._trick,
        batch._leader,
        batch._voids,
        batch._revealed,
        batch._tricks,
        batch._declared,
        batch._thirds,
        batch._match_score,
        batch._phase,
        batch._playing,
        batch._turned,
        batch._pos,
        batch._placements,
        params,
        np.zeros(_NF, dtype=np.uint64),
        CARD_BIT,
        THERMO,
        _PHASE_BIT,
    )
    return (out if sys.byteorder == "little" else out.astype("<u8")).view(np.uint8)
