"""The compiled two-seat search (``open_solver_two``) chooses the card the pure-Python search chooses.

``open_solver.best_open_move`` runs it for two seats on opposite sides when numba is there;
``USE_COMPILED = False`` runs the pure-Python ``_Open`` search, the reference here. Both are
also held to plain minimax by ``test_open_solver.py``.
"""

import importlib.util
import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.agents import open_solver
from tressette_env.agents.in_due_heuristic import InDueHeuristic
from tressette_env.engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of
from tressette_env.engine.game import apply, legal_actions, new_game, view
from tressette_env.engine.state import PLAYING
from tressette_env.games.in_due import InDueRules

numba_there = importlib.util.find_spec("numba") is not None and os.environ.get("TRESSETTE_NUMBA", "1") != "0"
pytestmark = pytest.mark.skipif(not numba_there, reason="the compiled search needs numba (the fast extra)")

CHEAPEST = lambda c: (THIRDS[c], STRENGTH[c])  # noqa: E731 (in due's heuristic's order of equal cards)


def both(hands, leader, trick, **kwargs):
    """(pure Python, compiled) choices of ``best_open_move``."""
    try:
        open_solver.USE_COMPILED = False
        python = open_solver.best_open_move(hands, leader, trick, **kwargs)
    finally:
        open_solver.USE_COMPILED = True
    return python, open_solver.best_open_move(hands, leader, trick, **kwargs)


def random_position(rng, cards):
    """Two hands of ``cards`` each, a random leader; half the time the leader has led one of his."""
    deck = rng.sample(range(40), 2 * cards)
    leader = rng.randrange(2)
    hands = [0, 0]
    for c in deck[:cards]:
        hands[leader] |= 1 << c
    for c in deck[cards:]:
        hands[1 - leader] |= 1 << c
    trick = []
    if rng.random() < 0.5:
        led = deck[rng.randrange(cards)]
        hands[leader] ^= 1 << led
        trick = [led]
    return hands, leader, trick


def test_the_compiled_search_runs_when_numba_is_there():
    from tressette_env.agents import open_solver_two

    assert open_solver_two.COMPILED
    assert open_solver.compiled_two_seats() is open_solver_two


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    cards=st.integers(1, 7),
    sides=st.sampled_from([(0, 1), (1, 0)]),
    least=st.booleans(),
    prefer=st.sampled_from([None, CHEAPEST, lambda c: -c]),
    last=st.sampled_from([3, 0, 7]),
)
def test_same_card_as_the_python_search(seed, cards, sides, least, prefer, last):
    hands, leader, trick = random_position(random.Random(seed), cards)
    python, compiled = both(hands, leader, trick, sides=sides, prefer=prefer, least=least, last_trick=last)
    assert compiled == python


@pytest.mark.parametrize("block", range(4))
def test_same_card_on_full_endgames(block):
    # Ten cards each (or nine and a led card): in due's first endgame decision, the deepest search.
    rng = random.Random(1000 + block)
    for _ in range(15):
        hands, leader, trick = random_position(rng, 10)
        least = rng.random() < 0.25
        python, compiled = both(hands, leader, trick, sides=(0, 1), prefer=CHEAPEST, least=least)
        assert compiled == python, (hands, leader, trick, least)


def test_same_card_at_every_endgame_decision_of_played_hands(monkeypatch):
    # Hands of in due (the stock form) played by its heuristic to the end: every endgame
    # decision is asked of both searches, the compiled one's table warm from the decisions
    # before, as in a game.
    from tressette_env.agents import in_due_heuristic

    asked = []

    def spy(hands, leader, trick, **kwargs):
        python, compiled = both(list(hands), leader, list(trick), **kwargs)
        asked.append((hands, leader, tuple(trick), python, compiled))
        return compiled

    monkeypatch.setattr(in_due_heuristic, "best_open_move", spy)
    player = InDueHeuristic()
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(InDueRules(), seed=seed)
        while state.public.status == PLAYING:
            seat = state.public.turn
            state = apply(state, player.act(view(state, seat), legal_actions(state), rng))
    assert len(asked) > 30
    assert [a[3] for a in asked] == [a[4] for a in asked]


@pytest.mark.parametrize("least", [False, True])
def test_many_positions_in_one_call_give_each_position_s_card(least):
    # ``best_moves`` (in due's batched heuristic, one compiled call for every deal) against the
    # pure-Python search position by position: seat 0 is side 0, the cards ranked cheapest first.
    import numpy as np

    from tressette_env.agents import open_solver_two

    rng = random.Random(55 + least)
    positions = [random_position(rng, rng.randint(1, 9)) for _ in range(150)]
    rank = np.empty(40, dtype=np.int64)
    rank[sorted(range(40), key=lambda c: (CHEAPEST(c), c))] = np.arange(40)
    got = open_solver_two.best_moves(
        [h[0] for h, _, _ in positions], [h[1] for h, _, _ in positions], [leader for _, leader, _ in positions],
        [trick[0] if trick else -1 for _, _, trick in positions], rank, least=least, last_trick=3,
    )  # fmt: skip
    wanted = [both(h, leader, trick, sides=(0, 1), prefer=CHEAPEST, least=least)[0] for h, leader, trick in positions]
    assert got.tolist() == wanted


def test_a_seat_without_cards_is_refused_by_both_searches_and_is_minus_one_in_many():
    import numpy as np

    from tressette_env.agents import open_solver_two

    for compiled in (False, True):
        try:
            open_solver.USE_COMPILED = compiled
            with pytest.raises(ValueError, match="holds no card"):
                open_solver.best_open_move([0, 0], 0, [], sides=(0, 1))
        finally:
            open_solver.USE_COMPILED = True
    rank = np.arange(40, dtype=np.int64)
    assert open_solver_two.best_moves([0, 1], [0, 2], [0, 0], [-1, -1], rank, least=False, last_trick=3).tolist() == [
        -1,
        0,
    ]


def test_a_bad_position_is_refused_before_the_compiled_search():
    with pytest.raises(ValueError, match="hands and sides"):
        open_solver.best_open_move([1, 2, 4], 0, [], sides=(0, 1))
    with pytest.raises(ValueError, match="do not fit the trick"):
        open_solver.best_open_move([0b11, 0b100], 0, [], sides=(0, 1))


def test_the_same_side_twice_runs_the_python_search():
    # Two seats of one side is no game of two sides: the general search answers it.
    hands = [sum(1 << c for c in (0, 11)), sum(1 << c for c in (1, 12))]
    assert open_solver.best_open_move(hands, 0, [], sides=(0, 0)) in cards_of(hands[0] & SUIT_MASK[0] or hands[0])


def test_it_loads_from_numba_s_disk_cache():
    # numba crashed loading a cached recursive function called with a literal argument; two
    # processes in a row, the second from the cache the first wrote, give the same cards.
    code = (
        "import random, json\n"
        "from tressette_env.agents.open_solver import best_open_move\n"
        "rng = random.Random(7)\n"
        "out = []\n"
        "for _ in range(20):\n"
        "    deck = rng.sample(range(40), 12)\n"
        "    hands = [sum(1 << c for c in deck[:6]), sum(1 << c for c in deck[6:])]\n"
        "    out.append(best_open_move(hands, rng.randrange(2), [], sides=(0, 1)))\n"
        "print(json.dumps(out))\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(runs[0].stdout) == json.loads(runs[1].stdout)
