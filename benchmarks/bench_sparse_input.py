"""Would a first layer that reads only the observation's active entries make TeamPlayPPO faster?

Issue 34 asked for a policy whose first layer is a sum of embedding rows over the
observation's active entries (40 to 60 ones of 790), the same function as the dense layer,
and 2x the samples a second of ``MaskablePolicy``. This script measures it before anyone
builds it: one ``TeamPlayPPO`` (256 deals, team self-play, MLP 64x64 as in
``bench_train.py``, batch 1024, 4 epochs, one thread) learns whole rollouts with its
policy's two first layers (the actor's and the critic's, 790 -> 64 each) computed three
ways, taking turns round after round on the same model, CPU time (``time.process_time``):

| variant | the first layers |
| --- | --- |
| ``dense`` | ``MaskablePolicy`` as it is: two ``nn.Linear(790, 64)`` (MKL's GEMM) |
| ``sparse`` | the same weights read as embedding rows: ``F.embedding_bag(mode="sum")`` over the active entries (``nonzero`` of the observation, once for both layers), the same numbers (checked) |
| ``floor`` | a bound, not the same function: each layer reads only the observation's first 64 entries, so the first layers cost almost nothing |

Each row: learner samples per CPU second (rollout and update), the median over the rounds,
and its ratio to ``dense`` (the median of the per-round ratios). ``floor`` bounds what any
first layer can gain: if it is under 2x, no sparse first layer reaches the issue's target.

    OMP_NUM_THREADS=1 python benchmarks/bench_sparse_input.py --rounds 5 \
        --json benchmarks/results/sparse_input.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

VARIANTS = ("dense", "sparse", "floor")


def first_layers(variant: str, extractor, pi_first, vf_first):
    """The ``forward`` of an ``MlpExtractor`` whose two first layers are computed as ``variant`` says."""
    import torch as th
    import torch.nn.functional as F

    pi_rest, vf_rest = extractor.policy_net[1:], extractor.value_net[1:]

    def dense(features):
        return extractor.policy_net(features), extractor.value_net(features)

    def sparse(features):
        rows, cols = features.nonzero(as_tuple=True)
        offsets = th.searchsorted(rows, th.arange(features.shape[0], device=features.device))
        weight = th.cat([pi_first.weight, vf_first.weight]).t().contiguous()  # (790, 128): one row per entry
        bias = th.cat([pi_first.bias, vf_first.bias])
        both = F.embedding_bag(cols, weight, offsets, mode="sum", per_sample_weights=features[rows, cols]) + bias
        width = pi_first.out_features
        return pi_rest(both[:, :width]), vf_rest(both[:, width:])

    def floor(features):
        few = features[:, :64]
        both = few @ th.cat([pi_first.weight[:, :64], vf_first.weight[:, :64]]).t() + th.cat(
            [pi_first.bias, vf_first.bias]
        )
        width = pi_first.out_features
        return pi_rest(both[:, :width]), vf_rest(both[:, width:])

    return {"dense": dense, "sparse": sparse, "floor": floor}[variant]


def arguments(doc: str, rounds: int) -> argparse.Namespace:
    """The command line of a TeamPlayPPO benchmark: ``--deals``, ``--rounds``, ``--json``."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--deals", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--json", type=Path, default=None)
    return parser.parse_args()


def team_play(policy, deals: int, **policy_kwargs):
    """The benchmarks' ``TeamPlayPPO`` on one thread: team self-play, MLP 64x64, n_steps 30, batch 1024, 4 epochs, seed 0."""
    import torch as th

    from tressette_env.training.team_play import TeamPlayPPO

    th.set_num_threads(1)
    return TeamPlayPPO(
        policy, num_deals=deals, learners="all", n_steps=30, batch_size=1024, n_epochs=4, seed=0,
        policy_kwargs={"net_arch": [64, 64], **policy_kwargs},
    )  # fmt: skip


def write_results(args: argparse.Namespace, **fields) -> None:
    """``fields`` with the Python and torch versions and the arguments, as JSON at ``args.json`` (where given)."""
    if not args.json:
        return
    import torch as th

    args.json.parent.mkdir(parents=True, exist_ok=True)
    record = {"python": platform.python_version(), "torch": th.__version__}
    record["arguments"] = vars(args) | {"json": str(args.json)}
    args.json.write_text(json.dumps(record | fields, indent=2) + "\n")


def main() -> None:
    args = arguments(__doc__, rounds=5)

    import torch as th

    from tressette_env.training.masking import MaskablePolicy

    model = team_play(MaskablePolicy, args.deals)
    extractor = model.policy.mlp_extractor
    pi_first, vf_first = extractor.policy_net[0], extractor.value_net[0]
    forwards = {v: first_layers(v, extractor, pi_first, vf_first) for v in VARIANTS}
    rollout = 30 * model.rows.num_rows
    model.learn(rollout)  # warm up, and a rollout's observations to check the sparse variant on
    sample = th.as_tensor(model.rollout_buffer.observations[:1024].reshape(1024, -1), dtype=th.float32)
    with th.no_grad():
        want, got = forwards["dense"](sample), forwards["sparse"](sample)
    same = all(th.allclose(a, b, atol=1e-5) for a, b in zip(want, got, strict=True))
    if not same:
        raise SystemExit("the sparse first layers do not compute the dense ones' numbers")
    rates: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for _ in range(args.rounds):
        for variant in VARIANTS:
            extractor.forward = forwards[variant]
            start = time.process_time()
            before = model.num_timesteps
            model.learn(rollout, reset_num_timesteps=False)
            rates[variant].append((model.num_timesteps - before) / (time.process_time() - start))
    table = {}
    print("| first layers | learner samples per CPU second | vs dense |")
    print("| --- | ---: | ---: |")
    for variant in VARIANTS:
        ratio = statistics.median(r / d for r, d in zip(rates[variant], rates["dense"], strict=True))
        table[variant] = {"samples_per_cpu_second": statistics.median(rates[variant]), "vs_dense": ratio}
        print(f"| {variant} | {table[variant]['samples_per_cpu_second']:,.0f} | {ratio:.2f}x |")
    write_results(args, same_numbers=same, rows=table, rounds=rates)


if __name__ == "__main__":
    main()
