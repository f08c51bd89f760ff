"""The double-dummy solver's search, compiled by numba when numba is installed.

This is the one implementation of the four-seat game's double-dummy search
(``solver`` is its public face: validation, card numbering, the API). The same source
runs two ways:

| numba | how it runs | speed |
| --- | --- | --- |
| installed (``pip install "tressette-env[fast]"``) | compiled to machine code on first use (about 20 s, then cached on disk) | a full deal: 0.06 s at the median, 0.55 s at the 99th percentile, one core (docs/search.md) |
| absent, or ``TRESSETTE_NUMBA=0`` | the same functions as plain Python | about fifty times slower |

``COMPILED`` says which. Every function here takes and returns plain integers and flat
integer tables (numpy arrays when compiled, Python lists otherwise), which is what lets
numba compile it unchanged.

Cards are internal ids ``suit * 10 + power`` (power 0 = the 4 ... 9 = the 3), so that
within a suit "takes" is an integer comparison; a hand is a 40-bit mask of them.

How it searches:

- Null-window alpha-beta (``_ab``): "can the leading team take at least ``need``
  thirds?", failing soft (the answer is a bound, often beyond ``need``); ``_value``
  finds the exact value with a few such probes, bisecting.
- A transposition table at trick boundaries holds a lower and an upper bound of the
  value of the rest of the hand and the lead that last cut. Its key (``_key``) is the
  position up to isomorphism: in each suit, its shape (``_suit_code``: how many cards
  and who holds them, counted from the leader, from the highest down; the value is the
  leading team's, so a position and the same one turned round the table share a row) and
  its point values in that order (which cards of equal rank order are gone does not
  matter, nor the ranks of a suit left in one hand). The shapes choose the bucket, so
  that positions of the same shapes and other point values meet there: the play goes
  the same way in both, so each bounds the other's value, moved by how far their cards'
  points are, card for card (``_similar``: payoff similarity, Furtak and Buro, IJCAI
  2011; not in a horizon search, whose estimates are not values). The table is a fixed
  array of buckets of four entries in two cache lines (the shallowest position goes); a
  stamp per solve makes a reused table empty without clearing it.
- Quick bounds (``_cash_bound``), before the table: the leading team is sure of the
  thirds it collects by cashing the leader's masters, or by leading low to the partner's
  master and cashing the partner's, and takes everything when the one who cashes holds
  only masters.
- Move ordering: the lead that last cut here (the table's) first, then the leads that
  cut most often in this solve (a history table, each cut weighted 8^cards in hand,
  zeroed by ``Tables.start``; on the benchmark's 100 full deals the 99th percentile of
  the time fell 1.7x with 2^cards, docs/search.md), ties in the order: cash masters, lead low to the
  partner's master, the cheapest. Following, with every hand in view: give points when
  the partner's card will take the trick whatever comes after (the second hand's
  partner, last to play, beating every card of the suit the others hold counts too);
  else take with the cheapest card that no later opponent can beat (the second hand:
  that beats the lead), else throw the cheapest (on the benchmark's 100 full deals,
  with the history weighted 8^cards, the 99th percentile of the time falls from 4.3 s to
  2.7 s in one run, docs/search.md).
- Equivalent cards (``_reps``): two cards of one hand of the same suit and point value,
  with no card between them in taking power in any hand or on the table, are
  interchangeable; only one of them is searched.
- The last two tricks are played out by ``_exact2``, a small exhaustive search.

What a position costs: the move lists, equivalent cards and suit shapes come from lookup
tables (``LOW_PLACES``, ``SAME_AS_BELOW``, ``COMPRESS5``...) rather than loops and sorts;
bit scans and counts compile to single instructions; numba's reference counting of the
arrays is off (nothing here makes an array) and the small helpers are inlined
(``_jit_inline``). docs/search.md has what each measured.
"""

from __future__ import annotations

import math
import threading
from time import perf_counter

from ..engine.cards import STRENGTH, THIRDS
from ..engine.scoring import LAST_TRICK_THIRDS
from .numba_switch import numba_module

__all__ = ["COMPILED", "Tables", "tables", "value"]


_nb = numba_module()
COMPILED = _nb is not None
"""True when the search runs compiled by numba, False when it runs as plain Python."""
if COMPILED:
    import numpy as np  # numba's arrays; plain Python needs only the standard library


def _jit(function):
    """Compiled by numba when it is there, without numba's reference counting.

    ``_nrt=False``: no function here makes an array, so the reference counting of the
    arrays passed along (two atomic operations per array per call, about 5% of a solve) is
    left out.
    """
    return _nb.njit(cache=True, nogil=True, _nrt=False)(function) if COMPILED else function


def _jit_inline(function):
    """``_jit``, and numba inlines the function into its callers (about 13% of a solve)."""
    return _nb.njit(cache=True, nogil=True, _nrt=False, inline="always")(function) if COMPILED else function


def _table(values):
    """A constant table: a numpy array for numba (a compile-time constant), a tuple for Python."""
    values = [int(v) for v in values]
    return np.array(values, dtype=np.int64) if COMPILED else tuple(values)


if COMPILED:

    @_nb.njit(cache=True)
    def _now() -> float:
        with _nb.objmode(t="float64"):
            t = perf_counter()
        return t

else:
    _now = perf_counter

# --------------------------------------------------------------------------------------
# Constant tables.

_TO_INT = tuple(c // 10 * 10 + STRENGTH[c] for c in range(40))
_TO_EXT = tuple(sorted(range(40), key=_TO_INT.__getitem__))
PTS = _table(THIRDS[_TO_EXT[i]] for i in range(40))
"""Thirds of each internal card."""
SUIT = _table(i // 10 for i in range(40))
"""Suit of each internal card."""
LPTS = _table(THIRDS[_TO_EXT[i]] for i in range(10))
"""Thirds by power, the same in every suit: 0 for the 4 to the 7, 1 for figures, 2 and 3, 3 for the asso."""
BITLEN = _table(v.bit_length() for v in range(1024))
"""Bit length of a 10-bit suit field."""
POP = _table(v.bit_count() for v in range(1024))
_CHEAPEST = sorted(range(10), key=lambda b: (THIRDS[_TO_EXT[b]], b))
_RICHEST = sorted(range(10), key=lambda b: (-THIRDS[_TO_EXT[b]], b))
LOW_ORDER = _table(_CHEAPEST)
"""The powers cheapest first: fewest points, then lowest power (the 4 ... the 7, the fante ... the 3, the asso)."""
HIGH_ORDER = _table(_RICHEST)
"""The powers most points first, then lowest power (the asso, the fante ... the 3, the 4 ... the 7)."""
LOW_PLACES = _table(sum(1 << i for i, b in enumerate(_CHEAPEST) if v >> b & 1) for v in range(1024))
"""A suit field with its bits moved to their places in ``LOW_ORDER`` (bit i: the card of power ``LOW_ORDER[i]``)."""
HIGH_PLACES = _table(sum(1 << i for i, b in enumerate(_RICHEST) if v >> b & 1) for v in range(1024))
"""A suit field with its bits moved to their places in ``HIGH_ORDER``."""
SPREAD4 = _table(sum(1 << 4 * i for i in range(10) if v >> i & 1) for v in range(1024))
"""A 10-bit field spread to every fourth bit (bit i to bit 4i), to interleave the four suits."""
LAST = LAST_TRICK_THIRDS
RANK_WEIGHT = _table((5, 3, 2))
PTSUM = _table(sum(THIRDS[_TO_EXT[b]] for b in range(10) if v >> b & 1) for v in range(1024))
"""Thirds of a 10-bit suit field's cards."""


def _class_ids(of, ids: dict | None = None) -> list[int]:
    """For each 10-bit suit field, a number from 1 up that two fields share when ``of`` gives both the same.

    ``ids``, when given, is filled in: each class and its number (numbers go on from its size).
    """
    ids = {} if ids is None else ids
    return [0] + [ids.setdefault(of(v), len(ids) + 1) for v in range(1, 1024)]


_POINTS = [int(v) for v in LPTS]
_SEQUENCES: dict = {}
SEQUENCE = _table(_class_ids(lambda v: tuple(_POINTS[b] for b in range(10) if v >> b & 1), _SEQUENCES))
"""For each suit field, its cards' point values from the lowest power up, as a number (89 sequences, 1 to 89)."""
SORTED = _table(_class_ids(lambda v: tuple(sorted(_POINTS[b] for b in range(10) if v >> b & 1)), _SEQUENCES))
"""For each suit field, its cards' point values from the fewest up, as a number of the same numbering (99 in all)."""
_IDS = len(_SEQUENCES) + 1
_BY_ID = {i: seq for seq, i in _SEQUENCES.items()} | {0: ()}


def _distance(a: tuple, b: tuple) -> int:
    """``DIFF``'s entry for two point sequences: 0 when their lengths differ (never compared)."""
    if len(a) != len(b):
        return 0
    pairs = list(zip(a, b, strict=True))
    return sum(max(0, y - x) for x, y in pairs) | sum(max(0, x - y) for x, y in pairs) << 8


DIFF = _table(_distance(_BY_ID[a], _BY_ID[b]) for a in range(_IDS) for b in range(_IDS))
"""``DIFF[a * _IDS + b]`` for two point sequences of one length (``SEQUENCE`` or ``SORTED`` numbers, 0:
none): the thirds by which ``b``'s cards outweigh ``a``'s, card for card, plus 256 times the thirds by
which ``a``'s outweigh ``b``'s."""
COMPRESS5 = _table(
    sum(1 << POP[p & ((1 << b) - 1)] for b in range(5) if x >> b & p >> b & 1) for p in range(32) for x in range(32)
)
"""``COMPRESS5[p * 32 + x]``: the bits of ``x`` at the places of ``p``'s bits, packed from bit 0 (5-bit fields)."""
DEPOSIT5 = _table(
    sum(1 << b for b in range(5) if p >> b & 1 and x >> POP[p & ((1 << b) - 1)] & 1)
    for p in range(32)
    for x in range(32)
)
"""``DEPOSIT5[p * 32 + x]``: the low bits of ``x`` moved to the places of ``p``'s bits (5-bit fields)."""
SAME_AS_BELOW = _table(
    sum(1 << i for i in range(1, len(c)) if _POINTS[c[i]] == _POINTS[c[i - 1]])
    for c in ([b for b in range(10) if v >> b & 1] for v in range(1024))
)
"""For each suit field, packed from bit 0: the cards whose point value is that of the field's next card below."""


# Layout of the transposition table: buckets of WAYS entries in BUCKET int64 words (two cache
# lines): first the entries' data words, lower bound | upper bound << 6 | (best lead + 1) << 12 |
# depth << 18 | stamp << 22, then their keys, two words each: in each word two suits' shapes (24
# bits each, ``_suit_code``) and their point sequences (``SEQUENCE`` or ``SORTED``, 7 bits each)
# above them; the last four words are unused (a fifth entry measured no faster).
SHAPES = (1 << 48) - 1
"""The shapes' bits of a key word (what the bucket and a similar position go by)."""
WAYS = 4
BUCKET = 16
_KEYS = WAYS
# The context array: counters and settings of one solve.
_NODES, _STOP, _STAMP, _TIMEOUT, _MASK, _HISTORY = range(6)
CTX = _HISTORY + 40
"""Counters, settings, then the history table: for each internal card, how often its lead cut (weighted 8^cards)."""
ROWS_PER_LEVEL = 4
MOVE_ROWS = 11 * ROWS_PER_LEVEL + 4
"""Move lists: four rows per trick level (cards in the leader's hand), four for the root's trick."""


# --------------------------------------------------------------------------------------
# Bits and moves.


if COMPILED:
    from llvmlite import ir as _ir
    from numba.extending import intrinsic as _intrinsic

    def _bit_intrinsic(build):
        """A numba intrinsic of one integer, compiled to the LLVM bit instruction ``build`` makes."""

        def typer(typingctx, x):
            def codegen(context, builder, signature, args):
                return build(builder, args[0])

            return x(x), codegen

        return _intrinsic(typer)

    _ctpop = _bit_intrinsic(lambda builder, x: builder.ctpop(x))
    _ctlz = _bit_intrinsic(lambda builder, x: builder.ctlz(x, _ir.Constant(_ir.IntType(1), 0)))
    _cttz = _bit_intrinsic(lambda builder, x: builder.cttz(x, _ir.Constant(_ir.IntType(1), 0)))

    @_jit
    def _pop40(x: int) -> int:
        """Cards in a mask."""
        return _ctpop(x)

    @_jit
    def _bitlen40(x: int) -> int:
        """Index of the highest set bit of a mask, plus one (0 for an empty mask)."""
        return 64 - _ctlz(x)

    @_jit
    def _lowbit40(x: int) -> int:
        """Index of the lowest set bit of a non-zero mask."""
        return _cttz(x)

else:

    def _pop40(x: int) -> int:
        """Cards in a mask."""
        return x.bit_count()

    def _bitlen40(x: int) -> int:
        """Index of the highest set bit of a mask, plus one (0 for an empty mask)."""
        return x.bit_length()

    def _lowbit40(x: int) -> int:
        """Index of the lowest set bit of a non-zero mask."""
        return (x & -x).bit_length() - 1


@_jit_inline
def _compress(x: int, p: int) -> int:
    """The bits of ``x`` at the places of ``p``'s bits, packed from bit 0 (10-bit fields, ``x`` within ``p``)."""
    low = p & 31
    return COMPRESS5[low * 32 + (x & 31)] | COMPRESS5[(p >> 5) * 32 + (x >> 5)] << POP[low]


@_jit_inline
def _deposit(x: int, p: int) -> int:
    """The inverse of ``_compress``: the low bits of ``x`` moved to the places of ``p``'s bits, from bit 0."""
    low = p & 31
    k = POP[low]
    return DEPOSIT5[low * 32 + (x & ((1 << k) - 1))] | DEPOSIT5[(p >> 5) * 32 + (x >> k & 31)] << 5


@_jit_inline
def _reps(p: int, m: int) -> int:
    """One card of each run of equivalent cards, as a 10-bit mask by power.

    ``m`` is the hand's cards of one suit, ``p`` every card of the suit still in a hand or
    on the table. A run is a sequence of the hand's cards, adjacent in power among ``p``
    and of the same point value; its lowest card stands for it. Among ``p``'s cards
    packed from bit 0 (``_compress``), a card of ``m`` stands for a run unless the card
    just below it is ``m``'s too and has its point value (``SAME_AS_BELOW``).
    """
    packed = _compress(m, p)
    return _deposit(packed & ~(packed << 1 & SAME_AS_BELOW[p]), p)


@_jit
def rep_mask(hand: int, present: int) -> int:
    """``_reps`` over the four suits of an internal mask."""
    out = 0
    for sh in range(0, 40, 10):
        m = hand >> sh & 1023
        if m:
            out |= _reps(present >> sh & 1023, m) << sh
    return out


@_jit_inline
def _append(mv, n: int, r: int, sh: int, high: bool) -> int:
    """The cards of the suit field ``r`` (the suit's first id ``sh``) into ``mv[n:]``; returns the new end.

    Most points first (``high``) or cheapest first, as ``HIGH_ORDER`` and ``LOW_ORDER`` say.
    """
    x = HIGH_PLACES[r] if high else LOW_PLACES[r]
    while x:
        i = _lowbit40(x)
        x &= x - 1
        mv[n] = sh + (HIGH_ORDER[i] if high else LOW_ORDER[i])
        n += 1
    return n


@_jit
def _lead_moves(hl: int, hp: int, present: int, mv, base: int) -> int:
    """Ordered leads into ``mv[base:]``; returns their count.

    The leader's masters (most points first), low to the partner's master, then the
    cheapest of the other suits (``_order_leads`` then puts the history's first).
    """
    n = base
    for group in range(3):
        for sh in range(0, 40, 10):
            m = hl >> sh & 1023
            if not m:
                continue
            p = present >> sh & 1023
            top = BITLEN[p] - 1
            if m >> top & 1:
                g = 0
            elif hp >> (sh + top) & 1:
                g = 1
            else:
                g = 2
            if g != group:
                continue
            n = _append(mv, n, _reps(p, m), sh, g == 0)
    return n - base


@_jit
def _order_leads(mv, base: int, n: int, best: int, ctx) -> None:
    """Leads ``mv[base:base + n]`` by the history table, most cuts first (stable), ``best`` before all."""
    for i in range(base + 1, base + n):
        c = mv[i]
        k = ctx[_HISTORY + c]
        j = i - 1
        while j >= base and ctx[_HISTORY + mv[j]] < k:
            mv[j + 1] = mv[j]
            j -= 1
        mv[j + 1] = c
    if best >= 0:
        for i in range(base, base + n):
            if mv[i] == best:
                for j in range(i, base, -1):
                    mv[j] = mv[j - 1]
                mv[base] = best
                break


@_jit_inline
def _follow_moves(p: int, m: int, sh: int, win: int, ours: bool, after: int, mv, base: int) -> int:
    """Ordered cards to follow suit (local masks ``p``, ``m``; ``sh`` the suit's first id).

    ``win`` is the power of the card that will take the trick if nobody beats it, ``ours``
    whether the partner holds it, ``after`` the highest power of the suit that can still
    take the trick from this team (-1: none considered; the second hand passes the higher of
    the lead and the third hand's best when its partner, last, beats both, else -1 and
    orders by the lead alone: measured better). The trick is the partner's whatever they play
    (``ours`` and ``win > after``): most points first. Otherwise the cheapest card that
    beats every card that can still take the trick from this team first, then the
    cheapest cards.
    """
    r = _reps(p, m)
    if ours and win > after:
        return _append(mv, base, r, sh, True) - base
    w = after if ours or after > win else win
    over = r >> (w + 1) << (w + 1)
    n = _append(mv, base, over, sh, False)
    return _append(mv, n, r ^ over, sh, False) - base


@_jit_inline
def _discard_moves(hand: int, present: int, high: bool, mv, base: int) -> int:
    """Ordered discards (void in the led suit): most points first when the partner wins, else cheapest first.

    Cards of the same power go in the order of their suits.
    """
    x = 0  # bit 4i + s: the card of suit s at place i of the order
    for s in range(4):
        m = hand >> (10 * s) & 1023
        if m:
            r = _reps(present >> (10 * s) & 1023, m)
            x |= SPREAD4[HIGH_PLACES[r] if high else LOW_PLACES[r]] << s
    n = base
    while x:
        j = _lowbit40(x)
        x &= x - 1
        mv[n] = 10 * (j & 3) + (HIGH_ORDER[j >> 2] if high else LOW_ORDER[j >> 2])
        n += 1
    return n - base


# --------------------------------------------------------------------------------------
# Bounds and the static estimate.


@_jit_inline
def _cheapest(f: int, k: int) -> int:
    """The thirds of the ``k`` cheapest cards of the 10-bit field ``f``."""
    zero = POP[f & 15]
    three = f >> 7 & 1
    one = POP[f] - zero - three
    t = min(k, zero)
    k -= t
    t = min(k, one)
    total = t
    k -= t
    return total + 3 * min(k, three)


@_jit_inline
def _cash_suit(p: int, hs: int, f1: int, f2: int) -> int:
    """One suit's part of ``_cash_bound`` (local masks): ``2 * thirds + 1`` when every card of ``hs`` is a master."""
    others = p & ~hs
    if others:
        n = BITLEN[others]
        run = hs >> n << n
        every = 1 if run == hs else 0
    else:
        run = hs
        every = 1
    k = POP[run]
    total = PTSUM[run]
    if k:
        f3 = others & ~(f1 | f2)
        if f1:
            total += _cheapest(f1, k)
        if f2:
            total += _cheapest(f2, k)
        if f3:
            total += _cheapest(f3, k)
    return 2 * total + every


@_jit
def _cash_bound(h: int, f1: int, f2: int, present: int) -> int:
    """Thirds the team of ``h`` is sure of by cashing ``h``'s masters; -1: every third.

    ``h`` leads the highest cards left of a suit one after the other (a run of ``k``
    masters), then the next suit's; it keeps the lead. Each other hand must follow with
    at least ``min(k, cards of the suit)`` of its cards of the suit during those ``k``
    tricks, whatever it throws elsewhere: its cheapest ones are a sure gain (``f1`` and
    ``f2`` are two of the other hands; the third is the rest of ``present``). When every
    card of ``h`` is a master, its team takes every trick.
    """
    total = 0
    every = 1
    for sh in range(0, 40, 10):
        hs = h >> sh & 1023
        if hs:
            v = _cash_suit(present >> sh & 1023, hs, f1 >> sh & 1023, f2 >> sh & 1023)
            total += v >> 1
            every &= v
    return -1 if every else total


@_jit
def _estimate(H, L: int, rem: int, present: int, sure: int) -> int:
    """A static guess of the leader's team's thirds (beyond a search horizon).

    The leader's team keeps what cashing its masters makes sure of; the rest is split
    in proportion to each team's high cards, weighted by their rank among the cards
    still in play in their suit (the best 5, the second 3, the third 2, the others 1).
    """
    ours = 0
    theirs = 0
    team = H[L] | H[(L + 2) & 3]
    for sh in range(0, 40, 10):
        p = present >> sh & 1023
        rank = 0
        for bit in range(9, -1, -1):
            if p >> bit & 1:
                weight = RANK_WEIGHT[rank] if rank < 3 else 1
                rank += 1
                if team >> (sh + bit) & 1:
                    ours += weight
                else:
                    theirs += weight
    rest = rem - sure
    return sure + (rest * ours + (ours + theirs) // 2) // (ours + theirs)


# --------------------------------------------------------------------------------------
# The transposition table.


@_jit_inline
def _suit_code(p: int, a: int, b: int, c: int) -> int:
    """A suit's shape, in 24 bits: its cards still in play (``p``) and who holds them (``a``, ``b``, ``c``, the rest).

    Two suits have one shape exactly when they have as many cards and, from the highest
    down, the same holders (which ranks are gone does not matter): the play goes the same
    way in both, only the cards' point values (``SEQUENCE[p]``) may differ. When one hand
    holds the whole suit, the shape is that hand and the number of cards: the ranks no
    longer matter at all (it takes every trick it leads in the suit, and no other), so its
    cards can be paired by point value (``SORTED[p]``). The low four bits are the number of
    cards, or 0 when one hand holds the whole suit.
    """
    d = p & ~(a | b | c)
    if p == a:
        return POP[p] << 6
    if p == b:
        return 1 << 4 | POP[p] << 6
    if p == c:
        return 2 << 4 | POP[p] << 6
    if p == d:
        return 3 << 4 | POP[p] << 6
    # how many, then each card's holder in two bits: (b or d) and (c or d)
    return POP[p] | _compress(b | d, p) << 4 | _compress(c | d, p) << 14


@_jit_inline
def _key(hl: int, h1: int, h2: int, P: int):
    """The table's key of a trick boundary: two words, each two suits' shapes and point sequences.

    ``hl``, ``h1``, ``h2`` are the hands of the leader and the two seats after it (the
    fourth holds the rest of ``P``): the holders are counted from the leader, since the
    value is the leading team's. Two positions with the same shapes play alike; with the
    same point sequences too, they have the same value.
    """
    k0 = 0
    k1 = 0
    for s in range(4):
        sh = 10 * s
        p = P >> sh & 1023
        if p:
            code = _suit_code(p, hl >> sh & 1023, h1 >> sh & 1023, h2 >> sh & 1023)
            code |= (SEQUENCE[p] if code & 15 else SORTED[p]) << (48 - 17 * (s & 1))  # at bit 48 or 55 of the word
            if s < 2:
                k0 |= code << (24 * s)
            else:
                k1 |= code << (24 * s - 48)
    return k0, k1


@_jit_inline
def _similar(k0: int, k1: int, e0: int, e1: int) -> int:
    """How far an entry's position ``(e0, e1)`` of the same shapes is from ``(k0, k1)``.

    The thirds by which the entry's cards outweigh this position's, card for card, plus
    256 times the thirds by which this position's outweigh the entry's: every play goes
    the same way in both, so this position's value is within the entry's value minus the
    first and plus the second.
    """
    return (
        DIFF[(k0 >> 48 & 127) * _IDS + (e0 >> 48 & 127)]
        + DIFF[(k0 >> 55 & 127) * _IDS + (e0 >> 55 & 127)]
        + DIFF[(k1 >> 48 & 127) * _IDS + (e1 >> 48 & 127)]
        + DIFF[(k1 >> 55 & 127) * _IDS + (e1 >> 55 & 127)]
    )


@_jit_inline
def _probe(tt, ctx, k0: int, k1: int, rem: int):
    """What the table knows of position ``(k0, k1)``: ``(slot, lo, hi, best)``.

    ``slot`` is the data word of the position's own entry, or ``-1 - bucket`` (its first
    word) when it has none; ``lo`` and ``hi`` bound its value (``0`` and ``rem`` when
    nothing is known): its own entry's bounds, tightened by those of the entries of the
    same shapes with other point values, moved by how far their cards' points are
    (``_similar``; not in a horizon search, whose estimates are not bounds); ``best``
    the lead that last cut here (-1: none).
    """
    shape0 = k0 & SHAPES
    shape1 = k1 & SHAPES
    h = (shape0 * 0x2545F4914F6CDD1D + shape1 * 0x5851F42D4C957F2D) & ((1 << 62) - 1)
    base = (((h >> 23) ^ h) & ctx[_MASK]) * BUCKET
    stamp = ctx[_STAMP]
    similar = ctx[_STOP] < 3  # no horizon is ever reached: positions with fewer cards are not in the table
    slot = -1 - base
    lo = 0
    hi = rem
    best = -1
    for j in range(WAYS):
        data = tt[base + j]
        if data >> 22 != stamp:
            continue
        e0 = tt[base + _KEYS + 2 * j]
        e1 = tt[base + _KEYS + 2 * j + 1]
        if e0 == k0 and e1 == k1:
            slot = base + j
            lo = max(lo, data & 63)
            hi = min(hi, data >> 6 & 63)
            best = (data >> 12 & 63) - 1
        elif similar and e0 & SHAPES == shape0 and e1 & SHAPES == shape1:
            d = _similar(k0, k1, e0, e1)
            lo = max(lo, (data & 63) - (d & 255))
            hi = min(hi, (data >> 6 & 63) + (d >> 8))
    return slot, lo, hi, best


@_jit_inline
def _store(tt, ctx, slot: int, k0: int, k1: int, depth: int, lo: int, hi: int, best: int) -> None:
    """Write an entry: in its own row when ``slot >= 0``, else in the bucket ``-1 - slot`` (the shallower row goes)."""
    stamp = ctx[_STAMP]
    if slot < 0:
        # an empty row of the bucket, else the row of the shallowest position
        base = -1 - slot
        slot = base
        low = 99
        for j in range(base, base + WAYS):
            m = tt[j]
            if m >> 22 != stamp:
                slot = j
                break
            if (m >> 18 & 15) < low:
                low = m >> 18 & 15
                slot = j
    base = slot - slot % BUCKET
    key = base + _KEYS + 2 * (slot - base)
    tt[key] = k0
    tt[key + 1] = k1
    tt[slot] = lo | hi << 6 | (best + 1) << 12 | depth << 18 | stamp << 22


# --------------------------------------------------------------------------------------
# The search.


@_jit
def _exact2(H, L: int) -> int:
    """The leader's team's thirds from a trick boundary with two cards in each hand.

    Every first trick is tried (a follower with one card of the led suit plays it); each
    hand's other card then makes the last trick, led by the first one's winner.
    """
    hl = H[L]
    h1 = H[(L + 1) & 3]
    h2 = H[(L + 2) & 3]
    h3 = H[(L + 3) & 3]
    a0 = _lowbit40(hl)
    b0 = _bitlen40(hl) - 1
    a1 = _lowbit40(h1)
    b1 = _bitlen40(h1) - 1
    a2 = _lowbit40(h2)
    b2 = _bitlen40(h2) - 1
    a3 = _lowbit40(h3)
    b3 = _bitlen40(h3) - 1
    total = PTS[a0] + PTS[b0] + PTS[a1] + PTS[b1] + PTS[a2] + PTS[b2] + PTS[a3] + PTS[b3] + LAST
    v0 = -1
    for i0 in range(2):
        c0 = a0 if i0 == 0 else b0
        d0 = b0 if i0 == 0 else a0
        led = SUIT[c0]
        one1 = (SUIT[a1] == led) != (SUIT[b1] == led)  # one card of the led suit: it must be played
        v1 = 99
        for i1 in range(1 if one1 else 2):
            c1 = a1 if (i1 == 0) == (not one1 or SUIT[a1] == led) else b1
            d1 = b1 if c1 == a1 else a1
            if SUIT[c1] == led and c1 > c0:
                w1 = c1
                ws1 = 1
            else:
                w1 = c0
                ws1 = 0
            p1 = PTS[c0] + PTS[c1]
            one2 = (SUIT[a2] == led) != (SUIT[b2] == led)
            v2 = -1
            for i2 in range(1 if one2 else 2):
                c2 = a2 if (i2 == 0) == (not one2 or SUIT[a2] == led) else b2
                d2 = b2 if c2 == a2 else a2
                if SUIT[c2] == led and c2 > w1:
                    w2 = c2
                    ws2 = 2
                else:
                    w2 = w1
                    ws2 = ws1
                p2 = p1 + PTS[c2]
                one3 = (SUIT[a3] == led) != (SUIT[b3] == led)
                v3 = 99
                for i3 in range(1 if one3 else 2):
                    c3 = a3 if (i3 == 0) == (not one3 or SUIT[a3] == led) else b3
                    d3 = b3 if c3 == a3 else a3
                    ws3 = 3 if SUIT[c3] == led and c3 > w2 else ws2
                    # the last trick: each hand's other card, led by the winner of this one
                    lead = d0 if ws3 == 0 else d1 if ws3 == 1 else d2 if ws3 == 2 else d3
                    ld = SUIT[lead]
                    best = lead
                    bi = ws3
                    if SUIT[d0] == ld and d0 > best:
                        best = d0
                        bi = 0
                    if SUIT[d1] == ld and d1 > best:
                        best = d1
                        bi = 1
                    if SUIT[d2] == ld and d2 > best:
                        best = d2
                        bi = 2
                    if SUIT[d3] == ld and d3 > best:
                        bi = 3
                    first = p2 + PTS[c3]
                    v = 0 if ws3 & 1 else first  # positions from the leader: even is the leader's team
                    if not (bi & 1):
                        v += total - first
                    if v < v3:
                        v3 = v
                        if v3 <= v2:
                            break
                if v3 > v2:
                    v2 = v3
                    if v2 >= v1:
                        break
            if v2 < v1:
                v1 = v2
                if v1 <= v0:
                    break
        if v1 > v0:
            v0 = v1
    return v0


@_jit
def _ab(H, L: int, need: int, rem: int, P: int, tt, ctx, mv, deadline: float) -> int:  # noqa: C901
    """At a trick boundary (three or more cards in each hand), seat ``L`` on lead: can its team take ``need`` thirds?

    ``0 < need <= rem``; ``rem`` is the thirds still in play (the last trick's 3
    included), ``P`` the cards still in play. Fails soft: the result is a lower bound of
    the leader's team's value when it is ``>= need``, an upper bound otherwise. ``H`` is
    changed during the search and restored.
    """
    if ctx[_TIMEOUT]:
        return 0
    s1 = (L + 1) & 3
    s2 = (L + 2) & 3
    s3 = (L + 3) & 3
    hl = H[L]
    h1 = H[s1]
    h2 = H[s2]
    ncards = _pop40(hl)
    horizon = ncards <= ctx[_STOP]
    qb = _cash_bound(hl, h1, h2, P)
    if not horizon:
        # cashing the leader's masters may answer at once, without the table
        if qb < 0:
            return rem
        if qb >= need:
            return qb
    k0, k1 = _key(hl, h1, h2, P)
    slot, lo, hi, best = _probe(tt, ctx, k0, k1, rem)
    if lo >= need:
        return lo
    if hi < need:
        return hi
    if slot < 0:
        if qb >= 0:
            # or: lead low to the partner's master, then the partner cashes (always at the
            # horizon, so that the estimate is a function of the position, not of ``need``)
            for sh in range(0, 40, 10):
                p = P >> sh & 1023
                if hl >> sh & 1023 and h2 >> (sh + BITLEN[p] - 1) & 1:
                    q2 = _cash_bound(h2, H[s3], hl, P)
                    if q2 < 0 or q2 > qb:
                        qb = q2
                    break
        if qb < 0:
            _store(tt, ctx, slot, k0, k1, ncards, rem, rem, -1)
            return rem
        if horizon:
            # the search horizon: a static estimate stands for the value
            v = _estimate(H, L, rem, P, qb)
            _store(tt, ctx, slot, k0, k1, ncards, v, v, -1)
            return v
        lo = max(lo, qb)
        _store(tt, ctx, slot, k0, k1, ncards, lo, hi, -1)
        if lo >= need:
            return lo
    ctx[_NODES] += 1
    if deadline < math.inf and not ctx[_NODES] & 255 and _now() > deadline:
        ctx[_TIMEOUT] = 1
        return 0
    row = ncards * ROWS_PER_LEVEL * 10
    r1 = row + 10
    r2 = row + 20
    r3 = row + 30
    n0 = _lead_moves(hl, H[s2], P, mv, row)
    _order_leads(mv, row, n0, best, ctx)
    two = ncards == 3  # the next boundary has two cards in each hand
    v0 = -1
    cut = -1
    h = H[s1]
    hh = H[s2]
    hhh = H[s3]
    for i0 in range(n0):
        c0 = mv[row + i0]
        b0 = 1 << c0
        H[L] = hl ^ b0
        led = c0 // 10
        sh = 10 * led
        lm = 1023 << sh
        pl = P >> sh & 1023
        p0 = PTS[c0]
        v1 = 99
        f1 = h & lm
        f2 = hh & lm
        f3 = hhh & lm
        m2 = BITLEN[f2 >> sh] - 1 if f2 else -1  # the highest card of the suit of each hand to come
        m3 = BITLEN[f3 >> sh] - 1 if f3 else -1
        partner_takes = m3 > c0 - sh and m3 > m2  # the second hand's partner, last, beats all
        if f1:
            if partner_takes:
                n1 = _follow_moves(pl, f1 >> sh, sh, m3, True, max(c0 - sh, m2), mv, r1)
            else:
                n1 = _follow_moves(pl, f1 >> sh, sh, c0 - sh, False, -1, mv, r1)
        else:
            n1 = _discard_moves(h, P, partner_takes, mv, r1)
        for i1 in range(n1):
            c1 = mv[r1 + i1]
            b1 = 1 << c1
            H[s1] = h ^ b1
            if f1 and c1 > c0:
                w1 = c1
                ws1 = 1
            else:
                w1 = c0
                ws1 = 0
            p1 = p0 + PTS[c1]
            v2 = -1
            if f2:
                n2 = _follow_moves(pl, f2 >> sh, sh, w1 - sh, ws1 == 0, m3, mv, r2)
            else:
                n2 = _discard_moves(hh, P, ws1 == 0 and m3 < w1 - sh, mv, r2)
            for i2 in range(n2):
                c2 = mv[r2 + i2]
                b2 = 1 << c2
                H[s2] = hh ^ b2
                if f2 and c2 > w1:
                    w2 = c2
                    ws2 = 2
                else:
                    w2 = w1
                    ws2 = ws1
                p2 = p1 + PTS[c2]
                v3 = 99
                if f3:
                    n3 = _follow_moves(pl, f3 >> sh, sh, w2 - sh, ws2 == 1, -1, mv, r3)
                else:
                    n3 = _discard_moves(hhh, P, ws2 == 1, mv, r3)
                for i3 in range(n3):
                    c3 = mv[r3 + i3]
                    b3 = 1 << c3
                    H[s3] = hhh ^ b3
                    pts = p2 + PTS[c3]
                    nrem = rem - pts
                    NP = P ^ (b0 | b1 | b2 | b3)
                    if (f3 and c3 > w2) or ws2 & 1:
                        # the other team takes (the 4th hand, or seat s1): it leads next
                        nl = s3 if f3 and c3 > w2 else s1
                        cn = nrem - need + 1
                        if cn <= 0:
                            v = nrem
                        elif two:
                            v = nrem - _exact2(H, nl)
                        else:
                            v = nrem - _ab(H, nl, cn, nrem, NP, tt, ctx, mv, deadline)
                    else:
                        # the leader or its partner takes and leads next
                        cn = need - pts
                        nl = s2 if ws2 else L
                        if cn <= 0:
                            v = pts
                        elif cn > nrem:
                            v = rem
                        elif two:
                            v = pts + _exact2(H, nl)
                        else:
                            v = pts + _ab(H, nl, cn, nrem, NP, tt, ctx, mv, deadline)
                    if v < v3:
                        v3 = v
                        if v < need:
                            break
                H[s3] = hhh
                if v3 > v2:
                    v2 = v3
                    if v3 >= need:
                        break
            H[s2] = hh
            if v2 < v1:
                v1 = v2
                if v2 < need:
                    break
        H[s1] = h
        H[L] = hl
        if v1 > v0:
            v0 = v1
            if v1 >= need:
                cut = c0
                ctx[_HISTORY + c0] += 1 << (3 * ncards)  # at most 2^30 a cut: int64 holds 2^33 cuts
                break
    if ctx[_TIMEOUT]:
        return 0
    slot, lo2, hi2, best2 = _probe(tt, ctx, k0, k1, rem)
    lo = max(lo, lo2)
    hi = min(hi, hi2)
    if slot >= 0:
        best = best2
    if v0 >= need:
        _store(tt, ctx, slot, k0, k1, ncards, max(lo, v0), hi, cut)
    else:
        _store(tt, ctx, slot, k0, k1, ncards, lo, min(hi, v0), best)
    return v0


@_jit
def _trick(L: int, t0: int, t1: int, t2: int, t3: int) -> int:
    """A full trick's winner seat times 64 plus its thirds (no last-trick bonus)."""
    led = t0 // 10
    best = t0
    wi = 0
    if t1 // 10 == led and t1 > best:
        best = t1
        wi = 1
    if t2 // 10 == led and t2 > best:
        best = t2
        wi = 2
    if t3 // 10 == led and t3 > best:
        wi = 3
    return ((L + wi) & 3) * 64 + PTS[t0] + PTS[t1] + PTS[t2] + PTS[t3]


@_jit
def _boundary(H, L: int, need: int, rem: int, P: int, tt, ctx, mv, deadline: float) -> int:
    """Fail-soft bound of team 0's thirds from a trick boundary (any number of cards)."""
    if need <= 0:
        return 0
    if need > rem:
        return rem
    n = _pop40(H[L])
    if n >= 3:
        if L & 1 == 0:
            return _ab(H, L, need, rem, P, tt, ctx, mv, deadline)
        return rem - _ab(H, L, rem - need + 1, rem, P, tt, ctx, mv, deadline)
    if n == 2:
        v = _exact2(H, L)
        return v if L & 1 == 0 else rem - v
    t = _trick(
        L,
        _bitlen40(H[L]) - 1,
        _bitlen40(H[(L + 1) & 3]) - 1,
        _bitlen40(H[(L + 2) & 3]) - 1,
        _bitlen40(H[(L + 3) & 3]) - 1,
    )
    return (t % 64 + LAST) if (t // 64) & 1 == 0 else 0


@_jit
def _partial(H, L: int, trick, n: int, need: int, rem: int, P: int, tt, ctx, mv, deadline: float) -> int:
    """Fail-soft bound of team 0's thirds inside a trick: ``trick[:n]`` on the table, led by ``L``.

    ``P`` holds the cards in the hands and on the table, ``rem`` their thirds plus the
    last trick's 3. With ``n == 4`` the trick is complete: it is settled first.
    """
    if n == 0:
        return _boundary(H, L, need, rem, P, tt, ctx, mv, deadline)
    if need <= 0:
        return 0
    if need > rem:
        return rem
    if n == 4:
        t = _trick(L, trick[0], trick[1], trick[2], trick[3])
        winner = t // 64
        pts = t % 64
        taken = 1 << trick[0] | 1 << trick[1] | 1 << trick[2] | 1 << trick[3]
        if P == taken:
            pts += LAST
        if winner & 1 == 0:
            return pts + _boundary(H, winner, need - pts, rem - pts, P ^ taken, tt, ctx, mv, deadline)
        return _boundary(H, winner, need, rem - pts, P ^ taken, tt, ctx, mv, deadline)
    seat = (L + n) & 3
    h = H[seat]
    follow = h & (1023 << (10 * (trick[0] // 10)))
    legal = rep_mask(follow if follow else h, P)
    maximise = seat & 1 == 0
    best = -1 if maximise else rem + 1
    for c in range(40):
        if not legal >> c & 1:
            continue
        H[seat] = h ^ (1 << c)
        trick[n] = c
        v = _partial(H, L, trick, n + 1, need, rem, P, tt, ctx, mv, deadline)
        H[seat] = h
        if maximise:
            if v > best:
                best = v
                if v >= need:
                    break
        elif v < best:
            best = v
            if v < need:
                break
    return best


@_jit
def _value(H, L: int, trick, n: int, rem: int, P: int, guess: int, tt, ctx, mv, deadline: float) -> int:
    """Team 0's exact thirds from a position (``trick[:n]`` on the table, 0 to 4 cards), or -1 when the deadline passed.

    Null-window probes "at least ``need``?" narrow the interval ``[lo, hi]`` that holds
    the value; each fail-soft answer moves a bound at least to ``need`` and often
    further. The first probe is ``guess`` (when ``>= 0``), the others bisect.
    """
    lo = 0
    hi = rem
    need = (rem + 1) // 2 if guess < 0 else guess
    while lo < hi:
        need = min(max(need, lo + 1), hi)
        v = _partial(H, L, trick, n, need, rem, P, tt, ctx, mv, deadline)
        if ctx[_TIMEOUT]:
            return -1
        if v >= need:
            lo = v
        else:
            hi = v
        need = (lo + hi + 1) // 2
    return lo


# --------------------------------------------------------------------------------------
# Tables and the entry point.


class Tables:
    """One thread's working memory: the transposition table, the move lists, the counters.

    The table is reused from solve to solve: each solve takes a new stamp, and rows with
    an older stamp count as empty.
    """

    def __init__(self, log2_rows: int | None = None) -> None:
        if log2_rows is None:
            log2_rows = 21 if COMPILED else 16
        buckets = 1 << max(log2_rows - 2, 0)
        if COMPILED:
            # the buckets start on a cache line (64 bytes)
            tt = np.zeros(buckets * BUCKET + 8, dtype=np.int64)
            skip = (-tt.ctypes.data % 64) // 8
            self.tt = tt[skip : skip + buckets * BUCKET]
            self.ctx = np.zeros(CTX, dtype=np.int64)
            self.mv = np.zeros(MOVE_ROWS * 10, dtype=np.int64)
            self.hands = np.zeros(4, dtype=np.int64)
            self.trick = np.zeros(4, dtype=np.int64)
        else:
            self.tt = [0] * (buckets * BUCKET)
            self.ctx = [0] * CTX
            self.mv = [0] * (MOVE_ROWS * 10)
            self.hands = [0] * 4
            self.trick = [0] * 4
        self.ctx[_MASK] = buckets - 1

    def start(self, hands, stop: int) -> None:
        """A new solve: a fresh stamp, the counters zeroed, the hands copied in."""
        ctx = self.ctx
        ctx[_STAMP] += 1
        ctx[_NODES] = 0
        ctx[_TIMEOUT] = 0
        ctx[_STOP] = stop
        for card in range(40):
            ctx[_HISTORY + card] = 0
        for seat in range(4):
            self.hands[seat] = hands[seat]

    @property
    def nodes(self) -> int:
        """Trick-boundary positions expanded since ``start``."""
        return int(self.ctx[_NODES])


_local = threading.local()


def tables() -> Tables:
    """This thread's ``Tables`` (made on first use)."""
    t = getattr(_local, "tables", None)
    if t is None:
        t = _local.tables = Tables()
    return t


def value(t: Tables, leader: int, trick: list[int], rem: int, present: int, guess: int, deadline: float) -> int:
    """Team 0's exact thirds from a position, with ``t.hands`` the hands (internal masks); -1: deadline passed."""
    n = len(trick)
    for i, c in enumerate(trick):
        t.trick[i] = c
    return int(_value(t.hands, leader, t.trick, n, rem, present, guess, t.tt, t.ctx, t.mv, deadline))
