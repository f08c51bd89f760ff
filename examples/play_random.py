"""Play a Tressette match with random legal moves through the PettingZoo AEC loop.

Shows the loop every user writes (read the observation and its action mask, pick a
legal action, step), prints the table of the last hand and a line per hand.

    python examples/play_random.py --seed 0 --target-score 21
"""

from __future__ import annotations

import argparse

from tressette_env import tressette_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the random players")
    parser.add_argument("--target-score", type=int, default=21, help="points that win the match")
    args = parser.parse_args()

    env = tressette_v0.env(render_mode="ansi", episode="match", target_score=args.target_score)
    env.reset(seed=args.seed)
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(args.seed + i)  # the random players' own seeds
    last_hand = -1
    print("hand | points (team 0 - team 1) | match score")
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if info.get("hand", -1) > last_hand:  # a hand just ended: its result is in every info
            last_hand = info["hand"]
            print(
                f"{last_hand + 1:4} | {info['hand_score'][0]:>6} - {info['hand_score'][1]:<6}          | {info['match_score']}"
            )
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])  # a random legal action
        env.step(action)
    winner = env.unwrapped.game.public.winner
    print()
    print(env.render())
    print(f"\nteam {winner} (player_{winner} and player_{winner + 2}) wins the match")


if __name__ == "__main__":
    main()
