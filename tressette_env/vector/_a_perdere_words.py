"""Tressette a perdere's batched observation compiled by numba: ``APerdereBatch.observe``'s fields and packing.

``APerdereBatch.observe``'s fields (each relative seat's pieces, the seats away from an
elimination match's table masked), row by row, packed by ``_compiled.pack_row`` (``_compiled``
says when it runs and how it is tested).
"""

from __future__ import annotations

import sys

import numpy as np

from ._compiled import COMPILED, card_bit, jit, pack_row
from ._family import BIT, THERMO
from ._tricks import CARD_BIT
from .a_perdere import _LEFT_OF, APerdereBatch

__all__ = ["COMPILED", "packed", "packed_words"]

(F_HAND, F_LEADER, F_VOIDS, F_SIGNALS, F_TRICK_NUMBER, F_REMOVED, F_SET_ASIDE, F_OUT, F_FACE_DOWN) = range(9)
"""The indices of ``single`` (int64): the field of each one-field piece, -1 where the rules have none."""
(P_TEAMS, P_MATCH, P_ELIMINATION, P_SET_ASIDE, P_TARGET) = range(5)
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
    voids: np.ndarray,
    signals: np.ndarray,
    tricks_done: np.ndarray,
    playing: np.ndarray,
    agent_of: np.ndarray,
    thirds: np.ndarray,
    match_score: np.ndarray,
    removed: np.ndarray,
    aside: np.ndarray,
    out_of_match: np.ndarray,
    live: np.ndarray,
    dealer: np.ndarray,
    rel_live: np.ndarray,
    leader_bit: np.ndarray,
    seat_rel: np.ndarray,
    single: np.ndarray,
    trick_rows: np.ndarray,
    played_rows: np.ndarray,
    thirds_rows: np.ndarray,
    target_rows: np.ndarray,
    places: np.ndarray,
    params: np.ndarray,
    f: np.ndarray,
    by_side: np.ndarray,
    by_competitor: np.ndarray,
    card_bits: np.ndarray,
    thermo: np.ndarray,
    bit: np.ndarray,
    left_of: np.ndarray,
) -> None:
    """Write each observed row's little-endian words into ``out`` (M, words) uint64: ``observe``'s fields, packed.

    ``f`` (fields,), ``by_side`` and ``by_competitor`` (players,) are scratch.
    """
    p = hands.shape[1]
    teams = params[P_TEAMS] != 0
    is_match = params[P_MATCH] != 0
    elimination = params[P_ELIMINATION] != 0
    set_aside = params[P_SET_ASIDE] != 0
    target = params[P_TARGET]
    sides = thirds_rows.shape[0]
    zero = np.uint64(0)
    for i in range(rows.shape[0]):
        r = rows[i]
        s = me[i]
        for k in range(f.shape[0]):
            f[k] = zero
        n_live = live[r]
        if elimination and s >= n_live:  # a seat beyond the players still in: nothing to see
            pack_row(out, i, f, places)
            continue
        f[single[F_HAND]] = hands[r, s]
        voids_field = zero
        signals_field = zero
        for k in range(p):
            seat = rel_live[n_live * p + s, k]
            if teams:
                signals_field |= signals[r, seat] << np.uint64(12 * k)
            if elimination and k >= n_live:
                continue
            c = trick[r, seat]
            f[trick_rows[k]] = card_bit(card_bits, c)
            f[played_rows[k]] = played[r, seat]
            voids_field |= voids[r, seat] << np.uint64(4 * k)
        f[single[F_VOIDS]] = voids_field
        if teams:
            f[single[F_SIGNALS]] = signals_field
        if playing[r]:
            f[single[F_LEADER]] = leader_bit[(n_live * p + leader[r]) * p + s]
            f[single[F_TRICK_NUMBER]] = bit[tricks_done[r]]
        mine = agent_of[r, s]
        if teams:
            by_side[0] = s % 2
            by_side[1] = 1 - s % 2
            by_competitor[0] = by_side[0]
            by_competitor[1] = by_side[1]
        else:
            for k in range(p):
                by_side[k] = rel_live[n_live * p + s, k]
                by_competitor[k] = seat_rel[mine, k]
        for k in range(sides):
            if not teams and elimination and k >= n_live:
                continue
            f[thirds_rows[k]] = thermo[thirds[r, by_side[k]]]
        if is_match:
            for k in range(sides):
                need = min(max(target - match_score[r, by_competitor[k]], 0), 41)
                f[target_rows[k]] = thermo[need]
        f[single[F_REMOVED]] = removed[r]
        f[single[F_SET_ASIDE]] = thermo[left_of[n_live] if set_aside else 0]
        if elimination:
            gone = zero
            for k in range(sides):
                if out_of_match[r, by_competitor[k]]:
                    gone |= np.uint64(1) << np.uint64(k)
            f[single[F_OUT]] = gone
        if single[F_FACE_DOWN] >= 0 and s == dealer[r]:
            f[single[F_FACE_DOWN]] = aside[r]
        pack_row(out, i, f, places)


def packed(batch: APerdereBatch, rows: np.ndarray, me: np.ndarray) -> np.ndarray:
    """(M, 8 * words) uint8: the observations of seats ``me`` in deals ``rows`` of ``batch``, as ``_pack``'s bytes.

    ``APerdereBatch.observe``'s rows and seats (already checked); ``unpack_little`` of each row gives the observation.
    """
    rules = batch.rules
    fields = batch._fields
    p = batch.num_agents
    sides = batch._sides
    single = np.array(
        [
            fields.get((name, None, 0), -1)
            for name in ("hand", "leader", "voids", "signals", "trick_number", "removed", "set_aside", "out")
        ]
        + [fields[("face_down_known", None, 0)] if rules.reduce == "dealer_discard" else -1],
        dtype=np.int64,
    )
    params = np.array(
        [batch._teams, batch._match, batch._elimination, rules.reduce != "remove", rules.target_score], dtype=np.int64
    )
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
        batch._voids,
        batch._signals,
        batch._tricks,
        batch._playing,
        batch._agent_of,
        batch._thirds,
        batch._match_score,
        batch._removed,
        batch._aside,
        batch._out,
        batch._live,
        batch._dealer,
        batch._rel_live,
        batch._leader_bit,
        batch._seat.rel,
        single,
        batch._rows_of("trick", p),
        batch._rows_of("played", p),
        batch._rows_of("thirds", sides),
        batch._rows_of("to_target", sides) if batch._match else np.zeros(0, dtype=np.int64),
        batch._placements,
        params,
        np.zeros(len(fields), dtype=np.uint64),
        np.zeros(p, dtype=np.int64),
        np.zeros(p, dtype=np.int64),
        CARD_BIT,
        THERMO,
        BIT,
        _LEFT_OF,
    )
    return (out if sys.byteorder == "little" else out.astype("<u8")).view(np.uint8)
