"""BenchMARL: MAPPO with action masks on a game's parallel environment, as a custom BenchMARL task.

    pip install torch==2.13.0                     # first: the CPU wheel (see the README's two commands)
    pip install benchmarl "torchvision==0.28.0"   # torchvision pinned to torch 2.13, or pip moves torch to 2.14
    OMP_NUM_THREADS=1 python examples/benchmarl_mappo.py --game tressette --frames 2000

BenchMARL makes its environments from a task: a ``TaskClass`` (how to build a TorchRL environment,
and which of its keys are observations, action masks and actions) named by a member of a ``Task``
enum. Here the TorchRL environment is ``PettingZooWrapper(parallel_env(), use_mask=True)``, which
puts every seat in one group, ``player``, with its ``action_mask`` beside its observation; the spec
methods are those of BenchMARL's own PettingZoo tasks (``PettingZooClass``), whose
``action_mask_spec`` hands that mask to the algorithm, so MAPPO samples (and computes its loss) with
a ``MaskedCategorical``. The observation is int8, so a transform casts it to float32 for the MLP.
``--algorithm`` picks another of BenchMARL's algorithms for discrete actions: IPPO, MASAC and ISAC
sample from the same masked distribution, IQL, VDN and QMIX take the best legal action's Q-value (and
explore among the legal actions).

Three checks that the masks hold: the games run with ``illegal_action="raise"`` (one illegal action
would stop the run with an error); a callback compares every collected step's actions with their
masks, in training and in BenchMARL's evaluation hands (deterministic actions); and it counts the
hands, forty steps each in the four-seat game (one card a step, the seats off turn wait). It prints:

    tressette, mappo: 2000 frames, 50 hands, 0 illegal actions; evaluation: 4 hands, 0 illegal actions

This is a recipe, not a tuned trainer: the frames and batches are tiny (BenchMARL's defaults are
3,000,000 frames in batches of 6,000), and its csv logs go to ``--save-folder`` (by default a
temporary folder, removed at the end).
"""

from __future__ import annotations

import argparse
import importlib
import tempfile

import torch
from benchmarl.algorithms import IppoConfig, IqlConfig, IsacConfig, MappoConfig, MasacConfig, QmixConfig, VdnConfig
from benchmarl.environments.common import Task
from benchmarl.environments.pettingzoo.common import PettingZooClass
from benchmarl.experiment import Callback, Experiment, ExperimentConfig
from benchmarl.models.mlp import MlpConfig
from torchrl.envs import DTypeCastTransform, PettingZooWrapper

from tressette_env.envs.spec import GAME_NAMES, game_spec

GROUP = "player"  # PettingZooWrapper's one group: every agent is named player_<i>

# BenchMARL's algorithms for discrete actions, all of which read the action mask (MADDPG and IDDPG are
# continuous only). MAPPO and IPPO learn on policy; the others from a replay buffer.
ALGORITHMS = {
    "mappo": MappoConfig,
    "ippo": IppoConfig,
    "masac": MasacConfig,
    "isac": IsacConfig,
    "iql": IqlConfig,
    "vdn": VdnConfig,
    "qmix": QmixConfig,
}


class TressetteClass(PettingZooClass):
    """A game of the family as a BenchMARL task: ``config`` holds ``game`` and the game's switches.

    The spec methods (observation, action, action mask, group map) are PettingZooClass's: they read
    them from the wrapped environment. What differs is how the environment is made, and the rest below.
    """

    def get_env_fun(self, num_envs, continuous_actions, seed, device):
        config = dict(self.config)
        module = importlib.import_module(f"tressette_env.{game_spec(config.pop('game')).env_name}")
        # One environment: BenchMARL batches it in a SerialEnv of num_envs copies.
        return lambda: PettingZooWrapper(
            module.parallel_env(illegal_action="raise", **config),
            use_mask=True,
            categorical_actions=True,
            seed=seed,
            device=device,
        )

    def supports_continuous_actions(self):
        return False

    def supports_discrete_actions(self):
        return True

    def has_state(self):
        return False  # no global state: MAPPO's critic reads every seat's observation

    def has_render(self, env):
        return False

    def max_steps(self, env):
        return 1000  # the limit of an evaluation hand: far above any game's length

    def get_env_transforms(self, env):
        # The observation vector is int8; BenchMARL's MLP feeds it to float layers.
        return [DTypeCastTransform(torch.int8, torch.float32, in_keys=[(GROUP, "observation", "observation")])]

    @staticmethod
    def env_name():
        return "tressette_env"


class TressetteTask(Task):
    """The enum BenchMARL names tasks by: ``TressetteTask.GAME.get_task(config={"game": ...})``."""

    GAME = None

    @staticmethod
    def associated_class():
        return TressetteClass


def illegal_actions(data) -> int:
    """How many of the agents' actions in ``data`` lie outside their action masks."""
    legal = data[GROUP, "action_mask"].gather(-1, data[GROUP, "action"].unsqueeze(-1))
    return int((~legal).sum())


class MaskCheck(Callback):
    """Counts frames, hands and illegal actions in the collected batches and the evaluation hands."""

    def __init__(self):
        super().__init__()
        self.counts = {"frames": 0, "hands": 0, "illegal": 0, "eval_hands": 0, "eval_illegal": 0}

    def on_batch_collected(self, batch):
        self.counts["frames"] += batch.numel()
        self.counts["hands"] += int(batch["next", "done"].sum())
        self.counts["illegal"] += illegal_actions(batch)

    def on_evaluation_end(self, rollouts):
        for rollout in rollouts:
            self.counts["eval_hands"] += int(rollout["next", "done"].sum())
            self.counts["eval_illegal"] += illegal_actions(rollout)


def main(argv: list[str] | None = None) -> dict[str, int]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="tressette")
    parser.add_argument("--algorithm", choices=list(ALGORITHMS), default="mappo")
    parser.add_argument("--frames", type=int, default=2000, help="environment steps to train on")
    parser.add_argument("--batch", type=int, default=1000, help="frames collected per iteration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--save-folder", default=None, help="an existing folder for BenchMARL's logs (default: a temporary one)"
    )
    args = parser.parse_args(argv)

    config = ExperimentConfig.get_from_yaml()  # BenchMARL's defaults, made tiny and CPU-only
    config.sampling_device = config.train_device = config.buffer_device = "cpu"
    config.max_n_frames = args.frames
    config.on_policy_collected_frames_per_batch = args.batch
    config.on_policy_n_envs_per_worker = 2
    config.on_policy_minibatch_size = min(200, args.batch)
    config.on_policy_n_minibatch_iters = 2
    config.off_policy_collected_frames_per_batch = args.batch
    config.off_policy_n_envs_per_worker = 2
    config.off_policy_n_optimizer_steps = 5
    config.off_policy_train_batch_size = 64
    config.off_policy_memory_size = args.frames  # the default, 1,000,000 frames, is far more than a tiny run
    config.evaluation_interval = args.batch  # two deterministic hands after every iteration
    config.evaluation_episodes = 2
    config.render = False
    config.loggers = ["csv"]
    config.create_json = False

    check = MaskCheck()
    with tempfile.TemporaryDirectory(prefix="benchmarl-") as scratch:
        config.save_folder = args.save_folder or scratch
        experiment = Experiment(
            task=TressetteTask.GAME.get_task(config={"game": args.game}),
            algorithm_config=ALGORITHMS[args.algorithm].get_from_yaml(),
            model_config=MlpConfig.get_from_yaml(),
            seed=args.seed,
            config=config,
            callbacks=[check],
        )
        experiment.run()
    c = check.counts
    print(
        f"{args.game}, {args.algorithm}: {c['frames']} frames, {c['hands']} hands, {c['illegal']} illegal actions; "
        f"evaluation: {c['eval_hands']} hands, {c['eval_illegal']} illegal actions"
    )
    return c


if __name__ == "__main__":
    main()
