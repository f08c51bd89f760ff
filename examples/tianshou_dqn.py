"""Tianshou: masked DQN through a game's single-learner environment, then a duplicate evaluation against random.

    pip install torch==2.13.0   # a CPU build, where wanted; then:
    pip install -e ".[dev]" tianshou
    python examples/tianshou_dqn.py   # --game tressette --steps 20000 --envs 4 --seed 0 --boards 200

Tianshou's PettingZoo wrapper (``tianshou.env.PettingZooEnv``) puts a hand's result in the
transition of the agent whose card ended the hand, and its multi-agent algorithms train each
agent on its own transitions only: the other agents never learn how their hand ended.
This trains through the Gymnasium environment of one learner instead
(``gym.make(game_spec(game).gym_id, ...)``, random players in the other seats): an episode is
one hand of the learner, and its rewards add up to the hand's result from the learner's side.
``MaskedObservation`` gives Tianshou the observation its discrete policies mask with, a dict
``{"obs": float32 vector, "mask": env.unwrapped.action_masks()}``: DQN's greedy actions and its
epsilon-greedy exploration then keep to the legal actions (an illegal one is a renuncio, the
hand lost 11-0).

It prints one line on the training, then a duplicate-deal table (``tressette_env.evaluation``):
the trained policy (``TianshouPlayer``, the engine's view encoded as the environment's
observation; it plays every seat of its side) against random players, then random against
random on the same boards, for comparison. The defaults take about 70 s on two CPU cores: some
50 s of training, and some 10 s of tianshou compiling its numba functions on first use.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from gymnasium import spaces
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step

import tressette_env  # noqa: F401  (registers the Gymnasium ids)
from tressette_env.agents import RandomPlayer
from tressette_env.engine.state import SeatView
from tressette_env.envs.spec import GAME_NAMES, game_spec
from tressette_env.evaluation import against_baselines, duplicate, results_table


class MaskedObservation(gym.ObservationWrapper):
    """The observation as Tianshou's masked discrete policies read it: ``{"obs": float32, "mask": legal actions}``."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        size = env.observation_space.shape[0]
        self.observation_space = spaces.Dict(
            {
                "obs": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                "mask": spaces.MultiBinary(int(env.action_space.n)),
            }
        )

    def step(self, action: Any) -> tuple:
        obs, reward, terminated, truncated, info = super().step(action)
        # Tianshou's buffer keeps each info key as an array of one type: a key that is None in some
        # hands (Calabresella's soloist when every player passed) is -1 there.
        return obs, reward, terminated, truncated, {k: -1 if v is None else v for k, v in info.items()}

    def observation(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        # Called after reset and step, once the environment knows the learner's new legal actions.
        return {"obs": observation.astype(np.float32), "mask": self.env.unwrapped.action_masks()}


def make_env(game: str, **kwargs: Any) -> MaskedObservation:
    """The game's single-learner environment with random players in every other seat, masked for Tianshou."""
    others = {"opponents": "random", "partner": "random"} if game == "tressette" else {"others": "random"}
    return MaskedObservation(gym.make(game_spec(game).gym_id, **{**others, **kwargs}))


def observation_of_view(view: SeatView) -> np.ndarray:
    """The single-learner environment's observation vector of the seat that ``view`` belongs to (int8)."""
    rules = view.public.rules
    return game_spec(rules.game.name).observation(rules).encode(view)  # its private cards included


class TianshouPlayer:
    """A ``Player`` that plays a Tianshou discrete policy greedily, masked to the legal actions."""

    def __init__(self, policy: DiscreteQLearningPolicy, num_actions: int, name: str = "dqn"):
        self.policy = policy
        self.num_actions = num_actions
        self.name = name

    def act(self, view: SeatView, legal: list[int], rng: Any) -> int:
        if len(legal) == 1:
            return legal[0]
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[legal] = True
        obs = Batch(obs=observation_of_view(view).astype(np.float32)[None], mask=mask[None])
        with torch.no_grad():
            return int(self.policy(Batch(obs=obs, info=Batch())).act[0])


def train(args: argparse.Namespace) -> tuple[DQN, dict[str, float]]:
    """Train DQN with masks on ``args.envs`` environments for ``args.steps`` learner steps."""
    # dense_reward: each step also pays the thirds taken since the learner's last step, and the last step
    # the rest of the hand's result, so an episode still adds up to the hand's result; DQN learns faster.
    train_envs = DummyVectorEnv([lambda: make_env(args.game, dense_reward=True) for _ in range(args.envs)])
    train_envs.seed(args.seed)
    # The spaces of one wrapped environment: a Tianshou vector env reads attributes from env.unwrapped,
    # whose observation space is the int8 vector, not the wrapper's dict.
    env = make_env(args.game)
    env.close()
    net = Net(state_shape=env.observation_space["obs"].shape, action_shape=env.action_space.n, hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=1.0)
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=args.lr),
        gamma=0.99,
        n_step_return_horizon=1,
        target_update_freq=100,
    )
    buffer = VectorReplayBuffer(20_000, buffer_num=args.envs, ignore_obs_next=True, random_seed=args.seed)
    collector = Collector(algorithm, train_envs, buffer, exploration_noise=True)
    collector.reset()
    # The loop that OffPolicyTrainer runs, spelled out: in tianshou 2.0.1 the trainer also copies and scans the
    # whole buffer for NaNs after every collection step, which here takes longer than the training.
    steps = hands = 0
    start = time.perf_counter()
    with policy_within_training_step(policy):  # update() and the training epsilon need this flag
        while steps < args.steps:
            # Epsilon-greedy over the legal actions, from 1 (all random) down to 0.05 at half the steps.
            policy.set_eps_training(max(0.05, 1.0 - 1.9 * steps / args.steps))
            collected = collector.collect(n_step=min(8 * args.envs, args.steps - steps))
            steps += collected.n_collected_steps
            hands += collected.n_collected_episodes
            for _ in range(max(1, collected.n_collected_steps // 4)):  # one gradient step per four transitions
                algorithm.update(buffer=buffer, sample_size=64)
    train_envs.close()
    seconds = time.perf_counter() - start
    print(f"{args.game}: DQN trained on {steps} learner steps ({hands} hands, {args.envs} envs) in {seconds:.0f} s")
    return algorithm, {"steps": steps, "hands": hands, "seconds": seconds}


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="tressette")
    parser.add_argument("--steps", type=int, default=20_000, help="learner steps (transitions) to train on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together (DummyVectorEnv)")
    parser.add_argument("--boards", type=int, default=200, help="duplicate boards in the evaluation")
    parser.add_argument("--lr", type=float, default=3e-4)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from NumPy's global generator

    algorithm, info = train(args)
    policy = algorithm.policy
    policy.eval()
    rules = game_spec(args.game).make_rules()
    player = TianshouPlayer(policy, int(policy.action_space.n))
    options = {"workers": 1, "progress": False}
    results = against_baselines(player, ["random"], args.boards, args.seed, rules, **options)
    results.append(duplicate(RandomPlayer(), RandomPlayer(), args.boards, args.seed, rules, **options))
    print(results_table(results))
    return {**info, "dqn": results[0].mean_points_diff, "random": results[1].mean_points_diff}


if __name__ == "__main__":
    main()
