"""Tressette a chiamare's batched observation compiled by numba: ``AChiamareBatch.observe``'s fields and packing.

``AChiamareBatch.observe``'s fields (each relative seat's pieces, the auction, the call, the
partner's role), row by row, packed by ``_compiled.pack_row`` (``_compiled`` says when it runs and
how it is tested).
"""

from __future__ import annotations

import sys

import numpy as np

from ._compiled import COMPILED, card_bit, jit, pack_row
from ._family import BIT, BIT_FROM_1, THERMO
from ._tricks import CARD_BIT
from .a_chiamare import _BID_BITS, _CONTRACT_BIT, CHIAMO, AChiamareBatch, P

__all__ = ["COMPILED", "packed", "packed_words"]

_SINGLE = (
    "hand",
    "leader",
    "signals",
    "voids",
    "trick_number",
    "phase",
    "bids",
    "contract",
    "declarer",
    "called",
    "role",
    "partner",
)
(
    F_HAND,
    F_LEADER,
    F_SIGNALS,
    F_VOIDS,
    F_TRICK_NUMBER,
    F_PHASE,
    F_BIDS,
    F_CONTRACT,
    F_DECLARER,
    F_CALLED,
    F_ROLE,
    F_PARTNER,
) = range(len(_SINGLE))
"""The indices of ``single`` (int64): the field of each one-field piece of ``_SINGLE``, -1 where the rules have none."""
(P_SIGNS, P_MATCH, P_TARGET, P_REVEAL) = range(4)
"""The indices of ``params`` (int64): the rules ``packed_words`` reads."""


@jit
def packed_words(  # noqa: PLR0913, PLR0912, PLR0915 - one pass over the rows, compiled by numba
    out: np.ndarray,
    rows: np.ndarray,
    me: np.ndarray,
    hands: np.ndarray,
    trick: np.ndarray,
    leader: np.ndarray,
    played: np.ndarray,
    signals: np.ndarray,
    voids: np.ndarray,
    tricks_done: np.ndarray,
    playing: np.ndarray,
    thirds: np.ndarray,
    match_score: np.ndarray,
    phase: np.ndarray,
    bids: np.ndarray,
    contract: np.ndarray,
    declarer: np.ndarray,
    called: np.ndarray,
    dealt: np.ndarray,
    partner: np.ndarray,
    seat_rel: np.ndarray,
    rel_bit: np.ndarray,
    single: np.ndarray,
    trick_rows: np.ndarray,
    played_rows: np.ndarray,
    thirds_rows: np.ndarray,
    target_rows: np.ndarray,
    places: np.ndarray,
    params: np.ndarray,
    f: np.ndarray,
    card_bits: np.ndarray,
    thermo: np.ndarray,
    bit: np.ndarray,
    bit_from_1: np.ndarray,
    bid_bits: np.ndarray,
    contract_bit: np.ndarray,
) -> None:
    """Write each observed row's little-endian words into ``out`` (M, words) uint64: ``observe``'s fields, packed.

    ``f`` (fields,) uint64 is scratch.
    """
    p = hands.shape[1]
    signs = params[P_SIGNS] != 0
    is_match = params[P_MATCH] != 0
    target = params[P_TARGET]
    reveal = params[P_REVEAL] != 0
    zero = np.uint64(0)
    for i in range(rows.shape[0]):
        r = rows[i]
        s = me[i]
        for k in range(f.shape[0]):
            f[k] = zero
        f[single[F_HAND]] = hands[r, s]
        signals_field = zero
        voids_field = zero
        bids_field = zero
        for k in range(p):
            seat = seat_rel[s, k]
            f[trick_rows[k]] = card_bit(card_bits, trick[r, seat])
            f[played_rows[k]] = played[r, seat]
            signals_field |= signals[r, seat] << np.uint64(12 * k)
            voids_field |= voids[r, seat] << np.uint64(4 * k)
            f[thirds_rows[k]] = thermo[thirds[r, seat]]
            if is_match:
                f[target_rows[k]] = thermo[min(max(target - match_score[r, seat], 0), 41)]
            bids_field |= bid_bits[k * 256 + bids[r, seat]]
        if signs:
            f[single[F_SIGNALS]] = signals_field
        f[single[F_VOIDS]] = voids_field
        if playing[r]:
            f[single[F_LEADER]] = rel_bit[(leader[r] + 1) * p + s]
            f[single[F_TRICK_NUMBER]] = bit[tricks_done[r]]
        f[single[F_PHASE]] = bit_from_1[phase[r]]
        f[single[F_BIDS]] = bids_field
        won = contract[r]
        f[single[F_CONTRACT]] = contract_bit[won]
        caller = declarer[r]
        f[single[F_DECLARER]] = rel_bit[(caller + 1) * p + s]
        card = called[r]
        card_mask = card_bit(card_bits, card)
        f[single[F_CALLED]] = card_mask
        chiamo = won == CHIAMO
        holds = card >= 0 and (dealt[r, s] & card_mask) != zero  # held at the call: in hand or played since
        if caller < 0:
            role = 0
        elif s == caller:
            role = 1
        elif chiamo and card < 0:
            role = 0
        elif chiamo and holds:
            role = 2
        else:
            role = 4
        f[single[F_ROLE]] = np.uint64(role)
        if chiamo and card >= 0:
            holder = partner[r]
            if reveal:
                known = True
            else:
                known = (played[r, max(holder, 0)] & card_mask) != zero
            partner_bits = rel_bit[(holder + 1) * p + s] if known else zero
            if s != caller and holds:
                partner_bits = np.uint64(1)
            f[single[F_PARTNER]] = partner_bits
        pack_row(out, i, f, places)


def packed(batch: AChiamareBatch, rows: np.ndarray, me: np.ndarray) -> np.ndarray:
    """(M, 8 * words) uint8: the observations of seats ``me`` in deals ``rows`` of ``batch``, as ``_pack``'s bytes.

    ``AChiamareBatch.observe``'s rows and seats (already checked); ``unpack_little`` of each row gives the observation.
    """
    rules = batch.rules
    fields = batch._fields
    single = np.array([fields.get((name, None, 0), -1) for name in _SINGLE], dtype=np.int64)
    params = np.array([batch._signs, batch._match, rules.target_score, rules.reveal_partner], dtype=np.int64)
    n_words = (batch.observation.size + 63) // 64
    out = np.empty((len(rows), n_words), dtype=np.uint64)
    packed_words(
        out,
        np.asarray(rows, dtype=np.int64),
        np.asarray(me, dtype=np.int64),
        batch._hands,
        batch._trick,
        batch._leader,
        batch._played,
        batch._signals,
        batch._voids,
        batch._tricks,
        batch._playing,
        batch._thirds,
        batch._match_score,
        batch._phase,
        batch._bids,
        batch._contract,
        batch._declarer,
        batch._called,
        batch._dealt,
        batch._partner,
        batch._seat.rel,
        batch._seat.rel_bit,
        single,
        batch._rows_of("trick", P),
        batch._rows_of("played", P),
        batch._rows_of("thirds", P),
        batch._rows_of("to_target", P) if batch._match else np.zeros(0, dtype=np.int64),
        batch._placements,
        params,
        np.zeros(len(fields), dtype=np.uint64),
        CARD_BIT,
        THERMO,
        BIT,
        BIT_FROM_1,
        _BID_BITS,
        _CONTRACT_BIT,
    )
    return (out if sys.byteorder == "little" else out.astype("<u8")).view(np.uint8)
