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
