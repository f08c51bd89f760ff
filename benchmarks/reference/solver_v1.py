"""Frozen copy of the pure-Python double-dummy solver as it was before the compiled core (commit b63dcb6).

Kept only as a yardstick: ``benchmarks/bench_solver.py --compare`` times it side by side
with ``tressette_env.agents.solver`` on the same positions, and ``tests/agents/test_solver.py``
checks that both give the same values on random positions. The package does not import it.
Original docstring follows.

Double-dummy solver: the exact value of the card play when every hand is known.

Given the four hands, the seat that leads the current trick and the cards already on
the table, ``solve`` finds the minimax value of the rest of the hand with perfect
information: team 0 (seats 0 and 2) maximises the thirds it takes from here on (the
last trick's 3 included), team 1 minimises them. The game is zero-sum: the thirds
still in play (the cards in the hands and on the table, plus the last trick's 3) are
split between the two teams.

Maximising thirds is also optimal for the score of the hand. A team's points are its
thirds rounded down (``thirds // 3``), plus its declarations when it has a card point,
plus the cappotto bonus when the other team has none: each is a non-decreasing
function of the team's own thirds and a non-increasing one of the other team's. So
the final score difference is non-decreasing in team 0's thirds (rounding,
declarations and cappotto included), and a play that maximises team 0's thirds also
maximises its score difference. Signals change nothing with perfect information: only
the card played matters.

| function | returns |
| --- | --- |
| ``solve(hands, leader, trick=(), taken=(0, 0))`` | ``SolveResult``: each team's best thirds and points |
| ``solve_moves(hands, leader, trick=(), taken=(0, 0), horizon=None, deadline=None)`` | ``{card: thirds}`` for each legal card of the seat on turn |
| ``best_moves(hands, leader, trick=(), taken=(0, 0))`` | the legal cards that reach the best value |
| ``solve_state(state)`` / ``solve_state_moves(state)`` | the same from a ``GameState`` |

Hands are card masks (``engine.cards``); ``trick`` holds the card ids on the table in
play order, the first led by ``leader``.

How it searches (pure Python, standard library only):

- Null-window alpha-beta: "can the leading team take at least ``need`` thirds?", failing
  soft (the answer is a bound, often beyond ``need``); the exact value comes from a few
  such probes bisecting the range 0..35.
- A transposition table at trick boundaries, where positions recur: it holds a lower and
  an upper bound of the value of the rest of the hand (which does not depend on the
  thirds taken so far) and the leads ordered with the last cut move first. Its key is
  the position up to isomorphism: in each suit, the holders and point values of the
  cards still in play from the highest down (which cards of equal rank order are gone
  does not matter, nor the ranks of a suit left in one hand).
- Quick bounds: the thirds in play bound the value; the leading team is sure of the
  thirds it collects by cashing the leader's masters (the highest cards left of a
  suit), or by leading low to the partner's master and cashing the partner's, and takes
  everything when the one who cashes holds only masters.
- Move ordering: cash masters, lead low to the partner's master; following, take with
  the cheapest winning card, give points to a winning partner, else throw the cheapest.
- Equivalent cards: two cards of one hand of the same suit and point value, with no
  card between them in taking power in any hand or on the table, are interchangeable;
  only one of them is searched (the 3 and the 2 are; an asso and a re never are).
- The last two tricks are solved exactly by a small dedicated search.

Example:
    >>> from tressette_env.engine import parse_cards
    >>> hands = [parse_cards("3d Ad"), parse_cards("2d 4c"), parse_cards("Rd 5c"), parse_cards("4d 6c")]
    >>> result = solve(hands, leader=0)
    >>> result.thirds  # seat 0 leads the 3, then the asso takes the last trick: every third
    (9, 0)
    >>> result.points
    (3, 0)
    >>> solve_moves(hands, leader=0)  # the asso first loses it to the 2: team 1 takes all
    {0: 0, 2: 9}
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from contextlib import contextmanager
from time import perf_counter
from typing import NamedTuple

from tressette_env.engine.cards import STRENGTH, THIRDS, cards_of
from tressette_env.engine.scoring import LAST_TRICK_THIRDS
from tressette_env.engine.state import GameState

__all__ = ["SolveResult", "SolveTimeout", "best_moves", "solve", "solve_moves", "solve_state", "solve_state_moves"]

# --------------------------------------------------------------------------------------
# Internal card numbering: suit * 10 + power (0 = the 4 ... 9 = the 3), so that within a
# suit a higher bit takes and "higher card" is an integer comparison.

_TO_INT = tuple(c // 10 * 10 + STRENGTH[c] for c in range(40))
_TO_EXT_L = [0] * 40
for _c in range(40):
    _TO_EXT_L[_TO_INT[_c]] = _c
_TO_EXT = tuple(_TO_EXT_L)
del _TO_EXT_L, _c
_PTS = tuple(THIRDS[_TO_EXT[i]] for i in range(40))
_LOCAL_PTS = _PTS[:10]  # points by power, the same in every suit
_SM = tuple(0x3FF << (10 * s) for s in range(4))
_LAST = LAST_TRICK_THIRDS
# Sort keys: cheapest first (fewest points, then lowest power); most points first.
_LOW = tuple(_PTS[i] * 16 + i % 10 for i in range(40))
_HIGH = tuple(-_PTS[i] * 16 + i % 10 for i in range(40))
_CACHE_LIMIT = 1 << 18


def _to_int(mask: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << _TO_INT[low.bit_length() - 1]
        mask ^= low
    return out


_REPS: dict[int, int] = {}


def _reps(p: int, m: int) -> int:
    """One card of each run of equivalent cards, as a 10-bit mask by power.

    ``m`` is the hand's cards of one suit, ``p`` every card of the suit still in a hand
    or on the table (10-bit, by power). A run is a sequence of the hand's cards, adjacent in power among ``p`` and of the
    same point value; its lowest card stands for it.
    """
    key = p << 10 | m
    out = _REPS.get(key)
    if out is None:
        out = 0
        prev_pts = -1  # points of the previous card of p when it is ours, else -1
        for b in range(10):
            if p >> b & 1:
                if m >> b & 1:
                    pts = _LOCAL_PTS[b]
                    if pts != prev_pts:
                        out |= 1 << b
                    prev_pts = pts
                else:
                    prev_pts = -1
        _REPS[key] = out
    return out


def _rep_mask(hand: int, present: int) -> int:
    """``_reps`` over the four suits of an internal mask."""
    out = 0
    for sh in (0, 10, 20, 30):
        m = hand >> sh & 1023
        if m:
            out |= _reps(present >> sh & 1023, m) << sh
    return out


_FOLLOW: dict[int, list[int]] = {}


def _follow_moves(p: int, m: int, led: int, w: int) -> list[int]:
    """Ordered cards to follow suit ``led`` (local masks ``p``, ``m``).

    ``w`` is the power of an opponent's winning card, or -1 when the partner is winning.
    Partner winning: most points first. An opponent winning: the cheapest card that
    beats it first, then the cheapest cards.
    """
    key = ((p << 10 | m) << 4 | (w + 1)) << 2 | led
    out = _FOLLOW.get(key)
    if out is None:
        base = 10 * led
        cards = [base + b for b in cards_of(_reps(p, m))]
        if w < 0:
            cards.sort(key=_HIGH.__getitem__)
        else:
            over = [c for c in cards if c - base > w]
            under = [c for c in cards if c - base <= w]
            over.sort(key=_LOW.__getitem__)
            under.sort(key=_LOW.__getitem__)
            cards = over + under
        if len(_FOLLOW) > _CACHE_LIMIT:
            _FOLLOW.clear()
        out = _FOLLOW[key] = cards
    return out


_SUIT_MOVES: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _suit_moves(p: int, m: int, sh: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The representatives of a hand's cards in one suit: cheapest first, and most points first.

    ``p`` and ``m`` are local masks, ``sh`` the suit's first internal id.
    """
    key = (p << 10 | m) << 6 | sh
    out = _SUIT_MOVES.get(key)
    if out is None:
        cards = [sh + b for b in cards_of(_reps(p, m))]
        out = (tuple(sorted(cards, key=_LOW.__getitem__)), tuple(sorted(cards, key=_HIGH.__getitem__)))
        if len(_SUIT_MOVES) > _CACHE_LIMIT:
            _SUIT_MOVES.clear()
        _SUIT_MOVES[key] = out
    return out


def _discard_moves(hand: int, present: int, high: bool) -> list[int]:
    """Ordered discards (void in the led suit): most points first when the partner wins."""
    cards: list[int] = []
    for sh in (0, 10, 20, 30):
        m = hand >> sh & 1023
        if m:
            cards += _suit_moves(present >> sh & 1023, m, sh)[high]
    cards.sort(key=_HIGH.__getitem__ if high else _LOW.__getitem__)
    return cards


def _lead_moves(hand: int, present: int, partner: int) -> list[int]:
    """Ordered leads: the leader's masters (points first), low to the partner's master, then low."""
    first: list[int] = []
    second: list[int] = []
    rest: list[int] = []
    for sh in (0, 10, 20, 30):
        m = hand >> sh & 1023
        if m:
            p = present >> sh & 1023
            low, high = _suit_moves(p, m, sh)
            top = 1 << (p.bit_length() - 1)
            if top & m:
                first += high
            elif top & (partner >> sh):
                second += low
            else:
                rest += low
    return first + second + rest


_CASH: dict[int, int] = {}


def _cash_suit(p: int, hs: int, f1: int, f2: int) -> int:
    """One suit's part of ``_cash_bound`` (local masks).

    Returns ``2 * thirds + 1`` when every card of the leader in the suit is a master,
    ``2 * thirds`` otherwise.
    """
    others = p & ~hs
    if others:
        n = others.bit_length()
        run = hs >> n << n
        every = run == hs
    else:
        run = hs
        every = True
    k = run.bit_count()
    total = sum(_LOCAL_PTS[b] for b in cards_of(run))
    if k:
        f3 = others & ~(f1 | f2)
        for f in (f1, f2, f3):
            if f:
                pts = sorted(_LOCAL_PTS[b] for b in cards_of(f))
                total += sum(pts[:k])
    return 2 * total + every


def _cash_bound(h: int, f1: int, f2: int, f3: int, present: int) -> int:
    """Thirds the leader's team is sure of by cashing the leader's masters; -1: all of them.

    The leader ``h`` leads the highest cards left of a suit one after the other (a run
    of ``k`` masters), then the next suit's; it keeps the lead. Each other hand must
    follow with at least ``min(k, cards of the suit)`` of its cards of the suit during
    those ``k`` tricks, whatever it throws elsewhere: its cheapest ones are a sure gain.
    When every card of the leader is a master, its team takes every trick.
    """
    total = 0
    every = 1
    for sh in (0, 10, 20, 30):
        hs = h >> sh & 1023
        if hs:
            key = ((present >> sh & 1023) << 10 | hs) << 20 | (f1 >> sh & 1023) << 10 | f2 >> sh & 1023
            v = _CASH.get(key)
            if v is None:
                if len(_CASH) > _CACHE_LIMIT:
                    _CASH.clear()
                v = _CASH[key] = _cash_suit(present >> sh & 1023, hs, f1 >> sh & 1023, f2 >> sh & 1023)
            total += v >> 1
            every &= v
    return -1 if every else total


def _trick_result(leader: int, cards: Sequence[int]) -> tuple[int, int]:
    """Winner seat and thirds of a full trick of internal cards (no last-trick bonus)."""
    led = cards[0] // 10
    best = 0
    for i in (1, 2, 3):
        if cards[i] // 10 == led and cards[i] > cards[best]:
            best = i
    return (leader + best) & 3, _PTS[cards[0]] + _PTS[cards[1]] + _PTS[cards[2]] + _PTS[cards[3]]


_CANON: dict[int, int] = {}


def _suit_code(p: int, a: int, b: int, c: int) -> int:
    """A suit's cards still in play as (holder, points) from the highest down, packed in an int."""
    code = 1
    holders = [a, b, c, p & ~(a | b | c)]
    if p in holders:
        # one hand holds the whole suit: the ranks no longer matter, only the points
        holder = holders.index(p)
        for pts in sorted((_LOCAL_PTS[bit] for bit in cards_of(p)), reverse=True):
            code = code << 4 | holder << 2 | pts
        return code
    for bit in range(9, -1, -1):
        if p >> bit & 1:
            holder = 0 if a >> bit & 1 else 1 if b >> bit & 1 else 2 if c >> bit & 1 else 3
            code = code << 4 | holder << 2 | _LOCAL_PTS[bit]
    return code


def _estimate(H: Sequence[int], L: int, rem: int, P: int, sure: int) -> int:
    """A static guess of the leader's team's thirds (beyond a search horizon).

    The leader's team keeps what cashing its masters makes sure of; the rest is split
    in proportion to each team's high cards, weighted by their rank among the cards
    still in play in their suit (the best 5, the second 3, the third 2, the others 1).
    """
    ours = theirs = 0
    for sh in (0, 10, 20, 30):
        p = P >> sh & 1023
        rank = 0
        while p:
            bit = p.bit_length() - 1
            p ^= 1 << bit
            weight = _RANK_WEIGHT[rank] if rank < 3 else 1
            rank += 1
            if (H[L] | H[(L + 2) & 3]) >> (sh + bit) & 1:
                ours += weight
            else:
                theirs += weight
    rest = rem - sure
    return sure + (rest * ours + (ours + theirs) // 2) // (ours + theirs)


_RANK_WEIGHT = (5, 3, 2)


class _Search:
    """One deal's search: the hands (internal masks, changed in place during the search) and tables.

    ``ab(L, need, rem, P)`` is the core: at a trick boundary with seat ``L`` on lead, can the
    leader's team take ``need`` thirds (0 < need <= rem) of the ``rem`` still in play? It is
    a null-window alpha-beta search that fails soft: it returns a bound ``v`` of the
    leader's team's value, a lower bound when ``v >= need`` and an upper bound otherwise.
    """

    def __init__(self, hands: Sequence[int], stop: int = 0, deadline: float | None = None) -> None:
        self.H = list(hands)
        self.TT: dict[int, list] = {}
        self.X2: dict[int, int] = {}
        self.nodes = 0
        self.stop = stop if stop > 2 else 0
        self.deadline = deadline
        self._build()

    def _build(self) -> None:  # noqa: C901 - one function on purpose: locals are fast
        H = self.H
        TT = self.TT
        X2 = self.X2
        TT_get = TT.get
        X2_get = X2.get
        CANON = _CANON
        CANON_get = CANON.get
        suit_code = _suit_code
        PTS = _PTS
        SM = _SM
        LAST = _LAST
        FOLLOW_get = _FOLLOW.get
        follow_moves = _follow_moves
        discard_moves = _discard_moves
        lead_moves = _lead_moves
        cash_bound = _cash_bound
        bits = cards_of
        search = self
        stop = self.stop
        deadline = self.deadline
        estimate = _estimate
        DM: dict[int, list[int]] = {}
        DM_get = DM.get
        RAW: dict[int, list] = {}
        RAW_get = RAW.get
        self.tables = (TT, X2, DM, RAW)

        def position_key(L: int, P: int) -> int:
            h0, h1, h2, _ = H
            key = L
            for sh in (0, 10, 20, 30):
                p = P >> sh & 1023
                if p:
                    k = ((p << 10 | h0 >> sh & 1023) << 10 | h1 >> sh & 1023) << 10 | h2 >> sh & 1023
                    code = CANON_get(k)
                    if code is None:
                        if len(CANON) > _CACHE_LIMIT:
                            CANON.clear()
                        code = CANON[k] = suit_code(p, h0 >> sh & 1023, h1 >> sh & 1023, h2 >> sh & 1023)
                    key = key << 41 | code
                else:
                    key = key << 41
            return key

        def exact2(L: int, P: int) -> int:
            """The leader's team's thirds from a trick boundary with two cards in each hand."""
            h0, h1, h2, h3 = H
            key = h0 | h1 << 40 | h2 << 80 | h3 << 120 | L << 160
            v = X2_get(key)
            if v is not None:
                return v
            s1 = (L + 1) & 3
            s2 = (L + 2) & 3
            s3 = (L + 3) & 3
            hl = H[L]
            v0 = -1
            for c0 in bits(hl):
                b0 = 1 << c0
                led = c0 // 10
                lm = SM[led]
                p0 = PTS[c0]
                x0 = hl ^ b0
                h = H[s1]
                f = h & lm
                v1 = 99
                for c1 in bits(f or h):
                    x1 = h ^ (1 << c1)
                    if f and c1 > c0:
                        w1, ws1 = c1, 1
                    else:
                        w1, ws1 = c0, 0
                    p1 = p0 + PTS[c1]
                    hh = H[s2]
                    f2 = hh & lm
                    v2 = -1
                    for c2 in bits(f2 or hh):
                        x2 = hh ^ (1 << c2)
                        if f2 and c2 > w1:
                            w2, ws2 = c2, 2
                        else:
                            w2, ws2 = w1, ws1
                        p2 = p1 + PTS[c2]
                        hhh = H[s3]
                        f3 = hhh & lm
                        v3 = 99
                        for c3 in bits(f3 or hhh):
                            x3 = hhh ^ (1 << c3)
                            ws3 = 3 if f3 and c3 > w2 else ws2
                            # the last trick: one card each, led by the winner of this one
                            last = (x0, x1, x2, x3)
                            d = last[ws3].bit_length() - 1
                            ld = d // 10
                            best, bi = d, 0
                            for i in (1, 2, 3):
                                d = last[(ws3 + i) & 3].bit_length() - 1
                                if d // 10 == ld and d > best:
                                    best, bi = d, i
                            lp = PTS[x0.bit_length() - 1] + PTS[x1.bit_length() - 1]
                            lp += PTS[x2.bit_length() - 1] + PTS[x3.bit_length() - 1] + LAST
                            v = 0 if ws3 & 1 else p2 + PTS[c3]
                            if not (ws3 + bi) & 1:
                                v += lp
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
            X2[key] = v0
            return v0

        def ab(L: int, need: int, rem: int, P: int) -> int:
            h0, h1, h2, h3 = H
            raw = h0 | h1 << 40 | h2 << 80 | h3 << 120 | L << 160
            e = RAW_get(raw)
            s2 = (L + 2) & 3
            if e is None:
                key = position_key(L, P)
                e = TT_get(key)
                if e is None:
                    hl = H[L]
                    qb = cash_bound(hl, H[(L + 1) & 3], H[s2], H[(L + 3) & 3], P)
                    if 0 <= qb < need:
                        # or: lead low to the partner's master, then the partner cashes
                        hp = H[s2]
                        for sm in SM:
                            if hl & sm and hp >> ((P & sm).bit_length() - 1) & 1:
                                q2 = cash_bound(hp, H[(L + 3) & 3], hl, H[(L + 1) & 3], P)
                                if q2 < 0 or q2 > qb:
                                    qb = q2
                                break
                    if qb < 0:
                        TT[key] = RAW[raw] = [rem, rem, None, -1]
                        return rem
                    if hl.bit_count() <= stop:
                        # the search horizon: a static estimate stands for the value
                        v = estimate(H, L, rem, P, qb)
                        TT[key] = RAW[raw] = [v, v, None, -1]
                        return v
                    moves0 = lead_moves(hl, P, H[s2])
                    TT[key] = RAW[raw] = e = [qb, rem, moves0, raw]
                    if qb >= need:
                        return qb
                else:
                    RAW[raw] = e
            v = e[0]
            if v >= need:
                return v
            v = e[1]
            if v < need:
                return v
            search.nodes += 1
            if deadline is not None and not search.nodes & 255 and perf_counter() > deadline:
                raise SolveTimeout(f"the search passed its deadline after {search.nodes} positions")
            if e[3] == raw:
                moves0 = e[2]
            else:
                moves0 = e[2] = lead_moves(H[L], P, H[s2])
                e[3] = raw
            s1 = (L + 1) & 3
            s3 = (L + 3) & 3
            two = H[L].bit_count() == 3  # the next boundary has two cards in each hand
            v0 = -1
            cut = 0
            for c0 in moves0:
                b0 = 1 << c0
                H[L] ^= b0
                led = c0 // 10
                sh = 10 * led
                lm = SM[led]
                pl = P >> sh & 1023
                p0 = PTS[c0]
                v1 = 99
                h = H[s1]
                f1 = h & lm
                if f1:
                    k = ((pl << 10 | f1 >> sh) << 4 | (c0 - sh + 1)) << 2 | led
                    moves1 = FOLLOW_get(k)
                    if moves1 is None:
                        moves1 = follow_moves(pl, f1 >> sh, led, c0 - sh)
                else:
                    k = (P << 40 | h) << 1
                    moves1 = DM_get(k)
                    if moves1 is None:
                        moves1 = DM[k] = discard_moves(h, P, False)
                for c1 in moves1:
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
                    hh = H[s2]
                    f2 = hh & lm
                    if f2:
                        ww = 0 if ws1 == 0 else w1 - sh + 1
                        k = ((pl << 10 | f2 >> sh) << 4 | ww) << 2 | led
                        moves2 = FOLLOW_get(k)
                        if moves2 is None:
                            moves2 = follow_moves(pl, f2 >> sh, led, ww - 1)
                    else:
                        k = (P << 40 | hh) << 1 | (ws1 == 0)
                        moves2 = DM_get(k)
                        if moves2 is None:
                            moves2 = DM[k] = discard_moves(hh, P, ws1 == 0)
                    for c2 in moves2:
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
                        hhh = H[s3]
                        f3 = hhh & lm
                        if f3:
                            ww = 0 if ws2 == 1 else w2 - sh + 1
                            k = ((pl << 10 | f3 >> sh) << 4 | ww) << 2 | led
                            moves3 = FOLLOW_get(k)
                            if moves3 is None:
                                moves3 = follow_moves(pl, f3 >> sh, led, ww - 1)
                        else:
                            k = (P << 40 | hhh) << 1 | (ws2 == 1)
                            moves3 = DM_get(k)
                            if moves3 is None:
                                moves3 = DM[k] = discard_moves(hhh, P, ws2 == 1)
                        for c3 in moves3:
                            b3 = 1 << c3
                            H[s3] = hhh ^ b3
                            pts = p2 + PTS[c3]
                            nrem = rem - pts
                            if f3 and c3 > w2:
                                # the 4th hand (the other team) takes: it leads next
                                cn = nrem - need + 1
                                if cn <= 0:
                                    v = nrem
                                elif two:
                                    v = nrem - exact2(s3, P ^ (b0 | b1 | b2 | b3))
                                else:
                                    v = nrem - ab(s3, cn, nrem, P ^ (b0 | b1 | b2 | b3))
                            elif ws2 & 1:
                                # seat s1 (the other team) takes
                                cn = nrem - need + 1
                                if cn <= 0:
                                    v = nrem
                                elif two:
                                    v = nrem - exact2(s1, P ^ (b0 | b1 | b2 | b3))
                                else:
                                    v = nrem - ab(s1, cn, nrem, P ^ (b0 | b1 | b2 | b3))
                            else:
                                # the leader or its partner takes and leads next
                                cn = need - pts
                                nl = s2 if ws2 else L
                                if cn <= 0:
                                    v = pts
                                elif cn > nrem:
                                    v = rem
                                elif two:
                                    v = pts + exact2(nl, P ^ (b0 | b1 | b2 | b3))
                                else:
                                    v = pts + ab(nl, cn, nrem, P ^ (b0 | b1 | b2 | b3))
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
                H[L] ^= b0
                if v1 > v0:
                    v0 = v1
                    if v1 >= need:
                        break
                cut += 1
            if v0 >= need:
                e[0] = v0
                if cut:
                    moves0.insert(0, moves0.pop(cut))
            else:
                e[1] = v0
            return v0

        self.ab = ab
        self.exact2 = exact2

    def close(self) -> None:
        """Empty the tables now.

        The search's functions refer to themselves: only the cycle collector would free
        them, and the tables with them, otherwise.
        """
        for table in self.tables:
            table.clear()

    # ----------------------------------------------------------------------------------
    def boundary(self, L: int, need: int, rem: int, P: int) -> int:
        """Fail-soft bound of team 0's thirds from a trick boundary (any number of cards)."""
        if need <= 0:
            return 0
        if need > rem:
            return rem
        H = self.H
        n = H[L].bit_count()
        if n >= 3:
            if L & 1 == 0:
                return self.ab(L, need, rem, P)
            return rem - self.ab(L, rem - need + 1, rem, P)
        if n == 2:
            v = self.exact2(L, P)
            return v if L & 1 == 0 else rem - v
        winner, pts = _trick_result(L, [H[(L + i) & 3].bit_length() - 1 for i in range(4)])
        return pts + _LAST if winner & 1 == 0 else 0

    def partial(self, L: int, trick: list[int], need: int, rem: int, P: int) -> int:
        """Fail-soft bound of team 0's thirds inside a trick (``trick``: the cards on the table).

        ``P`` holds the cards in the hands and on the table, ``rem`` their thirds plus the
        last trick's 3.
        """
        n = len(trick)
        if n == 0:
            return self.boundary(L, need, rem, P)
        if need <= 0:
            return 0
        if need > rem:
            return rem
        H = self.H
        seat = (L + n) & 3
        h = H[seat]
        follow = h & _SM[trick[0] // 10]
        maximise = seat & 1 == 0
        best = -1 if maximise else rem + 1
        for c in cards_of(_rep_mask(follow or h, P)):
            H[seat] = h ^ (1 << c)
            if n == 3:
                cards = [*trick, c]
                winner, pts = _trick_result(L, cards)
                taken = sum(1 << x for x in cards)
                if not P ^ taken:
                    pts += _LAST
                if winner & 1 == 0:
                    v = pts + self.boundary(winner, need - pts, rem - pts, P ^ taken)
                else:
                    v = self.boundary(winner, need, rem - pts, P ^ taken)
            else:
                v = self.partial(L, [*trick, c], need, rem, P)
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

    def value(self, L: int, trick: list[int], rem: int, P: int, guess: int | None = None) -> int:
        """Team 0's exact thirds from a position.

        Null-window probes "at least ``need``?" narrow the interval ``[lo, hi]`` that
        holds the value; each fail-soft answer moves a bound at least to ``need`` and
        often further. The first probe is ``guess`` (when given), the others bisect.
        """
        lo, hi = 0, rem
        need = (rem + 1) // 2 if guess is None else guess
        while lo < hi:
            need = min(max(need, lo + 1), hi)
            v = self.partial(L, trick, need, rem, P)
            if v >= need:
                lo = v
            else:
                hi = v
            need = (lo + hi + 1) // 2
        return lo


# --------------------------------------------------------------------------------------
# Public API


class SolveTimeout(RuntimeError):
    """``solve_moves`` passed its ``deadline`` before finishing."""


class SolveResult(NamedTuple):
    """The double-dummy value of a position."""

    thirds: tuple[int, int]
    """Thirds each team ends the hand with under best play: ``taken`` plus its share of the rest."""
    points: tuple[int, int]
    """Those thirds as whole card points, each team rounded down (declarations not included)."""
    value: int
    """Thirds team 0 takes from here on (this trick and the last trick's 3 included)."""
    remaining: int
    """Thirds still in play: the cards in the hands and on the table, plus the last trick's 3."""
    nodes: int
    """Trick-boundary positions expanded by the search (a measure of the work done)."""


def _position(hands: Sequence[int], leader: int, trick: Sequence[int]) -> tuple[list[int], list[int], int, int]:
    """Validate a position; return the internal hands and trick, the thirds in play, the cards in play."""
    if len(hands) != 4:
        raise ValueError(f"hands must be 4 card masks, one per seat; got {len(hands)}")
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < 4:
        raise ValueError(f"leader must be a seat 0..3; got {leader!r}")
    if len(trick) > 3:
        raise ValueError(f"a trick in progress holds 0 to 3 cards; got {len(trick)}")
    seen = 0
    for seat, h in enumerate(hands):
        if not isinstance(h, int) or h < 0 or h >> 40:
            raise ValueError(f"hand {seat} is not a 40-bit card mask: {h!r}")
        if seen & h:
            raise ValueError(f"hand {seat} shares cards with another hand")
        seen |= h
    for c in trick:
        if not isinstance(c, int) or not 0 <= c < 40 or seen >> c & 1:
            raise ValueError(f"card {c!r} on the table is not a card id, or is played twice or also held")
        seen |= 1 << c
    counts = [hands[(leader + i) % 4].bit_count() + (i < len(trick)) for i in range(4)]
    if len(set(counts)) != 1:
        raise ValueError(
            f"the hands do not fit a trick led by seat {leader} with {len(trick)} card(s) on the table: "
            f"each seat must hold, with the card it played to this trick, as many cards as the others "
            f"(from the leader on: {counts})"
        )
    H = [_to_int(h) for h in hands]
    itrick = [_TO_INT[c] for c in trick]
    P = _to_int(seen)
    rem = _LAST + sum(_PTS[c] for c in cards_of(P)) if P else 0
    return H, itrick, rem, P


@contextmanager
def _searching(hands: list[int], stop: int = 0, deadline: float | None = None):
    """A ``_Search`` for the duration of a ``with`` block, the cycle collector paused.

    The tables hold hundreds of thousands of small lists: the collector's passes over
    them cost a sixth of the time and find nothing to free.
    """
    enabled = gc.isenabled()
    gc.disable()
    search = _Search(hands, stop, deadline)
    try:
        yield search
    finally:
        search.close()
        if enabled:
            gc.enable()


def _stop(hand: int, horizon: int | None) -> int:
    """Cards per hand at which a ``horizon``-trick search stops (0: search to the end)."""
    if horizon is None:
        return 0
    if horizon < 1:
        raise ValueError(f"horizon must be None or at least 1 trick; got {horizon!r}")
    return max(0, hand.bit_count() - horizon)


def _result(value: int, rem: int, taken: tuple[int, int], nodes: int) -> SolveResult:
    thirds = (taken[0] + value, taken[1] + rem - value)
    return SolveResult(thirds, (thirds[0] // 3, thirds[1] // 3), value, rem, nodes)


def solve(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: tuple[int, int] = (0, 0),
) -> SolveResult:
    """The double-dummy value of a position: both teams play perfectly, every hand known.

    Args:
        hands: four card masks, ``hands[s]`` the cards seat ``s`` holds now.
        leader: the seat that led the current trick (or leads the next one when
            ``trick`` is empty).
        trick: the card ids already on the table in play order, the first led by ``leader``.
        taken: thirds each team has already taken this hand (added to ``thirds``).

    Returns:
        A ``SolveResult``: each team's thirds and points at the end of the hand under
        best play, team 0's thirds from here on, and the work done.

    Raises:
        ValueError: the hands overlap, or do not fit the trick (each seat must hold one
            card more than those that already played to it).

    Example:
        >>> whole_suits = [0x3FF << (10 * seat) for seat in range(4)]  # seat s holds suit s
        >>> solve(whole_suits, leader=0).thirds  # nobody can follow: seat 0 takes all 35
        (35, 0)
        >>> solve(whole_suits, leader=1, taken=(0, 0)).points
        (0, 11)
    """
    H, itrick, rem, P = _position(hands, leader, trick)
    if not P:
        return _result(0, 0, taken, 0)
    with _searching(H) as search:
        return _result(search.value(leader, itrick, rem, P), rem, taken, search.nodes)


def solve_moves(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: tuple[int, int] = (0, 0),
    *,
    horizon: int | None = None,
    deadline: float | None = None,
) -> dict[int, int]:
    """The value of each legal card of the seat on turn, for that seat's team.

    Args:
        hands: four card masks, as in ``solve``.
        leader: the seat that led the current trick, as in ``solve``.
        trick: the card ids on the table, as in ``solve``.
        taken: thirds each team has already taken; the seat's team's share is added.
        horizon: ``None`` (exact, the default), or the number of tricks to search (this
            one included) before a static estimate stands for the rest of the hand: a
            faster approximation for early tricks. Within the horizon's reach (at most
            ``horizon`` tricks left) the values are exact.
        deadline: a ``time.perf_counter()`` time after which the search gives up and
            raises ``SolveTimeout`` (checked every 256 positions); None: no limit.

    Returns:
        ``{card id: thirds}`` for every legal card of the seat on turn (seat
        ``(leader + len(trick)) % 4``), lowest id first: the thirds its team ends the
        hand with when it plays that card and both teams then play perfectly.
        Equivalent cards share a value.

    Raises:
        ValueError: a bad position (see ``solve``) or horizon.
        SolveTimeout: the ``deadline`` passed.

    Example:
        >>> from tressette_env.engine import parse_card, parse_cards
        >>> hands = [parse_cards("Ac"), parse_cards("3d 4c"), parse_cards("Rd 5c"), parse_cards("5d 6c")]
        >>> solve_moves(hands, leader=0, trick=[parse_card("2d")])  # seat 1 must play its 3d
        {2: 3}
    """
    H, itrick, rem, P = _position(hands, leader, trick)
    n = len(itrick)
    seat = (leader + n) % 4
    hand = H[seat]
    if not hand:
        return {}
    follow = hand & _SM[itrick[0] // 10] if itrick else 0
    legal = follow or hand
    values: dict[int, int] = {}
    guess = None
    with _searching(H, _stop(hand, horizon), deadline) as search:
        for c in cards_of(_rep_mask(legal, P)):
            search.H[seat] = hand ^ (1 << c)
            if n == 3:
                cards = [*itrick, c]
                winner, pts = _trick_result(leader, cards)
                played = _mask(cards)
                if not P ^ played:
                    pts += _LAST
                gain = pts if winner & 1 == 0 else 0
                sub_guess = None if guess is None else guess - gain
                v0 = gain + search.value(winner, [], rem - pts, P ^ played, sub_guess)
            else:
                v0 = search.value(leader, [*itrick, c], rem, P, guess)
            search.H[seat] = hand
            guess = v0
            values[c] = v0
    team = seat % 2
    out = {}
    for c in cards_of(legal):
        v0 = values[_rep_of(c, legal, P)]
        out[_TO_EXT[c]] = taken[team] + (v0 if team == 0 else rem - v0)
    return dict(sorted(out.items()))


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _rep_of(c: int, legal: int, P: int) -> int:
    """The representative (lowest card of its run of equivalent cards) of internal card ``c``."""
    sh = c // 10 * 10
    p = P >> sh & 1023
    reps = _reps(p, legal >> sh & 1023)
    b = c - sh
    while not reps >> b & 1:
        b -= 1
        while not p >> b & 1:  # skip the cards already gone
            b -= 1
    return sh + b


def best_moves(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: tuple[int, int] = (0, 0),
) -> list[int]:
    """The legal cards of the seat on turn that reach the best value for its team, lowest id first.

    Example:
        >>> from tressette_env.engine import parse_cards
        >>> hands = [parse_cards("3d Ad"), parse_cards("2d 4c"), parse_cards("Rd 5c"), parse_cards("4d 6c")]
        >>> best_moves(hands, leader=0)  # the 3d first: the asso then takes the last trick
        [2]
    """
    values = solve_moves(hands, leader, trick, taken)
    best = max(values.values(), default=None)
    return [c for c, v in values.items() if v == best]


def solve_state(state: GameState) -> SolveResult:
    """``solve`` on a ``GameState``: its hands, the trick on the table and the thirds taken.

    Example:
        >>> from tressette_env.engine import apply, legal_actions, new_game
        >>> state = new_game(seed=3)
        >>> for _ in range(28):  # seven tricks, lowest legal action each time
        ...     state = apply(state, legal_actions(state)[0])
        >>> result = solve_state(state)
        >>> sum(result.thirds), result.thirds[0] - state.public.thirds[0] == result.value
        (35, True)
    """
    p = state.public
    return solve(state.hands, p.leader, p.trick, p.thirds)


def solve_state_moves(state: GameState, *, horizon: int | None = None) -> dict[int, int]:
    """``solve_moves`` on a ``GameState``: each legal card's final thirds for the team on turn."""
    p = state.public
    return solve_moves(state.hands, p.leader, p.trick, p.thirds, horizon=horizon)
