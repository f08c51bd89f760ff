"""Does IPPO.learn use the action masks? Compare the stored (masked) log-probs with the log-probs that
IPPO._learn_individual recomputes (actor(batch_obs) with no mask) before any update: PPO's ratio should be 1."""

import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np
import torch

from tressette_env import tressette_v0
from tressette_env.envs.playing import RenuncioWarning

warnings.simplefilter("ignore", RenuncioWarning)
from adapter import LegalInObs, MaskInInfoEagerReset, patch_stochastic_actor
from agilerl.algorithms import IPPO
from agilerl.vector import PzDummyVecEnv

OBS = len(sys.argv) > 1 and sys.argv[1] == "obs"  # `obs`: LegalInObs + patch_stochastic_actor()


class L(MaskInInfoEagerReset):
    def _split(self, obs, infos):
        obs, infos = super()._split(obs, infos)
        return obs, {a: dict(i, action_mask=i["action_mask"].tolist()) for a, i in infos.items()}


if OBS:
    patch_stochastic_actor()
    L = LegalInObs
torch.manual_seed(0)
if OBS:  # PzDummyVecEnv cannot batch Dict observations (np.asarray(dict) is a 0-d object array)
    from agilerl.vector import AsyncPettingZooVecEnv

    venv = AsyncPettingZooVecEnv([lambda: L(tressette_v0.parallel_env())])
else:
    venv = PzDummyVecEnv(L(tressette_v0.parallel_env()))
agents = venv.possible_agents
e = L(tressette_v0.parallel_env())
algo = IPPO([e.observation_space(a) for a in agents], [e.action_space(a) for a in agents], agent_ids=agents)
obs, info = venv.reset(seed=0)
O, A, LP, ONTURN = [], [], [], []
for _ in range(400):
    act, lp, _, _ = algo.get_action(obs=obs, infos=info)
    for a in agents:
        O.append(
            {k: np.asarray(v, dtype=np.float32).reshape(1, -1) for k, v in obs[a].items()}
            if OBS
            else np.asarray(obs[a], dtype=np.float32).reshape(1, -1)
        )
        A.append(int(np.ravel(act[a])[0]))
        LP.append(float(np.ravel(lp[a])[0]))
        ONTURN.append(int(np.ravel(act[a])[0]) != 255)
    obs, _, _, _, info = venv.step(act)
actor = algo.actors["player"]
with torch.no_grad():
    batch = (
        {k: torch.as_tensor(np.concatenate([o[k] for o in O])) for k in O[0]}
        if OBS
        else torch.as_tensor(np.concatenate(O))
    )
    actor(batch)  # as in _learn_individual: no action_mask
    lp_unmasked = actor.action_log_prob(torch.as_tensor(A)).numpy()
LP, ONTURN = np.array(LP), np.array(ONTURN)
ratio = np.exp(lp_unmasked - LP)
print(f"samples={len(LP)} (on turn: {ONTURN.sum()})")
print(
    f"stored masked log-prob: mean {LP.mean():.3f} (waiting agents: {LP[~ONTURN].mean():.3f}, on turn: {LP[ONTURN].mean():.3f})"
)
venv.close()
print(
    f"PPO ratio at the first minibatch (should be 1): waiting agents mean {ratio[~ONTURN].mean():.4f}, on-turn agents mean {ratio[ONTURN].mean():.4f}"
)
