"""An environment costs a process no numba, torch or solver: they load only when a player needs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tressette_env import catalog

HEAVY = ("numba", "torch", "stable_baselines3", "tressette_env.agents.solver_core", "tressette_env.agents.search")


def loaded_after(code: str) -> dict:
    script = f"import json, sys\n{code}\nprint(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


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


def test_stepping_every_single_learner_environment_with_its_default_opponents_loads_nothing_heavy():
    code = (
        "import gymnasium as gym, tressette_env\n"
        "from tressette_env import catalog\n"
        "for e in catalog.entries():\n"
        "    env = gym.make(e.gym_id); env.reset(seed=0)\n"
        "    for _ in range(40):\n"
        "        _, _, end, cut, _ = env.step(int(env.unwrapped.action_masks().nonzero()[0][0]))\n"
        "        if end or cut: env.reset()\n"
    )
    assert loaded_after(code) == dict.fromkeys(HEAVY, False)


def test_the_search_player_still_comes_from_the_agents_package():
    assert loaded_after("from tressette_env.agents import SearchPlayer")["tressette_env.agents.search"]
    from tressette_env import agents

    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        agents.Nothing  # noqa: B018
