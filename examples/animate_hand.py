"""Write an animated GIF of one hand: the heuristic in every seat, one frame per action (``render_mode="rgb_array"``).

    python examples/animate_hand.py --game tressette --seed 0 --out hand.gif

Needs Pillow (``pip install pillow``; the eval and train extras bring it).
"""

from __future__ import annotations

import argparse
import random

from PIL import Image

from tressette_env.agents import HeuristicPlayer
from tressette_env.envs.spec import GAME_NAMES, game_spec


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="tressette")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="hand.gif")
    parser.add_argument("--ms", type=int, default=700, help="milliseconds per frame")
    args = parser.parse_args(argv)
    module = __import__(f"tressette_env.{game_spec(args.game).env_name}", fromlist=["raw_env"])
    env = module.raw_env(render_mode="rgb_array")
    env.reset(seed=args.seed)
    player, rng = HeuristicPlayer(), random.Random(args.seed)
    frames = [Image.fromarray(env.render())]
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(player.act(env.view(agent), [int(a) for a in env.observe(agent)["action_mask"].nonzero()[0]], rng))
        frames.append(Image.fromarray(env.render()))
    frames[0].save(args.out, save_all=True, append_images=frames[1:], duration=args.ms, loop=0)
    print(f"{args.out}: {len(frames)} frames of {args.game}")


if __name__ == "__main__":
    main()
