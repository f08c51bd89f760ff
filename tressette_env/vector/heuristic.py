"""The rule player of ``agents.heuristic`` for a whole batch at once: ``heuristic_actions``.

``heuristic_actions(batch, deals=None)`` returns, for the seat on turn in each
deal of a ``TressetteBatch``, exactly the action that
``HeuristicPlayer().act(view(state, turn), legal_actions(state), rng)`` returns on
the same scalar state: the same sixteen rules in the same order, the same card
counting, signals and tie-breaks, under every rule set (``tests/vector/test_heuristic.py``
pins it to the scalar player step by step). It is a fixed number of NumPy calls
per batch, whatever the batch size: no Python loop over the deals.

How: every rule of the scalar player picks a card by a key that depends on the
card's rank alone (then the suit, lowest first), or picks a suit first and then
a rank inside it. So the cards of each suit are handled as 10-bit fields (bit
``r`` = rank index ``r``) and each in-suit choice is one lookup in a 1024-entry
table; a choice of suit is the minimum over the four suits of ``key * 4 + suit``.
The state comes from the batch's private arrays, rows of the chosen deals only
(``_read``, the leads and the scores; the tests check them against the public readers).

``TressetteVectorEnv(opponent="heuristic")`` (and ``partner=``) plays these seats
with it.

Example:
    >>> import numpy as np
    >>> batch = TressetteBatch(4, seed=0)
    >>> actions = heuristic_actions(batch)
    >>> actions.shape, bool(batch.legal_masks()[np.arange(4), actions].all())
    ((4,), True)
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(40):  # the heuristic at seats 0 and 2, random play at seats 1 and 3
    ...     result = batch.step(np.where(batch.turn % 2 == 0, heuristic_actions(batch), batch.sample_actions(rng)))
    >>> bool(result.terminated.all())
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..engine.actions import BUSSO, CALL_OUT, STRISCIO, VOLO
from ..engine.cards import STRENGTH, THIRDS
from . import engine as _engine
from .engine import TressetteBatch

__all__ = ["heuristic_actions"]

# --------------------------------------------------------------------------- tables
# A suit of a hand as a 10-bit field: bit r = rank index r (0 asso, 1 the 2, 2 the 3, 3..6 the 4..7,
# 7 fante, 8 cavallo, 9 re), as in an engine mask (``(mask >> 10 * suit) & 0x3FF``). The batch's
# masks are reversed (card c at bit 39 - c): ``_field`` and ``_fields`` turn their suits round.

_FIELDS = np.arange(1024)
_S = STRENGTH[:10]  # taking power by rank
_T = THIRDS[:10]  # points in thirds by rank


def _first_table(order: Sequence[int]) -> np.ndarray:
    """[field] -> the first rank of ``order`` present in the field; -1 for an empty field."""
    table = np.full(1024, -1, dtype=np.int64)
    for r in reversed(order):  # the first rank of the order written last
        table[_FIELDS >> r & 1 == 1] = r
    return table


def _order(key: Callable[[int], Any]) -> list[int]:
    return sorted(range(10), key=key)


_STRONGEST = _first_table(_order(lambda r: -_S[r]))  # max(cards, key=STRENGTH)
_WEAKEST_BY_POWER = _first_table(_order(lambda r: _S[r]))  # min(cards, key=STRENGTH)
# _weakest / _low_lead: fewest points, then lowest power (4 5 6 7 F C R 2 3 A).
_CHEAPEST = _first_table(_order(lambda r: (_T[r], _S[r])))
# Rule 7: max of (points unless a 3 or 2, -power): the asso, then F C R, then 4 5 6 7 2 3.
_GIFT = _first_table(_order(lambda r: (-(_T[r] * (r not in (1, 2))), _S[r])))
# Rule 9: min of (is the asso, power).
_TAKE_LAST = _first_table(_order(lambda r: (r == 0, _S[r])))
# Rule 16's last resort (no liscio in hand): min of (points, is a 3 or 2, power); its place by rank.
_DUMP_ORDER = _order(lambda r: (_T[r], r in (1, 2), _S[r]))
_DUMP_RANK = np.array(_DUMP_ORDER, dtype=np.int64)
_DUMP_PLACE = np.array([_DUMP_ORDER.index(r) for r in range(10)] + [99], dtype=np.int64).take(
    _first_table(_DUMP_ORDER)
)  # [field] -> place of its card in _DUMP_ORDER; 99 for an empty field
_LOWEST_RANK = _first_table(range(10))
_HIGHEST_RANK = _first_table(range(9, -1, -1))
_AFTER = np.array([0x3FF & ~((1 << (k + 1)) - 1) for k in range(-1, 10)], dtype=np.int64)
"""[k + 1] -> the bits above bit k (all ten for k = -1)."""
_ABOVE = np.array([sum(1 << x for x in range(10) if _S[x] > _S[r]) for r in range(10)], dtype=np.int64)
"""[rank] -> the field of the ranks that beat it."""
_ABOVE_ALL = np.where(_FIELDS == 0, 0x3FF, _ABOVE.take(_STRONGEST))
"""[field] -> the ranks that beat every card of the field (all ranks for an empty field)."""
_POP = np.bitwise_count(_FIELDS).astype(np.int64)
_REV10 = sum((_FIELDS >> r & 1) << (9 - r) for r in range(10))
_HONOURS, _FIGURES, _LISCI = 0b111, 0b111 << 7, 0b1111 << 3  # asso 2 3; fante cavallo re; 4 5 6 7
_SUIT_COL = np.arange(4, dtype=np.int64)[:, None]
_SPLIT = 10 * _SUIT_COL
_BIG = 1 << 20
_TRICKS = np.arange(10, dtype=np.int64)
_PLAY_ORDER = np.arange(3, dtype=np.int64)  # the first three cards of a trick
_STRENGTH_OF = np.array([*STRENGTH, -1], dtype=np.int64)  # [40] (no card) -> -1
_THIRDS_OF = np.array([*THIRDS, 0], dtype=np.int64)
_U = np.uint64
_M10 = _U(0x3FF)
_ONE = _U(1)
_SUIT_AT = np.array([[30], [20], [10], [0]], dtype=_U)  # where suit s sits in a reversed mask
_RANK_IN = [_U(sum(1 << (39 - 10 * s - r) for s in range(4))) for r in range(10)]
"""The four cards of rank r, as a reversed mask."""


def _fields(masks: np.ndarray) -> np.ndarray:
    """(M,) reversed card masks -> (4, M) int64 suit fields (engine order, bit r = rank r)."""
    return _REV10.take(((masks >> _SUIT_AT) & _M10).view(np.int64))


def _first(conditions: list[np.ndarray], choices: list[Any], default: np.ndarray | int) -> np.ndarray:
    """``np.select`` (the choice of the first true condition, else ``default``) in fewer NumPy calls."""
    if isinstance(default, np.ndarray):
        out = default.astype(np.int64)  # a copy
    else:
        out = np.full(conditions[0].shape, default, dtype=np.int64)
    for condition, choice in zip(reversed(conditions), reversed(choices), strict=True):
        np.copyto(out, choice, where=condition)
    return out


def _split(masks: np.ndarray) -> np.ndarray:
    """(M,) int64 40-bit masks, suit s in bits 10s..10s+9 -> (4, M) fields."""
    return (masks >> _SPLIT) & 0x3FF


def _field(masks: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """(M,) reversed card masks -> the field of one suit per row."""
    return _REV10.take(((masks >> (30 - 10 * suit).astype(_U)) & _M10).view(np.int64))


# --------------------------------------------------------------------------- batch state


class _Table(NamedTuple):
    """What the rules read of the chosen (playing) deals; cards as reversed masks (bit 39 - c)."""

    turn: np.ndarray
    """(M,) the seat on turn."""
    hand: np.ndarray
    """(M,) uint64: its cards."""
    unplayed: np.ndarray
    """(M,) uint64: the cards still in someone's hand."""
    trick: np.ndarray
    """(M, 3) int64: the first three cards of the trick in play order, 40 for none."""
    tricks_done: np.ndarray
    """(M,) completed tricks of the hand."""
    seen: np.ndarray
    """(M,) uint64: the signals+voids field the seat on turn sees (entry j at bit 63 - j, see ``_tables``)."""
    partner_dealt: np.ndarray
    """(M,) uint64: the cards its partner was dealt (the declarations come from them)."""
    face_up: np.ndarray
    """(M,) uint64: the cards lying face up in any hand (col morto's dummies; 0 in the four-seat game)."""
    next_up: np.ndarray
    """(M,) uint64: the face-up hand of the seat after the one on turn (0 when it is hidden)."""


def _read(batch: TressetteBatch, rows: np.ndarray, turn: np.ndarray) -> _Table:
    """The ``_Table`` of the deals ``rows`` (all playing), read from the batch's private arrays.

    The engine keeps hands, tricks and each observer's signals+voids field by slot,
    the seat on turn in slot ``phase % 4`` (see ``TressetteBatch``): this takes the
    chosen rows of them, where the public readers convert every deal and ``observe``
    builds all 790 entries of a row to give the 64 of that field. The tests build the
    same ``_Table`` from the public readers alone and compare (``tests/vector/test_heuristic.py``),
    so a change inside the engine that this misses fails there.
    """
    hands = batch._rot[_engine._H].take(rows, axis=1)  # (4, M) by slot
    on_turn = batch._phase & 3
    seen = batch._rot[_engine._SV, on_turn].take(rows)
    trick_bits = batch._trick.take(rows, axis=1)  # (4, M) by slot, a card's bit or 0
    leader_slot = batch._leader_slot.take(rows)
    tricks_done = batch._tricks.take(rows)
    dealt = batch._dealt.reshape(-1).take(((turn + 2) & 3) * batch.num_deals + rows)
    m = len(rows)
    # Card ids by slot (bit 39 - c has 39 - c bits below it; 40 for no card), then in play order.
    cards = np.where(trick_bits == 0, 40, 39 - np.bitwise_count(trick_bits - _ONE).astype(np.int64))
    trick = cards.reshape(-1).take(((leader_slot[:, None] + _PLAY_ORDER) & 3) * m + np.arange(m)[:, None])
    unplayed = np.bitwise_or.reduce(hands, axis=0)  # a card in nobody's hand is played
    none = np.zeros(m, dtype=_U)
    return _Table(turn, hands[on_turn], unplayed, trick, tricks_done, seen, dealt, none, none)


def _revealed_field(dealt: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """The field in ``suit`` of the cards that the declarations of the dealt hands reveal."""
    f = _field(dealt, suit)
    out = np.where(f & _HONOURS == _HONOURS, _HONOURS, 0)  # napoletana
    for rank in range(3):  # three or four assi, 2s or 3s
        three = np.bitwise_count(dealt & _RANK_IN[rank]) >= 3
        out |= np.where(three, f & (1 << rank), 0)
    return out


# --------------------------------------------------------------------------- the player


def heuristic_actions(batch: TressetteBatch, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """The action ``HeuristicPlayer`` takes for the seat on turn in each deal.

    Args:
        batch: the deals.
        deals: which deals (indices or an (N,) bool mask); all when None.

    Returns:
        (M,) int64 action ids, one per chosen deal in order; -1 for a finished deal
        (``autoreset=False``), where no seat is on turn.
    """
    return _actions(batch, deals, _read)


def _actions(
    batch: TressetteBatch,
    deals: np.ndarray | Sequence[int] | None,
    read: Callable[[TressetteBatch, np.ndarray, np.ndarray], _Table],
) -> np.ndarray:
    if not isinstance(batch, TressetteBatch):
        raise TypeError(f"heuristic_actions plays a TressetteBatch; got {type(batch).__name__}")
    rows = np.arange(batch.num_deals) if deals is None else batch._deal_indices(deals)
    out = np.full(len(rows), -1, dtype=np.int64)
    turn = batch.turn.take(rows)
    playing = np.flatnonzero(turn >= 0)
    if len(playing) < len(rows):
        rows, turn = rows[playing], turn[playing]
    if not len(rows):
        return out
    t = read(batch, rows, turn)
    leading = t.trick[:, 0] == 40
    if leading.all():
        actions = _lead(batch, rows, t)
    elif not leading.any():
        actions = _follow(t, batch.rules.accusi)
    else:
        actions = np.empty(len(rows), dtype=np.int64)
        lead = np.flatnonzero(leading)
        follow = np.flatnonzero(~leading)
        actions[lead] = _lead(batch, rows[lead], _Table(*(x[lead] for x in t)))
        actions[follow] = _follow(_Table(*(x[follow] for x in t)), batch.rules.accusi)
    out[playing] = actions
    return out


def _follow(t: _Table, accusi: bool) -> np.ndarray:
    """Rules 7-16: the seat on turn follows a trick that has 1 to 3 cards."""
    m = len(t.hand)
    hand, seen = t.hand, t.seen
    first, second, third = t.trick[:, 0], t.trick[:, 1], t.trick[:, 2]
    count = 1 + (second < 40) + (third < 40)
    led = first // 10
    best, pos = first, np.zeros(m, dtype=np.int64)
    for k, c in ((1, second), (2, third)):
        beats = (c // 10 == led) & (_STRENGTH_OF.take(c) > _STRENGTH_OF.take(best))
        best = np.where(beats, c, best)
        pos = np.where(beats, k, pos)
    partner_ahead = (count >= 2) & (pos == count - 2)  # the partner played card count - 2
    above = _ABOVE.take(best % 10)  # the ranks that beat the winning card
    points = _THIRDS_OF.take(first) + _THIRDS_OF.take(second) + _THIRDS_OF.take(third)
    last = count == 3
    mine = _field(hand, led)
    shift = led.astype(_U)
    next_void = ((seen >> (_U(11) - shift)) & _ONE).astype(bool)  # relative seat 1, the led suit
    partner_busso = ((seen >> (_U(39) - _U(3) * shift)) & _ONE).astype(bool)  # relative seat 2
    # _nobody_after_can_beat: nobody plays after me, or the next seat (an opponent) is void, or
    # every higher card out is one that the partner's declarations showed.
    free = last | next_void
    # A face-up hand (col morto's dummy) is known card by card: the next seat's, when it is face up,
    # is the whole threat; otherwise no face-up card elsewhere is one.
    threat = _field(t.unplayed & ~hand & ~t.face_up, led)
    if accusi:
        threat &= ~_revealed_field(t.partner_dealt, led)
    threat = np.where(t.next_up != 0, _field(t.next_up, led), threat)
    partner_sure = partner_ahead & (free | (threat & above == 0))
    beaters = mine & above
    sure = np.where(free, beaters, beaters & _ABOVE_ALL.take(threat))
    can = beaters != 0
    against = can & ~partner_ahead
    rank = _first(
        [
            partner_sure,  # 7
            partner_ahead & (count == 2) & partner_busso & can,  # 8
            against & last,  # 9
            against & (sure != 0) & (points > 0),  # 10
            against & ((count == 2) | (points > 0) | (t.tricks_done >= 8)),  # 11, 12
            can & partner_ahead & (points > 0) & (sure != 0),  # 13
        ],
        [
            _GIFT.take(mine),
            _STRONGEST.take(mine),
            _TAKE_LAST.take(beaters),
            _WEAKEST_BY_POWER.take(sure),
            _STRONGEST.take(beaters),
            _WEAKEST_BY_POWER.take(sure),
        ],
        _CHEAPEST.take(mine),  # 14
    )
    action = 10 * led + rank
    void = np.flatnonzero(mine == 0)
    if len(void):
        action[void] = _discard(hand.take(void), t.unplayed.take(void), partner_sure.take(void))
    return action


def _discard(hand: np.ndarray, unplayed: np.ndarray, partner_sure: np.ndarray) -> np.ndarray:
    """Rules 15-16: void in the led suit. Keys end with the suit (key * 4 + suit): a min picks the lowest suit of a tie."""
    h = _fields(hand)  # (4, M)
    length = _POP.take(h)
    # 15. Partner sure to take: an asso whose 3 or 2 is still out, from the shortest suit; else a figure.
    asso = (h & 1 != 0) & (_fields(unplayed) & 0b110 != 0)
    asso_key = np.where(asso, length * 4 + _SUIT_COL, _BIG).min(axis=0)
    figure = _LOWEST_RANK.take(h & _FIGURES)  # the weakest figure of the suit: fante < cavallo < re
    figure_key = np.where(figure >= 0, figure * 4 + _SUIT_COL, _BIG).min(axis=0)
    # 16. A liscio, from a suit without its asso, the shortest, the weakest card; else the cheapest card.
    liscio = _LOWEST_RANK.take(h & _LISCI)  # ranks 3..6 are the 4..7, weakest first
    liscio_key = np.where(liscio >= 0, (((h & 1) * 16 + length) * 16 + liscio) * 4 + _SUIT_COL, _BIG).min(axis=0)
    dump_key = (_DUMP_PLACE.take(h) * 4 + _SUIT_COL).min(axis=0)
    return _first(
        [partner_sure & (asso_key < _BIG), partner_sure & (figure_key < _BIG), liscio_key < _BIG],
        [
            10 * (asso_key & 3),
            10 * (figure_key & 3) + (figure_key >> 2),
            10 * (liscio_key & 3) + ((liscio_key >> 2) & 15),
        ],
        10 * (dump_key & 3) + _DUMP_RANK.take(dump_key >> 2),
    )


def _lead(batch: TressetteBatch, rows: np.ndarray, t: _Table) -> np.ndarray:
    """Rules 1-6 and the signal: the seat on turn leads.

    Per-suit arrays are (4, M); a choice of suit is the min of a key * 4 + suit (so the
    lowest suit wins a tie, as the scalar player's ``min``, ``max`` and lists do).
    """
    m = len(rows)
    ar = np.arange(m)
    me = t.turn
    partner = (me + 2) & 3
    h = _fields(t.hand)
    u = _fields(t.unplayed)
    o = u & ~h
    held = h != 0
    length = _POP.take(h)
    # The leads so far as 10-bit fields by suit: bit t for a lead in trick t.
    # (M, 10) by trick, the rows of the batch's lead history (``leads()`` copies every deal).
    acts = batch._lead_actions.take(rows, axis=1).T.astype(np.int64)
    seats = batch._lead_seats.take(rows, axis=1).T
    bit = np.where(acts >= 0, np.left_shift(1, acts % 40 // 10 * 10 + _TRICKS), 0)  # (M, 10)
    by_partner = seats == partner[:, None]
    mine_led = _split(np.where(seats == me[:, None], bit, 0).sum(axis=1))
    partner_led = _split(np.where(by_partner, bit, 0).sum(axis=1))
    partner_busso = _split(np.where(by_partner & (acts // 40 == BUSSO), bit, 0).sum(axis=1))
    # 2. _partner_busso_suits: a suit waits from the partner's first busso in it after my last
    #    lead of it, and the suits wait in that order.
    waiting = _LOWEST_RANK.take(partner_busso & _AFTER.take(_HIGHEST_RANK.take(mine_led) + 1))
    rule2 = np.where(held & (waiting >= 0), waiting * 4 + _SUIT_COL, _BIG).min(axis=0)
    # 3. A master (not an asso) of a suit with cards still out; before the ninth trick (tricks_done < 8),
    #    not a lone one;
    #    the one with the most honours out.
    master = _STRONGEST.take(u)  # per suit the rank of the best unplayed card (-1: none)
    own_master = held & ((h >> np.maximum(master, 0)) & 1 != 0)
    out = o != 0
    takers = own_master & (master != 0) & out & ((t.tricks_done >= 8) | (length >= 2))
    rule3 = np.where(takers, (3 - _POP.take(o & _HONOURS)) * 4 + _SUIT_COL, _BIG).min(axis=0)
    # 4. A master asso with cards of its suit out.
    rule4 = np.where(own_master & (master == 0) & out, _SUIT_COL, _BIG).min(axis=0)
    # 5. The suit the partner led last.
    opened = _HIGHEST_RANK.take(partner_led)
    rule5 = np.where(held & (opened >= 0), (9 - opened) * 4 + _SUIT_COL, _BIG).min(axis=0)
    # 6. The longest suit without a lone asso (its 3 or 2 out, and neither held), or the longest.
    lone = (h & 1 != 0) & (h & 0b110 == 0) & (u & 0b110 != 0)
    safe = held & ~lone
    safe = np.where(safe.any(axis=0), safe, held)
    rule6 = np.where(safe, (10 - length) * 4 + _SUIT_COL, _BIG).min(axis=0)
    has2, has3, has4 = rule2 < _BIG, rule3 < _BIG, rule4 < _BIG
    suit = _first([has2, has3, has4, rule5 < _BIG], [rule2, rule3, rule4, rule5], rule6) & 3
    at = suit * m + ar
    f = h.reshape(-1).take(at)
    rank = _first(
        [has2, has3, has4],
        [_STRONGEST.take(f), master.reshape(-1).take(at), np.zeros(m, dtype=np.int64)],
        _CHEAPEST.take(f),  # 5 and 6: _low_lead
    )
    action = 10 * suit + rank
    rules = batch.rules
    if rules.signals:  # _with_signal
        rest = f & ~(1 << rank)
        signal = _first(
            [
                rest == 0,
                (rest & _HONOURS != 0) & ~own_master.reshape(-1).take(at),
                (_POP.take(rest) >= 2) & (f & _HONOURS == 0),
            ],
            [VOLO, BUSSO, STRISCIO],
            0,
        )
        if batch._signal_seats is not None:  # a seat whose partner is a dummy gives no signal (col morto)
            signal *= (batch._signal_seats.take(rows) >> me.astype(np.uint8)) & np.uint8(1)
        action += 40 * signal
    if rules.calling_out:  # 1. _claim_is_true
        team = me & 1
        at = team * batch.num_deals + rows  # the team's row of the (2, N) arrays (the readers copy every deal)
        thirds = batch._thirds.reshape(-1).take(at)
        declared = batch._declared.reshape(-1).take(at)
        score = batch._match_score.reshape(-1).take(at)
        points = np.where(thirds >= 3, thirds // 3 + declared, 0)
        action = np.where(score + points >= rules.target_score, CALL_OUT, action)
    return action
