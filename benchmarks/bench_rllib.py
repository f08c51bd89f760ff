"""RLlib's env steps per CPU second on one environment runner: the multi-agent environment and the batched engine.

Rows ``multi-agent N``: an RLlib ``MultiAgentEnvRunner`` (what the example's runners are, built
here in this process with ``num_env_runners=0``) samples the four-seat game through
``TressetteMultiAgentEnv`` with ``num_envs_per_env_runner = N``: its module (RLlib's
action-masking module, 2x256 MLP) acts for the learning team, the environment plays the other
team at random. Rows ``batched N``: a ``SingleAgentEnvRunner`` over the batched engine
(``integrations.rllib.batched_env``, ``gym_env_vectorize_mode="vector_entry_point"``), one
learning seat in each of N deals, the other three random. An env step is one decision of a
learner in both. Each round samples ``--steps`` env steps from every runner in turn; the figures
are medians over rounds of env steps per CPU second of this process (``time.process_time``: the
runner is this process), with each row's ratio to the first row taken round by round.

    OMP_NUM_THREADS=1 python benchmarks/bench_rllib.py --envs 1 4 16 64 128 --batched 64 256 1024 --rounds 5 --steps 4000
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner  # noqa: E402
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule  # noqa: E402

from tressette_env.integrations.rllib import (  # noqa: E402
    TressetteMultiAgentEnv,
    policy_mapping,
    register_batched_env,
)


def runner(envs: int, others: str) -> MultiAgentEnvRunner:
    env_config = {"game": "tressette", "learners": ["player_0", "player_2"], "others": others}
    config = (
        PPOConfig()
        .environment(TressetteMultiAgentEnv, env_config=env_config)
        .multi_agent(policies={"shared"}, policy_mapping_fn=policy_mapping("shared"))
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={"shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule)}
            )
        )
        .env_runners(num_env_runners=0, num_envs_per_env_runner=envs)
        .debugging(seed=0)
    )
    return MultiAgentEnvRunner(config=config)


def batched_runner(deals: int) -> SingleAgentEnvRunner:
    config = (
        PPOConfig()
        .environment(register_batched_env(), env_config={"opponents": "random", "partner": "random"})
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
        .env_runners(num_env_runners=0, num_envs_per_env_runner=deals, gym_env_vectorize_mode="vector_entry_point")
        .debugging(seed=0)
    )
    return SingleAgentEnvRunner(config=config)


def sampled(r: MultiAgentEnvRunner | SingleAgentEnvRunner, steps: int) -> tuple[int, float]:
    start = time.process_time()
    episodes = r.sample(num_timesteps=steps, random_actions=False)
    return sum(e.env_steps() for e in episodes), time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 4, 16, 64, 128], help="multi-agent rows")
    parser.add_argument("--batched", type=int, nargs="*", default=[64, 256, 1024], help="batched engine rows")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=4000, help="env steps each runner samples a round")
    parser.add_argument("--others", default="random", help="who plays the other team, inside the environment")
    parser.add_argument("--json", default=None, help="write the figures here")
    args = parser.parse_args()
    logging.getLogger("ray").setLevel(logging.ERROR)
    runners = {f"multi-agent {n}": runner(n, args.others) for n in args.envs}
    runners.update({f"batched {n}": batched_runner(n) for n in args.batched})
    for r in runners.values():  # warm up: the first sample builds the connectors and the episodes
        sampled(r, 200)
    rates: dict[str, list[float]] = {name: [] for name in runners}
    ratios: dict[str, list[float]] = {name: [] for name in runners}
    first = next(iter(runners))
    for _ in range(args.rounds):
        this_round = {}
        for name, r in runners.items():
            steps, seconds = sampled(r, args.steps)
            this_round[name] = steps / seconds
            rates[name].append(steps / seconds)
        for name in runners:
            ratios[name].append(this_round[name] / this_round[first])
    print(f"| runner, environments | env steps per CPU second (median of {args.rounds}) | ratio to {first} |")
    print("| --- | ---: | ---: |")
    out = []
    for name in runners:
        rate, ratio = statistics.median(rates[name]), statistics.median(ratios[name])
        print(f"| {name} | {rate:,.0f} | {ratio:.1f}x |")
        out.append({"runner": name, "env_steps_per_cpu_second": rate, "ratio": ratio, "rounds": rates[name]})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": " ".join(["python", "benchmarks/bench_rllib.py", *os.sys.argv[1:]]), "rows": out}, f,
                      indent=2)  # fmt: skip
    for r in runners.values():
        r.stop()


if __name__ == "__main__":
    main()
