"""An evaluation's finished boards on disk, so that an interrupted evaluation resumes: ``Journal``.

``duplicate(..., journal=PATH)`` (``tressette eval --journal PATH``) appends each board to
the file as soon as it is played, and on a later run with the same game, rules and seed
plays only the boards the file does not hold. Boards are independent and seeded by
``(seed, board)`` only, so a resumed evaluation gives the result of an uninterrupted one
(every field that takes part in equality; the times are those of the runs that played each
board). A larger ``boards`` goes on where a smaller one stopped.

The file is JSON lines. The first line says what the boards belong to; each other line is one
board of one pair of players (a round robin shares one file):

| line | fields |
| --- | --- |
| header | ``journal`` (``"tressette-eval/1"``), ``rules`` (the game and its switches), ``seed`` |
| board | ``players`` (A's and B's names), ``board``, ``plays``: per play ``diffs``, ``a_won``, ``a_points``, ``field_points``, ``clock`` (seconds, decisions, fallbacks for A and B), ``record`` (the game record or ``null``) |

A file of another game, rules or seed is refused (give another file). A last line cut short
(the run was killed while writing it) is dropped; any other line that is not a board is an
error naming the line. Players are matched by their names: a changed player under the same
name (a retrained model at the same path) is the user's to avoid.

Example:
    >>> import tempfile, pathlib
    >>> from tressette_env.agents import HeuristicPlayer, RandomPlayer
    >>> from tressette_env.evaluation import duplicate
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "boards.jsonl"
    >>> first = duplicate(HeuristicPlayer(), RandomPlayer(), boards=4, seed=1, workers=1, progress=False, journal=path)
    >>> again = duplicate(HeuristicPlayer(), RandomPlayer(), boards=4, seed=1, workers=1, progress=False, journal=path)
    >>> again == first, len(path.read_text().splitlines())
    (True, 5)
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..messages import cut, shown
from .duplicate import BoardRecord, EpisodeRecord

JOURNAL = "tressette-eval/1"
"""The journal format's name and version."""

MAX_LINE = 1 << 24
"""The longest line read (16 MiB: a board with its game records is some kilobytes to a few hundred)."""

MAX_BOARDS = 10**7
"""The highest board number a journal may hold."""

MAX_NUMBER = 1e9
"""The largest magnitude of a number in a board (points, seconds, decisions)."""


class JournalError(ValueError):
    """A journal file that is not one, or belongs to another evaluation (the message names the line)."""


def _header(rules: Any, seed: int) -> dict:
    """The first line, as it reads back from JSON (tuples as lists)."""
    return json.loads(
        json.dumps({"journal": JOURNAL, "rules": {"game": rules.game.name, **asdict(rules)}, "seed": seed})
    )


def _numbers(value: Any, what: str, kind: type | tuple, line: int, least: int = 0) -> tuple:
    if not isinstance(value, list) or not least <= len(value) <= 10_000:
        raise JournalError(f"line {line}: {what} is a list of {least} to 10000 numbers; got {shown(value)}")
    for x in value:
        if isinstance(x, bool) or not isinstance(x, kind) or not (isinstance(x, int) or math.isfinite(x)):
            raise JournalError(f"line {line}: {what} holds {shown(x)}, not a number")
        if not -MAX_NUMBER <= x <= MAX_NUMBER:
            raise JournalError(f"line {line}: {what} holds {cut(str(x), 40)}, beyond +-{MAX_NUMBER:g}")
    return tuple(value)


def _clock(clock: Any, line: int) -> tuple:
    """A's and B's ``(seconds, decisions, fallbacks)``, each non-negative."""
    sides = clock if isinstance(clock, list) and len(clock) == 2 else []
    times = []
    for side in sides:
        if not isinstance(side, list) or len(side) != 3:
            break
        seconds, decisions, fallbacks = _numbers(side, "clock", (int, float), line)
        if not (isinstance(decisions, int) and isinstance(fallbacks, int) and min(side) >= 0):
            break
        times.append((float(seconds), decisions, fallbacks))
    if len(times) != 2:
        raise JournalError(
            f"line {line}: clock is A's and B's [seconds, decisions, fallbacks], none negative; got {shown(clock)}"
        )
    return tuple(times)


def _play(item: Any, line: int) -> EpisodeRecord:
    keys = {"diffs", "a_won", "a_points", "field_points", "clock", "record"}
    if not isinstance(item, dict) or set(item) != keys:
        raise JournalError(f"line {line}: a play is an object with {', '.join(sorted(keys))}; got {shown(item)}")
    won = item["a_won"]
    if won is not None and not isinstance(won, bool):
        raise JournalError(f"line {line}: a_won is true, false or null; got {shown(won)}")
    record = item["record"]
    if record is not None and not isinstance(record, dict):
        raise JournalError(f"line {line}: record is a game record or null; got {shown(record)}")
    diffs = _numbers(item["diffs"], "diffs", (int, float), line, least=1)
    a_points = _numbers(item["a_points"], "a_points", (int, float), line, least=1)
    field_points = _numbers(item["field_points"], "field_points", (int, float), line, least=1)
    if not len(diffs) == len(a_points) == len(field_points):
        raise JournalError(f"line {line}: diffs, a_points and field_points are as long as each other (a hand each)")
    return EpisodeRecord(diffs, won, a_points, field_points, record, _clock(item["clock"], line))


class Journal:
    """The boards of one evaluation (a game, its rules, a seed) in a JSON-lines file (the module docstring).

    Raises:
        JournalError: the file is not a journal, another evaluation's, broken, or cannot be read or written.
    """

    def __init__(self, path: str | Path, rules: Any, seed: int) -> None:
        self.path = Path(path)
        self.header = _header(rules, seed)
        game = rules.game
        self.plays = game.agents(rules) if game.lineup(rules) == "field" else 2
        """The plays of a board in this game."""
        self._boards: dict[tuple[str, str], dict[int, BoardRecord]] = {}
        header = json.dumps(self.header, separators=(",", ":")) + "\n"
        try:
            if self.path.is_file() and self.path.stat().st_size:
                if self._read(header.encode()):
                    return
            elif self.path.exists() and not self.path.is_file():
                raise JournalError(f"{self.path}: not a file (give a file for the journal)")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(header)
        except OSError as error:
            raise JournalError(f"{self.path}: {error.strerror or error}") from None

    def _read(self, header: bytes) -> bool:
        """Read the boards; False when the file holds only a header cut short (to be written again)."""
        where = str(self.path)
        good = 0  # bytes of whole, good lines
        with self.path.open("rb") as file:
            number = 0
            while True:
                raw = file.readline(MAX_LINE + 1)
                if not raw:
                    break
                number += 1
                if not raw.endswith(b"\n"):
                    if len(raw) > MAX_LINE:
                        raise JournalError(f"{where} line {number}: longer than {MAX_LINE} bytes")
                    if number == 1:  # a first line cut short: our own header's beginning, or not a journal
                        if header.startswith(raw):
                            return False
                        raise JournalError(f"{where}: not an evaluation journal ({JOURNAL}); give another file")
                    break  # the last line, cut short by an interrupted run: dropped
                try:
                    item = json.loads(raw)
                except (ValueError, RecursionError):
                    raise JournalError(
                        f"{where} line {number}: not JSON: {cut(raw.decode('utf-8', 'replace'))}"
                    ) from None
                if number == 1:
                    if not isinstance(item, dict) or item.get("journal") != JOURNAL:
                        raise JournalError(f"{where}: not an evaluation journal ({JOURNAL}); give another file")
                    if item != self.header:
                        raise JournalError(
                            f"{where} holds the boards of {_about(item)}; this evaluation is {_about(self.header)}: "
                            "give the same game, rules and seed, or another file"
                        )
                else:
                    self._board(item, number)
                good += len(raw)
        if good < self.path.stat().st_size:
            with self.path.open("r+b") as file:
                file.truncate(good)
        return True

    def _board(self, item: Any, line: int) -> None:
        if not isinstance(item, dict) or set(item) != {"players", "board", "plays"}:
            raise JournalError(f"{self.path} line {line}: a board is an object with players, board, plays")
        players, board, plays = item["players"], item["board"], item["plays"]
        if not (isinstance(players, list) and len(players) == 2 and all(isinstance(n, str) for n in players)):
            raise JournalError(f"{self.path} line {line}: players is A's and B's names; got {shown(players)}")
        if isinstance(board, bool) or not isinstance(board, int) or not 0 <= board < MAX_BOARDS:
            raise JournalError(
                f"{self.path} line {line}: board is an int from 0 to {MAX_BOARDS - 1}; got {shown(board)}"
            )
        if not isinstance(plays, list) or len(plays) != self.plays:
            raise JournalError(
                f"{self.path} line {line}: plays is a list of {self.plays} plays here; got {shown(plays)}"
            )
        try:
            records = tuple(_play(p, line) for p in plays)
        except JournalError as error:
            raise JournalError(f"{self.path} {error}") from None
        self._boards.setdefault((players[0], players[1]), {})[board] = BoardRecord(board, records)

    def done(self, names: tuple[str, str]) -> dict[int, BoardRecord]:
        """The boards of A ``names[0]`` against B ``names[1]`` the journal holds, by number."""
        return dict(self._boards.get((names[0], names[1]), {}))

    def add(self, names: tuple[str, str], records: list[BoardRecord]) -> None:
        """Append these boards of ``names`` (written and flushed at once)."""
        lines = []
        for r in records:
            plays = [
                {
                    "diffs": list(p.diffs),
                    "a_won": p.a_won,
                    "a_points": list(p.a_points),
                    "field_points": list(p.field_points),
                    "clock": [list(c) for c in p.clock],
                    "record": p.game_record,
                }
                for p in r.plays
            ]
            lines.append(json.dumps({"players": list(names), "board": r.board, "plays": plays}, separators=(",", ":")))
            self._boards.setdefault(tuple(names), {})[r.board] = r
        try:
            with self.path.open("a") as file:
                file.write("".join(line + "\n" for line in lines))
                file.flush()
        except OSError as error:
            raise JournalError(f"{self.path}: {error.strerror or error}") from None


def _about(header: dict) -> str:
    rules = header.get("rules")
    game = rules.get("game") if isinstance(rules, dict) else None
    return cut(f"{game} (rules {shown(rules)}), seed {shown(header.get('seed'))}", 300)
