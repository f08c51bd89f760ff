"""AgileRL's own trainer (agilerl.training.train_multi_agent_on_policy, no mutation/tournament) with the
LegalInObs adapter + patch_stochastic_actor(), on AsyncPettingZooVecEnv."""

import os
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch
from adapter import LegalInObs, patch_stochastic_actor
from agilerl.algorithms import IPPO
from agilerl.training.train_multi_agent_on_policy import train_multi_agent_on_policy
from agilerl.vector import AsyncPettingZooVecEnv

from tressette_env import tressette_v0
from tressette_env.envs.playing import RenuncioWarning

if __name__ == "__main__":
    warnings.simplefilter("error", RenuncioWarning)
    torch.set_num_threads(1)
    patch_stochastic_actor()
    make = lambda: LegalInObs(tressette_v0.parallel_env())
    vec_env = AsyncPettingZooVecEnv([make for _ in range(2)])
    e = make()
    agents = e.possible_agents
    algo = IPPO(
        [e.observation_space(a) for a in agents],
        [e.action_space(a) for a in agents],
        agent_ids=agents,
        learn_step=2048,
        batch_size=256,
        update_epochs=2,
        lr=3e-4,
    )
    t0 = time.perf_counter()
    pop, fit = train_multi_agent_on_policy(
        vec_env, "tressette_v0", "IPPO", [algo], max_steps=8192, evo_steps=4096, eval_loop=1, verbose=True
    )
    print(f"trainer done in {time.perf_counter() - t0:.1f}s, fitnesses {fit}, algo steps {pop[0].steps}")
    vec_env.close()
