"""What ``env()``'s wrapper costs: every game's AEC loop under raw_env, env() and PettingZoo's two wrappers.

Three loops per game in one process, side by side, in interleaved rounds, CPU time
(``time.process_time``): ``raw_env()``; ``env()`` (``envs.aec.LeanWrapper``); and what
``env()`` was before, PettingZoo's ``OrderEnforcingWrapper`` over the action check
(``envs.aec.ActionChecks``). Each loop is the usual one (``last()`` every step, a random legal
action: ``bench_env.bench_aec``). Each ratio is the median of the per-round ratios to raw_env.

    python benchmarks/bench_env_wrapper.py --deals 200 --rounds 5 --json benchmarks/results/env_wrapper.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from pettingzoo.utils import wrappers

from tressette_env import catalog
from tressette_env.envs.aec import ActionChecks

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import bench_aec  # noqa: E402  (the loop every environment benchmark of the project runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per loop per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    out = {}
    print("| game | raw_env steps/s (CPU) | env() / raw_env | PettingZoo's two wrappers / raw_env |")
    print("| --- | ---: | ---: | ---: |")
    for name in catalog.PACKAGE_GAMES:
        functions = catalog.entry(name).env_functions()
        makers = {
            "raw": functions.raw_env,
            "env": functions.env,
            "classic": lambda f=functions: wrappers.OrderEnforcingWrapper(ActionChecks(f.raw_env())),
        }
        rates: dict[str, list[float]] = {k: [] for k in makers}
        for _ in range(args.rounds):
            for key, make in makers.items():
                rates[key].append(bench_aec(make, deals=args.deals).cpu_rate)
        lean = statistics.median(e / w for e, w in zip(rates["env"], rates["raw"], strict=True))
        old = statistics.median(c / w for c, w in zip(rates["classic"], rates["raw"], strict=True))
        raw = statistics.median(rates["raw"])
        out[name] = {"raw_steps_per_cpu_second": raw, "env_over_raw": lean, "classic_over_raw": old}
        print(f"| {name} | {raw:,.0f} | {lean:.2f}x | {old:.2f}x |", flush=True)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "command": f"python benchmarks/bench_env_wrapper.py --deals {args.deals} --rounds {args.rounds}",
                    "games": out,
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
