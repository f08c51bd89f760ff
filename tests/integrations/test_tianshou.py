"""Tianshou (examples/tianshou_dqn.py): DQN with action masks through the single-learner environment, and why not
through Tianshou's PettingZoo wrapper. Runs where tianshou is installed (pip install tianshou, after torch)."""

import runpy
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tianshou")

import gymnasium as gym  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm  # noqa: E402
from tianshou.data import Batch, Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step  # noqa: E402

from tressette_env import tressette_v0  # noqa: E402
from tressette_env.engine.game import view  # noqa: E402
from tressette_env.envs.playing import RenuncioWarning  # noqa: E402
from tressette_env.envs.spec import GAME_NAMES, game_spec  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tianshou_dqn.py"
example = runpy.run_path(str(EXAMPLE))
make_env = example["make_env"]


def dqn_policy(env: gym.Env, eps: float) -> DiscreteQLearningPolicy:
    """An untrained masked DQN policy for the wrapped environment, epsilon-greedy with ``eps`` when collecting."""
    net = Net(state_shape=env.observation_space["obs"].shape, action_shape=env.action_space.n, hidden_sizes=[32])
    return DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=eps, eps_inference=eps)


def collect(env_fns, policy, n_step=None, n_episode=None):
    """Collect with Tianshou's Collector (exploration on) into a fresh buffer; RenuncioWarning raises."""
    np.random.seed(0)  # Tianshou's exploration and random policies draw from NumPy's global generator
    envs = DummyVectorEnv(env_fns)
    envs.seed(0)
    buffer = VectorReplayBuffer(4000, buffer_num=len(env_fns))
    collector = Collector(policy, envs, buffer, exploration_noise=True)
    collector.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RenuncioWarning)
        with policy_within_training_step(policy):
            stats = collector.collect(n_step=n_step, n_episode=n_episode)
    return stats, buffer


def stored(buffer):
    """Every transition in the buffer, environment by environment in the order they were collected, and their indices."""
    indices = buffer.sample_indices(0)
    return buffer[indices], indices


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_wrapper_gives_float_obs_and_the_legal_actions_as_mask(game):
    env = make_env(game)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(12):
        assert set(obs) == {"obs", "mask"} and env.observation_space.contains(obs)
        assert obs["obs"].dtype == np.float32 and obs["mask"].dtype == bool
        assert obs["obs"].shape == (game_spec(game).observation(env.unwrapped.rules).size,)
        assert np.array_equal(obs["mask"], env.unwrapped.action_masks()) and obs["mask"].any()
        # The evaluation's Player encodes the engine's view into the same observation.
        learner = env.unwrapped
        assert np.array_equal(example["observation_of_view"](view(learner.game, learner.seat)), obs["obs"])
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["mask"]))))
        if terminated:
            assert not obs["mask"].any()  # over: no legal action
            obs, _ = env.reset()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_masked_dqn_collects_only_legal_actions(game):
    env = make_env(game)
    stats, buffer = collect([lambda: make_env(game)] * 2, dqn_policy(env, eps=0.3), n_step=400)
    batch, _ = stored(buffer)
    assert stats.n_collected_steps >= 400 and stats.n_collected_episodes > 10
    # Every action the collector took was legal where it was taken (also RenuncioWarning would have raised).
    assert batch.obs.mask[np.arange(len(batch)), batch.act].all()
    assert "renuncio" not in batch.info.get_keys()  # no hand ended by a penalty


def test_the_mask_is_what_keeps_dqn_legal():
    # The control: the same untrained policy, given the observation without its mask, picks illegal actions.
    env = make_env("tressette")
    policy = dqn_policy(env, eps=0.0)
    obs, _ = env.reset(seed=5)
    masked = unmasked = 0
    for _ in range(100):
        mask = obs["mask"]
        with_mask = policy(Batch(obs=Batch(obs=obs["obs"][None], mask=mask[None]), info=Batch())).act[0]
        without = policy(Batch(obs=obs["obs"][None], info=Batch())).act[0]
        masked += not mask[with_mask]
        unmasked += not mask[without]
        obs, _, terminated, _, _ = env.step(int(with_mask))
        if terminated:
            obs, _ = env.reset()
    assert masked == 0 and unmasked > 50


class HandResult(gym.Wrapper):
    """Notes, at the end of each hand, the hand's score (as the environment's info reports it) from the learner's side."""

    def __init__(self, env: gym.Env, results: list[float]):
        super().__init__(env)
        self.results = results

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated:
            learner = self.env.unwrapped
            side = learner.game.public.table.sides[learner.seat]
            score = info["hand_score"]
            self.results.append(float(score[side] - score[1 - side]))
        return obs, reward, terminated, truncated, info


@pytest.mark.parametrize("dense_reward", [False, True])
def test_each_episode_returns_the_hands_result_to_the_learner(dense_reward):
    results: list[float] = []
    env = make_env("tressette")
    stats, buffer = collect(
        [lambda: HandResult(make_env("tressette", dense_reward=dense_reward), results)],
        dqn_policy(env, eps=0.5),
        n_episode=40,
    )
    assert len(results) == stats.n_collected_episodes == 40
    assert len(set(results)) > 3  # not all the same
    # The collector's episode returns are the hands' results (dense rewards: up to float rounding of the thirds).
    np.testing.assert_allclose(stats.returns, results, rtol=0, atol=1e-9)
    batch, _ = stored(buffer)
    # In the buffer, the learner's rewards of each episode add up to that hand's result too.
    ends = np.flatnonzero(batch.done)
    sums = [batch.rew[start : end + 1].sum() for start, end in zip(np.r_[0, ends[:-1] + 1], ends, strict=True)]
    np.testing.assert_allclose(sums, results, rtol=0, atol=1e-9)
    if not dense_reward:  # a hand pays at its end only
        assert not batch.rew[~batch.done].any()


def test_the_example_trains_and_prints_its_table(capsys):
    out = example["main"](["--steps", "256", "--envs", "2", "--boards", "4", "--seed", "1"])
    printed = capsys.readouterr().out
    assert "tressette: DQN trained on 256 learner steps" in printed
    assert "| dqn | random | 4 |" in printed and "| random | random | 4 |" in printed
    assert out["steps"] == 256 and np.isfinite(out["dqn"]) and np.isfinite(out["random"])


def test_the_example_plays_another_game():
    out = example["main"](["--game", "tressette_in_due", "--steps", "128", "--envs", "2", "--boards", "2"])
    assert out["steps"] == 128 and out["hands"] > 0


def test_tianshous_pettingzoo_wrapper_pays_a_hand_only_to_its_last_player():
    # The pitfall: over the AEC environment, Tianshou's multi-agent path learns each agent from its own
    # transitions, and a hand's result lies only in the transition of the agent whose card ended it.
    env = PettingZooEnv(tressette_v0.env())
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents], env=env
    )
    stats, buffer = collect([lambda: PettingZooEnv(tressette_v0.env())], algorithm.policy, n_episode=8)
    batch, indices = stored(buffer)
    # What each agent's algorithm is given to learn from (MARLDispatcher: its own transitions, its column of rew).
    per_agent = algorithm._preprocess_batch(batch, buffer, indices)
    ends = np.flatnonzero(batch.done)
    assert len(ends) == 8 and np.array_equal(stats.lens, [40] * 8)  # masked: whole hands, no renuncio
    # The step that ends a hand holds every agent's result (partners share it), and the collector's
    # episode returns show them: what is monitored looks right.
    results = batch.rew[ends]
    assert np.array_equal(results[:, 0], results[:, 2]) and np.array_equal(results[:, 0], -results[:, 1])
    assert np.array_equal(stats.returns, results)
    last_movers = batch.obs.agent_id[ends]
    for k, agent in enumerate(env.agents):
        own = np.flatnonzero(batch.obs.agent_id == agent)
        assert np.array_equal(per_agent[agent].rew, batch.rew[own, k])
        # The sum of an agent's rewards in each hand, from its own transitions only:
        hand_of = np.searchsorted(ends, own)
        learned = np.bincount(hand_of, weights=per_agent[agent].rew, minlength=len(ends))
        # ... is the hand's result where the agent played the hand's last card, and 0 in every other hand.
        assert np.array_equal(learned, np.where(last_movers == agent, results[:, k], 0.0))
    assert np.count_nonzero(results[:, 0]) >= 6  # results that the other agents never see
    assert len(set(last_movers)) > 1
