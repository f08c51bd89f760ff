"""``open_solver``'s search for two seats, compiled by numba: Tressette in due's endgame.

``best_move`` is ``open_solver.best_open_move`` for two seats on opposite sides, the same
search compiled to machine code: Tressette in due's heuristic asks it at every card of the
endgame (the stock or the face-up packets gone), the default opponent of
``gym.make("tressette_env/TressetteInDue-v0")`` and of its vector environment.
``open_solver.best_open_move`` calls it when numba is installed (``pip install
"tressette-env[fast]"``) and ``TRESSETTE_NUMBA`` is not ``0``; otherwise the pure-Python
search runs, and ``tests/agents/test_open_solver_two.py`` pins the two to the same card on
thousands of positions.

| numba | Tressette in due's endgame |
| --- | --- |
| installed | this module, compiled on first use (a few seconds, then cached on disk) |
| absent, or ``TRESSETTE_NUMBA=0`` | ``open_solver``'s pure-Python search |

The search is ``open_solver._Open.boundary`` and ``two`` written for numba: alpha-beta over
whole tricks (the follower's replies in the leader's loop), fail-soft bounds at trick
boundaries in a table, masters first on the lead and the cheapest winner first when
following, equivalent cards searched once, and the whole rest to a leader holding only
masters. Its table is a fixed array (``TABLE_SIZE`` slots, 1 MB, a new position
overwriting its slot) kept from one call to the next, as ``open_solver._TABLE`` is; a slot
holds the whole position (both hands, the leader, the side of seat 0 and the last trick's
thirds), so a slot shared by two positions only costs work. The choice does not depend on
the table or the move order: it is the first card in ``prefer``'s order of the best value,
as ``best_open_move`` chooses. The root is searched in two passes: the position's value first,
its cards (one of each run of equivalent cards) in the search's own order, each in the window
the best so far leaves; then the cards in ``prefer``'s order, each asked by a zero-width probe
whether it reaches that value, the first that does chosen. (``best_open_move``'s Python search
values the first card in ``prefer``'s order exactly and lets a later card replace it when a
probe proves it better: the same card, with more work where the preferred cards are poor
ones, as the cheapest card often is. Measured: below.)

``best_moves`` asks for many positions in one call: Tressette in due's batched heuristic
(``vector.in_due_heuristic``) gives it every deal in its endgame at once.

``OMP_NUM_THREADS=1 python benchmarks/bench_in_due_heuristic.py`` (1024 deals of the stock form,
the endgame's decisions a CPU second; three trees taking turns, the median of three runs each,
``benchmarks/results/in_due_endgame_root.md``):

| the compiled search | decisions a second |
| --- | ---: |
| the root as ``best_open_move``'s, one call per deal (e2939b7) | 8,811 |
| the root in two passes, one call per deal | 9,986 |
| the root in two passes, ``best_moves`` for every deal at once | 11,123 |

(One order also differs inside: the replies to a lead come as ``two`` orders replies, not
sorted by thirds as ``_Open.inside`` does; that changes the work, not a value.)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS
from .numba_switch import numba_module

__all__ = ["COMPILED", "TABLE_SIZE", "best_move"]

TABLE_SIZE = 1 << 15
"""Slots of the table of bounds: 32,768 (1 MB: two int64 keys and two int64 bounds each).

A table that stays in the core's cache: of 2^14 to 2^22 slots, 2^15 searched the fastest or
next to it, and faster than 2^18 (8 MB, the size before), in the batched heuristic's endgame
(many deals, one table) and in one deal's decisions one after another (docs/benchmarks.md,
"In due's endgame table").
"""


_nb = numba_module()
COMPILED = _nb is not None
"""True when numba is there: ``best_move`` runs compiled. Without numba this module is not used."""

if COMPILED:
    # The GIL stays held: one table and one move buffer serve every call, so two threads must not search at once.
    _jit = _nb.njit(cache=True, nogil=False, _nrt=False)

    _THIRDS = np.array(THIRDS, dtype=np.int64)
    _HIGHER = np.array(
        [
            sum(1 << o for o in range(10 * (c // 10), 10 * (c // 10) + 10) if STRENGTH[o] > STRENGTH[c])
            for c in range(40)
        ],
        dtype=np.int64,
    )
    """The cards of ``c``'s suit that beat it (``open_solver._HIGHER``)."""
    _SUIT = np.array(SUIT_MASK, dtype=np.int64)
    _BY_STRENGTH = np.array(
        [c for s in range(4) for c in sorted(range(10 * s, 10 * s + 10), key=STRENGTH.__getitem__)], dtype=np.int64
    )
    """Each suit's ten cards, the weakest first: entries 10 s .. 10 s + 9 for suit s."""
    _MASK = TABLE_SIZE - 1
    _NONE = 1 << 20

    @_jit
    def _reps(cards, suit, rivals, out, k):
        """Append to ``out`` from ``k`` one card of each run of equivalent ``cards`` (one suit), weakest first (``_reps``)."""
        last = -1
        for i in range(10):
            c = _BY_STRENGTH[10 * suit + i]
            if not (cards >> c) & 1:
                continue
            if last >= 0 and _THIRDS[c] == _THIRDS[last] and not (rivals & _HIGHER[last] & ~_HIGHER[c] & ~(1 << c)):
                continue  # no rival between the last one kept and this one: the same card
            out[k] = c
            k += 1
            last = c
        return k

    @_jit
    def _moves(legal, others, out, k):
        """Append the cards of ``legal``, one of each run of equivalent cards, suit by suit (``open_solver._moves``)."""
        for s in range(4):
            cards = legal & _SUIT[s]
            if cards:
                k = _reps(cards, s, others & _SUIT[s], out, k)
        return k

    @_jit
    def _replies(follow_hand, lead, others, buf, at):
        """The follower's replies to ``lead`` at ``buf[at:]``, the cheapest winner first; returns their end."""
        follow = follow_hand & _SUIT[lead // 10]
        end = _moves(follow if follow else follow_hand, others, buf, at)
        if not follow:
            return end
        beaters = _HIGHER[lead]
        k = end
        for i in range(at, end):  # the winners, then the others, each in order
            if (beaters >> buf[i]) & 1:
                buf[k] = buf[i]
                k += 1
        for i in range(at, end):
            if not (beaters >> buf[i]) & 1:
                buf[k] = buf[i]
                k += 1
        for i in range(end - at):
            buf[at + i] = buf[end + i]
        return end

    @_jit
    def _leads(lead_hand, others, buf, at):
        """(end, k): the leader's cards to search at ``buf[end:k]``, masters first (``_bound``'s order).

        One card of each run of equivalent cards, the masters the strongest-placed first
        (``_ordered``'s masters[::-1]), then the rest; ``buf[at:end]`` is scratch.
        """
        end = _moves(lead_hand, others, buf, at)
        k = end
        for i in range(end - 1, at - 1, -1):
            if not others & _HIGHER[buf[i]]:
                buf[k] = buf[i]
                k += 1
        for i in range(at, end):
            if others & _HIGHER[buf[i]]:
                buf[k] = buf[i]
                k += 1
        return end, k

    @_jit
    def _bound(h0, h1, leader, alpha, beta, present, rem, s0, last, keys, bounds, buf, at):
        """Side 0's thirds from a trick boundary, ``leader`` to lead (``open_solver._Open.boundary`` and ``two``).

        The only recursive function here. Its callers pass it typed integers, never a literal
        (``np.int64(0)``): numba crashed loading from its disk cache a recursive function that
        had been called with a literal argument (numba issue 6713; the test of the cache).

        ``h0``, ``h1``: the seats' hands; ``present``: their cards; ``rem``: their thirds and
        the last trick's; ``s0``: the seat of side 0; ``keys`` (T, 2) and ``bounds`` (T, 2):
        the table; ``buf[at:]``: room for the move lists.
        """
        if not present:
            return 0
        key0 = h0 | leader << 40 | s0 << 41 | last << 42
        mix = (key0 * 0x9E3779B97F4A7C1) ^ (h1 * 0x3C6EF372FE94F82B)
        mix = (mix ^ (mix >> 29)) * 0x1F3D5B79A5C3E1D7
        slot = (mix >> 37) & _MASK  # high bits: every card of both hands moves them
        if keys[slot, 0] == key0 and keys[slot, 1] == h1:
            low = bounds[slot, 0]
            high = bounds[slot, 1]
        else:
            lead_hand = h0 if leader == 0 else h1
            others = present & ~lead_hand
            masters = True
            for s in range(4):  # a suit's weakest card of the leader is beaten by none of the others
                field = lead_hand & _SUIT[s]
                if field:
                    weakest = -1
                    for i in range(10):
                        if (field >> _BY_STRENGTH[10 * s + i]) & 1:
                            weakest = _BY_STRENGTH[10 * s + i]
                            break
                    if others & _HIGHER[weakest]:
                        masters = False
                        break
            if masters:  # every card of the leader is the best of its suit: it takes every trick
                value = rem if leader == s0 else 0
                keys[slot, 0] = key0
                keys[slot, 1] = h1
                bounds[slot, 0] = value
                bounds[slot, 1] = value
                return value
            low = 0
            high = rem
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        a = max(alpha, low)
        b = min(beta, high)
        # The trick from its lead, the follower's replies in the leader's loop (``open_solver._Open.two``),
        # in the window (wa, wb); (a, b) stays the window the bounds are judged by.
        wa = a
        wb = b
        follower = 1 - leader
        lead_hand = h0 if leader == 0 else h1
        follow_hand = h1 if leader == 0 else h0
        leader_max = leader == s0
        value = -1 if leader_max else _NONE
        others = present & ~lead_hand
        end, k = _leads(lead_hand, others, buf, at)
        for li in range(end, k):
            lead = buf[li]
            lead_bit = 1 << lead
            rest = present ^ lead_bit
            beaters = _HIGHER[lead]
            r_end = _replies(follow_hand, lead, (rest & ~follow_hand) | lead_bit, buf, k)
            new_lead = lead_hand ^ lead_bit
            ra = wa
            rb = wb
            reply_best = _NONE if leader_max else -1
            for ri in range(k, r_end):
                reply = buf[ri]
                bit = 1 << reply
                left = rest ^ bit
                taken = _THIRDS[lead] + _THIRDS[reply] + (0 if left else last)
                winner = follower if (beaters >> reply) & 1 else leader
                gain = taken if winner == s0 else 0
                new_follow = follow_hand ^ bit
                n0 = new_lead if leader == 0 else new_follow
                n1 = new_follow if leader == 0 else new_lead
                v = gain + _bound(
                    n0, n1, winner, ra - gain, rb - gain, left, rem - taken, s0, last, keys, bounds, buf, r_end
                )
                if leader_max:  # the follower minimises
                    if v < reply_best:
                        reply_best = v
                        if v <= ra:
                            break
                        if v < rb:
                            rb = v
                elif v > reply_best:
                    reply_best = v
                    if v >= rb:
                        break
                    if v > ra:
                        ra = v
            if leader_max:
                if reply_best > value:
                    value = reply_best
                    if value >= wb:
                        break
                    if value > wa:
                        wa = value
            elif reply_best < value:
                value = reply_best
                if value <= wa:
                    break
                if value < wb:
                    wb = value
        if value <= a:
            high = value
        elif value >= b:
            low = value
        else:
            low = value
            high = value
        keys[slot, 0] = key0
        keys[slot, 1] = h1
        bounds[slot, 0] = low
        bounds[slot, 1] = high
        return value

    @_jit
    def _after(h0, h1, leader, led, seat, card, alpha, beta, present, rem, s0, last, keys, bounds, buf):
        """Side 0's thirds after ``seat`` plays ``card`` (``best_open_move``'s ``after``); ``led``: the card on the table or -1."""
        bit = 1 << card
        if seat == 0:
            h0 = h0 ^ bit
        else:
            h1 = h1 ^ bit
        rest = present ^ bit
        if led < 0:  # a lead: the follower replies (``open_solver._Open.inside``)
            follower = 1 - seat
            follow_hand = h1 if follower == 1 else h0
            maximise = follower == s0
            best = -1 if maximise else _NONE
            beaters = _HIGHER[card]
            end = _replies(follow_hand, card, (rest & ~follow_hand) | bit, buf, 0)
            for ri in range(end):
                reply = buf[ri]
                rbit = 1 << reply
                left = rest ^ rbit
                taken = _THIRDS[card] + _THIRDS[reply] + (0 if left else last)
                winner = follower if (beaters >> reply) & 1 else seat
                gain = taken if winner == s0 else 0
                n0 = h0 ^ rbit if follower == 0 else h0
                n1 = h1 ^ rbit if follower == 1 else h1
                value = gain + _bound(
                    n0, n1, winner, alpha - gain, beta - gain, left, rem - taken, s0, last, keys, bounds, buf, end
                )
                if maximise:
                    if value > best:
                        best = value
                        if best >= beta:
                            break
                        if best > alpha:
                            alpha = best
                elif value < best:
                    best = value
                    if best <= alpha:
                        break
                    if best < beta:
                        beta = best
            return best
        winner = seat if (_HIGHER[led] >> card) & 1 else leader
        taken = _THIRDS[led] + _THIRDS[card] + (0 if rest else last)
        gain = taken if winner == s0 else 0
        return gain + _bound(
            h0, h1, winner, alpha - gain, beta - gain, rest, rem - taken, s0, last, keys, bounds, buf, np.int64(0)
        )

    @_jit
    def _best(h0, h1, leader, led, cards, ncards, maximise, s0, last, keys, bounds, buf, root):
        """The first of ``cards[:ncards]`` (the legal cards in the preferred order) of the best value for the side to play.

        Two passes. First the position's value: the root's cards one of each run of equivalent
        cards, in the search's own order (masters first on a lead, the cheapest winner first when
        following), each searched in the window left by the best so far. Then, in the preferred
        order, each card is asked by a zero-width probe whether it reaches that value, and the
        first that does is the choice: the card ``best_open_move`` chooses, the first in the
        preferred order of the best value. The probes find the bounds of the first pass in the table.
        """
        present = h0 | h1
        rem = 0
        for c in range(40):
            if (present >> c) & 1:
                rem += _THIRDS[c]
        if led >= 0:
            rem += _THIRDS[led]
        rem += last
        seat = leader if led < 0 else 1 - leader
        hand = h0 if seat == 0 else h1
        others = present & ~hand
        start = 0
        if led >= 0:
            k = _replies(hand, led, others | (1 << led), root, 0)
        else:  # masters first (``_bound``'s order of leads)
            start, k = _leads(hand, others, root, 0)
        value = -1 if maximise else _NONE
        chosen = -1
        for i in range(start, k):
            card = root[i]
            alpha = max(value, -1) if maximise else -1
            beta = rem + 1 if maximise else min(value, rem + 1)
            v = _after(h0, h1, leader, led, seat, card, alpha, beta, present, rem, s0, last, keys, bounds, buf)
            if (v > value) if maximise else (v < value):
                value = v
                chosen = card
        for i in range(ncards):
            card = cards[i]
            if card == chosen:
                return card
            alpha = value - 1 if maximise else value
            v = _after(h0, h1, leader, led, seat, card, alpha, alpha + 1, present, rem, s0, last, keys, bounds, buf)
            if (v >= value) if maximise else (v <= value):
                return card
        return chosen

    @_jit
    def _best_rows(h0s, h1s, leaders, leds, rank, least, last, keys, bounds, buf, root, cards, out):
        """``_best`` for each row: seat 0 is side 0, the legal cards ordered by ``rank`` (lowest first)."""
        for j in range(len(h0s)):
            h0 = h0s[j]
            h1 = h1s[j]
            leader = leaders[j]
            led = leds[j]
            seat = leader if led < 0 else 1 - leader
            hand = h0 if seat == 0 else h1
            legal = hand & _SUIT[led // 10] if led >= 0 else 0
            if not legal:
                legal = hand
            n = 0
            for c in range(40):  # insertion sort by rank: the preferred order
                if (legal >> c) & 1:
                    i = n
                    while i > 0 and rank[cards[i - 1]] > rank[c]:
                        cards[i] = cards[i - 1]
                        i -= 1
                    cards[i] = c
                    n += 1
            maximise = (seat == 0) != least
            out[j] = _best(h0, h1, leader, led, cards, n, maximise, 0, last, keys, bounds, buf, root)

    _tables: list = []

    def _state():
        """The table, the move buffer and two lists of the root's cards, made on first use and kept."""
        if not _tables:
            keys = np.full((TABLE_SIZE, 2), -1, dtype=np.int64)
            bounds = np.zeros((TABLE_SIZE, 2), dtype=np.int64)
            buf, root, cards = (np.zeros(size, dtype=np.int64) for size in (8192, 40, 40))
            _tables.append((keys, bounds, buf, root, cards))
        return _tables[0]


def best_move(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    cards: Sequence[int],
    *,
    side_of_seat0: int,
    least: bool,
    last_trick: int,
) -> int:
    """``best_open_move`` for two seats on opposite sides, compiled; the position is already checked.

    Args:
        hands: the two seats' hands (40-bit masks).
        leader: the seat that led the trick on the table, or leads the next.
        trick: the card on the table (none or one).
        cards: the legal cards of the seat on turn in the preferred order (ties go to the first).
        side_of_seat0: seat 0's side (seat 1 is on the other).
        least: the side plays for the fewest thirds.
        last_trick: thirds the last trick takes besides its cards.
    """
    keys, bounds, buf, root, _ = _state()
    seat = (leader + len(trick)) % 2
    s0 = 0 if side_of_seat0 == 0 else 1  # the seat of side 0
    maximise = (seat == s0) != least
    led = trick[0] if trick else -1
    order = np.array(cards, dtype=np.int64)
    n = len(order)
    return int(_best(hands[0], hands[1], leader, led, order, n, maximise, s0, last_trick, keys, bounds, buf, root))


def best_moves(
    seat0: np.ndarray,
    seat1: np.ndarray,
    leaders: np.ndarray,
    leds: np.ndarray,
    rank: np.ndarray,
    *,
    least: bool,
    last_trick: int,
) -> np.ndarray:
    """``best_move`` for many positions in one compiled call; seat 0 is side 0, and nothing is checked.

    Args:
        seat0: (M,) int64 seat 0's hands (40-bit masks).
        seat1: (M,) int64 seat 1's hands, apart from seat 0's.
        leaders: (M,) the seat that led the trick on the table, or leads the next.
        leds: (M,) the card on the table, -1 for none.
        rank: (40,) int64 each card's place in the preferred order (ties go to the lowest place).
        least: the sides play for the fewest thirds.
        last_trick: thirds the last trick takes besides its cards (0..``open_solver.LAST_TRICK_LIMIT``).

    Returns:
        (M,) int64: each position's card, the one ``best_move`` chooses; -1 where the seat on
        turn holds no card (``best_open_move`` refuses such a position).
    """
    keys, bounds, buf, root, cards = _state()
    out = np.empty(len(seat0), dtype=np.int64)
    _best_rows(
        np.asarray(seat0, dtype=np.int64), np.asarray(seat1, dtype=np.int64), np.asarray(leaders, dtype=np.int64),
        np.asarray(leds, dtype=np.int64), np.asarray(rank, dtype=np.int64), bool(least), int(last_trick),
        keys, bounds, buf, root, cards, out,
    )  # fmt: skip
    return out
