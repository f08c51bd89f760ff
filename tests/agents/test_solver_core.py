"""The compiled solver core against today's pure-Python solver, and compiled against plain Python.

``benchmarks/reference/solver_v1.py`` is the solver as it was before ``solver_core`` (a frozen
copy, kept as the yardstick): both must give the same exact value to every card on random
positions. The horizon search is checked against its definition instead (``_horizon_reference``,
plain alpha-beta over every legal card): the frozen copy's horizon values depend on the order
in which it searches (the bound under its estimate was computed only for some probes), so
they are not a yardstick once the move ordering changes.
The same core run as plain Python (``TRESSETTE_NUMBA=0``) must give what the compiled one gives.
"""

import importlib.util
import json
import os
import random
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.helpers import load_script
from tressette_env.agents import solver, solver_core
from tressette_env.agents.solver import SolveTimeout, solve_moves, solve_state_moves
from tressette_env.engine import Rules, apply, legal_actions, new_game


def _reference():
    return load_script("benchmarks/reference/solver_v1.py")


solver_v1 = _reference()


def random_position(seed: int, tricks_left_low: int, tricks_left_high: int):
    """A random deal (declarations and signals on) played with random legal cards to a random point."""
    rng = random.Random(seed)
    state = new_game(Rules(), seed=seed)
    cards = rng.randrange(4 * tricks_left_low, 4 * tricks_left_high + 1)  # cards left in the hands
    while sum(h.bit_count() for h in state.hands) > cards:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _horizon_reference(H, L, trick, rem, P, stop, alpha=-1, beta=99):
    """The horizon search's value, by plain alpha-beta over every legal card (no table, no bounds, no ordering).

    The leader's team's thirds from a position of the hands ``H`` (solver_core's internal
    masks), ``trick`` on the table led by ``L``: the tricks are played out to the first
    trick boundary with at most ``stop`` cards a hand (and at least three), where the
    value is what solver_core defines it to be: every third when cashing the leader's, or
    the partner's, masters takes every trick, else ``_estimate`` over the better of the two
    cashing bounds. Fewer than three cards a hand: played out to the end.
    """
    core = solver_core
    n = len(trick)
    if n == 4:
        led = trick[0] // 10
        win = max(range(4), key=lambda i: trick[i] if trick[i] // 10 == led else -1)
        pts = sum(core.PTS[c] for c in trick)
        nP = P
        for c in trick:
            nP ^= 1 << c
        if not nP:
            pts += core.LAST
        W = (L + win) % 4
        nrem = rem - pts
        if W % 2 == L % 2:
            return pts + _horizon_reference(H, W, [], nrem, nP, stop)
        return nrem - _horizon_reference(H, W, [], nrem, nP, stop)
    if n == 0:
        cards = bin(H[L]).count("1")
        if not cards:
            return 0
        if cards >= 3:
            hl, hp = H[L], H[(L + 2) % 4]
            qb = core._cash_bound(hl, H[(L + 1) % 4], hp, P)
            if qb >= 0:
                for sh in range(0, 40, 10):
                    p = P >> sh & 1023
                    if hl >> sh & 1023 and hp >> (sh + p.bit_length() - 1) & 1:
                        q2 = core._cash_bound(hp, H[(L + 3) % 4], hl, P)
                        qb = -1 if q2 < 0 else max(qb, q2)
                        break
            if qb < 0:
                return rem
            if cards <= stop:
                return int(core._estimate(H, L, rem, P, qb))
    seat = (L + n) % 4
    hand = H[seat]
    follow = hand & (1023 << (10 * (trick[0] // 10))) if trick else 0
    legal = follow or hand
    ours = seat % 2 == L % 2
    best = -1 if ours else 99
    for c in range(40):
        if not legal >> c & 1:
            continue
        H[seat] = hand ^ (1 << c)
        v = _horizon_reference(H, L, [*trick, c], rem, P, stop, alpha, beta)
        H[seat] = hand
        if ours:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def reference_horizon_moves(state, horizon: int) -> dict[int, int]:
    """``solve_state_moves(state, horizon=horizon)`` by ``_horizon_reference``."""
    p = state.public
    H, trick, rem, P = solver._position(state.hands, p.leader, p.trick)
    seat = (p.leader + len(trick)) % 4
    hand = H[seat]
    stop = solver._stop(hand, horizon)
    follow = hand & (1023 << (10 * (trick[0] // 10))) if trick else 0
    out = {}
    for c in range(40):
        if (follow or hand) >> c & 1:
            hands = np.array(H, dtype=np.int64) if solver_core.COMPILED else list(H)
            hands[seat] = hand ^ (1 << c)
            v = _horizon_reference(hands, p.leader, [*trick, c], rem, P, stop)
            team0 = v if p.leader % 2 == 0 else rem - v
            out[solver._TO_EXT[c]] = p.thirds[seat % 2] + (team0 if seat % 2 == 0 else rem - team0)
    return dict(sorted(out.items()))


def test_compiled_exactly_when_numba_is_there_and_not_turned_off():
    wanted = importlib.util.find_spec("numba") is not None and os.environ.get("TRESSETTE_NUMBA", "1") != "0"
    assert solver_core.COMPILED is wanted
    assert isinstance(solver_core.tables(), solver_core.Tables)


@pytest.mark.parametrize("block", range(10))
def test_same_values_as_todays_solver_on_random_positions(block):
    # 1000 positions in all, from one to five tricks left, often with a trick half played.
    for seed in range(100 * block, 100 * block + 100):
        state = random_position(seed, 1, 5)
        assert solve_state_moves(state) == solver_v1.solve_state_moves(state), seed
        assert solver.solve_state(state).thirds == solver_v1.solve_state(state).thirds, seed


@pytest.mark.slow
@pytest.mark.parametrize("block", range(20))
def test_same_values_as_todays_solver_on_deeper_positions(block):
    # 2000 positions from five to eight tricks left, and the one-trick horizon search there.
    for seed in range(10_000 + 100 * block, 10_000 + 100 * block + 100):
        state = random_position(seed, 5, 8)
        assert solve_state_moves(state) == solver_v1.solve_state_moves(state), seed
        assert solve_state_moves(state, horizon=1) == reference_horizon_moves(state, 1), seed


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_same_values_as_todays_solver_on_full_deals(seed):
    state = new_game(Rules(), seed=seed)
    assert solver.solve_state(state).thirds == solver_v1.solve_state(state).thirds


def test_the_horizon_search_is_its_definition():
    # 300 positions from four to six tricks left, one and two tricks searched (it fails at
    # seed 106 with the estimate's bound computed only for some probes, as it was)
    for seed in range(300 if solver_core.COMPILED else 60):
        state = random_position(seed, 4, 6)
        for horizon in (1, 2):
            assert solve_state_moves(state, horizon=horizon) == reference_horizon_moves(state, horizon), seed


def test_the_horizon_search_is_exact_within_its_reach():
    for seed in range(40):
        state = random_position(seed, 2, 3)
        assert solve_state_moves(state, horizon=3) == solver_v1.solve_state_moves(state), seed


def test_plain_python_gives_what_the_compiled_core_gives():
    # The same source without numba (TRESSETTE_NUMBA=0), in another process, on 60 positions.
    positions = []
    for seed in range(60):
        state = random_position(seed, 1, 4)
        p = state.public
        positions.append([list(state.hands), p.leader, list(p.trick), list(p.thirds)])
    code = (
        "import json, sys\n"
        "from tressette_env.agents import solver_core\n"
        "from tressette_env.agents.solver import solve_moves\n"
        "assert not solver_core.COMPILED\n"
        "out = [solve_moves(h, l, t, tuple(k)) for h, l, t, k in json.load(sys.stdin)]\n"
        "print(json.dumps([{str(c): v for c, v in d.items()} for d in out]))\n"
    )
    env = dict(os.environ, TRESSETTE_NUMBA="0")
    run = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(positions), capture_output=True, text=True, env=env, check=True
    )
    plain = json.loads(run.stdout)
    for (hands, leader, trick, taken), values in zip(positions, plain, strict=True):
        here = solve_moves(hands, leader, trick, tuple(taken))
        assert {str(c): v for c, v in here.items()} == values


def test_a_passed_deadline_raises_and_the_next_solve_is_exact():
    state = new_game(Rules(), seed=76)  # a hard full deal: seconds, far more than the deadline
    p = state.public
    with pytest.raises(SolveTimeout, match="deadline"):
        solve_moves(state.hands, p.leader, p.trick, deadline=time.perf_counter() + 0.01)
    # the tables left by the cut search do not leak into the next solve
    later = random_position(3, 3, 4)
    assert solve_state_moves(later) == solver_v1.solve_state_moves(later)


def test_a_small_table_is_still_exact():
    # 2**6 rows: entries are overwritten all the time; the values must not change.
    small = solver_core.Tables(6)
    saved = getattr(solver_core._local, "tables", None)
    solver_core._local.tables = small
    try:
        for seed in range(30):
            state = random_position(seed, 4, 6)
            assert solve_state_moves(state) == solver_v1.solve_state_moves(state)
    finally:
        solver_core._local.tables = saved


def test_threads_have_their_own_tables():
    from concurrent.futures import ThreadPoolExecutor

    states = [random_position(seed, 3, 5) for seed in range(16)]
    expected = [solve_state_moves(s) for s in states]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(solve_state_moves, states))
    assert got == expected


def test_a_solve_starts_from_an_empty_history():
    """The lead history is zeroed by ``Tables.start``: the same solve twice expands the same positions."""
    state = new_game(seed=3)
    counts = []
    for _ in range(2):
        counts.append((solver.solve_state(state).value, solver_core.tables().nodes))
    assert counts[0] == counts[1]


# The lookup tables of the core against plain readings of what they stand for.

_POINTS = [int(solver_core.LPTS[b]) for b in range(10)]


def _subsets(p):
    m = p
    while True:
        yield m
        if not m:
            return
        m = (m - 1) & p


def _powers(v):
    return [b for b in range(10) if v >> b & 1]


def test_compress_and_deposit_move_bits_to_the_places_of_another_field_and_back():
    for p in range(1024):
        places = _powers(p)
        for x in _subsets(p):
            packed = sum(1 << i for i, b in enumerate(places) if x >> b & 1)
            assert solver_core._compress(x, p) == packed
            assert solver_core._deposit(packed, p) == x


def test_equivalent_cards_are_the_lowest_of_each_run():
    # Every suit field and every hand within it, against the definition read plainly.
    for p in range(1024):
        for m in _subsets(p):
            expected = 0
            below = None  # the card of p just below, if it is the hand's
            for b in _powers(p):
                if m >> b & 1:
                    if below is None or _POINTS[below] != _POINTS[b]:
                        expected |= 1 << b
                    below = b
                else:
                    below = None
            assert solver_core._reps(p, m) == expected, (p, m)


def _suit_shape(p, a, b, c):
    """What a suit's shape must tell apart: how many cards and their holders from the highest down,
    or, when one hand holds the whole suit, that hand and how many cards."""
    holders = [0 if a >> x & 1 else 1 if b >> x & 1 else 2 if c >> x & 1 else 3 for x in reversed(_powers(p))]
    if len(set(holders)) == 1:
        return ("whole", holders[0], len(holders))
    return tuple(holders)


def test_suit_shapes_are_equal_exactly_when_the_suits_are_alike():
    rng = random.Random(5)
    codes: dict = {}
    shapes: dict = {}
    for _ in range(60_000):
        p = rng.randrange(1, 1024)
        owner = {x: rng.randrange(4) for x in _powers(p)}
        if rng.random() < 0.1:  # one hand holds the whole suit
            owner = dict.fromkeys(owner, rng.randrange(4))
        a, b, c = (sum(1 << x for x, o in owner.items() if o == seat) for seat in range(3))
        code = solver_core._suit_code(p, a, b, c)
        assert 0 < code < 1 << 24
        shape = _suit_shape(p, a, b, c)
        assert codes.setdefault(shape, code) == code, shape
        assert shapes.setdefault(code, shape) == shape, code
    assert len(codes) > 10_000
    # the point sequences: one number for each sequence of point values by power, and for each
    # multiset of point values (sorted), in one numbering
    numbers: dict = {}
    for p in range(1, 1024):
        points = [_POINTS[x] for x in _powers(p)]
        for number, seq in ((solver_core.SEQUENCE[p], tuple(points)), (solver_core.SORTED[p], tuple(sorted(points)))):
            assert numbers.setdefault(int(number), seq) == seq
    assert len(set(numbers.values())) == len(numbers) < 128


def _similar_position(H, rng):
    """The position with, in each suit, the same number of cards in the same hands in the same
    order of power, on another set of ranks: the same play, other point values."""
    out = [0, 0, 0, 0]
    for sh in range(0, 40, 10):
        cards = [(x, seat) for x in range(10) for seat in range(4) if H[seat] >> (sh + x) & 1]
        ranks = sorted(rng.sample(range(10), len(cards)))
        for (_, seat), x in zip(cards, ranks, strict=True):
            out[seat] |= 1 << (sh + x)
    return out


def _leader_value(H, L, P):
    """The leader's team's thirds from a trick boundary of the internal hands ``H``, by plain minimax."""
    pts = solver_core.PTS
    hands = list(H)

    def play(leader, trick, present):
        if len(trick) == 4:
            led = trick[0] // 10
            winner = (leader + max(range(4), key=lambda i: trick[i] if trick[i] // 10 == led else -1)) % 4
            rest = present & ~sum(1 << c for c in trick)
            last = solver_core.LAST
            thirds = sum(pts[c] for c in trick) + (0 if rest else last)
            left = sum(pts[c] for c in range(40) if rest >> c & 1) + (last if rest else 0)
            later = play(winner, [], rest) if rest else 0  # the winner's team's
            return thirds + later if winner % 2 == leader % 2 else left - later
        seat = (leader + len(trick)) % 4
        hand = hands[seat]
        follow = hand & (1023 << (10 * (trick[0] // 10))) if trick else 0
        values = []
        for c in range(40):
            if (follow or hand) >> c & 1:
                hands[seat] = hand ^ (1 << c)
                values.append(play(leader, [*trick, c], present))
                hands[seat] = hand
        return max(values) if seat % 2 == leader % 2 else min(values)

    return play(L, [], P)


def _similar_pair(state, rng):
    """The solver's view of ``state`` at a trick's start and a position like it with other point values.

    Returns None when a trick is under way; else ``(H, rem, P, G, Q, (k0, k1), (e0, e1))``:
    the hands, the points left and the cards in play, the like position's hands and cards
    (``_similar_position``), and the table keys of both, counted from the leader.
    """
    p = state.public
    if p.trick:
        return None
    L = p.leader
    H, _, rem, P = solver._position(state.hands, L, p.trick)
    G = _similar_position(H, rng)
    Q = G[0] | G[1] | G[2] | G[3]
    key = solver_core._key(H[L], H[(L + 1) % 4], H[(L + 2) % 4], P)
    other = solver_core._key(G[L], G[(L + 1) % 4], G[(L + 2) % 4], Q)
    return H, rem, P, G, Q, key, other


def test_a_probe_finds_the_position_and_bounds_from_a_similar_one():
    rng = random.Random(2)
    for seed in range(40):
        pair = _similar_pair(random_position(seed, 4, 6), rng)
        if pair is None:
            continue
        H, rem, P, G, Q, (k0, k1), (e0, e1) = pair
        rem_g = sum(int(solver_core.PTS[c]) for c in range(40) if Q >> c & 1) + solver_core.LAST
        t = solver_core.Tables(8)
        t.start(G, 0)
        lo, hi = rng.randrange(rem_g + 1), rng.randrange(rem_g + 1)
        lo, hi = min(lo, hi), max(lo, hi)
        slot, *_ = solver_core._probe(t.tt, t.ctx, e0, e1, rem_g)
        assert slot < 0  # an empty table
        solver_core._store(t.tt, t.ctx, slot, e0, e1, 5, lo, hi, 7)
        slot, got_lo, got_hi, best = solver_core._probe(t.tt, t.ctx, e0, e1, rem_g)
        assert slot >= 0 and (got_lo, got_hi, best) == (lo, hi, 7)
        d = solver_core._similar(k0, k1, e0, e1)
        own = (k0, k1) == (e0, e1)
        slot, got_lo, got_hi, best = solver_core._probe(t.tt, t.ctx, k0, k1, rem)
        if own:
            assert (got_lo, got_hi) == (lo, hi)
        else:
            assert slot < 0 and best == -1
            assert (got_lo, got_hi) == (max(0, lo - (d & 255)), min(rem, hi + (d >> 8)))
        t.ctx[solver_core._STOP] = 3  # a horizon search: no bound from another position
        if not own:
            assert solver_core._probe(t.tt, t.ctx, k0, k1, rem)[1:] == (0, rem, -1)


def test_similar_positions_are_within_their_point_distance():
    # The bound the table uses for an entry of the same shapes with other point values:
    # the exact values of two such positions differ by at most what _similar says.
    rng = random.Random(11)
    checked = 0
    for seed in range(200 if solver_core.COMPILED else 60):
        state = random_position(seed, 3, 3)
        pair = _similar_pair(state, rng)
        if pair is None:
            continue
        H, _, P, G, Q, (k0, k1), (e0, e1) = pair
        assert k0 & solver_core.SHAPES == e0 & solver_core.SHAPES and k1 & solver_core.SHAPES == e1 & solver_core.SHAPES
        d = solver_core._similar(k0, k1, e0, e1)
        v = _leader_value(H, state.public.leader, P)
        w = _leader_value(G, state.public.leader, Q)
        assert w - (d & 255) <= v <= w + (d >> 8), (seed, v, w, d & 255, d >> 8)
        checked += 1
    assert checked > 30


def _rich(c):
    return (-int(solver_core.PTS[c]), c)


def _cheap(c):
    return (int(solver_core.PTS[c]), c)


def test_leads_and_follows_come_in_their_order():
    rng = random.Random(4)
    for _ in range(3000):
        present = rng.getrandbits(40)
        hl, hp = present & rng.getrandbits(40), present & rng.getrandbits(40)
        hp &= ~hl
        reps = solver_core.rep_mask(hl, present)
        # leads: suits whose top card is the leader's (richest first), the partner's, the rest (cheapest first)
        groups = [[], [], []]
        for s in range(4):
            f = present >> (10 * s) & 1023
            if not hl >> (10 * s) & 1023:
                continue
            top = 10 * s + f.bit_length() - 1
            g = 0 if hl >> top & 1 else 1 if hp >> top & 1 else 2
            cards = [c for c in range(10 * s, 10 * s + 10) if reps >> c & 1]
            groups[g] += sorted(cards, key=_rich if g == 0 else _cheap)
        assert _moves(solver_core._lead_moves, hl, hp, present) == groups[0] + groups[1] + groups[2]
        # following in suit 1: the partner's sure trick, richest first; else the cheapest card over
        # every card that can still take the trick from this team, then the cheapest
        p, m = present >> 10 & 1023, hl >> 10 & 1023 & present >> 10
        if not m:
            continue
        win, after, ours = rng.randrange(10), rng.randrange(-1, 10), rng.random() < 0.5
        cards = [10 + b for b in range(10) if solver_core._reps(p, m) >> b & 1]
        if ours and win > after:
            expected = sorted(cards, key=_rich)
        else:
            w = after if ours or after > win else win
            expected = sorted((c for c in cards if c - 10 > w), key=_cheap)
            expected += sorted((c for c in cards if c - 10 <= w), key=_cheap)
        assert _moves(solver_core._follow_moves, p, m, 10, win, ours, after) == expected


def _moves(fill, *args):
    mv = np.zeros(48, dtype=np.int64) if solver_core.COMPILED else [0] * 48
    n = fill(*args, mv, 0)
    return [int(c) for c in mv[:n]]


def test_move_lists_come_cheapest_or_richest_first():
    pts = solver_core.PTS
    for r in range(1024):
        for high in (False, True):
            mv = np.zeros(10, dtype=np.int64) if solver_core.COMPILED else [0] * 10
            n = solver_core._append(mv, 0, r, 20, high)
            key = (lambda c: (-pts[c], c)) if high else (lambda c: (pts[c], c))
            assert [int(c) for c in mv[:n]] == sorted((20 + b for b in _powers(r)), key=key)
    rng = random.Random(3)
    for _ in range(2000):
        present = rng.getrandbits(40)
        hand = present & rng.getrandbits(40)
        reps = solver_core.rep_mask(hand, present)
        for high in (False, True):
            # cards of the same point value and power: the lower suit first
            key = (lambda c: (-pts[c], c % 10, c)) if high else (lambda c: (pts[c], c % 10, c))
            expected = sorted((c for c in range(40) if reps >> c & 1), key=key)
            assert _moves(solver_core._discard_moves, hand, present, high) == expected
