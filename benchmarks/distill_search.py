"""The search player as a teacher: label positions with search's card, then fine-tune the shipped model on them.

Two steps (the learning issue's "the search player as a teacher"):

``label``: hands of the four-seat game (default rules, one hand) in which every seat is played
by the shipped model ``ppo`` or, with probability ``--follow``, by the teacher's card, so the
positions are the student's and drift towards the teacher's (DAgger). At every decision with
more than one legal action, the observation, the legal mask, the teacher's action and the
student's are recorded. ``--workers`` processes each play their own deals (worker ``w`` of
``W`` plays seeds ``seed + w``, ``seed + w + W``, ``seed + w + 2W``...) and write their labels every ``--save-every`` decisions to
``<out>/labels_<worker>.npz``, so a long run can be stopped and its labels kept. With
``--soft`` each position the teacher searches exactly (at most ``exact_tricks`` cards in hand,
more than one card to choose from) also records the teacher's value of every legal card (the
average thirds its team ends the hand with, ``SearchPlayer.card_values``; NaN elsewhere), and
the teacher's card there is the best of those values. ``--open-hands`` takes those values from
the open-hands solver on the deal as it lies instead (one solve, no sampling: each value is an
unbiased estimate of the card's expected double-dummy value, as long as the deal is a fair draw,
so every card is the student's, ``--follow 0``); the teacher is not asked, and the recorded
"teacher" action is the solver's best card where there are values and the student's elsewhere.

    python benchmarks/distill_search.py label --decisions 60000 --workers 2 --out /tmp/distill
    python benchmarks/distill_search.py label --soft --decisions 100000 --workers 2 --seed 70000 --out /tmp/soft
    python benchmarks/distill_search.py label --open-hands --decisions 400000 --workers 2 --seed 90000 --out /tmp/open

``fit``: the shipped model's network, trained on the labels by masked cross-entropy (Adam,
``--lr``, ``--epochs``), 5% of the labels held out; writes the policy (``MLPPolicy``, .npz)
and prints the agreement with the teacher on the held-out labels before and after. With
``--tau`` (soft labels) it fits the network's probability of each card to ``softmax(values /
tau)`` instead, and reports on the held-out valued positions how often the network's card is
one of the teacher's best and the thirds its card gives up to the best (``card_*``: the most
likely card over its signals; ``played_*``: the card of the most likely action, which the
player plays). ``--regress`` (with ``--tau``) fits the card logits, less their mean, to
``values / tau`` less its mean by least squares instead. ``--anchor`` adds the KL divergence
from the shipped policy (``anchor_kl``): over every action where the teacher gives no values,
over the signals that go with each card where it does.

    python benchmarks/distill_search.py fit --labels /tmp/distill --epochs 4 --lr 1e-4 --out /tmp/distill/student.npz
    python benchmarks/distill_search.py fit --labels /tmp/soft --tau 1 --anchor 1 --epochs 4 --lr 1e-4 --out /tmp/soft/student.npz
    python benchmarks/distill_search.py fit --labels /tmp/open --regress --tau 1 --anchor 1 --epochs 1 --lr 1e-5 --out /tmp/open/student.npz

Then ``tressette eval /tmp/distill/student.npz ppo heuristic random --deals 1000 --seed 123``.
``split`` tells in which tricks a student gains or loses against ``ppo``: the student in the
last eight tricks only (``ppo`` before), then in the first two only, each against ``ppo``.

    python benchmarks/distill_search.py split /tmp/soft/student.npz --boards 2000 --seed 123
"""

from __future__ import annotations

import argparse
import json
import random
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from tressette_env.agents.registry import make_player
from tressette_env.encoders import observation_of
from tressette_env.engine import CALL_OUT, PLAYING, Rules, apply, legal_actions, new_game, view
from tressette_env.learned.loading import shipped_model_path
from tressette_env.learned.mlp import MLPPolicy


def label(
    worker: int,
    workers: int,
    decisions: int,
    seed: int,
    follow: float,
    teacher: str | Any,
    out: Path,
    save_every: int,
    soft: bool = False,
    open_hands: bool = False,
) -> int:
    """One worker's labels (module docstring); returns how many it wrote."""
    if open_hands and follow:
        raise ValueError(
            f"open_hands values are taken on the deal as it lies, which the student's play alone keeps a fair draw: "
            f"follow must be 0 (got {follow})"
        )
    soft = soft or open_hands
    rules = Rules()
    encoder = observation_of(rules)
    student, master = make_player("ppo"), make_player(teacher) if isinstance(teacher, str) else teacher
    if soft:
        from tressette_env.agents.solver import solve_moves

        exact = master.exact_tricks  # the positions the search player solves to the end
    rng = random.Random(seed + worker)
    obs = np.zeros((decisions, encoder.size), dtype=np.int8)
    masks = np.zeros((decisions, 161), dtype=bool)
    taught = np.zeros(decisions, dtype=np.int16)
    chosen = np.zeros(decisions, dtype=np.int16)
    values = np.full((decisions, 40), np.nan, dtype=np.float32) if soft else None
    n = hand = 0
    path = out / f"labels_{worker}.npz"

    def save() -> None:
        extra = {} if values is None else {"values": values[:n]}
        np.savez_compressed(path, obs=obs[:n], masks=masks[:n], teacher=taught[:n], student=chosen[:n], **extra)

    while n < decisions:
        state = new_game(rules, seed + worker + workers * hand)
        hand += 1
        while state.public.status == PLAYING and n < decisions:
            seat = state.public.turn
            legal = legal_actions(state)
            seen = view(state, seat)
            mine = student.act(seen, legal, rng)
            cards = {a % 40 for a in legal if a != CALL_OUT}
            if len(legal) == 1:
                action = legal[0]
            else:
                if soft and len(cards) > 1 and seen.hand.bit_count() <= exact:
                    if open_hands:
                        # The double-dummy value of every legal card in the deal as it lies.
                        p = state.public
                        valued = solve_moves(state.hands, p.leader, p.trick, p.thirds)
                    else:
                        # The teacher's value of every legal card (its act() plays the best of them).
                        valued, _ = master.card_values(seen, rng)
                    values[n, list(valued)] = list(valued.values())
                    best = master.action_for(seen, legal, valued)
                else:
                    best = mine if open_hands else master.act(seen, legal, rng)
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
    keys = ["obs", "masks", "teacher", "student"] + (["values"] if all("values" in p for p in parts) else [])
    return {key: np.concatenate([p[key] for p in parts]) for key in keys}


def anchor_kl(base: Any, student: Any, valued: Any = None) -> Any:
    """Each row's KL divergence of the ``student``'s policy from the ``base`` policy (log-probabilities, 161 actions).

    On the rows where ``valued`` (a boolean per row; None: no row) the teacher values the
    cards, only each card's signals are held: the sum over cards of the base probability of
    the card times the KL of the student's split of that card over its four signals
    (actions ``signal * 40 + card``) from the base's. Elsewhere, the KL over every action.
    """
    import torch

    student = student.clamp_min(-1e6)
    gap = base - student
    if valued is not None:
        base_card = torch.logsumexp(base[:, :160].view(-1, 4, 40), 1, keepdim=True)
        student_card = torch.logsumexp(student[:, :160].view(-1, 4, 40), 1, keepdim=True)
        base_signal = (base[:, :160].view(-1, 4, 40) - base_card).reshape(-1, 160)
        student_signal = (student[:, :160].view(-1, 4, 40) - student_card).reshape(-1, 160)
        split = torch.cat([base_signal - student_signal, torch.zeros_like(base[:, 160:])], 1)
        gap = torch.where(valued[:, None], split, gap)
    return (base.exp() * gap).sum(1)


def fit(
    labels: dict[str, np.ndarray],
    epochs: int,
    lr: float,
    seed: int,
    tau: float | None = None,
    anchor: float = 0.0,
    regress: bool = False,
) -> tuple[MLPPolicy, dict]:
    """The shipped network fine-tuned on the teacher's labels (module docstring).

    ``tau=None``: masked cross-entropy on the teacher's action. ``tau`` (thirds): on the
    positions with the teacher's card values, cross-entropy of the network's probability of
    each card (its actions playing that card, summed over the signals) against
    ``softmax(values / tau)``; the other positions train only through ``anchor``. ``anchor``:
    the weight of the KL divergence from the shipped network's policy (``anchor_kl``), over every
    action where the teacher gives no values (the first two tricks, and the later positions with
    one card to play) and over each card's signals where it does (the teacher values cards, not
    signals: the partner reads the shipped model's signals). ``regress``
    (with ``tau``): the network's card logits (each card's actions' logits, log-summed over the
    signals), less their mean over the legal cards, fitted by least squares to ``values / tau``
    less its mean, so that the policy learns ``softmax(E[values] / tau)`` from noisy values
    (one deal's, ``label --open-hands``).
    """
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

    if regress and tau is None:
        raise ValueError("regress fits the card logits to values / tau: give tau too")
    if tau is not None and "values" not in labels:
        raise ValueError("tau fits the teacher's card values, and these labels have none: label them with --soft")
    n = len(labels["teacher"])
    order = np.random.default_rng(seed).permutation(n)
    held, train = order[: n // 20], order[n // 20 :]
    obs = torch.as_tensor(labels["obs"], dtype=torch.float32)
    masks = torch.as_tensor(labels["masks"])
    target = torch.as_tensor(labels["teacher"].astype(np.int64))
    values = torch.as_tensor(labels["values"]) if tau is not None else None
    with torch.no_grad():
        base_logp = torch.cat(
            [
                F.log_softmax(logits_of(obs[i : i + 4096]).masked_fill(~masks[i : i + 4096], -1e9), 1)
                for i in range(0, n, 4096)
            ]
        )

    def card_logits(out: torch.Tensor, index: np.ndarray) -> torch.Tensor:
        """Each card's logit: its legal actions' logits log-summed over the signals (about -1e9 for an illegal card)."""
        legal = masks[index, :160].view(-1, 4, 40)
        return torch.logsumexp(out[:, :160].view(-1, 4, 40).masked_fill(~legal, -1e9), 1)

    def card_logp(out: torch.Tensor, index: np.ndarray) -> torch.Tensor:
        """Log-probability of each card (its actions summed over the signals), about -1e9 for an illegal card."""
        per_card = card_logits(out, index)
        return F.log_softmax(per_card.masked_fill(~masks[index, :160].view(-1, 4, 40).any(1), -1e9), 1)

    valued_rows = None if values is None else np.isfinite(labels["values"][held]).any(1)  # of the held-out
    valued_held = held if values is None else held[valued_rows]

    def measure() -> dict:
        """On the held-out labels: agreement with the teacher's action and, with values, its best card and the thirds given up."""
        with torch.no_grad():
            out = logits_of(obs[held]).masked_fill(~masks[held], -1e9)
            figures = {"agreement": (out.argmax(1) == target[held]).float().mean().item()}
            if values is not None:
                rows = torch.as_tensor(valued_rows)
                v = values[valued_held]
                best = torch.nan_to_num(v, nan=-1e9).max(1).values
                cards = {
                    "card": card_logp(out[rows], valued_held).argmax(1),  # the most likely card, over its signals
                    "played": out[rows].argmax(1) % 40,  # the card of the most likely action: the player's
                }
                for name, card in cards.items():
                    value = v.gather(1, card[:, None])[:, 0]
                    figures[f"{name}_agreement"] = (value == best).float().mean().item()
                    figures[f"{name}_regret_thirds"] = (best - value).mean().item()
            return figures

    before = measure()
    optimizer = torch.optim.Adam(params, lr=lr)
    shuffle = np.random.default_rng(seed + 1)
    for _ in range(epochs):
        shuffle.shuffle(train)
        for start in range(0, len(train), 512):
            index = train[start : start + 512]
            out = logits_of(obs[index]).masked_fill(~masks[index], -1e9)
            logp = F.log_softmax(out, 1)
            if values is None:
                loss = F.nll_loss(logp, target[index])
            else:
                v = values[index]
                valued = torch.isfinite(v).any(1)
                if regress:
                    legal = torch.isfinite(v[valued])
                    per_card = card_logits(out[valued], index[valued.numpy()])
                    goal = torch.nan_to_num(v[valued] / tau)
                    count = legal.sum(1, keepdim=True)
                    per_card = per_card.masked_fill(~legal, 0.0)
                    gap = (per_card - (per_card.sum(1, keepdim=True) / count)) - (
                        goal - goal.sum(1, keepdim=True) / count
                    )
                    loss = (gap.masked_fill(~legal, 0.0) ** 2).sum(1).div(count[:, 0]).sum() / len(index)
                else:
                    soft = torch.softmax(torch.nan_to_num(v[valued] / tau, nan=-1e9), 1)
                    lp = card_logp(out[valued], index[valued.numpy()])
                    loss = -(soft * lp.clamp_min(-1e6)).sum(1).sum() / len(index)
            if anchor:
                loss = loss + anchor * anchor_kl(base_logp[index], logp, None if values is None else valued).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    after = measure()
    layers = [(linear.weight.detach().numpy().copy(), linear.bias.detach().numpy().copy()) for linear in linears]
    figures = {
        "labels": n,
        "held_out": len(held),
        "valued_held_out": len(valued_held),
        "student_agreement": float((labels["student"][held] == labels["teacher"][held]).mean()),
        "before": before,
        "after": after,
        "epochs": epochs,
        "lr": lr,
        "tau": tau,
        "anchor": anchor,
        "regress": regress,
    }
    return MLPPolicy(layers, "tanh", {"distilled_from": "search", **figures}), figures


class Split:
    """Plays like ``early`` while more than ``late_from`` cards are in hand, like ``late`` after (``split``)."""

    def __init__(self, early: str, late: str, late_from: int = 8) -> None:
        self.early, self.late, self.late_from = make_player(early), make_player(late), late_from
        self.name = f"{Path(early).stem} then {Path(late).stem}"

    def act(self, view: Any, legal: list[int], rng: random.Random) -> int:
        """The ``late`` player's action from ``late_from`` cards in hand on, the ``early`` player's before."""
        player = self.late if view.hand.bit_count() <= self.late_from else self.early
        return player.act(view, legal, rng)


def split(student: str, boards: int, seed: int) -> dict[str, Any]:
    """Where a student's play differs in strength: ``ppo`` then the student, and the student then ``ppo``, against ``ppo``."""
    from tressette_env.evaluation.duplicate import duplicate

    out: dict[str, Any] = {"boards": boards, "seed": seed}
    for early, late in (("ppo", student), (student, "ppo")):
        result = duplicate(Split(early, late), make_player("ppo"), boards=boards, seed=seed, progress=False)
        out[f"{early} in the first two tricks, {late} in the last eight"] = [result.mean_points_diff, *result.ci95]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label")
    lab.add_argument("--decisions", type=int, default=60_000, help="labels in all")
    lab.add_argument("--workers", type=int, default=2)
    lab.add_argument("--seed", type=int, default=50_000)
    lab.add_argument(
        "--follow", type=float, default=None, help="how often the teacher's card is played (0.5; 0 with --open-hands)"
    )
    lab.add_argument("--teacher", default="search")
    lab.add_argument("--save-every", type=int, default=1000)
    lab.add_argument(
        "--soft", action="store_true", help="also record the teacher's value of every legal card (its exact tricks)"
    )
    lab.add_argument(
        "--open-hands",
        action="store_true",
        help="values from the open-hands solver on the deal as it lies (one solve, no sampling; implies --soft, "
        "needs --follow 0: every card is the student's)",
    )
    lab.add_argument("--out", type=Path, required=True)
    fitting = sub.add_parser("fit")
    fitting.add_argument("--labels", type=Path, required=True)
    fitting.add_argument("--epochs", type=int, default=4)
    fitting.add_argument("--lr", type=float, default=1e-4)
    fitting.add_argument("--seed", type=int, default=0)
    fitting.add_argument(
        "--tau", type=float, default=None, help="soft targets: softmax of the teacher's card values (thirds) / tau"
    )
    fitting.add_argument("--anchor", type=float, default=0.0, help="weight of the KL from the shipped policy")
    fitting.add_argument(
        "--regress", action="store_true", help="with --tau: fit the card logits to values / tau by least squares"
    )
    fitting.add_argument("--out", type=Path, required=True)
    splitting = sub.add_parser("split")
    splitting.add_argument("student", help="a policy file (.npz)")
    splitting.add_argument("--boards", type=int, default=2000)
    splitting.add_argument("--seed", type=int, default=123)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.command == "label":
        if args.follow is None:
            args.follow = 0.0 if args.open_hands else 0.5
        args.out.mkdir(parents=True, exist_ok=True)
        each = -(-args.decisions // args.workers)
        jobs = [
            (
                w,
                args.workers,
                each,
                args.seed,
                args.follow,
                args.teacher,
                args.out,
                args.save_every,
                args.soft,
                args.open_hands,
            )
            for w in range(args.workers)
        ]
        with Pool(args.workers) as pool:
            counts = pool.starmap(label, jobs)
        print(f"{sum(counts)} labels in {time.perf_counter() - start:.0f} s, written to {args.out}")
    elif args.command == "split":
        print(json.dumps(split(args.student, args.boards, args.seed), indent=2))
    else:
        import torch

        torch.set_num_threads(1)
        policy, figures = fit(
            read_labels(args.labels), args.epochs, args.lr, args.seed, args.tau, args.anchor, args.regress
        )
        policy.save(args.out)
        print(json.dumps(figures, indent=2))
        print(f"{time.perf_counter() - start:.0f} s; policy written to {args.out}")


if __name__ == "__main__":
    main()
