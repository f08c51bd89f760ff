"""Attempt 1: IPPO on one (non-vectorised) env, with the MaskInInfo adapter."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np
from adapter import MaskInInfo
from agilerl.algorithms import IPPO

from tressette_env import tressette_v0

env = MaskInInfo(tressette_v0.parallel_env())
obs, info = env.reset(seed=0)
agents = env.possible_agents
algo = IPPO(
    observation_spaces=[env.observation_space(a) for a in agents],
    action_spaces=[env.action_space(a) for a in agents],
    agent_ids=agents,
    learn_step=256,
    batch_size=64,
)
print("unique agents / groups:", algo.n_unique_agents, list(algo.actors.keys()))
action, logp, ent, val = algo.get_action(obs=obs, infos=info)
print({a: (np.shape(v), v) for a, v in action.items()})
print("legal?", {a: bool(info[a]["action_mask"][int(np.asarray(action[a]).ravel()[0])]) for a in agents})
