"""CleanRL-style PPO in one file: your own PyTorch loop with action masks on Gymnasium's vector API (the batched engine).

    OMP_NUM_THREADS=1 python examples/cleanrl_ppo.py                  # about two minutes on one core
    OMP_NUM_THREADS=1 python examples/cleanrl_ppo.py --opponents heuristic --total-timesteps 2000000

``gym.make_vec("tressette_env/Tressette-v0", num_envs=N, vectorization_mode="vector_entry_point")``
is the batched engine: N deals, one learning seat in each, the others played in batch
(``--partner`` and ``--opponents``: ``random`` or ``heuristic``). The loop is CleanRL's
``ppo.py`` (rollout, GAE, clipped surrogate, value loss, entropy bonus) with one change for a
card game: the logits of illegal actions are set to -1e9 from ``infos["action_mask"]``, in the
rollout and in the update. The vector environment resets a finished deal in the same step
(``SAME_STEP``), which is what CleanRL's loop assumes. At the end the actor is exported as an
``MLPPolicy`` and plays the package's duplicate evaluation against random and the heuristic.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

import tressette_env  # noqa: E402, F401  (registers the environments)
from tressette_env.evaluation import against_baselines, results_table  # noqa: E402
from tressette_env.learned import MLPPlayer  # noqa: E402
from tressette_env.learned.mlp import MLPPolicy  # noqa: E402


def layer(inputs: int, outputs: int, std: float = np.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    """CleanRL's actor and critic, tanh MLPs; the actor's logits are masked."""

    def __init__(self, observations: int, actions: int, hidden: int):
        super().__init__()
        self.critic = nn.Sequential(layer(observations, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                    layer(hidden, 1, 1.0))  # fmt: skip
        self.actor = nn.Sequential(layer(observations, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                   layer(hidden, actions, 0.01))  # fmt: skip

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        logits = self.actor(obs).masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(obs)

    def policy(self) -> MLPPolicy:
        """The actor as the package's ``MLPPolicy`` (plays as ``MLPPlayer`` anywhere)."""
        linears = [m for m in self.actor if isinstance(m, nn.Linear)]
        return MLPPolicy([(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in linears], "tanh")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--total-timesteps", type=int, default=500_000)
    parser.add_argument("--num-envs", type=int, default=256, help="deals played at once")
    parser.add_argument("--num-steps", type=int, default=32, help="steps per deal per rollout")
    parser.add_argument("--partner", default="random")
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--boards", type=int, default=500, help="duplicate boards per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    gamma, lam, clip, ent_coef, vf_coef, max_grad_norm = 1.0, 0.95, 0.2, 0.01, 0.5, 0.5
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    envs = gym.make_vec("tressette_env/Tressette-v0", num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                        partner=args.partner, opponents=args.opponents, dense_reward=True)  # fmt: skip
    n, steps = args.num_envs, args.num_steps
    size, actions = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = Agent(size, actions, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    obs_buf = torch.zeros((steps, n, size))
    mask_buf = torch.zeros((steps, n, actions), dtype=torch.bool)
    act_buf, logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((steps, n)) for _ in range(5))
    obs, infos = envs.reset(seed=args.seed)
    next_obs, next_mask = torch.tensor(obs, dtype=torch.float32), torch.tensor(infos["action_mask"])
    next_done = torch.zeros(n)
    updates = max(1, args.total_timesteps // (n * steps))
    hands, hand_returns, start = 0, [], time.perf_counter()
    print(f"{updates} updates of {n * steps} learner steps ({n} deals x {steps} steps)")
    for update in range(1, updates + 1):
        returns = np.zeros(n)
        for t in range(steps):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            rew_buf[t] = torch.tensor(reward)
            returns += reward
            done = np.logical_or(terminated, truncated)
            hands += int(done.sum())
            hand_returns += returns[done].tolist()
            returns[done] = 0.0
            next_obs, next_mask = torch.tensor(obs, dtype=torch.float32), torch.tensor(infos["action_mask"])
            next_done = torch.tensor(done, dtype=torch.float32)
        with torch.no_grad():  # generalised advantage estimation, as CleanRL's
            next_value = agent.value(next_obs)
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(steps)):
                following_done = next_done if t == steps - 1 else done_buf[t + 1]
                following_value = next_value if t == steps - 1 else val_buf[t + 1]
                delta = rew_buf[t] + gamma * following_value * (1 - following_done) - val_buf[t]
                last = delta + gamma * lam * (1 - following_done) * last
                advantages[t] = last
            targets = advantages + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, size), mask_buf.reshape(-1, actions)
        b_act, b_logp = act_buf.reshape(-1).long(), logp_buf.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), targets.reshape(-1)
        batch = n * steps
        size_mb = batch // args.minibatches
        for _ in range(args.epochs):
            order = torch.randperm(batch)
            for lo in range(0, batch, size_mb):
                idx = order[lo : lo + size_mb]
                _, logp, entropy, value = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg_loss - ent_coef * entropy.mean() + vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), max_grad_norm)
                optimizer.step()
        if update % max(1, updates // 10) == 0 or update == updates:
            recent = np.mean(hand_returns[-2000:]) if hand_returns else float("nan")
            print(f"update {update:4d}  learner steps {update * batch:8d}  hands {hands:7d}  "
                  f"mean hand return (last 2000) {recent:+.2f}  {time.perf_counter() - start:5.0f} s", flush=True)  # fmt: skip
    envs.close()
    player = MLPPlayer(agent.policy(), name="cleanrl_ppo")
    print(f"\nduplicate evaluation, {args.boards} boards, seed {args.seed}:")
    results = against_baselines(player, ["random", "heuristic"], args.boards, args.seed, workers=1, progress=False)
    print(results_table(results))
    return {r.players[1]: r for r in results}


if __name__ == "__main__":
    main()
