"""Attempt 0: AgileRL IPPO on tressette_v0.parallel_env() exactly as the env comes (no adapter)."""

import traceback

from agilerl.algorithms import IPPO

from tressette_env import tressette_v0

env = tressette_v0.parallel_env()
obs, info = env.reset(seed=0)
agents = env.possible_agents
try:
    algo = IPPO(
        observation_spaces=[env.observation_space(a) for a in agents],
        action_spaces=[env.action_space(a) for a in agents],
        agent_ids=agents,
        learn_step=256,
        batch_size=64,
    )
    print("IPPO built with Dict obs space")
    # a single (non-vectorised) env: AgileRL expects a batch dim; try as the IPPO docs do
    action, logp, ent, val = algo.get_action(obs=obs, infos=info)
    print("get_action ok", action)
except Exception:
    traceback.print_exc()
