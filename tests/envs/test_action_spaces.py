"""``envs.action_spaces``: each API's space per game, and a policy's outputs and masks carried between them."""

import importlib
import random
import warnings

import gymnasium as gym
import numpy as np
import pytest

import tressette_env  # noqa: F401  (registers the Gymnasium ids)
from tressette_env import catalog
from tressette_env.catalog import names as game_names
from tressette_env.engine.actions import WAIT
from tressette_env.envs.action_spaces import action_space_size, carry_logits, carry_mask
from tressette_env.envs.spec import game_spec

GAMES = [name for name in game_names() if catalog.entry(name).env_module is not None]
"""The games with environment modules of their own: the package's six. A game that another test module registers
while collecting (``tests/games/toy.py``, ``games.mini``) plays in the generic environments and has its own tests;
leaving it out keeps this list the same in whatever order the test files are collected."""


def _module(game):
    return importlib.import_module(f"tressette_env.{game_spec(game).env_name}")


@pytest.mark.parametrize("game", GAMES)
def test_the_sizes_are_the_environments_own(game):
    spec = game_spec(game)
    aec = _module(game).env()
    parallel = _module(game).parallel_env()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        single = gym.make(spec.gym_id)
    agent = aec.possible_agents[0]
    assert aec.action_space(agent).n == action_space_size(game, "aec")
    assert single.action_space.n == action_space_size(game, "gymnasium") == action_space_size(game)
    assert parallel.action_space(agent).n == action_space_size(game, "parallel") == 256
    assert action_space_size(game) == (161 if game == "tressette" else 255)
    modes = ["sync", "vector_entry_point"] if catalog.entry(game).gym_vector_entry_point else ["sync"]
    for mode in modes:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            vector = gym.make_vec(spec.gym_id, num_envs=2, vectorization_mode=mode)
        assert vector.single_action_space.n == action_space_size(game, "gymnasium")
        vector.close()


@pytest.mark.parametrize("game", GAMES)
def test_an_aec_mask_carried_to_the_parallel_space_is_the_parallel_mask_and_back(game):
    """Both environments play the same deal with the same random choices; at each step the masks agree once carried."""
    module = _module(game)
    aec, parallel = module.env(), module.parallel_env()
    aec.reset(seed=3)
    observations, _ = parallel.reset(seed=3)
    rng = random.Random(0)
    size = action_space_size(game)
    for _ in range(400):
        agent = aec.agent_selection
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            break
        assert parallel.agent_on_turn == agent
        mask = observation["action_mask"]
        parallel_mask = observations[agent]["action_mask"]
        assert np.array_equal(carry_mask(mask, 256), parallel_mask)
        assert np.array_equal(carry_mask(parallel_mask, size), mask)
        for other, obs in observations.items():
            if other != agent:  # off turn: WAIT alone, which no turn-based space holds
                with pytest.raises(ValueError, match=f"action id\\(s\\) {WAIT} legal"):
                    carry_mask(obs["action_mask"], size)
        action = rng.choice(np.flatnonzero(mask).tolist())
        aec.step(action)
        observations, *_ = parallel.step({a: (action if a == agent else WAIT) for a in parallel.agents})
    else:
        raise AssertionError("the hand did not end")


def test_the_shipped_policy_chooses_the_same_card_in_every_space():
    from tressette_env import tressette_v0
    from tressette_env.learned.loading import shipped_model_path
    from tressette_env.learned.mlp import MLPPolicy

    policy = MLPPolicy.load(shipped_model_path())
    aec, parallel = tressette_v0.env(), tressette_v0.parallel_env()
    aec.reset(seed=5)
    observations, _ = parallel.reset(seed=5)
    for _ in range(40):
        agent = aec.agent_selection
        observation, *_ = aec.last()
        own = int(policy.best_actions(observation["observation"][None, :], observation["action_mask"][None, :])[0])
        obs = observations[agent]
        logits = carry_logits(policy.logits(obs["observation"][None, :]), 256)[0]
        assert logits.shape == (256,) and np.isneginf(logits[161:]).all()
        carried = int(np.where(obs["action_mask"].astype(bool), logits, -np.inf).argmax())
        assert carried == own
        aec.step(own)
        observations, *_ = parallel.step({a: (own if a == agent else WAIT) for a in parallel.agents})


def test_carrying_pads_and_cuts_the_last_axis_only():
    logits = np.arange(12, dtype=np.float32).reshape(2, 6)
    wide = carry_logits(logits, 8)
    assert wide.shape == (2, 8) and wide.dtype == np.float32 and np.isneginf(wide[:, 6:]).all()
    assert np.array_equal(carry_logits(wide, 6), logits) and np.array_equal(carry_logits(logits, 4), logits[:, :4])
    mask = np.array([[1, 0, 1, 0], [0, 1, 0, 0]], dtype=np.int8)
    assert carry_mask(mask, 6).dtype == np.int8 and carry_mask(mask, 6)[:, 4:].sum() == 0
    assert np.array_equal(carry_mask(mask, 3), mask[:, :3])
    assert np.array_equal(carry_mask(mask, 4), mask) and np.array_equal(carry_logits(logits, 6), logits)  # same size
    carry_mask(mask, 3)[0, 0] = 0
    assert mask[0, 0] == 1  # a new array: the input is not changed


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: carry_mask(np.array([0, 0, 1], dtype=bool), 2), r"action id\(s\) 2 legal in the mask"),
        (lambda: carry_mask(np.ones(256), 161), r"action id\(s\) 161, 162, .*, 168 and 87 more legal"),
        (lambda: carry_mask(np.ones(3), 0), "size=0: a space's number of action ids, 1 to 256"),
        (lambda: carry_logits(np.ones(3), 257), "size=257"),
        (lambda: carry_logits(np.ones(3), True), "size=True"),
        (lambda: carry_logits(np.float32(1.0), 3), "not a scalar"),
        (lambda: action_space_size("tressette", "rllib"), "api='rllib': one of aec, gymnasium, parallel"),
        (lambda: action_space_size("scopa"), "scopa"),
    ],
)
def test_bad_inputs_are_refused_with_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message):
        call()
