"""``TressetteVectorEnv`` as a stable-baselines3 ``VecEnv``, for ``sb3_contrib.MaskablePPO``.

stable-baselines3 stays optional: it is imported when ``SB3VecEnv`` is first used
(``from tressette_env.vector.sb3 import SB3VecEnv`` builds the class then), and a
missing install raises an ImportError that says what to install.

``SB3VecEnv(env)`` wraps a ``TressetteVectorEnv`` or another game's ``FamilyVectorEnv`` (or
takes ``TressetteVectorEnv``'s arguments and builds one: ``opponent=`` and ``partner=`` take
``"random"``, ``"heuristic"`` or a batched policy, as there; with ``game=`` another game's
name, ``FamilyVectorEnv``'s: ``SB3VecEnv(num_envs=64, game="calabresella", others="heuristic")``). It follows SB3's conventions: ``step_wait`` returns ``dones`` and a list
of info dicts, with ``"terminal_observation"`` (and ``"TimeLimit.truncated": False``)
in the dict of each episode that ended; the returned observation is already the
new episode's. ``env_method("action_masks")`` gives each env's bool mask ((161,) in the four-seat game, (255,) in the others),
which is what MaskablePPO reads::

    from sb3_contrib import MaskablePPO
    from tressette_env.training.masking import MaskablePolicy  # or "MlpPolicy": the same, slower
    from tressette_env.vector.sb3 import SB3VecEnv

    venv = SB3VecEnv(num_envs=64, seed=0)  # random opponents; opponent="heuristic" for the rule player
    model = MaskablePPO(MaskablePolicy, venv, n_steps=64).learn(10_000)
"""

from __future__ import annotations

from typing import Any

from ..messages import shown

_CLASS: type | None = None


def _build() -> type:
    global _CLASS
    if _CLASS is not None:
        return _CLASS
    try:
        from stable_baselines3.common.vec_env.base_vec_env import VecEnv
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(
            "SB3VecEnv needs stable-baselines3 (and sb3-contrib for MaskablePPO): "
            'pip install -e ".[train]" (from a clone) or pip install "tressette-env[train]"'
        ) from e
    import numpy as np

    from .env import TressetteVectorEnv

    class SB3VecEnv(VecEnv):
        """A ``TressetteVectorEnv`` behind stable-baselines3's ``VecEnv`` interface (see the module docstring)."""

        def __init__(self, env: TressetteVectorEnv | None = None, *, game: str = "tressette", **kwargs: Any):
            if env is not None and (kwargs or game != "tressette"):
                raise TypeError("give either a vector environment or the arguments to build one, not both")
            if env is None and game == "tressette":
                env = TressetteVectorEnv(**kwargs)
            elif env is None:
                from .family_env import FamilyVectorEnv

                if "num_envs" not in kwargs:
                    raise TypeError(f"SB3VecEnv(game={game!r}, ...) needs num_envs (the number of deals)")
                env = FamilyVectorEnv(game=game, **kwargs)
            self.env = env
            self._actions: np.ndarray | None = None
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

        def reset(self) -> np.ndarray:
            seed = self._seeds[0] if getattr(self, "_seeds", None) else None
            options = self._options[0] if getattr(self, "_options", None) else None
            obs, _ = self.env.reset(seed=seed, options=options or None)
            self._reset_seeds()
            self._reset_options()
            return obs

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions).reshape(self.num_envs)

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
            obs, rewards, terminated, truncated, infos = self.env.step(self._actions)
            dones = terminated | truncated
            out: list[dict] = [{} for _ in range(self.num_envs)]
            if "final_obs" in infos:
                final_obs = infos["final_obs"]
                final_info = infos["final_info"]
                for i in np.flatnonzero(infos["_final_obs"]):
                    info = {key: value[i] for key, value in final_info.items() if not key.startswith("_")}
                    info["terminal_observation"] = final_obs[i]
                    info["TimeLimit.truncated"] = bool(truncated[i])
                    out[i] = info
            return obs, rewards, dones, out

        def close(self) -> None:
            self.env.close()

        def action_masks(self) -> np.ndarray:
            """(N, A) bool: the learner's legal actions in each env (A: 161 in the four-seat game, 255 in the others)."""
            return self.env.action_masks()

        def _indices(self, indices: Any) -> list[int]:
            if indices is None:
                return list(range(self.num_envs))
            if isinstance(indices, int):
                return [indices]
            return list(indices)

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            if attr_name == "action_masks":
                value = self.action_masks
            else:
                value = getattr(self.env, attr_name)
            return [value] * len(self._indices(indices))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(self.env, attr_name, value)

        def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list:
            rows = self._indices(indices)
            if method_name == "action_masks":
                masks = self.action_masks()
                return [masks[i] for i in rows]
            result = getattr(self.env, method_name)(*method_args, **method_kwargs)
            return [result] * len(rows)

        def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
            return [False] * len(self._indices(indices))

        def get_images(self) -> list:
            return []

    _CLASS = SB3VecEnv
    return _CLASS


def __getattr__(name: str) -> Any:
    if name == "SB3VecEnv":
        return _build()
    raise AttributeError(f"module {shown(__name__)} has no attribute {shown(name)}")
