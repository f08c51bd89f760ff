"""``vector.next_step``: the batched environment with the next step's autoreset, pinned to the environment it wraps."""

import numpy as np
import pytest

from tressette_env import catalog
from tressette_env.vector.env import TressetteVectorEnv, make_vector_env
from tressette_env.vector.family_env import FamilyVectorEnv
from tressette_env.vector.family_env import make_vector_env as family_make_vector_env
from tressette_env.vector.next_step import NextStepVectorEnv, make


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)


RANDOM = {"opponents": "random", "partner": "random"}


def _toy_game() -> str:
    """The test tree's toy game, registered when first asked for (not at collection: other modules list the games)."""
    from tests.games import toy

    return toy.ENTRY.name


@pytest.mark.parametrize("config", [RANDOM, {"opponents": "heuristic", "dense_reward": True}, {"seat": 2, **RANDOM}])
def test_each_step_is_the_wrapped_environments_with_finished_rows_held_back_a_step(config):
    """A twin of the wrapped environment, stepped with the same actions and the same ``active`` rows, is the truth."""
    n = 8
    wrapped = make({"num_envs": n, "seed": 3, **config})
    twin = make_vector_env(n, seed=3, **config)  # what gym.make_vec builds with these keywords
    obs, infos = wrapped.reset(seed=5)
    twin_obs, twin_infos = twin.reset(seed=5)
    assert infos == {} and np.array_equal(obs["observations"], twin_obs.astype(np.float32))
    assert np.array_equal(obs["action_mask"], twin_infos["action_mask"].astype(np.float32))
    pending = np.zeros(n, dtype=bool)
    episodes = np.zeros(n, dtype=int)
    lengths = np.zeros(n, dtype=int)
    for _ in range(60):
        actions = _first_legal(twin.action_masks())
        obs, rewards, terminated, truncated, infos = wrapped.step(np.where(pending, 999, actions))  # held rows: unread
        t_obs, t_rewards, t_terminated, t_truncated, t_infos = twin.step(
            np.where(pending, -1, actions), active=~pending
        )
        assert infos == {} and not truncated.any()
        assert np.array_equal(rewards, t_rewards) and np.array_equal(terminated, t_terminated)
        expected = t_obs.copy()
        expected_mask = t_infos["action_mask"].copy()
        for i in np.flatnonzero(t_terminated):  # the episode's last observation, no legal action
            expected[i] = t_infos["final_obs"][i]
            expected_mask[i] = False
        assert np.array_equal(obs["observations"], expected.astype(np.float32))
        assert np.array_equal(obs["action_mask"], expected_mask.astype(np.float32))
        held = pending
        assert not rewards[held].any() and not terminated[held].any()  # the step that starts the next episode
        assert obs["action_mask"][held].any(axis=1).all()
        lengths[~held] += 1
        for i in np.flatnonzero(terminated):
            assert lengths[i] == 10  # ten decisions of the learner a hand
            lengths[i] = 0
            episodes[i] += 1
        pending = terminated.copy()
    assert (episodes >= 4).all()


FAMILY = [e.name for e in catalog.entries() if e.gym_vector_entry_point and e.batch is not None]


@pytest.mark.parametrize("game", FAMILY)
def test_the_family_plugs_in_each_step_the_wrapped_environments(game):
    """Every other game with a vector entry point: the same twin check, episodes of any length."""
    n = 6
    settings = {"seed": 3, "dense_reward": True, "others": "random"}  # (in due's heuristic searches: slow)
    wrapped = make({"game": game, "num_envs": n, **settings})
    twin = family_make_vector_env(n, game, **settings)  # gym.make_vec's, with these keywords
    obs, _ = wrapped.reset(seed=5)
    twin_obs, twin_infos = twin.reset(seed=5)
    assert np.array_equal(obs["observations"], twin_obs.astype(np.float32))
    pending = np.zeros(n, dtype=bool)
    episodes = 0
    for _ in range(80):
        actions = _first_legal(twin.action_masks())
        obs, rewards, terminated, truncated, _ = wrapped.step(np.where(pending, 999, actions))
        t_obs, t_rewards, t_terminated, _, t_infos = twin.step(np.where(pending, -1, actions), active=~pending)
        assert np.array_equal(rewards, t_rewards) and np.array_equal(terminated, t_terminated)
        expected, expected_mask = t_obs.copy(), t_infos["action_mask"].copy()
        for i in np.flatnonzero(t_terminated):
            expected[i], expected_mask[i] = t_infos["final_obs"][i], False
        assert np.array_equal(obs["observations"], expected.astype(np.float32))
        assert np.array_equal(obs["action_mask"], expected_mask.astype(np.float32))
        assert not rewards[pending].any() and not terminated[pending].any()
        episodes += int(terminated.sum())
        pending = terminated.copy()
    assert episodes >= n


def test_an_inactive_row_of_the_family_environment_stands_still_and_bad_masks_are_refused():
    env = FamilyVectorEnv(4, "tressette_a_chiamare", others="random", seed=0)
    obs, infos = env.reset(seed=1)
    active = np.array([True, False, True, False])
    before = env.batch.hands().copy()
    new_obs, rewards, terminated, _, infos = env.step(
        np.where(active, infos["action_mask"].argmax(1), -1), active=active
    )
    assert np.array_equal(new_obs[~active], obs[~active]) and not rewards[~active].any()
    assert np.array_equal(env.batch.hands()[[1, 3]], before[[1, 3]])
    with pytest.raises(ValueError, match=r"active is a bool mask of shape \(4,\)"):
        env.step(np.zeros(4, dtype=int), active=np.ones(3, dtype=bool))


def test_an_inactive_row_of_the_batched_environment_stands_still():
    env = TressetteVectorEnv(4, seed=0)
    obs, infos = env.reset(seed=1)
    active = np.array([True, False, True, False])
    before = env.batch.hands().copy()
    new_obs, rewards, terminated, _, infos = env.step(
        np.where(active, infos["action_mask"].argmax(1), -1), active=active
    )
    assert np.array_equal(new_obs[~active], obs[~active]) and not rewards[~active].any()
    assert np.array_equal(env.batch.hands()[[1, 3]], before[[1, 3]]) and not np.array_equal(
        env.batch.hands()[0], before[0]
    )


def test_every_row_held_back_plays_nothing():
    env = make({"num_envs": 2, "seed": 0, **RANDOM})
    obs, _ = env.reset(seed=0)
    for _ in range(10):
        obs, rewards, terminated, *_ = env.step(obs["action_mask"].argmax(1))
    assert terminated.all()
    hands = env.env.batch.hands().copy()
    obs, rewards, terminated, *_ = env.step(np.array([7, 7]))  # both rows start their next hand: nothing is played
    assert np.array_equal(env.env.batch.hands(), hands) and not rewards.any() and not terminated.any()
    assert obs["action_mask"].any(axis=1).all()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: make({"num_envs": 0}), ValueError, "num_envs=0"),
        (lambda: make({"num_envs": True}), ValueError, "num_envs=True"),
        (lambda: make({"num_envs": 2, "opponents": "nobody"}), ValueError, "opponents is 'random', 'heuristic'"),
        (
            lambda: make({"num_envs": 2, "game": _toy_game()}),  # a game of the test tree, with no batched engine
            ValueError,
            "'due_a_cinque' has no batched vector environment with gym.make's defaults yet",
        ),
        (lambda: make({"game": "scopa"}), ValueError, "game='scopa': one of tressette"),
        (lambda: NextStepVectorEnv("env"), TypeError, "same-step autoreset"),
        (lambda: make({"num_envs": 2}).step(np.zeros(2, dtype=int)), RuntimeError, "reset"),
    ],
)
def test_bad_settings_are_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_wrong_number_of_actions_is_refused_and_changes_nothing():
    env = make({"num_envs": 3, "seed": 0, **RANDOM})
    env.reset(seed=0)
    hands = env.env.batch.hands().copy()
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step(np.zeros(2, dtype=int))
    assert np.array_equal(env.env.batch.hands(), hands)
