"""``env()``'s one wrapper (``envs.aec.LeanWrapper``) behaves as PettingZoo's two it replaces."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from tressette_env import catalog
from tressette_env.envs.aec import ActionChecks, ActionSpaceError, LeanWrapper

GAMES = [e.name for e in catalog.entries() if e.name in catalog.PACKAGE_GAMES]


def classic(game: str):
    """What ``env()`` was: ``OrderEnforcingWrapper(ActionChecks(raw_env()))``."""
    return wrappers.OrderEnforcingWrapper(ActionChecks(catalog.entry(game).env_functions().raw_env()))


def lean(game: str):
    return catalog.entry(game).env_functions().env()


@pytest.mark.parametrize("game", GAMES)
def test_the_same_game_step_for_step(game):
    one, two = lean(game), classic(game)
    assert isinstance(one, LeanWrapper) and isinstance(one, wrappers.OrderEnforcingWrapper)
    for env in (one, two):
        env.reset(seed=3)
    rng = random.Random(3)
    for agent in one.agent_iter(2000):
        assert agent == two.agent_selection
        a, b = one.last(), two.last()
        assert a[1:] == b[1:] and all(np.array_equal(a[0][k], b[0][k]) for k in a[0])
        assert one.rewards == two.rewards and one.agents == two.agents and one.num_agents == two.num_agents
        assert one._cumulative_rewards == two._cumulative_rewards
        if a[2] or a[3]:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(a[0]["action_mask"])))
        one.step(action)
        two.step(action)
    assert not one.agents and not two.agents


def test_before_reset_and_on_bad_actions_it_says_what_pettingzoo_says():
    for name in ("agent_selection", "rewards", "terminations", "truncations", "infos", "agents", "num_agents"):
        for env in (lean("tressette"), classic("tressette")):
            with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
                getattr(env, name)
    for method in ("step", "observe"):
        errors = []
        for env in (lean("tressette"), classic("tressette")):
            with pytest.raises(Exception) as error:
                getattr(env, method)(0 if method == "step" else "player_0")
            errors.append((type(error.value), str(error.value)))
        assert errors[0] == errors[1]
    env = lean("tressette")
    env.reset(seed=0)
    turn, before = env.agent_selection, env.last()
    for bad in (255, -1, 10**30, "3", 1.5):
        with pytest.raises(ActionSpaceError, match=r"player_\d: .*the action space is Discrete\(161\)"):
            env.step(bad)
    after = env.last()  # nothing changed
    assert env.agent_selection == turn and after[1:] == before[1:]
    assert all(np.array_equal(after[0][k], before[0][k]) for k in before[0])
