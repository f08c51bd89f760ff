"""An environment costs a process no numba, torch or solver: they load only when a player needs them."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tressette_env import catalog

HEAVY = ("numba", "torch", "stable_baselines3", "tressette_env.agents.solver_core", "tressette_env.agents.search")


def loaded_after(code: str, env: dict | None = None) -> dict:
    script = f"import json, sys\n{code}\nprint(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    "code",
    [
        "import tressette_env",
        "from tressette_env.wrappers import SingleSeatEnv",
        "from tressette_env.agents import HeuristicPlayer, RandomPlayer, make_player",
        *(f"import {e.env_module}" for e in catalog.entries() if e.env_module),
    ],
)
def test_importing_an_environment_loads_nothing_heavy(code):
    assert loaded_after(code) == dict.fromkeys(HEAVY, False)


def stepping(which: str) -> str:
    """Code that steps ``gym.make(id)`` of the catalog's games ``which`` selects (an expression of ``e``) through hands.

    The games are those of the child process's catalog (not this one's, where tests register toys).
    """
    return (
        "import gymnasium as gym, tressette_env\n"
        "from tressette_env import catalog\n"
        f"for e in [e for e in catalog.entries() if {which}]:\n"
        "    env = gym.make(e.gym_id); env.reset(seed=0)\n"
        "    for _ in range(120):\n"
        "        _, _, end, cut, _ = env.step(int(env.unwrapped.action_masks().nonzero()[0][0]))\n"
        "        if end or cut: env.reset()\n"
    )


def test_stepping_every_single_learner_environment_with_its_default_opponents_loads_nothing_heavy():
    # In due's heuristic searches its endgame with numba when numba is there (below); the others never.
    assert loaded_after(stepping("e.name != 'tressette_in_due'")) == dict.fromkeys(HEAVY, False)
    lean = dict(os.environ, TRESSETTE_NUMBA="0")
    assert loaded_after(stepping("e.name == 'tressette_in_due'"), lean) == dict.fromkeys(HEAVY, False)


def test_in_due_s_heuristic_loads_numba_for_its_endgame_and_nothing_else_heavy():
    # Its endgame search runs compiled when numba is installed (the fast extra): numba (about 90 MB)
    # loads at the first endgame, never torch or the four-seat solver; TRESSETTE_NUMBA=0 keeps it out.
    numba_there = importlib.util.find_spec("numba") is not None and os.environ.get("TRESSETTE_NUMBA", "1") != "0"
    loaded = loaded_after(stepping("e.name == 'tressette_in_due'"))
    assert loaded == {**dict.fromkeys(HEAVY, False), "numba": numba_there}


def test_the_search_player_still_comes_from_the_agents_package():
    assert loaded_after("from tressette_env.agents import SearchPlayer")["tressette_env.agents.search"]
    from tressette_env import agents

    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        agents.Nothing  # noqa: B018


def test_a_batch_loads_its_compiled_observation_only_when_it_observes_with_numba():
    """Making and stepping a batch loads no numba; its first observation loads its kernel (numba) only where numba runs."""
    kernels = ("tressette_env.vector._compiled", "tressette_env.vector._col_morto_words")
    code = (
        "import numpy as np\n"
        "from tressette_env.vector.col_morto import ColMortoBatch\n"
        "batch = ColMortoBatch(4, seed=0)\n"
        "batch.step(batch.sample_actions(np.random.default_rng(0)))\n"
        f"before = {{m: m in sys.modules for m in ('numba', *{kernels!r})}}\n"
        "batch.observe()\n"
        "print(json.dumps(before))\n"
    )
    script = f"import json, sys\n{code}print(json.dumps({{m: m in sys.modules for m in ('numba', *{kernels!r})}}))"

    def run(env: dict) -> list[dict]:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
        return [json.loads(line) for line in done.stdout.splitlines()[-2:]]

    nothing = dict.fromkeys(("numba", *kernels), False)
    before, after = run(dict(os.environ, TRESSETTE_NUMBA="0"))
    assert before == nothing and after == nothing  # no numba: the NumPy observation, no kernel module imported
    if importlib.util.find_spec("numba") is not None:
        before, after = run(dict(os.environ))
        assert before == nothing and after == dict.fromkeys(("numba", *kernels), True)
