"""The usual SuperSuit route: pettingzoo_env_to_vec_env_v1 + concat_vec_envs_v1(base_class="stable_baselines3").
usage: python s0_supersuit.py maskable|ppo [MultiInputPolicy|MlpPolicy]"""

import sys
import time
import traceback
import warnings

import supersuit as ss

from tressette_env import tressette_v0
from tressette_env.envs.playing import RenuncioWarning

ALGO = sys.argv[1]
POLICY = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "MultiInputPolicy"
renuncios = 0


def count(*a, **k):
    global renuncios
    renuncios += 1


warnings.showwarning = lambda message, category, *a, **k: (
    count() if category is RenuncioWarning else print(category.__name__, message)
)

env = tressette_v0.parallel_env()
venv = ss.pettingzoo_env_to_vec_env_v1(env)
venv = ss.concat_vec_envs_v1(venv, 2, num_cpus=0, base_class="stable_baselines3")
print(type(venv).__name__, venv.num_envs, venv.observation_space, venv.action_space)
try:
    if ALGO == "maskable":
        from sb3_contrib import MaskablePPO

        model = MaskablePPO(
            POLICY, venv, n_steps=64, batch_size=128, verbose=0, **({"seed": 0} if "--seed" in sys.argv else {})
        )
    else:
        from stable_baselines3 import PPO

        model = PPO(
            POLICY, venv, n_steps=64, batch_size=128, verbose=0, **({"seed": 0} if "--seed" in sys.argv else {})
        )
    t0 = time.perf_counter()
    model.learn(2000)
    print(
        f"{ALGO} {POLICY}: learn(2000) finished, num_timesteps={model.num_timesteps}, {time.perf_counter() - t0:.1f}s, renuncio warnings={renuncios}"
    )
except Exception:
    traceback.print_exc()
