"""Col morto's batched observation compiled by numba: ``ColMortoBatch._words`` and the packing in one pass.

The four-seat engine's words of the observer's seat (``TressetteBatch._observe_words``) and col
morto's pieces (``ColMortoBatch._words``), row by row, written as the big-endian words that
``np.unpackbits`` reads; the entries of col morto's two layouts are constants of the kernel
(``_compiled`` says when it runs and how it is tested).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..encoders.col_morto import observation as col_morto_observation
from ..games.col_morto import ColMortoRules
from . import _tables as tb
from ._compiled import COMPILED, jit, jit_inline
from .col_morto import _REVERSE4
from .engine import _H, _P, _S0, _SV

__all__ = ["COMPILED", "packed", "packed_words"]

_OFF_HAND, _OFF_TRICK, _OFF_LEADER, _OFF_PLAYED = tb.OFF["hand"], tb.OFF["trick"], tb.OFF["leader"], tb.OFF["played"]
_OFF_SIGNALS, _OFF_TRICK_NUMBER, _OFF_THIRDS = tb.OFF["signals"], tb.OFF["trick_number"], tb.OFF["thirds"]
_W_THIRDS, _W_TARGET = tb.W_THIRDS, tb.W_TARGET
_STATIC = tuple(tb.STATIC_WORDS)
_LAYOUTS = {
    competitors: {name: (part.start, part.stop) for name, part in col_morto_observation(rules).slices.items()}
    for competitors, rules in ((3, ColMortoRules.make()), (2, ColMortoRules.make(players=2)))
}
"""Col morto's two layouts, by the match's competitors (three players, or two players or sides): ``packed`` checks
that a batch's is one of them, and the kernel knows their entries at compile time."""
_AT = _LAYOUTS[3]
_CUT = _AT["exposed"][0]
"""Where col morto's layout leaves the four-seat one: its entries below are the four-seat observation's."""
_AT_TRICK_NUMBER, _AT_EXPOSED, _AT_TO_TARGET = _AT["trick_number"][0], _AT["exposed"][0], _AT["to_target"][0]
_MOVED = _AT["thirds"][1] - _AT_TRICK_NUMBER
"""The entries trick_number to thirds, which col morto places after ``exposed``."""
_AT_DUMMIES3, _AT_ACTING3 = _LAYOUTS[3]["dummies"][0], _LAYOUTS[3]["acting_for"][0]
_AT_DUMMIES2, _AT_ACTING2 = _LAYOUTS[2]["dummies"][0], _LAYOUTS[2]["acting_for"][0]
if any(_LAYOUTS[2][name] != _AT[name] for name in _AT if name not in ("to_target", "dummies", "acting_for")) or (
    _LAYOUTS[2]["to_target"][0] != _AT_TO_TARGET
):  # pragma: no cover - a guard for whoever changes the layout
    raise ImportError("col morto's two layouts differ before to_target: update vector._col_morto_words")

# The indices of ``params`` (int64) that ``packed_words`` reads: the rules it needs.
(
    P_MATCH,
    P_BY_SIDES,
    P_TARGET,
) = range(3)


@jit_inline
def _put(words: np.ndarray, value: Any, offset: int, width: int) -> None:
    """OR a ``width``-bit field (at most 64) into ``words`` at entry ``offset``: ``_tables.put`` on one row."""
    for k in range(offset // 64, (offset + width - 1) // 64 + 1):
        shift = 64 * (k + 1) - offset - width
        if shift > 0:
            words[k] |= np.uint64(value) << np.uint64(shift)
        elif shift < 0:
            words[k] |= np.uint64(value) >> np.uint64(-shift)
        else:
            words[k] |= np.uint64(value)


@jit_inline
def _get(words: np.ndarray, offset: int, width: int) -> Any:
    """The ``width``-bit field (at most 63) at entry ``offset``: ``_put``'s inverse (``col_morto._get``)."""
    value = np.uint64(0)
    for k in range(offset // 64, (offset + width - 1) // 64 + 1):
        shift = 64 * (k + 1) - offset - width
        if shift > 0:
            value |= words[k] >> np.uint64(shift)
        elif shift < 0:
            value |= words[k] << np.uint64(-shift)
        else:
            value |= words[k]
    return value & ((np.uint64(1) << np.uint64(width)) - np.uint64(1))


@jit_inline
def _big_endian(w: Any) -> Any:
    """The word whose bytes in memory, on a little-endian machine, are ``w``'s from the most significant down."""
    w = ((w & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)) | ((w >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF))
    w = ((w & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)) | ((w >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF))
    return (w << np.uint64(32)) | (w >> np.uint64(32))


@jit
def packed_words(  # noqa: PLR0913, PLR0915 - one pass over the rows, compiled by numba
    out: np.ndarray,
    rows: np.ndarray,
    me: np.ndarray,
    player: np.ndarray,
    turn: np.ndarray,
    key: np.ndarray,
    on_turn: np.ndarray,
    q: np.ndarray,
    rot: np.ndarray,
    trick: np.ndarray,
    leader_slot: np.ndarray,
    tricks_done: np.ndarray,
    playing: np.ndarray,
    thirds: np.ndarray,
    dummies_of_key: np.ndarray,
    shown: np.ndarray,
    score: np.ndarray,
    params: np.ndarray,
    four: np.ndarray,
    words: np.ndarray,
    tables: np.ndarray,
) -> None:
    """Write each observed row's words into ``out`` (M, words) uint64, bytes swapped (``_big_endian``): ``_words``'s.

    ``four`` (the four-seat observation's words) and ``words`` (W,) uint64 are scratch. ``tables`` (5, 42) uint64: the leader
    field, the trick number field, the thirds' thermometer, the target's thermometer and the
    dummies' relative seats (``_tables`` and ``col_morto._REVERSE4``), each padded to 42 entries.
    """
    m = rows.shape[0]
    n_words = words.shape[0]
    n_comp = score.shape[1]
    is_match = params[P_MATCH] != 0
    by_sides = params[P_BY_SIDES] != 0
    target = params[P_TARGET]
    m64 = np.uint64(0xFFFFFFFFFFFFFFFF)
    for i in range(m):
        r = rows[i]
        s = me[i]
        slot = (s - q[r]) & 3
        for k in range(four.shape[0]):
            four[k] = np.uint64(0)
        # --- the four-seat pieces (TressetteBatch._observe_words)
        _put(four, rot[_H, slot, r], _OFF_HAND, 40)
        for k in range(4):
            sk = (slot + k) & 3
            _put(four, trick[sk, r], _OFF_TRICK + 40 * k, 40)
            _put(four, rot[_P, sk, r], _OFF_PLAYED + 40 * k, 40)
        leader = (leader_slot[r] - slot) & 3
        done = tricks_done[r]
        if not playing[r]:
            leader = 4
            done = 10
        _put(four, tables[0, leader], _OFF_LEADER, 4)
        _put(four, tables[1, done], _OFF_TRICK_NUMBER, 10)
        _put(four, rot[_SV, slot, r], _OFF_SIGNALS, 64)
        for j in range(len(_STATIC)):
            four[_STATIC[j]] |= rot[_S0 + j, slot, r]
        team = s & 1
        _put(four, tables[2, thirds[team, r]], _OFF_THIRDS, _W_THIRDS)
        _put(four, tables[2, thirds[1 - team, r]], _OFF_THIRDS + _W_THIRDS, _W_THIRDS)
        # --- col morto's layout (ColMortoBatch._words)
        for k in range(n_words):
            words[k] = np.uint64(0)
        for k in range(_CUT // 64):
            words[k] = four[k]
        if _CUT % 64:
            words[_CUT // 64] = four[_CUT // 64] & ~(m64 >> np.uint64(_CUT % 64))
        for offset in range(0, _MOVED, 60):
            width = min(60, _MOVED - offset)
            _put(words, _get(four, _CUT + offset, width), _AT_TRICK_NUMBER + offset, width)
        dummies = np.int64(dummies_of_key[key[i]])
        if shown[r]:
            for k in range(4):
                seat = (s + k) & 3
                if (dummies >> seat) & 1:
                    _put(words, rot[_H, (slot + k) & 3, r], _AT_EXPOSED + 40 * k, 40)
        if is_match:
            mine = s & 1 if by_sides else player[i]
            for k in range(n_comp):
                need = target - score[r, (mine + k) % n_comp]
                need = min(max(need, 0), 41)
                _put(words, tables[3, need], _AT_TO_TARGET + _W_TARGET * k, _W_TARGET)
        rel = ((dummies * 0x11) >> s) & 0xF
        acting = np.uint64(0)
        t = turn[i]
        if t >= 0 and on_turn[i] == player[i]:
            acting = np.uint64(8) >> np.uint64((t - s) & 3)
        if n_comp == 3:
            _put(words, tables[4, rel], _AT_DUMMIES3, 4)
            _put(words, acting, _AT_ACTING3, 4)
        else:
            _put(words, tables[4, rel], _AT_DUMMIES2, 4)
            _put(words, acting, _AT_ACTING2, 4)
        for k in range(n_words):
            out[i, k] = _big_endian(words[k])


def _lookup_tables() -> np.ndarray:
    """``packed_words``'s ``tables``: (5, 42) uint64, each table padded with zeros."""
    out = np.zeros((5, 42), dtype=np.uint64)
    for j, table in enumerate((tb.LEADER_FIELD, tb.TRICK_NUMBER_FIELD, tb.THERMO_THIRDS, tb.THERMO_TARGET, _REVERSE4)):
        out[j, : len(table)] = table
    return out


_TABLES = _lookup_tables()


def packed(
    batch: Any,
    rows: np.ndarray,
    me: np.ndarray,
    player: np.ndarray,
    turn: np.ndarray,
    key: np.ndarray,
    on_turn: np.ndarray,
) -> np.ndarray:
    """(M, 8 * words) uint8: the observation of players ``player`` (seats ``me``) of deals ``rows`` of ``batch``.

    ``ColMortoBatch.observe``'s arguments of ``_words`` (already checked); ``np.unpackbits`` of
    each row gives the observation.
    """
    engine = batch.engine
    at = batch._at
    rules = batch.rules
    if at != _LAYOUTS.get(batch._score.shape[1]):  # pragma: no cover - a guard for whoever changes the layout
        raise RuntimeError("col morto's observation layout changed: update vector._col_morto_words with it")
    params = np.array(
        [
            rules.episode == "match",
            batch._by_sides,
            rules.target_score,
        ],
        dtype=np.int64,
    )
    n_words = (batch.observation.size + 63) // 64
    out = np.empty((len(rows), n_words), dtype=np.uint64)
    index = [np.asarray(x, dtype=np.int64) for x in (rows, me, player, turn, key, on_turn)]  # one compiled signature
    packed_words(
        out,
        *index,
        engine._q,
        engine._rot,
        engine._trick,
        engine._leader_slot,
        engine._tricks,
        engine._playing,
        engine._thirds,
        batch._tables["dummies"],
        batch._shown,
        batch._score,
        params,
        np.zeros(tb.OBS_WORDS, dtype=np.uint64),
        np.zeros(n_words, dtype=np.uint64),
        _TABLES,
    )
    return out.view(np.uint8) if sys.byteorder == "little" else out.byteswap().view(np.uint8)
