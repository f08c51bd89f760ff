"""SuperSuit route + a small VecEnvWrapper that gives MaskablePPO what it asks of a VecEnv:
has_attr("action_masks") and env_method("action_masks"), read from the last observation's "action_mask"
(SuperSuit's ConcatVecEnv has neither has_attr nor seed, and the env has no action_masks() method)."""

import sys
import time
import warnings

import supersuit as ss
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnvWrapper

from tressette_env import tressette_v0
from tressette_env.envs.playing import RenuncioWarning


class ObsMaskVecEnv(VecEnvWrapper):
    def reset(self):
        obs = self.venv.reset()
        self._masks = obs["action_mask"].astype(bool)
        return obs

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        self._masks = obs["action_mask"].astype(bool)
        return obs, rewards, dones, infos

    def has_attr(self, attr_name):
        return attr_name == "action_masks"

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":
            return list(self._masks if indices is None else self._masks[indices])
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)

    def seed(self, seed=None):  # ConcatVecEnv has no seed(); SB3 calls it when seed= is given
        return [None] * self.num_envs


renuncios = 0


def showwarning(message, category, *a, **k):
    global renuncios
    if category is RenuncioWarning:
        renuncios += 1
    else:
        print(category.__name__, message)


warnings.showwarning = showwarning

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
venv = ss.pettingzoo_env_to_vec_env_v1(tressette_v0.parallel_env())
venv = ss.concat_vec_envs_v1(venv, 2, num_cpus=0, base_class="stable_baselines3")
venv = ObsMaskVecEnv(venv)
model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=128, seed=0, verbose=0)
t0, c0 = time.perf_counter(), time.process_time()
model.learn(STEPS)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(
    f"MaskablePPO MultiInputPolicy via SuperSuit + ObsMaskVecEnv: num_timesteps={model.num_timesteps} "
    f"(rows: 2 envs x 4 agents, so {model.num_timesteps // 4} env steps) in {wall:.1f}s wall / {cpu:.1f}s cpu; "
    f"renuncio warnings={renuncios}"
)
