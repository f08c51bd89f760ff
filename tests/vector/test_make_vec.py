"""Gymnasium's vector API: ``gym.make_vec``'s vector entry point is the batched environment, with gym.make's
defaults; the mask in the infos; the sync mode with the autoreset mode that keeps masks valid."""

import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import tressette_env
from tressette_env.vector import TressetteVectorEnv, sample_mask

ID = tressette_env.GYMNASIUM_ID


def test_the_vector_entry_point_is_the_batched_env_with_gym_make_s_defaults():
    env = gym.make_vec(ID, num_envs=8, vectorization_mode="vector_entry_point")
    assert isinstance(env, TressetteVectorEnv) and env.num_envs == 8
    single = gym.make(ID).unwrapped
    # gym.make: a random seat, the heuristic as partner and opponents; the batched env the same.
    assert single.seat_choice == env.learner_seat == "random"
    assert single.partner.name == env.partner == "heuristic" and single.opponents[0].name == env.opponent == "heuristic"
    env = gym.make_vec(ID, num_envs=2, vectorization_mode="vector_entry_point", seat=1, opponents="random",
                       accusi=False)  # fmt: skip
    assert env.learner_seat == 1 and env.opponent == "random" and env.partner == "heuristic"
    assert env.rules.accusi is False


def test_the_mask_is_in_the_infos_and_never_empty_across_autoresets():
    env = gym.make_vec(ID, num_envs=16, vectorization_mode="vector_entry_point", opponents="random")
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        mask = infos["action_mask"]
        assert mask.shape == (16, 161) and mask.dtype == bool and mask.any(axis=1).all()
        assert mask is env.action_masks()
        _, _, terminations, _, infos = env.step(sample_mask(mask, rng))
        ended += int(terminations.sum())
    assert ended >= 16  # every deal ended at least once (a hand is ten learner steps)


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"opponents": "search"}, "the batched environment's opponents is 'random', 'heuristic' or a batched policy"),
        ({"opponents": ("random", "heuristic")}, "one policy for both opponents"),
        ({"partner": "ppo"}, "the batched environment's partner is 'random', 'heuristic'"),
        ({"render_mode": "ansi"}, "render_mode='ansi' is not supported"),
        ({"seat": 4}, r"^seat must be a seat 0..3 or 'random' \(gym.make's keyword\); got 4"),  # (not learner_seat)
    ],
)
def test_bad_keywords_are_named(keywords, message):
    with pytest.raises(ValueError, match=message):
        gym.make_vec(ID, num_envs=2, vectorization_mode="vector_entry_point", **keywords)


def test_sync_vectors_with_same_step_autoreset_never_hand_out_an_empty_mask():
    # NEXT_STEP (Gymnasium's default) returns a finished episode's last observation, whose mask is empty, for one
    # step; SAME_STEP resets in the step that ends the episode.
    env = gym.make_vec(
        ID, num_envs=3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP}
    )
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(40):
        masks = np.stack(env.call("action_masks"))
        assert masks.any(axis=1).all()
        env.step(sample_mask(masks, rng))


@pytest.mark.parametrize("mode", ["vector_entry_point", "sync"])
def test_make_vec_passes_the_history_observation_on(mode):
    env = gym.make_vec("tressette_env/Tressette-v0", num_envs=2, vectorization_mode=mode, history=True)
    obs, _ = env.reset(seed=0)
    assert env.single_observation_space.shape == (1460,) and obs.shape == (2, 1460)
    env.close()


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare", "tressette_in_due", "tressette_col_morto"])
def test_gymnasium_s_sync_vector_stacks_every_game_s_infos(game):
    """Each info key holds one type in every hand (Gymnasium stacks a key into one array): a hand where all
    passed said None for its soloist or declarer, an int elsewhere, and the sync vector raised a TypeError."""
    from tressette_env import catalog

    env = gym.make_vec(
        catalog.entry(game).gym_id,
        num_envs=16,  # hands end in several of them at one step, all passed in some and not in others
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},  # gym.make's defaults: the heuristic passes
    )
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        _, _, terminations, _, infos = env.step(sample_mask(np.stack(env.call("action_masks")), rng))
        ended += int(terminations.sum())
    assert ended >= 8
    env.close()


@pytest.mark.parametrize(
    ("game_id", "typo", "words"),
    [
        (ID, "oponents", "unknown keyword 'oponents' (did you mean 'opponents'?): the batched environment"),
        ("tressette_env/TressetteInDue-v0", "other", "unknown keyword 'other' (did you mean 'others'?)"),
    ],
)
def test_a_misspelled_keyword_is_named_with_the_entry_point_s_keywords_and_the_switches(game_id, typo, words):
    with pytest.raises(TypeError, match=re.escape(words)) as error:
        gym.make_vec(game_id, num_envs=2, vectorization_mode="vector_entry_point", **{typo: "random"})
    assert "dense_reward" in str(error.value) and "illegal_action" in str(error.value)  # its own and the switches
