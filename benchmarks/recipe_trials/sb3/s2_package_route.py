"""The package's own routes (docs/integrations/sb3.md and tressette_env/vector/sb3.py), with learn(2000)."""

import time
import warnings

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.env_util import make_vec_env

from tressette_env.envs.playing import RenuncioWarning
from tressette_env.training.masking import MaskablePolicy
from tressette_env.vector.sb3 import SB3VecEnv

warnings.simplefilter("error", RenuncioWarning)  # an illegal action would raise


def timed(name, model, steps=2000):
    t0, c0 = time.perf_counter(), time.process_time()
    model.learn(steps)
    print(
        f"{name}: num_timesteps={model.num_timesteps} in {time.perf_counter() - t0:.1f}s wall / {time.process_time() - c0:.1f}s cpu"
    )


# 1. sb3.md: gym.make via make_vec_env + MaskablePPO(MaskablePolicy)
venv = make_vec_env(
    "tressette_env/Tressette-v0",
    n_envs=4,
    env_kwargs={"opponents": "heuristic", "dense_reward": True, "render_mode": None},
)
model = MaskablePPO(MaskablePolicy, venv, n_steps=64, batch_size=128, seed=0)
timed("make_vec_env + MaskablePPO(MaskablePolicy)", model)
mean, std = evaluate_policy(model, venv, n_eval_episodes=20)
print(f"  masked evaluate_policy: {mean:+.1f} +- {std:.1f} points a hand against the heuristic")

# 1b. the same with "MlpPolicy"
model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=128, seed=0)
timed("make_vec_env + MaskablePPO('MlpPolicy')", model)

# 2. vector/sb3.py: the batched engine as an SB3 VecEnv
venv = SB3VecEnv(num_envs=64, seed=0)
model = MaskablePPO(MaskablePolicy, venv, n_steps=64, seed=0)
timed("SB3VecEnv(num_envs=64) + MaskablePPO(MaskablePolicy)", model, 2000)
model = MaskablePPO("MlpPolicy", SB3VecEnv(num_envs=64, seed=0), n_steps=64, seed=0)
timed("SB3VecEnv(num_envs=64) + MaskablePPO('MlpPolicy')", model, 2000)
print("has_attr('action_masks'):", SB3VecEnv(num_envs=2, seed=0).has_attr("action_masks"))
