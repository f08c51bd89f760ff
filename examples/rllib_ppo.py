"""Multi-agent PPO with action masking on RLlib, then a duplicate evaluation of the result against our baselines.

    pip install torch==2.13.0                  # a CPU build first, where you want one
    pip install -e ".[rllib]"                  # ray[rllib] and torch
    python examples/rllib_ppo.py               # one machine: a Ray of its own with 2 env runner processes
    python examples/rllib_ppo.py --address auto   # an existing Ray cluster (ray start --head; ray start --address=...)

Each env runner steps ``--envs-per-runner`` environments together (64 by default, set by
``benchmarks/bench_rllib.py``). On a cluster started with ``ray start`` where a Ray token file
exists (``~/.ray/auth_token``), give every ``ray start`` and this script the same
``RAY_AUTH_MODE`` (docs/integrations/rllib.md says why).

One team learns (``player_0`` and ``player_2`` of the four-seat game, on one shared module
by default), the other team is played inside the environment by ``--others`` (random by
default; any player spec: heuristic, search, ppo, a saved model). ``--mapping team`` gives
each team its own module (then every agent learns); ``--mapping seat`` one module per seat.
Each iteration prints the learners' mean return; at the end the trained module plays the
package's duplicate evaluation against random and the heuristic.
"""

from __future__ import annotations

import argparse
import os
import time

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.envs.spec import GAME_NAMES, game_spec
from tressette_env.evaluation.duplicate import duplicate
from tressette_env.integrations.rllib import (
    MAPPINGS,
    RLModulePlayer,
    TressetteMultiAgentEnv,
    check_env_config,
    policy_mapping,
    register_batched_env,
)

ENVS_PER_RUNNER = 64
"""Environments a runner steps together: ``benchmarks/bench_rllib.py`` measured 10x and 20x the env steps per CPU
second of one environment at 64 in two runs, and 4% and 28% more at 128 (docs/integrations/rllib.md)."""


BATCHED_MODULE = "default_policy"
"""The module of a ``--batched`` run (RLlib's single-agent default)."""


def build_config(args: argparse.Namespace) -> tuple[PPOConfig, list[str]]:
    """The PPO configuration and the ids of the modules it trains."""
    if args.batched:
        return build_batched_config(args), [BATCHED_MODULE]
    spec = game_spec(args.game)
    agents = list(spec.agent_names(spec.make_rules()))
    chosen = args.learners or (["player_0", "player_2"] if args.game == "tressette" else ["player_0"])
    learners = agents if args.mapping != "shared" else chosen
    mapping = policy_mapping(args.mapping, args.game)
    modules = sorted({mapping(agent) for agent in learners})
    env_config = {"game": args.game, "learners": learners, "others": args.others, "dense_reward": args.dense_reward}
    # Checked here, in the driver: a bad env_config fails inside each remote env runner, and RLlib reports an
    # IndexError of its own (the runners it could not make), the error only in the runners' logs.
    check_env_config(env_config)
    model = DefaultModelConfig(fcnet_hiddens=args.hidden, fcnet_activation="tanh")
    config = (
        PPOConfig()
        .environment(TressetteMultiAgentEnv, env_config=env_config)
        .multi_agent(policies=set(modules), policy_mapping_fn=mapping)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    m: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model) for m in modules
                }  # fmt: skip
            )
        )
        # sample_timeout_s: a busy machine's env runners may take longer than RLlib's 60 s for a batch.
        .env_runners(
            num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner, sample_timeout_s=600
        )
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(128, args.batch), num_epochs=4, lr=3e-4)
        .debugging(seed=args.seed)
    )
    return config, modules


def build_batched_config(args: argparse.Namespace) -> PPOConfig:
    """``--batched N``: each runner steps N deals of the four-seat batched engine, one learning seat in each."""
    model = DefaultModelConfig(fcnet_hiddens=args.hidden, fcnet_activation="tanh")
    env_config = {"opponents": args.others, "partner": args.others, "dense_reward": args.dense_reward}
    return (
        PPOConfig()
        .environment(register_batched_env(), env_config=env_config)
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model))
        .env_runners(
            num_env_runners=args.env_runners,
            num_envs_per_env_runner=args.batched,
            gym_env_vectorize_mode="vector_entry_point",
            sample_timeout_s=600,
        )  # fmt: skip
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(128, args.batch), num_epochs=4, lr=3e-4)
        .debugging(seed=args.seed)
    )


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="tressette")
    parser.add_argument("--mapping", choices=MAPPINGS, default="shared", help="shared, team or seat modules")
    parser.add_argument(
        "--learners",
        nargs="+",
        default=None,
        help="with --mapping shared: the agents that learn (default: one team of the four-seat game, player_0 and "
        "player_2; player_0 in the other games)",
    )
    parser.add_argument("--others", default="random", help="who plays the other agents, inside the environment")
    parser.add_argument(
        "--dense-reward",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="pay the thirds as they are taken (default on; the hand's result only with --no-dense-reward)",
    )
    parser.add_argument(
        "--batched",
        type=int,
        default=0,
        metavar="N",
        help="each env runner steps N deals of the batched engine, one learning seat in each (this recipe: the "
        "four-seat game; --others random or heuristic); 0: the multi-agent environment (default)",
    )
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--batch", type=int, default=2000, help="env steps per training iteration")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 128])
    parser.add_argument("--env-runners", type=int, default=2, help="env runner processes (0: in the driver)")
    parser.add_argument(
        "--envs-per-runner",
        type=int,
        default=ENVS_PER_RUNNER,
        help=f"environments each runner steps together, its module acting for all at once (default {ENVS_PER_RUNNER}: "
        "benchmarks/bench_rllib.py measures the env steps a runner samples a CPU second by this number)",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="an existing Ray cluster (auto, host:port or ray://host:10001; default: RAY_ADDRESS where set, else a "
        "Ray of this script's own, even where a `ray start` cluster runs on this machine; local: a Ray of its own)",
    )
    parser.add_argument("--boards", type=int, default=200, help="duplicate boards per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for flag, value, least in (("--batched", args.batched, 0), ("--envs-per-runner", args.envs_per_runner, 1),
                               ("--iterations", args.iterations, 1)):  # fmt: skip
        if value < least:
            parser.error(f"{flag} {value}: an integer >= {least}")
    if args.batched and (
        args.game != "tressette" or args.others not in ("random", "heuristic") or args.mapping != "shared"
    ):
        parser.error(
            "--batched: the four-seat game (this recipe's; batched_env takes every game), --others random or "
            "heuristic (the batched players), --mapping shared"
        )
    try:  # before Ray starts: the env_config and the mapping, each refused in one line
        config, modules = build_config(args)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    address = args.address or os.environ.get("RAY_ADDRESS")  # Ray's own variable names a cluster too
    if address and address != "local":
        ray.init(address=address)
        nodes = [n for n in ray.nodes() if n["Alive"]]
        cpus = sum(n["Resources"].get("CPU", 0) for n in nodes)
        print(f"Ray cluster at {address}: {len(nodes)} node(s), {cpus:g} CPUs", flush=True)
    else:  # a Ray of its own ("local"). Ray's default address joins the cluster of the last `ray start` on this
        # machine (its address file outlives it), and refuses num_cpus there.
        # Logical CPUs: a driver and every env runner get one, even on a 2-core machine.
        ray.init(address="local", num_cpus=max(os.cpu_count() or 1, args.env_runners + 1), include_dashboard=False)
    try:
        algo = config.build_algo()
        start = time.perf_counter()
        for i in range(1, args.iterations + 1):
            result = algo.train()
            runners = result["env_runners"]
            returns = runners.get("module_episode_returns_mean", {})
            if args.batched and "episode_return_mean" in runners:  # a single-agent runner's metric
                returns = {BATCHED_MODULE: runners["episode_return_mean"]}
            shown = "  ".join(f"{m} {returns[m]:+.2f}" for m in modules if m in returns) or "(no episode ended yet)"
            print(f"iteration {i:3d}  env steps {int(runners['num_env_steps_sampled_lifetime']):7d}  "
                  f"mean return per learner: {shown}  {time.perf_counter() - start:5.0f} s", flush=True)  # fmt: skip
        steps = int(runners["num_env_steps_sampled_lifetime"])
        seconds = time.perf_counter() - start
        envs = f"{args.batched} batched deals" if args.batched else f"{args.envs_per_runner} environments"
        runners_shown = f"{args.env_runners} runner{'s' if args.env_runners != 1 else ''}"
        print(f"{steps} env steps in {seconds:.0f} s of training: {steps / seconds:,.0f} env steps a second "
              f"({runners_shown} x {envs})", flush=True)  # fmt: skip
        module = modules[0]
        player = RLModulePlayer(algo.get_module(module), name=f"rllib:{module}")
        rules = game_spec(args.game).make_rules()
        print(f"\nduplicate evaluation of module {module!r}, {args.boards} boards, seed {args.seed}:")
        print("| opponent | A - B points per hand | 95% CI |\n| --- | ---: | --- |")
        figures = {}
        for opponent in (RandomPlayer(), HeuristicPlayer()):
            res = duplicate(player, opponent, args.boards, args.seed, rules, workers=1, progress=False)
            figures[opponent.name] = res
            print(f"| {opponent.name} | {res.mean_points_diff:+.2f} | [{res.ci95[0]:+.2f}, {res.ci95[1]:+.2f}] |")
        algo.stop()
        return figures
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
