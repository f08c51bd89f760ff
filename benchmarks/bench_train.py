"""Training throughput: learner steps per second of MaskablePPO on the single-deal and batched environments.

Rows: the single-seat environment alone with the heuristic in the three other seats (random
legal learner actions: the cost the environment adds to every training step); MaskablePPO
learning on it (environment, network and updates together, one torch thread); and, with
random players in the other seats (the batched environment's baseline), MaskablePPO on
single-deal environments against MaskablePPO on the batched ``SB3VecEnv``, the same network
and the same number of environments. Prints a Markdown table and writes JSON.

    OMP_NUM_THREADS=1 python benchmarks/bench_train.py --steps 65536 --json benchmarks/results/train.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")


from tressette_env.wrappers import SingleSeatEnv  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import bench_single_seat  # noqa: E402


def bench_ppo(steps: int, n_envs: int, others: str = "heuristic", batched: bool = False) -> float:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)

    def make(seed: int):
        def build():
            env = SingleSeatEnv(partner=others, opponents=others)
            env.reset(seed=seed)
            return env

        return build

    if batched:
        from tressette_env.vector.sb3 import SB3VecEnv

        venv = SB3VecEnv(num_envs=n_envs, opponent=others, partner=others, learner_seat="random", seed=0)
    else:
        venv = DummyVecEnv([make(i) for i in range(n_envs)])
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=128, batch_size=1024, n_epochs=4, policy_kwargs={"net_arch": [256, 256]}, seed=0
    )
    model.learn(1024)  # warm up
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time of the environment row")
    parser.add_argument("--steps", type=int, default=65536, help="learner steps of the MaskablePPO row")
    parser.add_argument("--n-envs", type=int, default=32)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    n = args.n_envs
    rows = {
        "single-seat env, heuristic x3 (random learner actions)": bench_single_seat(args.seconds, "heuristic"),
        f"MaskablePPO, {n} single-deal envs, heuristic x3, MLP 256x256": bench_ppo(args.steps, n),
        f"MaskablePPO, {n} single-deal envs, random x3, MLP 256x256": bench_ppo(args.steps, n, "random"),
        f"MaskablePPO, batched SB3VecEnv of {n}, random x3, MLP 256x256": bench_ppo(args.steps, n, "random", True),
    }
    print("| loop (one core) | learner steps/s |")
    print("| --- | ---: |")
    for name, rate in rows.items():
        print(f"| {name} | {rate:,.0f} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"python": platform.python_version(), "learner_steps_per_second": rows}, indent=2)
        )


if __name__ == "__main__":
    main()
