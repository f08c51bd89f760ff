"""Training throughput: learner steps per second of MaskablePPO on the single-deal and batched environments.

Every row has the same other seats (``--others``, the heuristic by default) and every
MaskablePPO row the same network (``--net``) and the same PPO settings (n_steps 128, batch
1024, 4 epochs, one torch thread unless ``--torch-threads``). Rows of the four-seat game:

- the environments alone, random legal learner actions: the single-seat Gymnasium
  environment (one deal, the other seats played by the scalar players) and the batched
  ``TressetteVectorEnv`` (the other seats played by the batched players);
- MaskablePPO learning on ``--single-envs`` single-deal environments in a ``DummyVecEnv``
  (environment, network and updates together); the fastest of these rows is the baseline
  of the four-seat rows' ratio column;
- MaskablePPO learning on the batched ``SB3VecEnv`` with each of ``--batched-envs`` deals;
- ``TeamPlayPPO`` (``tressette_env.training.team_play``: MaskablePPO's update, every learning
  seat of the batched deals a row of its own) with each of ``--team-deals`` deals, all four
  seats learning (team self-play) and one team against ``--others``; its rollouts hold three
  whole hands per seat row (30 decisions in the four-seat game), its updates the same batch size and epochs; with
  ``--history``, one more team self-play row on the history observation (1460 inputs).

``--games NAME ...`` adds, for each other game of the catalog named (``tressette_in_due``,
``tressette_col_morto``, ``tressette_a_perdere``, ``calabresella``, ``tressette_a_chiamare``;
``tressette`` adds nothing, its rows are the ones above), rows whose names start with the game's:

- MaskablePPO on ``--single-envs``' first size of single-deal environments
  ``gym.make(entry.gym_id, others=...)`` (``SingleAgentEnv``: a random learning player, every
  other player the scalar ``--others``, the game's own heuristic for ``heuristic``) in a
  ``DummyVecEnv``: the baseline of that game's ratio column;
- MaskablePPO on ``SB3VecEnv(FamilyVectorEnv(...))`` with ``--batched-envs``' first size of
  deals (a random learning player, the others played by the game's batched ``--others``);
- TeamPlayPPO with ``--team-deals``' first size of deals, every player learning (self-play)
  and the players of one parity against ``--others`` (the learning side: a team where the game
  has fixed partners). Its rollouts hold about three hands per row: three times the game's
  ``decisions_per_hand`` (20 in in due's stock form, 10 in col morto and a perdere) where every
  seat decides as often, elsewhere three times the mean decisions per player and hand of random
  play (``team_play_n_steps``, 200 deals of seed 0): Calabresella 13.2 (an auction, a discard and
  the tricks; n_steps 39), a chiamare 9.0 (a call and eight tricks; n_steps 27). Those games play
  whole hands (``SeatRows.collect_hands``) and rollouts are rounded up to whole minibatches, so a
  rollout's samples vary; every rate counts the learner decisions played (``num_timesteps``: for
  those games a few percent more than the buffers keep, the hands under way played to their end
  and the samples beyond whole minibatches dropped).

``--team-games`` is a deprecated alias of ``--games`` (it gave only the TeamPlayPPO rows).

The MaskablePPO rows run once per ``--policies`` entry: ``MaskablePolicy``
(``tressette_env.training.masking``, what ``tressette train`` uses) and sb3-contrib's
``"MlpPolicy"``; the TeamPlayPPO rows with ``MaskablePolicy``. They compute the same numbers up to
float rounding; the ratio column compares rows of the same policy and game.

Each MaskablePPO row times whole rollouts and updates after a warm-up one (at least
``--steps`` learner steps), and a second table splits its time per learner step into the
rollout (of which stepping the environments) and the update. With ``--repeats K`` every MaskablePPO row runs K times, the
rows taking turns (all rows once, then all again), because a slow spell of this shared
machine can make a row up to 47% slower in one round than in another: a row shows the median of its runs, and its
ratio is the median over the K rounds of its rate over the fastest single-deal rate of the
same policy, game and round, so that each ratio compares runs made minutes apart.

Prints Markdown tables (rates and ratios; with ``--repeats`` every run; the phases) and writes JSON:

    OMP_NUM_THREADS=1 python benchmarks/bench_train.py --json benchmarks/results/train.json

Every game (``benchmarks/results/train_family/train_family.md``; the four-seat rows come too):

    OMP_NUM_THREADS=1 python benchmarks/bench_train.py --games tressette_in_due tressette_col_morto \\
        tressette_a_perdere calabresella tressette_a_chiamare --single-envs 32 --batched-envs 256 \\
        --team-deals 256 --policies MaskablePolicy --json benchmarks/results/train_family/train_family.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")


sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import bench_single_seat  # noqa: E402
from bench_vector import bench_env as bench_vector_env  # noqa: E402

PPO_SETTINGS = {"n_steps": 128, "batch_size": 1024, "n_epochs": 4}
"""The same in every MaskablePPO row."""


def bench_ppo(
    steps: int,
    n_envs: int,
    others: str,
    net: list[int],
    batched: bool,
    policy: str,
    threads: int = 1,
    game: str = "tressette",
) -> tuple[float, dict[str, float]]:
    """MaskablePPO learner steps per second (after a short warm-up), and µs per learner step by phase.

    The four-seat game learns on ``SingleSeatEnv`` or ``SB3VecEnv``'s ``TressetteVectorEnv``;
    another game on ``gym.make(entry.gym_id, others=others)`` or ``SB3VecEnv(FamilyVectorEnv(...))``,
    the learning player drawn at random in every episode. The phases: ``rollout``
    (``collect_rollouts``: stepping the environments, the policy's forward pass and sampling,
    the rollout buffer), ``environment`` (the part of the rollout in ``VecEnv.step``) and
    ``update`` (``train``: the epochs of minibatch updates).
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tressette_env.training.masking import MaskablePolicy
    from tressette_env.wrappers import SingleSeatEnv

    torch.set_num_threads(threads)

    def make(seed: int):
        def build():
            if game == "tressette":
                env = SingleSeatEnv(partner=others, opponents=others)
            else:
                import gymnasium

                from tressette_env import catalog

                env = gymnasium.make(catalog.entry(game).gym_id, others=others)
            env.reset(seed=seed)
            return env

        return build

    if batched:
        from tressette_env.vector.sb3 import SB3VecEnv

        if game == "tressette":
            venv = SB3VecEnv(num_envs=n_envs, opponent=others, partner=others, learner_seat="random", seed=0)
        else:
            from tressette_env.vector.family_env import FamilyVectorEnv

            venv = SB3VecEnv(FamilyVectorEnv(n_envs, game, others=others, agent="random", seed=0))
    else:
        venv = DummyVecEnv([make(i) for i in range(n_envs)])
    policy_class = MaskablePolicy if policy == "MaskablePolicy" else policy
    model = MaskablePPO(policy_class, venv, **PPO_SETTINGS, policy_kwargs={"net_arch": net}, seed=0)
    seconds = {"rollout": 0.0, "environment": 0.0, "update": 0.0}

    def timed(owner: object, method: str, phase: str) -> None:
        call = getattr(owner, method)

        def timed_call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                seconds[phase] += time.perf_counter() - start

        setattr(owner, method, timed_call)

    timed(model, "collect_rollouts", "rollout")
    timed(model, "train", "update")
    timed(venv, "step", "environment")
    model.learn(128 * n_envs)  # warm up: one rollout and one update
    seconds.update(dict.fromkeys(seconds, 0.0))
    done = model.num_timesteps
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)  # whole rollouts: at least ``steps``
    learned = model.num_timesteps - done
    return learned / (time.perf_counter() - start), {phase: 1e6 * t / learned for phase, t in seconds.items()}


TEAM_PLAY_HANDS = 3
"""Hands per rollout of the TeamPlayPPO rows (30 decisions per seat row in the four-seat game)."""


def team_play_n_steps(game: str) -> int:
    """The TeamPlayPPO rows' ``n_steps``: ``TEAM_PLAY_HANDS`` hands' decisions of a row.

    ``TEAM_PLAY_HANDS * decisions_per_hand`` where every seat decides as often in a hand;
    elsewhere (``decisions_per_hand`` None: Calabresella, a chiamare) ``TEAM_PLAY_HANDS`` times
    the mean decisions per player and hand, measured on random play (``SeatRows.collect_hands``,
    200 deals of seed 0, a fraction of a second): Calabresella 13.2 (39), a chiamare 9.0 (27).
    """
    import numpy as np

    from tressette_env.vector.engine import sample_mask
    from tressette_env.vector.seats import SeatRows

    rows = SeatRows(200, "all", "random", seed=0, game=game)
    if rows.decisions_per_hand is not None:
        return TEAM_PLAY_HANDS * rows.decisions_per_hand
    rng = np.random.default_rng(0)
    rollout = rows.collect_hands(lambda obs, masks: (sample_mask(masks, rng),), 10 * rows.num_rows)
    per_hand = rollout.hand_decisions.sum() / np.count_nonzero(rollout.hand_decisions)
    return round(TEAM_PLAY_HANDS * float(per_hand))


def bench_team_play(
    steps: int,
    n_deals: int,
    learners: str,
    others: str,
    net: list[int],
    threads: int = 1,
    history: bool = False,
    game: str = "tressette",
    n_steps: int | None = None,
) -> tuple[float, dict[str, float]]:
    """TeamPlayPPO learner samples per second (every learning seat's decision is one), and µs per sample by phase.

    Its ``n_steps`` is ``team_play_n_steps(game)`` unless given; the samples counted are ``num_timesteps``'s
    (a game played by whole hands learns a varying number of them per rollout).
    """
    import torch

    from tressette_env.training.masking import MaskablePolicy
    from tressette_env.training.team_play import TeamPlayPPO

    torch.set_num_threads(threads)
    settings = PPO_SETTINGS | {"n_steps": team_play_n_steps(game) if n_steps is None else n_steps}
    model = TeamPlayPPO(MaskablePolicy, num_deals=n_deals, learners=learners, opponent=others, seed=0,
                        policy_kwargs={"net_arch": net}, history=history, game=game, **settings)  # fmt: skip
    seconds = {"rollout": 0.0, "environment": 0.0, "update": 0.0}
    rows = model.rows
    for owner, method, phase in ((model, "collect_rollouts", "rollout"), (model, "train", "update"),
                                 (rows.batch, "step", "environment")):  # fmt: skip
        call = getattr(owner, method)

        def timed_call(*args, _call=call, _phase=phase, **kwargs):
            start = time.perf_counter()
            try:
                return _call(*args, **kwargs)
            finally:
                seconds[_phase] += time.perf_counter() - start

        setattr(owner, method, timed_call)
    model.learn(settings["n_steps"] * rows.num_rows)  # warm up: one rollout and one update
    seconds.update(dict.fromkeys(seconds, 0.0))
    done = model.num_timesteps
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    learned = model.num_timesteps - done
    return learned / (time.perf_counter() - start), {phase: 1e6 * t / learned for phase, t in seconds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time of each environment-alone row")
    parser.add_argument("--steps", type=int, default=131072, help="learner steps of each MaskablePPO row")
    parser.add_argument("--others", default="heuristic", help="the other seats: heuristic or random")
    parser.add_argument("--net", type=int, nargs="+", default=[64, 64], help="hidden layers of the MLP")
    parser.add_argument("--single-envs", type=int, nargs="+", default=[32, 256], help="single-deal environments")
    parser.add_argument("--batched-envs", type=int, nargs="+", default=[256, 1024], help="deals of the batched rows")
    parser.add_argument(
        "--team-deals",
        type=int,
        nargs="*",
        default=[256],
        help="deals of the TeamPlayPPO rows (team self-play, and one team against --others)",
    )
    parser.add_argument(
        "--policies",
        nargs="+",
        default=["MaskablePolicy", "MlpPolicy"],
        choices=["MaskablePolicy", "MlpPolicy"],
        help="MaskablePolicy (tressette_env.training.masking, what tressette train uses) and/or sb3-contrib's MlpPolicy",
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=[],
        help="other games of the catalog to add rows of (single-deal and batched MaskablePPO, TeamPlayPPO): "
        "tressette_in_due tressette_col_morto tressette_a_perdere calabresella tressette_a_chiamare",
    )
    parser.add_argument("--team-games", nargs="+", default=[], help="deprecated: the same as --games")
    parser.add_argument("--torch-threads", type=int, default=1, help="torch threads of the MaskablePPO rows")
    parser.add_argument(
        "--history", action="store_true", help="also a team self-play row on the history observation (history=True)"
    )
    parser.add_argument("--repeats", type=int, default=1, help="runs of each MaskablePPO row, taking turns; medians")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    from tressette_env import catalog

    if not args.seconds > 0 or args.steps < 1 or args.repeats < 1:
        parser.error("--seconds is a number > 0, --steps and --repeats ints >= 1")
    if args.others not in ("heuristic", "random"):
        parser.error(f"--others {args.others}: heuristic or random")
    known = catalog.names()
    for game in [*args.games, *args.team_games]:
        if game not in known:
            parser.error(f"unknown game {game!r}; the catalog's: {', '.join(known)}")
    games = [game for game in dict.fromkeys([*args.games, *args.team_games]) if game != "tressette"]
    o, net = args.others, args.net
    shape = "x".join(map(str, net))
    rows: dict[str, float] = {}
    rows[f"single-seat env alone, {o} x3"] = bench_single_seat(args.seconds, others=o).rate
    for n in args.batched_envs:
        rows[f"batched TressetteVectorEnv alone, {n} deals, {o} x3"] = bench_vector_env(n, args.seconds, {}, o)
    # The policies take turns on each environment, and the rows take turns over the repeats,
    # so that a slow spell of the machine hits every row.
    runs: dict[str, dict[str, list[float]]] = {policy: {} for policy in args.policies}
    phases: dict[str, list[dict[str, float]]] = {}
    game_of: dict[str, str] = {}  # each MaskablePPO and TeamPlayPPO row's game: its ratio's baseline
    team_n_steps = {game: team_play_n_steps(game) for game in ["tressette", *games]}

    def run(policy: str, name: str, game: str, bench, /, *bench_args, **bench_kwargs) -> None:
        rate, by_phase = bench(*bench_args, **bench_kwargs)
        runs[policy].setdefault(name, []).append(rate)
        phases.setdefault(name, []).append(by_phase)
        game_of[name] = game

    team = "MaskablePolicy" in args.policies
    for _ in range(args.repeats):
        for batched, sizes in ((False, args.single_envs), (True, args.batched_envs)):
            for n in sizes:
                for policy in args.policies:
                    where = f"batched SB3VecEnv of {n}" if batched else f"{n} single-deal envs (DummyVecEnv)"
                    name = f"MaskablePPO ({policy}), {where}, {o} x3, MLP {shape}"
                    ppo_args = (args.steps, n, o, net, batched, policy, args.torch_threads)
                    run(policy, name, "tressette", bench_ppo, *ppo_args)
        for n in args.team_deals if team else []:
            for learners in ("all", "team"):
                who = (
                    "team self-play, 4 seat rows a deal"
                    if learners == "all"
                    else f"one team, 2 seat rows a deal, {o} x2"
                )
                name = f"TeamPlayPPO (MaskablePolicy), {n} deals, {who}, MLP {shape}"
                team_args = (args.steps, n, learners, o, net, args.torch_threads)
                run("MaskablePolicy", name, "tressette", bench_team_play, *team_args)
            if args.history:
                name = f"TeamPlayPPO (MaskablePolicy), {n} deals, team self-play, history=True, MLP {shape}"
                team_args = (args.steps, n, "all", o, net, args.torch_threads)
                run("MaskablePolicy", name, "tressette", bench_team_play, *team_args, history=True)
        for game in games:
            rules = catalog.entry(game).make_rules()
            others = f"{o} x{rules.game.agents(rules) - 1}"
            for batched, n in ((False, args.single_envs[0]), (True, args.batched_envs[0])):
                for policy in args.policies:
                    where = f"batched SB3VecEnv of {n}" if batched else f"{n} single-deal envs (DummyVecEnv)"
                    name = f"MaskablePPO ({policy}), {game}, {where}, {others}, MLP {shape}"
                    ppo_args = (args.steps, n, o, net, batched, policy, args.torch_threads)
                    run(policy, name, game, bench_ppo, *ppo_args, game=game)
            for n in args.team_deals[:1] if team else []:
                for learners in ("all", "team"):
                    who = "self-play, every seat learns" if learners == "all" else f"one side learns, {o} the others"
                    name = f"TeamPlayPPO (MaskablePolicy), {game}, {n} deals, {who}, MLP {shape}"
                    team_args = (args.steps, n, learners, o, net, args.torch_threads)
                    run(
                        "MaskablePolicy", name, game, bench_team_play, *team_args, game=game, n_steps=team_n_steps[game]
                    )
    ratios: dict[str, float] = {}
    rounds: dict[str, list[float]] = {}  # each run's rate over the fastest single-deal rate of its policy, game, round
    for policy_runs in runs.values():
        for game in dict.fromkeys(game_of[name] for name in policy_runs):
            group = {name: rates for name, rates in policy_runs.items() if game_of[name] == game}
            bases = [
                max(rates[k] for name, rates in group.items() if "single-deal" in name) for k in range(args.repeats)
            ]
            for name, rates in group.items():
                rows[name] = statistics.median(rates)
                rounds[name] = [rate / base for rate, base in zip(rates, bases, strict=True)]
                ratios[name] = statistics.median(rounds[name])
    print("| loop (one core) | learner steps/s | vs the fastest single-deal row of the same policy and game |")
    print("| --- | ---: | ---: |")
    for name, rate in rows.items():
        ratio = f"{ratios[name]:.2f}x" if name in ratios else ""
        print(f"| {name} | {rate:,.0f} | {ratio} |")
    if args.repeats > 1:
        print()
        print("| MaskablePPO row | runs (learner steps/s) | ratio in each round |")
        print("| --- | --- | --- |")
        for policy_runs in runs.values():
            for name, rates in policy_runs.items():
                shown = ", ".join(f"{rate:,.0f}" for rate in rates)
                print(f"| {name} | {shown} | {', '.join(f'{r:.2f}x' for r in rounds[name])} |")
    print()
    print("| MaskablePPO row | µs per learner step: rollout | of which environment | update |")
    print("| --- | ---: | ---: | ---: |")
    for name, by_round in phases.items():
        cells = " | ".join(f"{statistics.median(r[phase] for r in by_round):.1f}" for phase in by_round[0])
        print(f"| {name} | {cells} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        result = {
            "python": platform.python_version(),
            "arguments": vars(args) | {"json": str(args.json)},
            "ppo": PPO_SETTINGS | {"torch_threads": args.torch_threads},
            "learner_steps_per_second": rows,
            "ratios": ratios,
            "runs": runs,
            "ratios_by_round": rounds,
            "us_per_learner_step_by_phase": phases,
            "game_of_row": game_of,
            "team_play_n_steps": team_n_steps,
        }
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
