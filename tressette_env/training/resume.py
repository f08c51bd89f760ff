"""Resuming a run: its state taken out of a running run, and put back into a new one as if it had never stopped.

``checkpoint.py`` is the checkpoint file (its entries, and reading them safely); this module is
the run's side of it: ``Resume`` reads what ``--resume`` names before any work, loads the model,
puts the environments, the random streams and the callbacks' pool, history and clocks back, and
``RunCheckpoints`` writes the checkpoints that it reads. Whether the checkpoint's environments and
random streams go on depends on ``config.ENV_SETTINGS``: when one of them changed, new
environments are seeded from the seed and the checkpoint's step (``_env_seeds``).
``whole_rollouts`` is the step count a run, new or resumed, reaches.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..learned.mlp import ModelFileError
from ..messages import reason
from . import checkpoint
from .config import ENV_SETTINGS, MODEL_SETTINGS, PLAYER_SETTINGS, TrainConfig


@dataclass(frozen=True)
class Resume:
    """What ``config.resume`` names, read before any work; ``path`` None for a new run.

    ``differ`` are the ``ENV_SETTINGS`` that are not the checkpoint's run's: with none, the run
    continues the checkpoint's environments and random streams (``continued``); otherwise it
    makes new ones, seeded from the seed and the checkpoint's step (``resumed_at``).
    """

    path: Path | None = None
    info: dict | None = None
    """The checkpoint's JSON entry (``checkpoint.read_info``)."""
    differ: tuple[str, ...] = ()

    @classmethod
    def of(cls, config: TrainConfig) -> Resume:
        """The checkpoint ``config.resume`` names (only its JSON entry is read), or no resume."""
        path = checkpoint.checkpoint_path(config.resume) if config.resume else None
        info = checkpoint.read_info(path) if path else None
        differ = []
        if info:
            mine, theirs = _as_json(asdict(config)), {"game": checkpoint.checkpoint_game(info), **info["config"]}
            differ = [k for k in ENV_SETTINGS if mine.get(k) != theirs.get(k)]
        return cls(path, info, tuple(differ))

    @property
    def continued(self) -> bool:
        """The checkpoint's environments and random streams go on (they were made the same way)."""
        return self.info is not None and not self.differ

    @property
    def resumed_at(self) -> int | None:
        """The checkpoint's step, when new environments are made on a resume (see ``_env_seeds``); else None."""
        return self.info["num_timesteps"] if self.info and not self.continued else None

    def env_seeds(self, seed: int, count: int) -> list[int]:
        """Seeds of ``count`` new environments of this run (``_env_seeds``)."""
        return _env_seeds(seed, count, self.resumed_at)

    def load(self, config: TrainConfig, venv: Any, tensorboard: str | None) -> tuple[Any, dict]:
        """The checkpoint's MaskablePPO model on ``venv``, and its pickled state (``checkpoint.read_state``).

        Continued, the environments and the global random streams are the checkpoint's; otherwise
        the model's random streams are seeded anew. On an error ``venv`` is closed and
        ``ModelFileError`` names the file. The checkpoint must be trusted: SB3's ``load``
        unpickles it (``--resume`` takes only our own checkpoints).
        """
        from sb3_contrib import MaskablePPO

        from .masking import MaskablePolicy
        from .minibatches import without_single_samples

        try:
            state = checkpoint.read_state(self.path)  # trusted: --resume takes only our own checkpoints
            model = MaskablePPO.load(
                self.path, env=venv, tensorboard_log=tensorboard, force_reset=not self.continued,
                custom_objects={"policy_class": MaskablePolicy},
            )  # fmt: skip
            without_single_samples(model)
            if self.continued:
                _restore_envs(venv, config.batched > 0, state["envs"], state["pool"])
                _set_rng_states(state["rng"])
            else:
                model.set_random_seed(self.env_seeds(config.seed, 1)[0])
        except Exception as error:
            venv.close()
            if isinstance(error, ModelFileError):
                raise
            raise ModelFileError(self.path, f"a damaged checkpoint ({reason(error)})") from None
        return model, state

    def resumed_config(self, config: TrainConfig, model: Any, run: Path) -> TrainConfig:
        """``config`` with the loaded model's settings (``MODEL_SETTINGS``) and no warm start; says so."""
        config = replace(config, **_model_settings(model), imitate=None)
        settings = ", ".join(f"{k}={getattr(config, k)}" for k in MODEL_SETTINGS)
        print(f"resuming {self.path} at step {model.num_timesteps}, in {run}: the model settings come from the "
              f"checkpoint ({settings})", flush=True)  # fmt: skip
        if self.differ:
            print(
                f"{', '.join(self.differ)} differ from the checkpoint's run: new environments and random streams, "
                "seeded from the seed and the checkpoint's step",
                flush=True,
            )
        return config

    def restore(self, config: TrainConfig, state: dict, evaluator: Any, selfplay: Any, checkpoints: Any) -> None:
        """Give the run's callbacks the checkpoint's history, self-play pool and clocks.

        The self-play callback deals the environments new players when they are new or
        ``PLAYER_SETTINGS`` changed.
        """
        clocks = self.info["clocks"]
        evaluator.restore(self.info["history"], clocks["evaluated_at"], clocks["eval_seconds"])
        theirs = self.info["config"]
        players_changed = any(_as_json(getattr(config, k)) != theirs.get(k) for k in PLAYER_SETTINGS)
        selfplay.restore(
            state["pool"], state["selfplay_rng"], clocks["snapshot_at"], not self.continued or players_changed
        )
        checkpoints.last = clocks["checkpoint_at"]


class RunCheckpoints:
    """A PPO run's checkpoints: ``callback`` takes them between rollouts, ``save`` writes one.

    Args:
        model: the MaskablePPO model.
        config: the run's settings (a resumed run's: with the checkpoint's model settings).
        venv: the model's environments, whose state a checkpoint holds.
        evaluator: the run's ``DuplicateEvalCallback`` (its history and clock).
        selfplay: the run's ``SelfPlayCallback`` (its pool, random stream and clock).
        directory: where ``callback`` writes ``model_<steps>_steps.zip`` files.
    """

    def __init__(self, model: Any, config: TrainConfig, venv: Any, evaluator: Any, selfplay: Any, directory: Path):
        from .callbacks import RolloutCheckpointCallback

        self.model = model
        self.config = config
        self.venv = venv
        self.evaluator = evaluator
        self.selfplay = selfplay
        self.callback = RolloutCheckpointCallback(config.checkpoint_every, directory, self.save)
        """Saves every ``config.checkpoint_every`` steps, at a rollout boundary (``save_if_due``)."""

    def save(self, path: Path) -> None:
        """The model (SB3) and everything else a resume needs (``checkpoint.py``)."""
        self.model.save(path)
        clocks = {
            "evaluated_at": self.evaluator.evaluated_at,
            "eval_seconds": self.evaluator.seconds(),
            "snapshot_at": self.selfplay.snapshot_at,
            "checkpoint_at": self.callback.last,
        }
        run_info = {
            "num_timesteps": self.model.num_timesteps,
            "config": _as_json(asdict(self.config)),
            "history": [asdict(p) for p in self.evaluator.history],
            "clocks": clocks,
        }
        state = {
            "pool": self.selfplay.pool,
            "selfplay_rng": self.selfplay.rng.getstate(),
            "envs": _capture_envs(self.venv, self.config.batched > 0),
            "rng": _rng_states(),
        }
        checkpoint.write(path, run_info, state)


def whole_rollouts(total: int, start: int, rollout: int) -> int:
    """The step count a run reaches: ``start`` plus whole rollouts, the fewest that reach ``total``.

    Example:
        >>> whole_rollouts(250_000, 0, 4096), whole_rollouts(1024, 512, 256), whole_rollouts(300, 0, 64)
        (253952, 1024, 320)
    """
    return start + -(-(total - start) // rollout) * rollout


def _env_seeds(seed: int, count: int, resumed_at: int | None) -> list[int]:
    """Seeds of ``count`` environments: ``seed + i`` for a new run.

    For new environments of a resumed run, seeds drawn from ``(seed, resumed_at)``, so that
    they do not replay the deals the run has already played.
    """
    if resumed_at is None:
        return [seed + i for i in range(count)]

    return [int(x) for x in np.random.SeedSequence([seed, resumed_at]).generate_state(count, np.uint32)]


def _capture_envs(venv, batched: bool):
    """The environments' whole state (see ``checkpoint.py``).

    One pickle per single-deal environment, or the batched environment and its episode statistics.
    """
    if not batched:
        return venv.env_method("get_resume_state")
    import cloudpickle

    monitor = venv.venv  # ScaledRewards(VecMonitor(SB3VecEnv))
    counters = {k: getattr(monitor, k) for k in ("episode_returns", "episode_lengths", "episode_count")}
    return {"vector": cloudpickle.dumps(monitor.venv.env), "monitor": counters}


def _restore_envs(venv, batched: bool, saved, pool) -> None:
    import pickle

    if not batched:
        by_key = {player.pool_key: player for player in pool}
        for i, blob in enumerate(saved):
            venv.env_method("set_resume_state", blob, by_key, indices=[i])
        return
    monitor = venv.venv
    monitor.venv.env = pickle.loads(saved["vector"])
    for key, value in saved["monitor"].items():
        setattr(monitor, key, value)


def _rng_states() -> dict:
    import random

    import torch

    return {"torch": torch.get_rng_state(), "numpy": np.random.get_state(), "python": random.getstate()}


def _set_rng_states(states: dict) -> None:
    import random

    import torch

    torch.set_rng_state(states["torch"])
    np.random.set_state(states["numpy"])
    random.setstate(states["python"])


def _model_settings(model) -> dict:
    """The ``MODEL_SETTINGS`` a loaded MaskablePPO model trains with."""
    rate = model.learning_rate
    arch = model.policy.net_arch
    return {
        "learning_rate": float(rate(1.0) if callable(rate) else rate),
        "n_steps": int(model.n_steps),
        "batch_size": int(model.batch_size),
        "n_epochs": int(model.n_epochs),
        "gamma": float(model.gamma),
        "gae_lambda": float(model.gae_lambda),
        "ent_coef": float(model.ent_coef),
        "net_arch": tuple(arch) if isinstance(arch, list) else arch,
        "bf16_update": bool(getattr(model.policy, "bf16_update", False)),
    }


def _as_json(value):
    """A value as ``config.json`` holds it (tuples as lists), to compare settings with a checkpoint's."""
    return json.loads(json.dumps(value))
