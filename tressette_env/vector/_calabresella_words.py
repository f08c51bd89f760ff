"""Calabresella's batched observation compiled by numba: ``CalabresellaBatch.observe``'s fields and packing.

``CalabresellaBatch.observe``'s fields (each relative seat's pieces, the auction, the call, the
monte and the exchange), row by row, packed by ``_compiled.pack_row`` (``_compiled`` says when it
runs and how it is tested).
"""

from __future__ import annotations

import sys

import numpy as np

from ._compiled import COMPILED, card_bit, jit, pack_row
from ._family import BIT, BIT_FROM_1, THERMO
from ._tricks import CARD_BIT
from .calabresella import _CONTRACT_BIT, CalabresellaBatch

__all__ = ["COMPILED", "packed", "packed_words"]

_SINGLE = (
    "hand",
    "leader",
    "voids",
    "signals",
    "trick_number",
    "phase",
    "bids",
    "contract",
    "soloist",
    "called",
    "called_from",
    "monte_shown",
    "returned",
    "face_down_known",
    "face_down",
    "solo_only",
)
(
    F_HAND,
    F_LEADER,
    F_VOIDS,
    F_SIGNALS,
    F_TRICK_NUMBER,
    F_PHASE,
    F_BIDS,
    F_CONTRACT,
    F_SOLOIST,
    F_CALLED,
    F_CALLED_FROM,
    F_MONTE_SHOWN,
    F_RETURNED,
    F_FACE_DOWN_KNOWN,
    F_FACE_DOWN,
    F_SOLO_ONLY,
) = range(len(_SINGLE))
"""The indices of ``single`` (int64): the field of each one-field piece of ``_SINGLE``, -1 where the rules have none."""
(P_SIGNALS, P_MATCH, P_TARGET) = range(3)
"""The indices of ``params`` (int64): the rules ``packed_words`` reads."""


@jit
def packed_words(  # noqa: PLR0913, PLR0912, PLR0915 - one pass over the rows, compiled by numba
    out: np.ndarray,
    rows: np.ndarray,
    me: np.ndarray,
    seated: np.ndarray,
    hands: np.ndarray,
    trick: np.ndarray,
    leader: np.ndarray,
    played: np.ndarray,
    voids: np.ndarray,
    signals: np.ndarray,
    exposed: np.ndarray,
    tricks_done: np.ndarray,
    playing: np.ndarray,
    side0: np.ndarray,
    thirds: np.ndarray,
    match_score: np.ndarray,
    agent_of: np.ndarray,
    phase: np.ndarray,
    bids: np.ndarray,
    bid_bits: np.ndarray,
    bid_rows: np.ndarray,
    contract: np.ndarray,
    soloist: np.ndarray,
    called: np.ndarray,
    called_from: np.ndarray,
    called_from_bit: np.ndarray,
    monte_shown: np.ndarray,
    returned: np.ndarray,
    known: np.ndarray,
    face_down: np.ndarray,
    solo_only: np.ndarray,
    seat_rel: np.ndarray,
    rel_bit: np.ndarray,
    single: np.ndarray,
    trick_rows: np.ndarray,
    played_rows: np.ndarray,
    exposed_rows: np.ndarray,
    thirds_rows: np.ndarray,
    target_rows: np.ndarray,
    places: np.ndarray,
    params: np.ndarray,
    f: np.ndarray,
    card_bits: np.ndarray,
    thermo: np.ndarray,
    bit: np.ndarray,
    bit_from_1: np.ndarray,
    contract_bit: np.ndarray,
) -> None:
    """Write each observed row's little-endian words into ``out`` (M, words) uint64: ``observe``'s fields, packed.

    ``f`` (fields,) uint64 is scratch; ``seated[i]`` False: the observer sits out (the row is zeros).
    """
    s_count = hands.shape[1]
    p = match_score.shape[1]
    signals_on = params[P_SIGNALS] != 0
    is_match = params[P_MATCH] != 0
    target = params[P_TARGET]
    zero = np.uint64(0)
    for i in range(rows.shape[0]):
        r = rows[i]
        s = me[i]
        for k in range(f.shape[0]):
            f[k] = zero
        if not seated[i]:  # the dealer who sits out: nothing to see
            pack_row(out, i, f, places)
            continue
        hand = hands[r, s]
        f[single[F_HAND]] = hand
        voids_field = zero
        signals_field = zero
        bids_field = zero
        all_played = zero
        for k in range(s_count):
            seat = seat_rel[s, k]
            f[trick_rows[k]] = card_bit(card_bits, trick[r, seat])
            cards = played[r, seat]
            f[played_rows[k]] = cards
            all_played |= cards
            voids_field |= voids[r, seat] << np.uint64(4 * k)
            signals_field |= signals[r, seat] << np.uint64(12 * k)
            f[exposed_rows[k]] = exposed[r, seat] & ~cards
            bids_field |= bid_bits[bids[r, seat] + bid_rows[0, k]]
        f[single[F_VOIDS]] = voids_field
        if signals_on:
            f[single[F_SIGNALS]] = signals_field
        if playing[r]:
            f[single[F_LEADER]] = rel_bit[(leader[r] + 1) * s_count + s]
            f[single[F_TRICK_NUMBER]] = bit[tricks_done[r]]
        own = 1 if s != side0[r] else 0
        f[thirds_rows[0]] = thermo[thirds[r, own]]
        f[thirds_rows[1]] = thermo[thirds[r, 1 - own]]
        if is_match:  # by player, the observer's first
            player = agent_of[r, s]
            for k in range(p):
                need = min(max(target - match_score[r, (player + k) % p], 0), 41)
                f[target_rows[k]] = thermo[need]
        f[single[F_PHASE]] = bit_from_1[phase[r]]
        f[single[F_BIDS]] = bids_field
        f[single[F_CONTRACT]] = contract_bit[contract[r]]
        f[single[F_SOLOIST]] = rel_bit[(soloist[r] + 1) * s_count + s]
        f[single[F_CALLED]] = card_bit(card_bits, called[r])
        f[single[F_CALLED_FROM]] = called_from_bit[(called_from[r] + 2) * s_count + s]
        f[single[F_MONTE_SHOWN]] = monte_shown[r]
        f[single[F_RETURNED]] = card_bit(card_bits, returned[r])
        f[single[F_FACE_DOWN_KNOWN]] = known[r, s] & ~hand & ~all_played
        f[single[F_FACE_DOWN]] = thermo[face_down[r]]
        f[single[F_SOLO_ONLY]] = np.uint64(1) if solo_only[r] else zero
        pack_row(out, i, f, places)


def packed(batch: CalabresellaBatch, rows: np.ndarray, me: np.ndarray, seated: np.ndarray) -> np.ndarray:
    """(M, 8 * words) uint8: the observations from seats ``me`` of deals ``rows`` of ``batch``, as ``_pack``'s bytes.

    ``CalabresellaBatch.observe``'s rows, seats and ``seated`` (already checked); ``unpack_little`` of each row gives
    the observation.
    """
    rules = batch.rules
    fields = batch._fields
    s, p = batch._s, batch._p
    single = np.array([fields.get((name, None, 0), -1) for name in _SINGLE], dtype=np.int64)
    params = np.array([batch._signals_on, batch._match, rules.target_score], dtype=np.int64)
    n_words = (batch.observation.size + 63) // 64
    out = np.empty((len(rows), n_words), dtype=np.uint64)
    packed_words(
        out,
        np.asarray(rows, dtype=np.int64),
        np.asarray(me, dtype=np.int64),
        np.asarray(seated, dtype=np.bool_),
        batch._hands,
        batch._trick,
        batch._leader,
        batch._played,
        batch._voids,
        batch._signals,
        batch._exposed,
        batch._tricks,
        batch._playing,
        batch._side0,
        batch._thirds,
        batch._match_score,
        batch._agent_of,
        batch._phase,
        batch._bids,
        batch._bid_bits,
        batch._bid_rows,
        batch._contract,
        batch._soloist,
        batch._called,
        batch._called_from,
        batch._called_from_bit,
        batch._monte_shown,
        batch._returned,
        batch._known,
        batch._face_down,
        batch._solo_only,
        batch._seat.rel,
        batch._seat.rel_bit,
        single,
        batch._rows_of("trick", s),
        batch._rows_of("played", s),
        batch._rows_of("exposed", s),
        batch._rows_of("thirds", 2),
        batch._rows_of("to_target", p) if batch._match else np.zeros(0, dtype=np.int64),
        batch._placements,
        params,
        np.zeros(len(fields), dtype=np.uint64),
        CARD_BIT,
        THERMO,
        BIT,
        BIT_FROM_1,
        _CONTRACT_BIT,
    )
    return (out if sys.byteorder == "little" else out.astype("<u8")).view(np.uint8)
