"""TorchRL: a game's parallel environment through TorchRL's PettingZoo wrapper, with its action masks.

    pip install torchrl   # after torch (see the README's two commands)
    python examples/torchrl_rollout.py --game tressette --hands 3

``PettingZooWrapper(parallel_env(), use_mask=True)`` groups the agents (one group, ``player``,
with a leading agent dimension) and keeps each agent's ``action_mask``; a rollout with no
policy draws masked random actions, so every hand is played to its end. The printed returns
are each agent's sum of rewards over the hands.
"""

from __future__ import annotations

import argparse
import importlib

import torch
from torchrl.envs import PettingZooWrapper

from tressette_env.envs.spec import GAME_NAMES, game_spec


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="tressette")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    module = importlib.import_module(f"tressette_env.{game_spec(args.game).env_name}")
    env = PettingZooWrapper(module.parallel_env(), use_mask=True, categorical_actions=True, seed=args.seed)
    torch.manual_seed(args.seed)
    (group,) = env.group_map
    agents = env.group_map[group]
    totals = torch.zeros(len(agents))
    steps = 0
    for _ in range(args.hands):
        rollout = env.rollout(10_000, break_when_any_done=True)
        totals += rollout["next", group, "reward"].sum(dim=0).reshape(-1)
        steps += rollout.batch_size[0]
    returns = {agent: float(total) for agent, total in zip(agents, totals, strict=True)}
    print(f"{args.game}: {args.hands} hands, {steps} steps; returns {returns}")
    return returns


if __name__ == "__main__":
    main()
