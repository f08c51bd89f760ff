"""Opt-in game records from the environments: ``record=FILE`` appends each episode as a JSON line.

Every environment (AEC, parallel, single-seat) takes ``record``: None (the default, nothing
is written) or a file's path. With a path, each episode's deals come from a seed of its own,
drawn from the environment's random stream at ``reset``, so that the record (see
``tressette_env.records``) replays it exactly: ``tressette replay FILE`` or
``records.replay``. A seed given to ``reset`` still makes the whole sequence reproducible,
but it deals other cards than it does without ``record``. An episode is written when it
ends; one cut by ``max_cycles`` is written with ``"truncated": true``; one left unfinished
(a ``reset`` in the middle) is not written.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from ..messages import reason, shown


def check_record_path(record: object) -> Path | None:
    """``record`` as a path (None stays None).

    Raises:
        TypeError: it is not a path.
        ValueError: its folder does not exist, or it is a folder.
    """
    if record is None:
        return None
    if not isinstance(record, (str, os.PathLike)):
        raise TypeError(f"record is None or the path of a JSON-lines file; got {shown(record)}")
    path = Path(record)
    try:
        folder, parent = path.is_dir(), path.parent.is_dir()
    except OSError as error:  # a name too long, for one
        raise ValueError(f"record={shown(str(record))}: not a usable path ({reason(error)})") from None
    if folder:
        raise ValueError(f"record={shown(str(record))} is a folder; give the path of a file to append the records to")
    if not parent:
        raise ValueError(f"record={shown(str(record))}: the folder {shown(str(path.parent))} does not exist")
    return path


class EpisodeRecording:
    """One environment's recording: a deal stream and a ``Recorder`` per episode."""

    def __init__(self, path: Path, game: str, rules: Any):
        self.path, self.game, self.rules = path, game, rules
        self.recorder: Any = None

    def start(self, rng: random.Random, players: list[str], deal: dict) -> random.Random:
        """Begin an episode: the deal stream for it, drawn from ``rng``."""
        from ..records import Recorder  # the records module is only needed when recording

        seed = rng.getrandbits(63)
        self.recorder = Recorder(self.game, self.rules, seed, players, deal)
        return random.Random(seed)

    def finish(self, state: Any, truncated: bool = False) -> None:
        """Write the episode's record (once)."""
        from ..records import write_record

        if self.recorder is not None:
            write_record(self.path, self.recorder.finish(state, truncated))
            self.recorder = None
