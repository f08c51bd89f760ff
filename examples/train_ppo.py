"""Self-play MaskablePPO on Tressette in one file, CleanRL style: the recipe spelled out with SB3 pieces.

`tressette train` runs the same recipe with more options; this script shows how the parts fit
so that you can change them: the single-seat environment with masks, a warm start by
imitation, the learner's partner as a copy of itself, opponents drawn from the heuristic and
from frozen snapshots of the learner, and a duplicate-deal evaluation at the end. It writes
``runs/<run name>/``: ``model.zip`` (SB3), ``policy.npz`` (the same policy for NumPy; both play
with ``tressette eval <path> heuristic``) and ``final.md`` (the table), and prints that path.

    OMP_NUM_THREADS=1 python examples/train_ppo.py --total-timesteps 100000 --seed 1

With the defaults it took 68 s of CPU time (user; `/usr/bin/time`, OMP_NUM_THREADS=1) on the
project's shared 2-core build machine while other work ran; an idle machine takes less.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread: more make small networks slower


@dataclass
class Args:
    total_timesteps: int = 30_000
    """learner decisions to train for"""
    seed: int = 1
    """seeds the environments, the network and the evaluation"""
    n_envs: int = 16
    """environments stepped together"""
    imitation_decisions: int = 50_000
    """heuristic decisions to clone before PPO (0: start from scratch)"""
    opponents: str = "heuristic,self"
    """opponents, given to the environments in turn (self: snapshots of the learner)"""
    eval_boards: int = 200
    """duplicate boards per baseline in the final evaluation"""
    run_dir: str = "runs"
    """where the run's folder is written (model.zip, policy.npz, final.md)"""


def main(args: Args) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tressette_env.engine import Rules
    from tressette_env.evaluation import against_baselines, results_table
    from tressette_env.learned import MLPPlayer
    from tressette_env.training.callbacks import SelfPlayCallback
    from tressette_env.training.export import policy_from_sb3
    from tressette_env.training.imitation import imitate
    from tressette_env.training.masking import MaskablePolicy
    from tressette_env.wrappers import SingleSeatEnv

    run_name = f"Tressette-v0__{os.path.basename(__file__)[:-3]}__{args.seed}__{int(time.time())}"
    run = Path(args.run_dir) / run_name
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    # The learner sits in a random seat each deal; the callback below sets its partner and opponents.
    def make_env(rank: int):
        def build():
            env = SingleSeatEnv(seat="random", partner="random", opponents="random", dense_reward=True)
            env.reset(seed=args.seed * 1000 + rank)
            return env

        return build

    venv = DummyVecEnv([make_env(i) for i in range(args.n_envs)])
    model = MaskablePPO(
        MaskablePolicy, venv, n_steps=128, batch_size=512, n_epochs=4, gamma=1.0, learning_rate=1e-4,
        ent_coef=0.005, policy_kwargs={"net_arch": [256, 256]}, seed=args.seed,
    )  # fmt: skip
    if args.imitation_decisions:
        fit = imitate(model, "heuristic", args.imitation_decisions, 6, Rules(), args.seed, reward_scale=1.0)
        print(f"warm start: {fit['agreement']:.1%} agreement with the heuristic")
    selfplay = SelfPlayCallback(
        every=10_000, partner="self", opponents=tuple(args.opponents.split(",")), pool_size=8, seed=args.seed
    )
    model.learn(args.total_timesteps, callback=selfplay, progress_bar=False)

    policy = policy_from_sb3(model, {"timesteps": model.num_timesteps, "script": os.path.basename(__file__)})
    results = against_baselines(
        MLPPlayer(policy, name="learner"), ["random", "heuristic"], args.eval_boards, args.seed, workers=1,
        progress=False,
    )  # fmt: skip
    table = results_table(results)
    # The SB3 model (to load with MaskablePPO.load) and its NumPy policy: both play with `tressette eval <path>`.
    run.mkdir(parents=True, exist_ok=True)
    model.save(run / "model.zip")
    policy.save(run / "policy.npz")
    (run / "final.md").write_text(table + "\n")
    print(f"\n{table}\n\nrun written to {run}: model.zip, policy.npz, final.md")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for field in dataclasses.fields(Args):
        parser.add_argument("--" + field.name.replace("_", "-"), type=type(field.default), default=field.default)
    main(Args(**vars(parser.parse_args())))
