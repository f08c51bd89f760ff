"""Minimal AgileRL IPPO training loop on tressette_v0 (the loop of agilerl.training.train_multi_agent_on_policy,
without the evolutionary population), counting illegal actions.

usage: python train_ippo.py VEC MASK PATCH STEPS [NUM_ENVS]
  VEC   dummy | async       (agilerl.vector.PzDummyVecEnv | AsyncPettingZooVecEnv)
  MASK  array | list | obs  (info["action_mask"] as the env's int8 array, or as a Python list;
                            obs: LegalInObs + patch_stochastic_actor, the mask in the observation as "legal")
  PATCH 0 | 1               (1: IPPO subclass with the `None in group_masks` check fixed)
  STEPS env steps in total (summed over the vector's envs)
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warnings

import numpy as np

from tressette_env.envs.playing import RenuncioWarning

warnings.simplefilter("ignore", RenuncioWarning)  # counted by the adapter instead
import torch
from adapter import LegalInObs, MaskInInfo, MaskInInfoEagerReset, patch_stochastic_actor
from agilerl.algorithms import IPPO
from agilerl.vector import AsyncPettingZooVecEnv, PzDummyVecEnv

from tressette_env import tressette_v0

EAGER = os.environ.get("EAGER") == "1"  # EAGER=1: MaskInInfoEagerReset (PzDummyVecEnv's dropped reset info)

VEC, MASK, PATCH, STEPS = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
NUM_ENVS = int(sys.argv[5]) if len(sys.argv) > 5 else 1
torch.set_num_threads(1)


class ListMask(MaskInInfoEagerReset if EAGER else MaskInInfo):
    def _split(self, obs, infos):
        obs, infos = super()._split(obs, infos)
        return obs, {a: dict(i, action_mask=i["action_mask"].tolist()) for a, i in infos.items()}


class PatchedIPPO(IPPO):
    """IPPO.extract_action_masks with `None in group_masks` (ambiguous for arrays) replaced by an `is None` test."""

    def extract_action_masks(self, infos):
        groups = {g: [] for g in self.observation_space}
        for agent_id, info in infos.items():
            if isinstance(info, dict):
                g = self.get_group_id(agent_id) if self.has_grouped_agents() else agent_id
                groups[g].append(info.get("action_mask"))
        return {
            g: None if not m or any(x is None for x in m) else torch.as_tensor(np.array(m), dtype=torch.float32)
            for g, m in groups.items()
        }


def make_env():
    if MASK == "obs":  # LegalInObs + patch_stochastic_actor(): masks in acting and in learning
        return LegalInObs(tressette_v0.parallel_env())
    return (ListMask if MASK == "list" else MaskInInfoEagerReset if EAGER else MaskInInfo)(tressette_v0.parallel_env())


if MASK == "obs":
    patch_stochastic_actor()
vec_env = PzDummyVecEnv(make_env()) if VEC == "dummy" else AsyncPettingZooVecEnv([make_env for _ in range(NUM_ENVS)])
num_envs = vec_env.num_envs
agents = vec_env.possible_agents
single = make_env()
algo = (PatchedIPPO if PATCH else IPPO)(
    observation_spaces=[single.observation_space(a) for a in agents],
    action_spaces=[single.action_space(a) for a in agents],
    agent_ids=agents,
    learn_step=2048,
    batch_size=256,
    update_epochs=2,
    lr=3e-4,
    net_config=(
        {
            "latent_dim": 128,
            "encoder_config": {"vector_space_mlp": True, "mlp_config": {"hidden_size": [128]}},
            "head_config": {"hidden_size": [128]},
        }
        if MASK == "obs"
        else {"encoder_config": {"hidden_size": [128]}, "head_config": {"hidden_size": [128]}}
    ),
)
print(
    f"agilerl IPPO, vec={type(vec_env).__name__} num_envs={num_envs} mask={MASK} patched={PATCH} eager_reset={EAGER}; groups={list(algo.actors)}"
)


def masks_of(info, agent):
    m = np.asarray(obs[agent]["legal"] if MASK == "obs" else info[agent]["action_mask"], dtype=bool)
    return m.reshape(num_envs, -1)


obs, info = vec_env.reset(seed=0)
steps, illegal, plays, learns, hands = 0, 0, 0, 0, 0
t0, c0 = time.perf_counter(), time.process_time()
t_learn = 0.0
while steps < STEPS:
    states, actions, log_probs, rewards, dones, values = ({a: [] for a in agents} for _ in range(6))
    done = {a: np.zeros(num_envs) for a in agents}
    for _ in range(-(algo.learn_step // -num_envs)):
        action, log_prob, _, value = algo.get_action(obs=obs, infos=info)
        for a in agents:  # mask check: the action must be legal in the mask the env gave for this step
            m = masks_of(info, a)
            act = np.asarray(action[a]).reshape(num_envs).astype(int)
            legal = m[np.arange(num_envs), act]
            illegal += int((~legal).sum())
            plays += int((act != 255).sum())
        next_obs, reward, term, trunc, info = vec_env.step(action)
        steps += num_envs
        for a in obs:
            states[a].append(obs[a])
            rewards[a].append(reward[a])
            actions[a].append(action[a])
            log_probs[a].append(log_prob[a])
            values[a].append(value[a])
            dones[a].append(done[a])
        next_done = {}
        for a in term:
            t, tr = np.asarray(term[a], dtype=float), np.asarray(trunc[a], dtype=float)
            ok = ~(np.isnan(t) | np.isnan(tr))
            r = np.full_like(ok, np.nan, dtype=float)
            r[ok] = np.logical_or(t[ok], tr[ok])
            next_done[a] = r
        obs, done = next_obs, next_done
        hands += int(np.all(np.stack([next_done[a] for a in agents]) == 1, axis=0).sum())
    tl = time.perf_counter()
    loss = algo.learn((states, actions, log_probs, rewards, dones, values, next_obs, next_done))
    t_learn += time.perf_counter() - tl
    learns += 1
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
true_illegal = sum(vec_env.get_attr("illegal_actions")) if VEC == "async" else vec_env._env.illegal_actions
print(
    f"steps={steps} hands={hands} learn_calls={learns} loss={loss} plays={plays} illegal_vs_info_mask={illegal} illegal_vs_env_true_mask={true_illegal} steps_per_hand={steps / max(hands, 1):.1f}"
)
print(
    f"wall={wall:.1f}s cpu(main process)={cpu:.1f}s  -> {steps / wall:.0f} steps/s wall, {steps / cpu:.0f} steps/cpu-s; learn time {t_learn:.1f}s"
)
vec_env.close()
import resource

child = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"cpu of worker processes (after close): {child.ru_utime + child.ru_stime:.1f}s")
