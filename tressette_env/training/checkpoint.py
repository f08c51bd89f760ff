"""Checkpoints that ``tressette train --resume`` continues as if the run had never stopped.

A checkpoint is the zip that stable-baselines3's ``model.save`` writes (weights, optimizer,
the algorithm's counters and its last observations) with two entries of ours added:

| entry | holds | read by |
| --- | --- | --- |
| ``tressette_env/checkpoint.json`` | the marker (``format``, ``version``), the step count, the run's settings (its ``game`` among them: ``checkpoint_game``), the evaluation history up to this step, the clocks (last evaluation, last snapshot, last checkpoint, seconds of the evaluation clock) | ``read_info``: plain JSON, safe on any file |
| ``tressette_env/state.pkl`` | the self-play pool, the self-play RNG, every environment's state (the deal in progress, its RNG, its players), torch's, NumPy's and Python's global RNG states | ``read_state``: a pickle, for trusted files only |

Why in the zip and not beside it: a checkpoint is then one file that cannot be separated from
its state. Why the marker: ``--resume`` needs SB3's full ``load``, which unpickles the zip's
``data`` entry and so runs whatever a crafted file holds; it takes only zips that carry our
marker (a file written by ``tressette train``), and the help says the file must be trusted.
The marker is no protection against a file made to look like ours: it refuses the wrong kind
of file, trust is the user's to give. ``tressette eval`` and ``load_player`` never unpickle
(``tressette_env.learned.loading``).

Checkpoints are taken between rollouts (after PPO's update, before the next rollout), the one
moment when nothing is half-collected, so restoring them continues the very same run: the same
deals, the same samples, the same weights.
"""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from pathlib import Path
from typing import Any

import gymnasium

from ..learned.files import MAX_JSON_BYTES, checked_file_size, checked_member, checked_zip
from ..learned.mlp import MLPPlayer, ModelFileError
from ..messages import reason, shown

FORMAT = "tressette_env training checkpoint"
VERSION = 1
INFO_ENTRY = "tressette_env/checkpoint.json"
STATE_ENTRY = "tressette_env/state.pkl"


def checkpoint_path(resume: str) -> Path | None:
    """The checkpoint file ``--resume`` names (its ``.zip`` may be left out, as SB3 allows), or None."""
    for candidate in (Path(resume), Path(resume + ".zip")):
        if candidate.is_file():
            return candidate
    return None


def run_folder(checkpoint: Path) -> Path:
    """The run a checkpoint belongs to: the folder above ``checkpoints/``, or the folder of ``model.zip``."""
    checkpoint = checkpoint.resolve()
    return checkpoint.parent.parent if checkpoint.parent.name == "checkpoints" else checkpoint.parent


def write(path: Path, info: dict, state: dict) -> None:
    """Add our two entries to the SB3 zip at ``path`` (SB3's ``load`` ignores entries it does not know)."""
    import cloudpickle

    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(INFO_ENTRY, json.dumps({"format": FORMAT, "version": VERSION, **info}, indent=1))
        archive.writestr(STATE_ENTRY, cloudpickle.dumps(state))


def read_info(path: Path) -> dict:
    """The JSON part of a checkpoint of ours, read without unpickling anything.

    Bounded as model files are (``learned.files``): the file's size, its zip directory and
    members, and the JSON entry's size are checked before anything is read whole.

    Raises:
        ModelFileError: the file is not a readable zip, or not a checkpoint written by ``tressette train``.
    """
    try:
        with open(path, "rb") as stream:
            checked_file_size(path, stream)
            with checked_zip(path, stream) as archive:
                raw = _info_entry(path, archive)
    except ModelFileError:
        raise
    except Exception as error:  # BadZipFile, truncated members, OSError
        raise ModelFileError(path, f"not a readable checkpoint zip ({reason(error)})") from None
    try:
        info = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise ModelFileError(path, f"a damaged checkpoint: {INFO_ENTRY} is not JSON ({reason(error)})") from None
    if not isinstance(info, dict) or info.get("format") != FORMAT:
        raise ModelFileError(path, f"{INFO_ENTRY} is not of a tressette train checkpoint")
    if info.get("version") != VERSION:
        raise ModelFileError(
            path, f"a checkpoint of version {shown(info.get('version'))}; this version reads {VERSION}"
        )
    steps = info.get("num_timesteps")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ModelFileError(path, f"a damaged checkpoint: num_timesteps={shown(steps)}")
    for key, kind in (("config", dict), ("history", list), ("clocks", dict)):
        if not isinstance(info.get(key), kind):
            raise ModelFileError(path, f"a damaged checkpoint: no {key} in {INFO_ENTRY}")
    return info


def _info_entry(path: Path, archive: zipfile.ZipFile) -> bytes:
    """The checkpoint's JSON entry, unpacked once its size is known to be at most ``MAX_JSON_BYTES``."""
    names = set(archive.namelist())
    if INFO_ENTRY not in names or STATE_ENTRY not in names:
        deals = _team_play_run(path)
        if deals:
            raise ModelFileError(
                path,
                f"the model of a team-play run (its config.json: team_play={deals}): team-play runs keep no "
                "checkpoint and cannot be resumed (--resume takes a run of single-deal or --batched environments)",
            )
        raise ModelFileError(
            path,
            f"not a checkpoint written by tressette train (no {INFO_ENTRY} entry): --resume loads the "
            "whole file with stable-baselines3, which unpickles it and so can run code stored in it; it takes only this "
            "package's own checkpoints (checkpoints/model_<steps>_steps.zip or model.zip of a run)",
        )
    for entry in ("data", "policy.pth"):
        if entry not in names:
            raise ModelFileError(path, f"a damaged checkpoint: no {entry!r} entry")
    return checked_member(path, archive, INFO_ENTRY, MAX_JSON_BYTES)


def _team_play_run(path: Path) -> int | None:
    """The ``team_play`` deals of the run whose folder holds ``path`` (its ``config.json``), or None."""
    config = path.parent / "config.json"
    try:
        if config.stat().st_size > MAX_JSON_BYTES:
            return None
        deals = json.loads(config.read_text(encoding="utf-8")).get("team_play")
    except (OSError, ValueError, AttributeError):  # no readable config.json of a run beside it
        return None
    return deals if type(deals) is int and deals > 0 else None


def checkpoint_game(info: dict) -> str:
    """The game a checkpoint's run trained (``read_info``'s dict); checkpoints from before ``game`` are of the four-seat game."""
    return info["config"].get("game", "tressette")


def read_state(path: Path) -> dict:
    """The pickled part of a checkpoint: **runs code from the file**, so only for a trusted checkpoint of ours.

    Raises:
        ModelFileError: the entry is missing or cannot be unpickled.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            state = pickle.loads(archive.read(STATE_ENTRY))
    except Exception as error:
        raise ModelFileError(
            path, f"a damaged checkpoint: its {STATE_ENTRY} cannot be read ({reason(error)})"
        ) from None
    if not isinstance(state, dict):
        raise ModelFileError(path, f"a damaged checkpoint: its {STATE_ENTRY} is not a dict")
    return state


# Environments hold the learner's frozen snapshots as partner and opponents. Pickled one by one
# (a SubprocVecEnv has them in other processes) each would carry its own copy of those networks,
# megabytes per environment; so a snapshot from the pool is written as a reference to the pool,
# which the checkpoint holds once.


class _PoolPickler:
    @staticmethod
    def dumps(obj: Any) -> bytes:
        import cloudpickle

        class Pickler(cloudpickle.Pickler):
            def persistent_id(self, item: Any) -> Any:
                if isinstance(item, MLPPlayer) and getattr(item, "pool_key", None) is not None:
                    return ("pool", item.pool_key)
                return None

        buffer = io.BytesIO()
        Pickler(buffer).dump(obj)
        return buffer.getvalue()

    @staticmethod
    def loads(blob: bytes, pool: dict) -> Any:
        class Unpickler(pickle.Unpickler):
            def persistent_load(self, pid: Any) -> Any:
                kind, key = pid
                if kind != "pool" or key not in pool:
                    raise pickle.UnpicklingError(
                        f"the checkpoint's environments refer to snapshot {key}, not in its pool"
                    )
                return pool[key]

        return Unpickler(io.BytesIO(blob)).load()


class Resumable(gymnasium.Wrapper):
    """The outermost wrapper of each single-deal training environment: hands its whole state out and takes it back.

    Through ``env_method`` it works the same in a ``DummyVecEnv`` and in a ``SubprocVecEnv``.
    """

    def get_resume_state(self) -> bytes:
        """Everything under this wrapper (deal in progress, RNG, players, episode statistics), pickled."""
        return _PoolPickler.dumps(self.env)

    def set_resume_state(self, blob: bytes, pool: dict) -> None:
        """Replace everything under this wrapper by a state from ``get_resume_state``; ``pool`` resolves snapshots."""
        self.env = _PoolPickler.loads(blob, pool)
