"""Team self-play from scratch with TeamPlayPPO: every seat of 256 batched deals learns, then a duplicate evaluation.

    OMP_NUM_THREADS=1 python examples/train_team_play.py                 # 500k samples, about 75 s on an idle core
    OMP_NUM_THREADS=1 python examples/train_team_play.py --learners team --opponent heuristic

(The first took 69 s of user CPU time, `/usr/bin/time`, on the project's shared 2-core build
machine at a70c539; it printed +1.78 [+1.53, +2.03] against random and -1.27 [-1.51, -1.03]
against the heuristic over 500 boards: benchmarks/results/train_team_play_example.txt.)

``TeamPlayPPO`` (``tressette_env.training.team_play``) is MaskablePPO whose rollouts are the
learning seats of N deals on the batched engine, each seat a row with its own team's reward:
with ``--learners all`` (the default) the policy plays all four seats and every card is a
sample; with ``--learners team`` one team of each deal learns against ``--opponent``
(``random``, ``heuristic``, or ``self``: a frozen copy of the learner, refreshed every
``--snapshot-every`` samples). At the end the policy plays the package's duplicate
evaluation against random and the heuristic. ``tressette train --team-play N`` is the same
training from the command line, with periodic evaluations, the curve and the run's files (the
README's main job).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

from tressette_env.evaluation import against_baselines, results_table  # noqa: E402
from tressette_env.learned import MLPPlayer  # noqa: E402
from tressette_env.training.export import policy_from_sb3  # noqa: E402
from tressette_env.training.masking import MaskablePolicy  # noqa: E402
from tressette_env.training.team_play import SnapshotCallback, TeamPlayPPO  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--total-timesteps", type=int, default=500_000, help="learner samples (seat decisions)")
    parser.add_argument("--num-deals", type=int, default=256)
    parser.add_argument("--learners", choices=("all", "team"), default="all")
    parser.add_argument("--opponent", choices=("random", "heuristic", "self"), default="random",
                        help="with --learners team: who plays the other team")  # fmt: skip
    parser.add_argument("--snapshot-every", type=int, default=100_000, help="with --opponent self")
    parser.add_argument("--n-steps", type=int, default=20, help="decisions per seat per rollout (a multiple of 10)")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 128])
    parser.add_argument("--boards", type=int, default=500, help="duplicate boards per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.opponent != "random" and args.learners == "all":
        parser.error(
            f"--opponent {args.opponent} needs --learners team (with --learners all every seat is the learner)"
        )
    torch.set_num_threads(1)
    try:
        model = _model(args)
    except ValueError as error:  # TeamPlayPPO's own checks: n_steps in whole hands, the deals...
        parser.error(str(error))
    callback = SnapshotCallback(args.snapshot_every) if args.opponent == "self" else None
    rows = model.rows.num_rows
    print(
        f"{rows} seat rows ({args.num_deals} deals, learners {args.learners}); rollouts of {rows * args.n_steps} samples"
    )
    start = time.perf_counter()
    model.learn(args.total_timesteps, callback=callback)
    print(f"{model.num_timesteps} samples in {time.perf_counter() - start:.0f} s")
    player = MLPPlayer(policy_from_sb3(model), name="team_play")
    print(f"\nduplicate evaluation, {args.boards} boards, seed {args.seed}:")
    results = against_baselines(player, ["random", "heuristic"], args.boards, args.seed, workers=1, progress=False)
    print(results_table(results))
    return {r.players[1]: r for r in results}


def _model(args: argparse.Namespace) -> TeamPlayPPO:
    return TeamPlayPPO(
        MaskablePolicy, num_deals=args.num_deals, learners=args.learners, opponent=args.opponent, dense_reward=True,
        n_steps=args.n_steps, batch_size=2048, n_epochs=4, learning_rate=3e-4, gamma=1.0, gae_lambda=0.95,
        ent_coef=0.01, policy_kwargs={"net_arch": args.hidden}, seed=args.seed,
    )  # fmt: skip


if __name__ == "__main__":
    main()
