"""MaskablePPO on the batched environment, CleanRL style: a thousand deals a step, the others played in batch.

The fast way to train against fixed opponents: ``SB3VecEnv`` steps ``--num-deals`` deals at once
with the batched heuristic as both opponents, and the learner's partner is a frozen greedy copy
of the learner (``--partner self``: refreshed once per rollout by ``SelfPlayCallback``, one
NumPy forward pass over the deals where the partner is on turn) or the heuristic. The reward is dense (the thirds as they are taken),
the policy ``MaskablePolicy``; the warm start and the final duplicate evaluation are those of
``examples/train_ppo.py``, and so is what it writes: ``runs/<run name>/`` with ``model.zip``,
``policy.npz`` and ``final.md``.

    OMP_NUM_THREADS=1 python examples/train_batched.py --total-timesteps 1000000 --seed 1

``tressette train --batched 1024 --n-steps 32`` runs the same recipe with the command's options
(checkpoints, periodic evaluations, TensorBoard).

Defaults finish in a few minutes on one CPU core.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")


@dataclass
class Args:
    total_timesteps: int = 524_288
    """learner decisions to train for (SB3 rounds up to whole rollouts of num_deals x n_steps)"""
    seed: int = 1
    """seeds the deals, the network and the evaluation"""
    num_deals: int = 1024
    """deals stepped together (a few hundred or more: below that single-deal envs are faster)"""
    n_steps: int = 32
    """steps per deal per rollout"""
    partner: str = "self"
    """the learner's partner: self (a frozen copy of the learner) or heuristic"""
    imitation_decisions: int = 100_000
    """heuristic decisions to clone before PPO (0: start from scratch)"""
    eval_boards: int = 300
    """duplicate boards per baseline in the final evaluation"""
    run_dir: str = "runs"
    """where the run's folder is written (model.zip, policy.npz, final.md)"""
    torch_threads: int = 1
    """torch threads (2 helped this environment on a 2-core machine: see the README's training throughput)"""


def main(args: Args) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    from tressette_env.engine import Rules
    from tressette_env.evaluation import against_baselines, results_table
    from tressette_env.learned import MLPPlayer
    from tressette_env.training.callbacks import SelfPlayCallback
    from tressette_env.training.export import policy_from_sb3
    from tressette_env.training.imitation import imitate
    from tressette_env.training.masking import MaskablePolicy
    from tressette_env.vector.sb3 import SB3VecEnv

    if args.partner not in ("self", "heuristic"):
        raise SystemExit(f"--partner {args.partner!r}: self or heuristic")
    run_name = f"Tressette-vector__{os.path.basename(__file__)[:-3]}__{args.seed}__{int(time.time())}"
    run = Path(args.run_dir) / run_name
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)

    venv = SB3VecEnv(
        num_envs=args.num_deals, opponent="heuristic", partner="heuristic", learner_seat="random",
        dense_reward=True, seed=args.seed,
    )  # fmt: skip
    model = MaskablePPO(
        MaskablePolicy, venv, n_steps=args.n_steps, batch_size=1024, n_epochs=4, gamma=1.0, learning_rate=1e-4,
        ent_coef=0.005, policy_kwargs={"net_arch": [256, 256]}, seed=args.seed,
    )  # fmt: skip
    if args.imitation_decisions:
        # Value targets in points, as the environment's dense reward pays them.
        fit = imitate(model, "heuristic", args.imitation_decisions, 6, Rules(), args.seed, reward_scale=1.0)
        print(f"warm start: {fit['agreement']:.1%} agreement with the heuristic")

    # A new snapshot of the learner as partner once per rollout (nothing to do with partner=heuristic).
    selfplay = SelfPlayCallback(
        every=args.n_steps * args.num_deals, partner=args.partner, opponents=("heuristic",), pool_size=1,
        seed=args.seed, batched=True,
    )  # fmt: skip
    if args.partner == "self":
        venv.env.partner = policy_from_sb3(model).best_actions  # already for the first reset, inside learn()
    start = time.perf_counter()
    model.learn(args.total_timesteps, callback=selfplay)
    seconds = time.perf_counter() - start
    print(f"PPO: {model.num_timesteps:,} learner steps in {seconds:.0f} s ({model.num_timesteps / seconds:,.0f}/s)")

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
    parsed = Args(**vars(parser.parse_args()))
    least = {
        "total_timesteps": 1, "num_deals": 1, "n_steps": 2, "imitation_decisions": 0, "eval_boards": 2, "torch_threads": 1
    }  # fmt: skip
    for name, low in least.items():
        if getattr(parsed, name) < low:
            parser.error(f"--{name.replace('_', '-')} is an int >= {low}; got {getattr(parsed, name)}")
    if parsed.partner not in ("self", "heuristic"):
        parser.error(f"--partner is self or heuristic; got {parsed.partner}")
    main(parsed)
