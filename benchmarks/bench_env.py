"""Steps per second on random legal play, side by side in one run: every tressette loop and the references.

Rows: the bare engine; the AEC environment raw and in ``env()``'s one wrapper
(observation and mask read every step), and raw with ``history=True``; the other games' raw AEC environments (in due, col
morto, a perdere for four and eight players); the single-seat Gymnasium environment (one
learner step = the learner's action and the other three seats' plays, random players;
counted as four card plays); the batched engine at N = 1, 64, 1024, 4096, and 1024 with
``history=True`` (card plays, observations and masks of every deal each step; the random choice not timed, see
``bench_vector.py``); every other game's batched engine (the catalog's ``Entry.batch``) at
N = 1, 64, 1024, 4096, the random choice timed (``bench_family_batched.py`` measures them in CPU
time over interleaved rounds); and, where installed, OpenSpiel's hearts (pyspiel, observation
tensor into NumPy each step) and RLCard's bridge (its observation is NumPy already).

Every loop reads the legal actions and picks one uniformly with the same cheap RNG
(``random.Random``). Each loop runs for a fixed wall time, as PettingZoo's
``performance_benchmark`` does.
Prints a Markdown table with the ratio of each row to OpenSpiel hearts (when
``pyspiel`` is installed) and writes the figures as JSON. Two reference rows run a
do-nothing AEC environment (a fixed observation, 40 steps a hand) raw, inside ``env()``'s
wrapper (``envs.aec.LeanWrapper``) and inside PettingZoo's two wrappers that ``env()`` used
before: what the loop and the wrappers cost alone.

    python benchmarks/bench_env.py --seconds 5 --json benchmarks/results/env.json

**Every game, CPU time, interleaved rounds** (``--cpu-rounds K``, instead of the table above),
for ratios that hold on a loaded machine. Rows: OpenSpiel's hearts where pyspiel is installed,
then for every game of the package (``catalog.PACKAGE_GAMES``) three: ``raw_env`` and ``env()``
(the package's one wrapper), both the AEC loop above and counting decisions (AEC steps: card
plays, and bids and calls where the game has them), and the single-learner Gymnasium
environment ``gym.make(entry.gym_id)`` with ``gym.make``'s defaults (its ``OrderEnforcing`` and
``PassiveEnvChecker`` wrappers, the learner's seat drawn at each reset, every other seat
``others="heuristic"``: ``HeuristicPlayer``, which plays the game's own heuristic), counting
learner steps (the others' plays inside a step are not counted), the learner's action a
uniformly random legal one from ``action_masks()``. The random choice (``random.Random``) is
timed in every row. After an untimed warm-up, each of ``K`` rounds measures every row once,
in turn; a measurement lasts ``--seconds`` of wall time (to a deal's end in the AEC rows and
hearts) and its rate is steps per CPU second of this process (``time.process_time()``). Per row: the median rate, and the
median over rounds of the row's rate over the reference's in the same round (hearts where
installed, else the four-seat raw_env row, as the output says); per game, the median of the
per-round ratios env() / raw_env (issue 34's target: 0.8x or more). Prints two Markdown
tables; ``--json`` gets every round's figures under ``"every_game"``.

    OMP_NUM_THREADS=1 python benchmarks/bench_env.py --cpu-rounds 5 --seconds 3 \
        --json benchmarks/results/env_every_game/env_every_game.json

**Against an older commit** (``--baseline REF``). The script checks REF out in a
temporary ``git worktree`` (removed at the end) and times the engine, raw AEC, wrapped
AEC and single-seat rows for that tree and for the tree this script lives in ("new", or
a worktree of ``--new REF``), after the table above. Two versions of the package cannot
share a process, so each (tree, row) measurement is a fresh ``python bench_env.py --row
...`` with ``PYTHONPATH=<tree>`` and ``OMP_NUM_THREADS=1`` (the child checks that
``tressette_env.__file__`` lies in that tree); the loop code is this file's in both. The
two trees alternate, row by row, over ``--rounds`` rounds (the first tree of a round
alternates too), and each measurement, after a short untimed warm-up, records steps per
CPU second of the child (``time.process_time()``) and per wall second. Per row: the
median of each tree and the median of the per-round ratios new / baseline, with every
round's ratio, in the table and under ``"baseline_comparison"`` in the JSON. The CPU
figures are the ones to read on a busy machine: waiting for a core is not counted.
``--rows KEY ...`` (engine, aec_raw, aec_wrapped, single_seat, and each family game's raw AEC
environment: in_due_raw, col_morto_raw, a_perdere_raw, calabresella_raw, a_chiamare_raw, and in due's packet form,
in_due_packets_raw; and each family game's single-learner ``gym.make(id, others="random")``: in_due_single,
col_morto_single, a_perdere_single, calabresella_single, a_chiamare_single, in_due_packets_single; and in due's with
its heuristic other, in_due_heuristic_single) keeps some rows only.

    python benchmarks/bench_env.py --baseline a12b636 --seconds 2 --rounds 5 \
        --json benchmarks/results/env_family.json

**Instructions** (``--instructions``, instead of timing). Each (tree, row) plays a fixed
workload under ``valgrind --tool=callgrind`` and the script reports instructions per
card play: the difference of the counts at two workload sizes (``--instruction-deals A
B`` deals, default 10 and 60) over the difference of their card plays, so that start-up
and imports cancel. The counts repeat (to a few hundred in 10^9) with
``PYTHONHASHSEED=0``, no address randomisation (``setarch $(uname -m) -R``), one thread
(``OMP_NUM_THREADS=1``, ``OPENBLAS_NUM_THREADS=1``), the ``.pyc`` files written by an
untimed warm-up run (into a temporary ``PYTHONPYCACHEPREFIX``) and the garbage collector
off during the workload (a collection's cost depends on where its thresholds fall).
Needs ``valgrind`` and ``setarch``; takes a few minutes.

    python benchmarks/bench_env.py --baseline a12b636 --instructions \
        --json benchmarks/results/env_family_instructions.json
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import tressette_env
from tressette_env import tressette_v0
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, new_game

ROOT = Path(__file__).resolve().parents[1]


@dataclasses.dataclass(frozen=True)
class Timing:
    """What one loop did: card plays, deals finished, wall and CPU seconds."""

    steps: int
    deals: int
    wall_s: float
    cpu_s: float

    @property
    def rate(self) -> float:
        """Steps per wall second."""
        return self.steps / self.wall_s

    @property
    def cpu_rate(self) -> float:
        """Steps per CPU second of this process."""
        return self.steps / self.cpu_s


class _Clock:
    """The loop's budget: ``seconds`` of wall time (of ``budget``, ``time.process_time`` for CPU time), or exactly ``deals`` deals."""

    def __init__(self, seconds: float | None, deals: int | None, budget: Callable[[], float] = time.perf_counter):
        if (seconds is None) == (deals is None):
            raise ValueError("give seconds or deals")
        self.seconds, self.deals, self.budget = seconds, deals, budget
        self.wall0, self.cpu0 = time.perf_counter(), time.process_time()
        self.budget0 = budget()

    def more(self, deals_done: int) -> bool:
        if self.deals is not None:
            return deals_done < self.deals
        return self.budget() - self.budget0 < self.seconds

    def stop(self, steps: int, deals_done: int) -> Timing:
        return Timing(steps, deals_done, time.perf_counter() - self.wall0, time.process_time() - self.cpu0)


def bench_engine(seconds: float | None = None, deals: int | None = None) -> Timing:
    """The engine alone: legal actions, a random choice, apply; a new deal after each hand."""
    rng = random.Random(0)
    rules = Rules()
    steps = done = 0
    clock = _Clock(seconds, deals)
    while clock.more(done):
        state = new_game(rules, rng)
        while state.public.status == PLAYING:
            legal = legal_actions(state)
            state = apply(state, legal[int(rng.random() * len(legal))])
            steps += 1
        done += 1
    return clock.stop(steps, done)


def bench_aec(make_env: Callable, seconds: float | None = None, deals: int | None = None) -> Timing:
    """The AEC loop: last() (observation and mask) every step, a random legal action."""
    env = make_env()
    env.reset(seed=0)
    rng = random.Random(0)
    steps = done = 0
    clock = _Clock(seconds, deals)
    while clock.more(done):
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        done += 1
    return clock.stop(steps, done)


class DoNothingEnv(AECEnv):
    """Four agents, a 40-step episode, a fixed observation and mask: the floor of any AEC environment."""

    metadata = {"name": "do_nothing_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self):
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self._obs = {"observation": np.zeros(790, np.int8), "action_mask": np.ones(161, np.int8)}
        space = spaces.Dict(
            {"observation": spaces.Box(0, 1, (790,), np.int8), "action_mask": spaces.Box(0, 1, (161,), np.int8)}
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(161) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._steps = 0

    def observe(self, agent):
        return self._obs

    def step(self, action):
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._steps += 1
        if self._steps == 40:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self._steps % 4]


def bench_single_learner(make_env: Callable, seconds: float | None = None, deals: int | None = None) -> Timing:
    """A single-learner Gymnasium environment: learner steps, a uniformly random legal learner action each step.

    The legal actions are read from ``action_masks()`` (the method MaskablePPO finds through
    any wrapper; the observation and the info carry no mask) of the unwrapped environment, so
    ``make_env`` may return ``gym.make``'s wrapped one. The other seats' plays between two
    learner steps are inside the step, not counted; a terminated or truncated episode resets.
    """
    env = make_env()
    env.reset(seed=0)
    action_masks = env.unwrapped.action_masks
    rng = random.Random(0)
    steps = done = 0
    clock = _Clock(seconds, deals)
    while clock.more(done):
        legal = action_masks().nonzero()[0]
        _, _, terminated, truncated, _ = env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
        if terminated or truncated:
            env.reset()
            done += 1
    return clock.stop(steps, done)


def bench_single_seat(seconds: float | None = None, deals: int | None = None, others: str = "random") -> Timing:
    """The four-seat game's Gymnasium single-seat environment: learner steps, random legal learner actions."""
    from tressette_env.wrappers import SingleSeatEnv

    return bench_single_learner(lambda: SingleSeatEnv(partner=others, opponents=others), seconds, deals)


def _single_seat_plays(seconds: float | None = None, deals: int | None = None) -> Timing:
    # One learner step is the learner's play and, on average, one play of each other seat.
    timing = bench_single_seat(seconds, deals)
    return dataclasses.replace(timing, steps=4 * timing.steps)


# The rows run for both trees with --baseline and --instructions: key, name, loop.
ROWS: dict[str, tuple[str, Callable[..., Timing]]] = {
    "engine": ("tressette engine (no observation)", bench_engine),
    "aec_raw": (
        "tressette AEC raw_env (observation + mask)",
        lambda seconds=None, deals=None: bench_aec(tressette_v0.raw_env, seconds, deals),
    ),
    "aec_wrapped": (
        "tressette AEC env() (its one wrapper)",
        lambda seconds=None, deals=None: bench_aec(tressette_v0.env, seconds, deals),
    ),
    "single_seat": ("tressette single-seat Gymnasium env (random others)", _single_seat_plays),
}


def _family_row(module: str, function: str = "raw_env", **rules) -> Callable[..., Timing]:
    """The AEC loop of a game's module (``tressette_env.<module>``), imported when the row runs.

    ``function`` is the module's ``raw_env`` (the default) or ``env`` (its one wrapper).
    """

    def loop(seconds: float | None = None, deals: int | None = None) -> Timing:
        import importlib

        make = getattr(importlib.import_module(f"tressette_env.{module}"), function)
        return bench_aec(lambda: make(**rules), seconds, deals)

    return loop


# The family's rows of --baseline / --instructions (by the PettingZoo module, which every tree has).
ROWS.update(
    {
        "in_due_raw": ("Tressette in due AEC raw_env (stock)", _family_row("tressette_in_due_v0")),
        "col_morto_raw": ("Tressette col morto AEC raw_env (3 players)", _family_row("tressette_col_morto_v0")),
        "a_perdere_raw": ("Tressette a perdere AEC raw_env (4 players)", _family_row("tressette_a_perdere_v0")),
        "calabresella_raw": ("Calabresella AEC raw_env (3 players)", _family_row("calabresella_v0")),
        "a_chiamare_raw": ("Tressette a chiamare AEC raw_env (5 players)", _family_row("tressette_a_chiamare_v0")),
        "in_due_packets_raw": (
            "Tressette in due AEC raw_env (packets)",
            _family_row("tressette_in_due_v0", deal="packets"),
        ),
    }
)


def _family_single_row(gym_id: str, **rules) -> Callable[..., Timing]:
    """The single-learner ``gym.make(gym_id, others="random", **rules)`` of a game (random players in the other seats,
    unless ``rules`` names ``others``).

    Counts learner steps (the others' plays inside the step are not counted), as the four-seat
    ``single_seat`` row's ``bench_single_seat`` before its times-four.
    """

    def loop(seconds: float | None = None, deals: int | None = None) -> Timing:
        import gymnasium as gym

        import tressette_env  # noqa: F401 (registers the ids)

        options = {"others": "random", **rules}
        return bench_single_learner(lambda: gym.make(gym_id, **options), seconds, deals)

    return loop


# The family's single-learner rows (random others) of --baseline / --instructions, by gym id (every tree since
# 968efa9 registers them and takes ``others="random"``).
ROWS.update(
    {
        "in_due_single": (
            "Tressette in due gym.make, random other (learner steps)",
            _family_single_row("tressette_env/TressetteInDue-v0"),
        ),
        "col_morto_single": (
            "Tressette col morto gym.make, random others (learner steps)",
            _family_single_row("tressette_env/TressetteColMorto-v0"),
        ),
        "a_perdere_single": (
            "Tressette a perdere gym.make, random others (learner steps)",
            _family_single_row("tressette_env/TressetteAPerdere-v0"),
        ),
        "calabresella_single": (
            "Calabresella gym.make, random others (learner steps)",
            _family_single_row("tressette_env/Calabresella-v0"),
        ),
        "a_chiamare_single": (
            "Tressette a chiamare gym.make, random others (learner steps)",
            _family_single_row("tressette_env/TressetteAChiamare-v0"),
        ),
        "in_due_heuristic_single": (
            "Tressette in due gym.make, its heuristic other (learner steps)",
            _family_single_row("tressette_env/TressetteInDue-v0", others="heuristic"),
        ),
        "in_due_packets_single": (
            "Tressette in due gym.make, packets, random other (learner steps)",
            _family_single_row("tressette_env/TressetteInDue-v0", deal="packets"),
        ),
    }
)


def family_rows(seconds: float) -> dict[str, float]:
    """The other games' AEC raw_env loops (observation + mask every step), steps per wall second."""
    from tressette_env import tressette_a_perdere_v0, tressette_col_morto_v0, tressette_in_due_v0

    games = {
        "Tressette in due AEC raw_env (stock)": tressette_in_due_v0.raw_env,
        "Tressette col morto AEC raw_env (3 players)": tressette_col_morto_v0.raw_env,
        "Tressette a perdere AEC raw_env (4 players)": tressette_a_perdere_v0.raw_env,
        "Tressette a perdere AEC raw_env (8 players)": lambda: tressette_a_perdere_v0.raw_env(players=8),
    }
    return {name: bench_aec(make, seconds).rate for name, make in games.items()}


def family_batched_rows(seconds: float) -> dict[str, float]:
    """Every other game's batched engine (the catalog's ``Entry.batch``) at N = 1, 64, 1024, 4096.

    Card plays per wall second of step + observe + legal_masks + sample_actions (the random
    choice timed), as ``bench_family_batched.engine`` measures them in CPU time; run that
    script for interleaved CPU-time ratios on a busy machine.
    """
    from bench_family_batched import SIZES, engine  # the benchmarks' own module (it imports this one)

    from tressette_env import catalog

    games = [e.name for e in catalog.entries() if e.batch is not None and e.name != "tressette"]
    return {
        f"{game} batched engine, N = {n} (random choice timed)": engine(game, n, seconds, clock=time.perf_counter)
        for game in games
        for n in SIZES
    }


def bench_bridge(seconds: float) -> float | None:
    """RLCard's bridge, random legal play, its NumPy observation read each step."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("bridge", config={"seed": 0})
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            np.asarray(state["obs"])
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def hearts_timing(
    seconds: float | None = None, deals: int | None = None, budget: Callable[[], float] = time.perf_counter
) -> Timing | None:
    """OpenSpiel's hearts from Python, the information-state tensor read into NumPy each step (None: not installed).

    Plays (not chance outcomes) for ``seconds`` of ``budget`` (wall time by default), or ``deals`` deals.
    """
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(0)
    steps = done = 0
    clock = _Clock(seconds, deals, budget)
    while clock.more(done):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            observation.set_from(state, state.current_player())
            np.asarray(observation.tensor).copy()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        done += 1
    return clock.stop(steps, done)


def bench_hearts(seconds: float, clock: Callable[[], float] = time.perf_counter) -> float | None:
    """OpenSpiel's hearts (``hearts_timing``): plays per second of ``clock``, for ``seconds`` of it.

    ``clock`` is ``time.perf_counter`` (wall time) or ``time.process_time`` (CPU time).
    """
    timing = hearts_timing(seconds, budget=clock)
    if timing is None:
        return None
    return timing.cpu_rate if clock is time.process_time else timing.rate


def run_row(key: str, tree: Path, seconds: float | None, deals: int | None) -> None:
    """The child of --baseline / --instructions: one row, for the package on PYTHONPATH; one JSON line out."""
    package = Path(tressette_env.__file__).resolve()
    if not package.is_relative_to(tree.resolve()):
        raise SystemExit(f"tressette_env was imported from {package}, not from {tree}")
    loop = ROWS[key][1]
    if deals is not None:
        gc.collect()
        gc.disable()
        timing = loop(deals=deals)
        gc.enable()
        print(json.dumps({"file": str(package), "steps": timing.steps, "deals": timing.deals}))
        return
    loop(seconds=min(0.2, seconds / 10))  # warm-up: lazy imports, caches, first allocations
    timing = loop(seconds=seconds)
    print(json.dumps({"file": str(package), **dataclasses.asdict(timing)}))


def _child_env(tree: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
        env[var] = "1"
    env["PYTHONPATH"] = str(tree)
    env.update(extra or {})
    return env


def _row_command(key: str, tree: Path, *budget: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--row", key, "--tree", str(tree), *budget]


def _last_json(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


def measure(key: str, tree: Path, seconds: float) -> Timing:
    """One (tree, row) timing in a fresh process."""
    out = subprocess.run(
        _row_command(key, tree, "--seconds", str(seconds)),
        env=_child_env(tree),
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    fields = _last_json(out.stdout)
    return Timing(fields["steps"], fields["deals"], fields["wall_s"], fields["cpu_s"])


def count_instructions(key: str, tree: Path, deals: int, pycache: Path) -> tuple[int, int]:
    """Instructions executed by one (tree, row) child playing ``deals`` deals, and its card plays."""
    env = _child_env(tree, {"PYTHONHASHSEED": "0", "PYTHONPYCACHEPREFIX": str(pycache)})
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [
        "setarch",
        platform.machine(),
        "-R",
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        *_row_command(key, tree, "--deals", str(deals)),
    ]
    out = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=True)
    collected = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if collected is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(collected.group(1)), _last_json(out.stdout)["steps"]


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


def describe_tree(tree: Path) -> dict:
    """The commit a tree is at, and whether its package has changes not committed."""
    commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    status = subprocess.run(
        ["git", "--no-optional-locks", "-C", str(tree), "status", "--porcelain", "--", "tressette_env"],
        capture_output=True,
        text=True,
    ).stdout
    return {"path": str(tree), "commit": commit.strip(), "uncommitted_changes_in_package": bool(status.strip())}


@contextlib.contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """A temporary detached worktree of ``ref``, removed on the way out."""
    commit = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    parent = Path(tempfile.mkdtemp(prefix="bench_env_worktree_"))
    path = parent / "tree"
    _git("worktree", "add", "--detach", "--quiet", str(path), commit)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False)
        shutil.rmtree(parent, ignore_errors=True)


def _ratios(news: list[float], bases: list[float]) -> dict:
    rounds = [n / b for n, b in zip(news, bases, strict=True)]
    return {"median": statistics.median(rounds), "rounds": rounds}


def compare_timings(trees: dict[str, Path], seconds: float, rounds: int, keys: list[str]) -> dict:
    """Every comparison row for both trees, alternating, over ``rounds`` rounds."""
    timings: dict[str, dict[str, list[Timing]]] = {key: {label: [] for label in trees} for key in keys}
    labels = list(trees)
    for r in range(rounds):
        order = labels if r % 2 == 0 else labels[::-1]
        for key in keys:
            for label in order:
                timings[key][label].append(measure(key, trees[label], seconds))
            print(f"round {r + 1}/{rounds}: {key} done", file=sys.stderr, flush=True)
    result = {}
    for key in keys:
        name = ROWS[key][0]
        per_tree = {
            label: {
                "steps_per_cpu_second": [t.cpu_rate for t in runs],
                "steps_per_wall_second": [t.rate for t in runs],
                "median_steps_per_cpu_second": statistics.median(t.cpu_rate for t in runs),
                "median_steps_per_wall_second": statistics.median(t.rate for t in runs),
            }
            for label, runs in timings[key].items()
        }
        base, new = per_tree["baseline"], per_tree["new"]
        result[name] = {
            **per_tree,
            "ratio_cpu": _ratios(new["steps_per_cpu_second"], base["steps_per_cpu_second"]),
            "ratio_wall": _ratios(new["steps_per_wall_second"], base["steps_per_wall_second"]),
        }
    return result


def print_comparison(rows: dict, ref: str) -> None:
    print(f"\n| loop (new vs {ref}, one core) | {ref} steps/CPU-s | new steps/CPU-s | new / {ref} (CPU) |")
    print("| --- | ---: | ---: | ---: |")
    for name, row in rows.items():
        base, new, ratio = row["baseline"], row["new"], row["ratio_cpu"]
        print(
            f"| {name} | {base['median_steps_per_cpu_second']:,.0f} | {new['median_steps_per_cpu_second']:,.0f} "
            f"| {ratio['median']:.3f}x |"
        )
    print(f"\n| loop | ratio per round (CPU) | new / {ref} (wall) | ratio per round (wall) |")
    print("| --- | --- | ---: | --- |")
    for name, row in rows.items():
        cpu, wall = row["ratio_cpu"], row["ratio_wall"]
        print(
            f"| {name} | {' '.join(f'{x:.3f}' for x in cpu['rounds'])} | {wall['median']:.3f}x "
            f"| {' '.join(f'{x:.3f}' for x in wall['rounds'])} |"
        )


def compare_instructions(trees: dict[str, Path], sizes: tuple[int, int], keys: list[str]) -> dict:
    """Instructions per card play of every comparison row for each tree (callgrind, two workload sizes)."""
    small, large = sizes
    if not 0 < small < large:
        raise SystemExit("--instruction-deals wants two sizes, the first smaller")
    result: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="bench_env_pycache_") as pycache:
        for key in keys:
            name = ROWS[key][0]
            result[name] = {}
            for label, tree in trees.items():
                # Warm-up: writes the .pyc files (and fills the OS caches) so both counted runs start alike.
                env = _child_env(tree, {"PYTHONHASHSEED": "0", "PYTHONPYCACHEPREFIX": pycache})
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                command = _row_command(key, tree, "--deals", "1")
                subprocess.run(command, env=env, cwd=tree, capture_output=True, check=True)
                ir_small, steps_small = count_instructions(key, tree, small, Path(pycache))
                ir_large, steps_large = count_instructions(key, tree, large, Path(pycache))
                result[name][label] = {
                    "deals": [small, large],
                    "instructions": [ir_small, ir_large],
                    "card_plays": [steps_small, steps_large],
                    "instructions_per_card_play": (ir_large - ir_small) / (steps_large - steps_small),
                }
                print(f"instructions: {key} {label} done", file=sys.stderr, flush=True)
            if "baseline" in result[name]:
                base = result[name]["baseline"]["instructions_per_card_play"]
                result[name]["ratio"] = result[name]["new"]["instructions_per_card_play"] / base
                # The other way up, to read beside the timing ratios: above 1 is fewer instructions.
                result[name]["speed_ratio"] = 1 / result[name]["ratio"]
    return result


def print_instructions(rows: dict, ref: str | None) -> None:
    if ref is None:
        print("| loop (callgrind) | instructions per card play |")
        print("| --- | ---: |")
        for name, row in rows.items():
            print(f"| {name} | {row['new']['instructions_per_card_play']:,.0f} |")
        return
    print(
        f"| loop (callgrind) | {ref} instructions/play | new instructions/play | new / {ref} | {ref} / new (as speed) |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, row in rows.items():
        base, new = row["baseline"]["instructions_per_card_play"], row["new"]["instructions_per_card_play"]
        print(f"| {name} | {base:,.0f} | {new:,.0f} | {row['ratio']:.3f}x | {row['speed_ratio']:.3f}x |")


HEARTS = "OpenSpiel hearts (pyspiel, numpy observation)"
FOUR_SEAT_RAW = "tressette/raw_env"
"""The reference of ``--cpu-rounds`` when pyspiel is not installed: the four-seat game's raw_env row."""


@dataclasses.dataclass(frozen=True)
class GameRow:
    """One row of ``--cpu-rounds``: its key (``game/kind``), its name in the table, what a step is, and its loop."""

    key: str
    game: str
    kind: str
    name: str
    counts: str
    loop: Callable[..., Timing | None]


def every_game_rows() -> list[GameRow]:
    """OpenSpiel hearts (where installed), then raw_env, env() and the single-learner Gymnasium env of every game.

    The single-learner rows are ``gym.make(entry.gym_id)`` with its defaults: the wrappers
    ``gym.make`` adds (``OrderEnforcing``, ``PassiveEnvChecker``), the learner's seat drawn at
    every reset (``agent="random"``), the other seats ``others="heuristic"``
    (``HeuristicPlayer``, which plays each game's own heuristic: the catalog's ``heuristic``),
    a hand an episode; they count learner steps.
    """
    import gymnasium as gym

    from tressette_env import catalog

    rows = []
    if hearts_timing(deals=1) is not None:
        rows.append(
            GameRow("hearts", "hearts", "reference", HEARTS, "decisions (passes and card plays)", hearts_timing)
        )
    decisions = "decisions (AEC steps: card plays, and bids and calls where the game has them)"
    for name in catalog.PACKAGE_GAMES:
        entry = catalog.entry(name)
        if entry.env_module != f"tressette_env.{entry.env_name}":
            raise RuntimeError(f"{name}: its environments are not tressette_env.{entry.env_name}")
        rules = entry.make_rules()
        others = rules.game.agents(rules) - 1
        heuristic = entry.heuristic.rpartition(":")[2] if entry.heuristic else "GenericHeuristic"
        rows += [
            GameRow(
                f"{name}/raw_env",
                name,
                "raw_env",
                f"{entry.title} AEC raw_env (observation + mask)",
                decisions,
                _family_row(entry.env_name, "raw_env"),
            ),
            GameRow(
                f"{name}/env",
                name,
                "env",
                f"{entry.title} AEC env() (its one wrapper)",
                decisions,
                _family_row(entry.env_name, "env"),
            ),
            GameRow(
                f"{name}/single_learner",
                name,
                "single_learner",
                f"{entry.title} gym.make({entry.gym_id!r}), {others} other seat{'s' * (others > 1)}: {heuristic}",
                "learner steps (the others' plays inside the step, not counted)",
                lambda seconds=None, deals=None, gym_id=entry.gym_id: bench_single_learner(
                    lambda: gym.make(gym_id), seconds, deals
                ),
            ),
        ]
    return rows


def cpu_rounds(seconds: float, rounds: int) -> dict:
    """Every row of ``every_game_rows`` ``rounds`` times, rows taking turns; rates in CPU time, ratios per round.

    Each measurement runs for ``seconds`` of wall time (to a deal's end in the AEC rows) and records steps per CPU
    second of this process. After an untimed warm-up of every row, each round measures every
    row once, in the same order. Per row: the median rate, and the median over rounds of its
    rate over the reference's rate in the same round (OpenSpiel hearts where installed, else the
    four-seat raw_env row); for env() rows also the median per-round ratio env() / raw_env of
    the same game.
    """
    rows = every_game_rows()
    reference = "hearts" if rows[0].key == "hearts" else FOUR_SEAT_RAW
    for row in rows:  # warm-up: lazy imports, caches, first allocations
        row.loop(seconds=min(0.2, seconds / 10))
    timings: dict[str, list[Timing]] = {row.key: [] for row in rows}
    for r in range(rounds):
        for row in rows:
            timings[row.key].append(row.loop(seconds=seconds))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    cpu = {key: [t.cpu_rate for t in runs] for key, runs in timings.items()}
    result: dict[str, dict] = {}
    for row in rows:
        runs = timings[row.key]
        figures = {
            "game": row.game,
            "kind": row.kind,
            "name": row.name,
            "counts": row.counts,
            "steps_per_cpu_second": cpu[row.key],
            "steps_per_wall_second": [t.rate for t in runs],
            "cpu_share": [t.cpu_s / t.wall_s for t in runs],
            "deals": [t.deals for t in runs],
            "median_steps_per_cpu_second": statistics.median(cpu[row.key]),
            "median_steps_per_wall_second": statistics.median(t.rate for t in runs),
            "vs_reference": _ratios(cpu[row.key], cpu[reference]),
        }
        if row.kind == "env":
            figures["env_over_raw"] = _ratios(cpu[row.key], cpu[f"{row.game}/raw_env"])
        result[row.key] = figures
    return {
        "seconds_per_measurement": seconds,
        "rounds": rounds,
        "reference": reference,
        "reference_name": HEARTS if reference == "hearts" else "tressette AEC raw_env (pyspiel not installed)",
        "rate": "steps per CPU second of this process (time.process_time), each measurement seconds of wall time",
        "rows": result,
    }


def _times(ratio: float) -> str:
    """A ratio as ``0.29x``, with a third decimal below 0.1x."""
    return f"{ratio:.2f}x" if ratio >= 0.1 else f"{ratio:.3f}x"


def print_cpu_rounds(every: dict) -> None:
    """``cpu_rounds``'s figures as two Markdown tables: every row, then env() / raw_env per game."""
    ref = "hearts" if every["reference"] == "hearts" else "tressette raw_env (no pyspiel)"
    print(
        f"Steps per CPU second, median of {every['rounds']} interleaved rounds of {every['seconds_per_measurement']:g} s"
        f" (wall) each; ratios: median of the per-round ratios to {every['reference_name']}.\n"
    )
    print(f"| loop (random legal choice timed, one core) | counts | steps/CPU-s | vs {ref} | env() / raw_env |")
    print("| --- | --- | ---: | ---: | ---: |")
    for row in every["rows"].values():
        over_raw = f"{row['env_over_raw']['median']:.2f}x" if "env_over_raw" in row else ""
        counts = row["counts"].split(" (")[0]
        print(
            f"| {row['name']} | {counts} | {row['median_steps_per_cpu_second']:,.0f} "
            f"| {_times(row['vs_reference']['median'])} | {over_raw} |"
        )
    print("\n| game | env() / raw_env (CPU, median) | per round | issue 34's target, >= 0.8x |")
    print("| --- | ---: | --- | --- |")
    for row in every["rows"].values():
        if "env_over_raw" in row:
            ratio = row["env_over_raw"]
            rounds = " ".join(f"{x:.3f}" for x in ratio["rounds"])
            print(
                f"| {row['game']} | {ratio['median']:.3f}x | {rounds} | {'met' if ratio['median'] >= 0.8 else 'not met'} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per row (per measurement)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument(
        "--baseline", default=None, metavar="REF", help="also time the tressette rows at this git commit"
    )
    parser.add_argument(
        "--new",
        default=None,
        metavar="REF",
        help="the 'new' tree of --baseline / --instructions at this commit (default: this working tree)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the --baseline comparison")
    parser.add_argument(
        "--cpu-rounds",
        type=int,
        default=None,
        metavar="K",
        help="instead of the main table: raw_env, env() and single-learner rows for every game (and hearts), "
        "K interleaved rounds, CPU time, per-round ratios",
    )
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions per card play under callgrind, no timing"
    )
    parser.add_argument(
        "--instruction-deals",
        type=int,
        nargs=2,
        default=(10, 60),
        metavar=("A", "B"),
        help="the two workload sizes of --instructions, in deals",
    )
    parser.add_argument(
        "--rows",
        nargs="+",
        choices=list(ROWS),
        default=list(ROWS),
        help="the rows of --baseline / --instructions (default: all)",
    )
    parser.add_argument("--row", choices=list(ROWS), help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--deals", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.row:
        run_row(args.row, args.tree, None if args.deals is not None else args.seconds, args.deals)
        return

    with contextlib.ExitStack() as stack:
        trees = {"new": stack.enter_context(worktree(args.new)) if args.new else ROOT}
        if args.baseline:
            trees = {"baseline": stack.enter_context(worktree(args.baseline)), **trees}
        described = {label: describe_tree(tree) for label, tree in trees.items()}
        for label, ref in (("baseline", args.baseline), ("new", args.new)):
            if ref:
                described[label]["ref"] = ref
        if args.instructions:
            rows = compare_instructions(trees, tuple(args.instruction_deals), args.rows)
            print_instructions(rows, args.baseline)
            result = {
                "python": platform.python_version(),
                "valgrind": subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip(),
                "trees": described,
                "instructions": rows,
            }
        else:
            result = {"seconds_per_row": args.seconds, "python": platform.python_version()}
            if args.cpu_rounds:
                result["commit"] = describe_tree(ROOT)
                result["every_game"] = cpu_rounds(args.seconds, args.cpu_rounds)
                print_cpu_rounds(result["every_game"])
            else:
                result["steps_per_second"] = table(args.seconds)
            if args.baseline:
                rows = compare_timings(trees, args.seconds, args.rounds, args.rows)
                print_comparison(rows, args.baseline)
                result["baseline_comparison"] = {
                    "seconds_per_measurement": args.seconds,
                    "rounds": args.rounds,
                    "trees": described,
                    "rows": rows,
                }
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


def table(seconds: float) -> dict[str, float | None]:
    """The rows of the main table, in this process; prints it and returns steps per wall second."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_vector import bench_batch

    from tressette_env.envs.aec import LeanWrapper

    rows: dict[str, float | None] = {
        "OpenSpiel hearts (pyspiel, numpy observation)": bench_hearts(seconds),
        "RLCard bridge (numpy observation)": bench_bridge(seconds),
        **{name: loop(seconds=seconds).rate for name, loop in ROWS.values()},
        "tressette AEC raw_env, history=True (the history observation)": bench_aec(
            lambda: tressette_v0.raw_env(history=True), seconds
        ).rate,
        **family_rows(seconds),
        **{
            f"tressette batched engine, N = {n} (observations + masks)": bench_batch(n, seconds, {})
            for n in (1, 64, 1024, 4096)
        },
        "tressette batched engine, N = 1024, history=True": bench_batch(1024, seconds, {"history": True}),
        **family_batched_rows(seconds),
        "do-nothing AEC env, raw (the floor of the AEC loop)": bench_aec(DoNothingEnv, seconds).rate,
        "do-nothing AEC env in env()'s wrapper": bench_aec(lambda: LeanWrapper(DoNothingEnv()), seconds).rate,
        "do-nothing AEC env in PettingZoo's two wrappers (env() before)": bench_aec(
            lambda: wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(DoNothingEnv())), seconds
        ).rate,
    }
    hearts = rows["OpenSpiel hearts (pyspiel, numpy observation)"]
    print("| loop (random legal play, one core) | steps/s | vs hearts |")
    print("| --- | ---: | ---: |")
    for name, rate in rows.items():
        if rate is None:
            print(f"| {name} | not installed | |")
            continue
        ratio = f"{rate / hearts:.2f}x" if hearts else ""
        print(f"| {name} | {rate:,.0f} | {ratio} |")
    return rows


if __name__ == "__main__":
    main()
