"""Exact exploitability on Tressette mini: NashConv over CFR+ iterations, and of our players.

For each mini game (``games.mini``): the game is written out once as EFG (``integrations.efg``)
and loaded as a C++ OpenSpiel game; then

- ``pyspiel.CFRPlusSolver`` runs, with ``pyspiel.nash_conv`` of its average policy at each
  checkpoint iteration;
- the NashConv of the uniform random policy, of the heuristic (the generic one: the mini has no
  heuristic of its own), and of a policy our training recipe learns (``tressette train``'s
  defaults: imitation of the heuristic, then MaskablePPO against it, ``--train-steps`` samples,
  one core).

NashConv is the sum over players of what each gains by a best response while the others keep
the policy (0 at a Nash equilibrium), in points of a hand. With four players in two teams it
sums the four seats' gains; CFR's guarantee is for two-player zero-sum games only, so the
four-player column is what CFR+ reaches, not a proof of convergence.

    OMP_NUM_THREADS=1 python benchmarks/nashconv.py --out benchmarks/results/nashconv

needs the openspiel and train extras.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pyspiel

import tressette_env.games.mini  # noqa: F401 - registers tressette_mini
from tressette_env.integrations import efg, openspiel

MINIS = {
    "two players (2 suits x 4 ranks, 3 cards each, 2 out)": {"players": 2, "suits": 2, "ranks": 4, "out": 2},
    "four players (2 suits x 4 ranks, 2 cards each)": {"players": 4, "suits": 2, "ranks": 4},
}
CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def train_policy(rules: dict, steps: int, folder: Path, seed: int) -> Path:
    """Train with ``tressette train``'s recipe on the mini; the NumPy policy's path."""
    from tressette_env.training.config import TrainConfig
    from tressette_env.training.train import train

    config = TrainConfig(
        game="tressette_mini", rules=rules, total_timesteps=steps, seed=seed, eval_every=0, final_boards=200,
        run_dir=str(folder), run_name=f"mini_{rules['players']}p_seed{seed}",
    )  # fmt: skip
    return train(config).policy_path


def measure(label: str, rules: dict, iterations: int, train_steps: int, folder: Path, seed: int) -> dict:
    openspiel.register_all()
    game = pyspiel.load_game("python_tressette_mini", rules)
    start = time.process_time()
    tree = efg.write(game)
    written = time.process_time() - start
    solved = tree.load()
    row: dict = {"game": label, "rules": rules, "nodes": tree.nodes, "infosets": tree.infosets,
                 "write_cpu_s": round(written, 1)}  # fmt: skip
    players = {"uniform random": efg.uniform, "heuristic": efg.player_policy("heuristic")}
    if train_steps:
        start = time.process_time()
        path = train_policy(rules, train_steps, folder, seed)
        row["train_cpu_s"] = round(time.process_time() - start, 1)
        players[f"ppo ({train_steps:,} samples), its most likely card"] = efg.player_policy(str(path))
        players[f"ppo ({train_steps:,} samples), its probabilities"] = efg.player_policy(str(path), probabilities=True)
    row["players"] = {name: pyspiel.nash_conv(solved, tree.policy(choose)) for name, choose in players.items()}
    solver = pyspiel.CFRPlusSolver(solved)
    curve = []
    start = time.process_time()
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in CHECKPOINTS or i == iterations:
            curve.append({"iteration": i, "nash_conv": pyspiel.nash_conv(solved, solver.average_policy()),
                          "cpu_s": round(time.process_time() - start, 2)})  # fmt: skip
            print(label, curve[-1], flush=True)
    row["cfr_plus"] = curve
    return row


def table(rows: list[dict]) -> str:
    lines = [
        "| game | nodes | information sets | policy | NashConv (points a hand) |",
        "| --- | ---: | ---: | --- | ---: |",
    ]
    for row in rows:
        head = f"| {row['game']} | {row['nodes']:,} | {row['infosets']:,} |"
        for name, value in row["players"].items():
            lines.append(f"{head} {name} | {value:.4f} |")
        for point in row["cfr_plus"]:
            lines.append(
                f"{head} CFR+ average, {point['iteration']} iterations ({point['cpu_s']} s) | {point['nash_conv']:.4f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000, help="CFR+ iterations (default 1000)")
    parser.add_argument("--train-steps", type=int, default=100_000, help="PPO samples of the trained policy; 0: none")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=("2", "4"), help="only the two- or the four-player mini")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/nashconv"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for label, rules in MINIS.items():
        if args.only and str(rules["players"]) != args.only:
            continue
        rows.append(measure(label, rules, args.iterations, args.train_steps, args.out / "runs", args.seed))
    suffix = f"_{args.only}p" if args.only else ""
    (args.out / f"nashconv{suffix}.json").write_text(json.dumps(rows, indent=1) + "\n")
    (args.out / f"nashconv{suffix}.md").write_text(table(rows) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main()
