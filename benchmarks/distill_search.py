"""The search player as a teacher: label positions with search's card, then fine-tune the shipped model on them.

Two steps (the learning issue's "the search player as a teacher"):

``label``: hands of the four-seat game (default rules, one hand) in which every seat is played
by the shipped model ``ppo`` or, with probability ``--follow``, by the teacher's card, so the
positions are the student's and drift towards the teacher's (DAgger). At every decision with
more than one legal action, the observation, the legal mask, the teacher's action and the
student's are recorded. ``--workers`` processes each play their own deals (worker ``w`` of
``W`` plays seeds ``seed + w``, ``seed + w + W``, ``seed + w + 2W``...) and write their labels every ``--save-every`` decisions to
``<out>/labels_<worker>.npz``, so a long run can be stopped and its labels kept.

    python benchmarks/distill_search.py label --decisions 60000 --workers 2 --out /tmp/distill

``fit``: the shipped model's network, trained on the labels by masked cross-entropy (Adam,
``--lr``, ``--epochs``), 5% of the labels held out; writes the policy (``MLPPolicy``, .npz)
and prints the agreement with the teacher on the held-out labels before and after.

    python benchmarks/distill_search.py fit --labels /tmp/distill --epochs 4 --lr 1e-4 --out /tmp/distill/student.npz

Then ``tressette eval /tmp/distill/student.npz ppo heuristic random --deals 1000 --seed 123``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from tressette_env.agents.registry import make_player
from tressette_env.encoders import observation_of
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, new_game, view
from tressette_env.learned.loading import shipped_model_path
from tressette_env.learned.mlp import MLPPolicy


def label(
    worker: int, workers: int, decisions: int, seed: int, follow: float, teacher: str, out: Path, save_every: int
) -> int:
    """One worker's labels (module docstring); returns how many it wrote."""
    rules = Rules()
    encoder = observation_of(rules)
    student, master = make_player("ppo"), make_player(teacher)
    rng = random.Random(seed + worker)
    obs = np.zeros((decisions, encoder.size), dtype=np.int8)
    masks = np.zeros((decisions, 161), dtype=bool)
    taught = np.zeros(decisions, dtype=np.int16)
    chosen = np.zeros(decisions, dtype=np.int16)
    n = hand = 0
    path = out / f"labels_{worker}.npz"

    def save() -> None:
        np.savez_compressed(path, obs=obs[:n], masks=masks[:n], teacher=taught[:n], student=chosen[:n])

    while n < decisions:
        state = new_game(rules, seed + worker + workers * hand)
        hand += 1
        while state.public.status == PLAYING and n < decisions:
            seat = state.public.turn
            legal = legal_actions(state)
            seen = view(state, seat)
            mine = student.act(seen, legal, rng)
            if len(legal) == 1:
                action = legal[0]
            else:
                best = master.act(seen, legal, rng)
                obs[n], masks[n, legal], taught[n], chosen[n] = encoder.encode(seen), True, best, mine
                n += 1
                if n % save_every == 0:
                    save()
                action = best if rng.random() < follow else mine
            state = apply(state, action)
    save()
    return n


def read_labels(folder: Path) -> dict[str, np.ndarray]:
    """Every worker's labels in ``folder`` (``labels_<worker>.npz``), joined."""
    files = sorted(folder.glob("labels_*.npz"))
    if not files:
        raise SystemExit(f"no labels_*.npz in {folder}")
    parts = [np.load(f, allow_pickle=False) for f in files]
    return {key: np.concatenate([p[key] for p in parts]) for key in ("obs", "masks", "teacher", "student")}


def fit(labels: dict[str, np.ndarray], epochs: int, lr: float, seed: int) -> tuple[MLPPolicy, dict]:
    """The shipped network fine-tuned on the teacher's cards (module docstring)."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    base = MLPPolicy.load(shipped_model_path())
    linears = [torch.nn.Linear(w.shape[1], w.shape[0]) for w, _ in base.layers]
    with torch.no_grad():
        for linear, (w, b) in zip(linears, base.layers, strict=True):
            linear.weight.copy_(torch.as_tensor(w))
            linear.bias.copy_(torch.as_tensor(b))
    params = [p for linear in linears for p in linear.parameters()]

    def logits_of(x: torch.Tensor) -> torch.Tensor:
        for linear in linears[:-1]:
            x = torch.tanh(linear(x))
        return linears[-1](x)

    n = len(labels["teacher"])
    order = np.random.default_rng(seed).permutation(n)
    held, train = order[: n // 20], order[n // 20 :]
    obs = torch.as_tensor(labels["obs"], dtype=torch.float32)
    masks = torch.as_tensor(labels["masks"])
    target = torch.as_tensor(labels["teacher"].astype(np.int64))

    def agreement(index: np.ndarray) -> float:
        with torch.no_grad():
            out = logits_of(obs[index]).masked_fill(~masks[index], -1e9)
            return (out.argmax(1) == target[index]).float().mean().item()

    before = agreement(held)
    optimizer = torch.optim.Adam(params, lr=lr)
    shuffle = np.random.default_rng(seed + 1)
    for _ in range(epochs):
        shuffle.shuffle(train)
        for start in range(0, len(train), 512):
            index = train[start : start + 512]
            out = logits_of(obs[index]).masked_fill(~masks[index], -1e9)
            loss = F.cross_entropy(out, target[index])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    after = agreement(held)
    layers = [(linear.weight.detach().numpy().copy(), linear.bias.detach().numpy().copy()) for linear in linears]
    figures = {
        "labels": n,
        "held_out": len(held),
        "student_agreement": float((labels["student"][held] == labels["teacher"][held]).mean()),
        "agreement_before": before,
        "agreement_after": after,
        "epochs": epochs,
        "lr": lr,
    }
    return MLPPolicy(layers, "tanh", {"distilled_from": "search", **figures}), figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label")
    lab.add_argument("--decisions", type=int, default=60_000, help="labels in all")
    lab.add_argument("--workers", type=int, default=2)
    lab.add_argument("--seed", type=int, default=50_000)
    lab.add_argument("--follow", type=float, default=0.5, help="how often the teacher's card is played")
    lab.add_argument("--teacher", default="search")
    lab.add_argument("--save-every", type=int, default=1000)
    lab.add_argument("--out", type=Path, required=True)
    fitting = sub.add_parser("fit")
    fitting.add_argument("--labels", type=Path, required=True)
    fitting.add_argument("--epochs", type=int, default=4)
    fitting.add_argument("--lr", type=float, default=1e-4)
    fitting.add_argument("--seed", type=int, default=0)
    fitting.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.command == "label":
        args.out.mkdir(parents=True, exist_ok=True)
        each = -(-args.decisions // args.workers)
        jobs = [
            (w, args.workers, each, args.seed, args.follow, args.teacher, args.out, args.save_every)
            for w in range(args.workers)
        ]
        with Pool(args.workers) as pool:
            counts = pool.starmap(label, jobs)
        print(f"{sum(counts)} labels in {time.perf_counter() - start:.0f} s, written to {args.out}")
    else:
        import torch

        torch.set_num_threads(1)
        policy, figures = fit(read_labels(args.labels), args.epochs, args.lr, args.seed)
        policy.save(args.out)
        print(json.dumps(figures, indent=2))
        print(f"{time.perf_counter() - start:.0f} s; policy written to {args.out}")


if __name__ == "__main__":
    main()
