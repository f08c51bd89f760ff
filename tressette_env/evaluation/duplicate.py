"""Duplicate-deal evaluation: every deal is played twice with the teams swapping seats.

The cards' luck cancels out: in the first play team A holds seats 0 and 2, in the
second the same deal is played with team A in seats 1 and 3. One *board* is the
pair; its value is team A's points minus team B's, averaged over the two plays
(per hand). In a game of individual players (Tressette a perdere, three to eight) a board is
the same deal played once per seat, A in that seat and B in every other; its value is the
others' mean charge minus A's, so that positive favours A here too. Boards are independent,
so the mean over boards has an honest 95% confidence interval (Student's t).

In ``episode="match"`` a board is a whole match played twice on the same sequence
of deals; the result also gives team A's match win rate.

Everything is reproducible under ``seed``: board ``i`` draws its deals and its
players' random numbers from seeds derived from ``(seed, i)`` only, so the result
does not depend on the number of worker processes.

Example:
    >>> from tressette_env.agents import HeuristicPlayer, RandomPlayer
    >>> result = duplicate(HeuristicPlayer(), RandomPlayer(), boards=20, seed=0, workers=1, progress=False)
    >>> result.mean_points_diff > 0
    True
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import signal
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

from ..agents.base import Player, hand_over
from ..agents.registry import as_player, shown_spec
from ..engine.game import apply, legal_actions, new_game, next_hand, view
from ..engine.rules import Rules
from ..engine.state import HAND_OVER, PLAYING, GameState
from ..envs.playing import check_seed
from ..records import Recorder
from .stats import mean_ci95

_SALT_PLAY = (0x5EED, 0xA11CE)  # separate streams for the two plays of a board


def _board_seed(seed: int, board: int, stream: int = 0) -> int:
    """A 64-bit seed for board ``board`` of an evaluation seeded with ``seed``."""
    return (seed * 0x9E3779B97F4A7C15 + board * 0xBF58476D1CE4E5B9 + stream * 0x94D049BB133111EB) % 2**64


def play_hand(
    players: Sequence[Player], state: GameState, rng: random.Random, recorder: Any = None, clock: Any = None
) -> GameState:
    """Play the hand in ``state`` to its end, ``players[agent]`` choosing for each agent.

    An agent plays every seat it controls (its own, and its dummy's in col morto), from its
    own seat's view. A ``records.Recorder`` given as ``recorder`` records each action; a
    ``clock`` (a list of ``[seconds, decisions, fallbacks]`` per agent) adds each decision's wall
    time, and the decisions a bot's fallback played (``protocol.bot.BotPlayer``'s ``fallbacks``).
    At the end, players with an ``end`` method are told (``agents.base.hand_over``).
    """
    while state.public.status == PLAYING:
        p = state.public
        table = p.table
        agent = table.controllers[p.turn]
        seat_view, legal = view(state, table.seat_of[agent]), legal_actions(state)
        if clock is None:
            action = players[agent].act(seat_view, legal, rng)
        else:
            player = players[agent]
            failed = getattr(player, "fallbacks", 0)
            start = time.perf_counter()
            action = player.act(seat_view, legal, rng)
            clock[agent][0] += time.perf_counter() - start
            clock[agent][1] += 1
            clock[agent][2] += getattr(player, "fallbacks", 0) - failed
        state = apply(state, action) if recorder is None else recorder.play(state, action)
    hand_over(players, state)
    return state


def teams(state: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two teams of agents a duplicate board swaps, from the first hand's table.

    The four-seat game: the partnerships (agents 0 and 2, 1 and 3); two players: one each;
    col morto for three: the dealer (with his dummy) against the pair.
    """
    table = state.public.table
    agents = range(len(table.seat_of))
    sides = [table.sides[table.seat_of[a]] for a in agents]
    x = tuple(a for a in agents if sides[a] == sides[0])
    y = tuple(a for a in agents if sides[a] != sides[0])
    if len(table.seat_of) == 3 and state.public.rules.game.sides(state.public.rules) == 2:
        # col morto: the dealer's side (his own seat and his dummy) first
        dealer = table.controllers[state.public.dealer]
        x, y = (dealer,), tuple(a for a in agents if a != dealer)
    return x, y


def lineups(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The agents player A takes in each play of a board (player B takes the others).

    Two sides: the two teams (``teams``), so a board is two plays. A game of individual
    players (a perdere): each agent in turn, so a board is one play per seat.
    """
    rules = state.public.rules
    if rules.game.lineup(rules) == "field":
        return tuple((a,) for a in range(len(state.public.table.seat_of)))
    return teams(state)


def lineup_labels(rules: Any) -> tuple[str, ...]:
    """Names of a board's plays, by where player A sat: ``team0``, ``team1``; or ``player_0`` ...."""
    game = rules.game
    if game.lineup(rules) == "field":
        return tuple(f"player_{a}" for a in range(game.agents(rules)))
    return ("team0", "team1")


@dataclass(frozen=True)
class EpisodeRecord:
    """One play of a board, hand by hand: A's points minus the field's (``diffs``), A's and the field's points.

    ``diffs`` are signed so that positive favours A: in a perdere, where points are charges,
    a diff is the field's mean charge minus A's. The *field* is every other side of the hand:
    B's team, or the mean of the other players. Hands that A sits out (an elimination) are left out.
    """

    diffs: tuple[float, ...]
    a_won: bool | None
    a_points: tuple[float, ...] = ()
    field_points: tuple[float, ...] = ()
    game_record: dict | None = field(default=None, compare=False, repr=False)
    """The play's game record (``tressette_env.records``), when the evaluation records."""
    clock: tuple[tuple[float, int, int], ...] = field(default=((0.0, 0, 0), (0.0, 0, 0)), compare=False, repr=False)
    """A's and B's (seconds, decisions, fallbacks) in this play: wall time of their ``act`` calls, their
    number, and how many of them a bot's fallback played."""


def play_episode(
    players: Sequence[Player],
    rules: Any,
    deal_seed: int,
    play_seed: int,
    a_agents: Sequence[int],
    max_hands: int = 100,
    recorder: Any = None,
) -> EpisodeRecord:
    """Play one episode (a hand, or a match) from the deals of ``deal_seed``.

    ``players`` holds a player per agent; ``a_agents`` are the agents player A plays (one of
    ``lineups``): in the four-seat game (0, 2) or (1, 3). The deals depend on ``deal_seed``
    only, so every play of a board sees the same cards in the same seats, hand after hand.
    A ``records.Recorder`` of seed ``deal_seed`` given as ``recorder`` records the episode.
    """
    deal_rng = random.Random(deal_seed)
    rng = random.Random(play_seed)
    state = new_game(rules, deal_rng)
    if recorder is not None:
        recorder.open_hand(state)
    game = rules.game
    sign = game.points_sign(rules)
    diffs: list[float] = []
    mine: list[int] = []
    field: list[float] = []
    clock = [[0.0, 0, 0] for _ in players]
    for _ in range(max_hands):
        state = play_hand(players, state, rng, recorder, clock)
        p = state.public
        points = game.hand_points(p)
        if points[a_agents[0]] is not None:  # A was dealt in (not out of an elimination match)
            ours = points[a_agents[0]]
            others = [x for a, x in enumerate(points) if a not in a_agents and x is not None]
            theirs = others[0] if len(set(others)) == 1 else statistics.fmean(others)
            diffs.append(sign * (ours - theirs))
            mine.append(ours)
            field.append(theirs)
        if p.status != HAND_OVER:
            break
        state = next_hand(state, deal_rng)
        if recorder is not None:
            recorder.open_hand(state)
    winner = state.public.winner
    won = None if winner is None else winner == game.competitor_of(state.public.table, a_agents[0])
    record = None if recorder is None else recorder.finish(state)
    a = [clock[k] for k in range(len(players)) if k in a_agents]
    b = [clock[k] for k in range(len(players)) if k not in a_agents]
    times = tuple((sum(c[0] for c in side), sum(c[1] for c in side), sum(c[2] for c in side)) for side in (a, b))
    return EpisodeRecord(tuple(diffs), won, tuple(mine), tuple(field), record, times)


@dataclass(frozen=True)
class BoardRecord:
    """Every play of one board, A in each of ``lineups`` in turn."""

    board: int
    plays: tuple[EpisodeRecord, ...]

    @property
    def a_as_team0(self) -> EpisodeRecord:
        """The first play (A as the first team, or as player_0)."""
        return self.plays[0]

    @property
    def a_as_team1(self) -> EpisodeRecord:
        """The second play (A as the second team, or as player_1)."""
        return self.plays[1]

    @property
    def diff_per_hand(self) -> float:
        """A minus the field, points per hand (positive favours A), averaged over the plays."""
        return statistics.fmean(statistics.fmean(p.diffs) for p in self.plays)

    @property
    def points_per_hand(self) -> tuple[float, float]:
        """A's and the field's points per hand, averaged over the plays."""
        plays = self.plays
        return (
            statistics.fmean(statistics.fmean(p.a_points) for p in plays),
            statistics.fmean(statistics.fmean(p.field_points) for p in plays),
        )


def play_board(
    player_a: Player, player_b: Player, rules: Any, seed: int, board: int, record_as: tuple[str, str] | None = None
) -> BoardRecord:
    """Play board ``board``: A as each of ``lineups`` in turn (the first team, then the second; or every seat).

    ``record_as``: the players' names for a game record of each play (None: no records).
    """
    deal_seed = _board_seed(seed, board)
    first = new_game(rules, random.Random(deal_seed))
    plays = lineups(first)
    labels = lineup_labels(rules)
    agents = len(first.public.table.seat_of)
    records = []
    for k, mine in enumerate(plays):
        players = [player_a if a in mine else player_b for a in range(agents)]
        salt = _SALT_PLAY[k] if k < len(_SALT_PLAY) else _SALT_PLAY[0] + k
        recorder = None
        if record_as is not None:
            names = [record_as[0] if a in mine else record_as[1] for a in range(agents)]
            recorder = Recorder(rules.game.name, rules, deal_seed, names)
            recorder.record.update(board=board, lineup=labels[k])
        records.append(play_episode(players, rules, deal_seed, _board_seed(seed, board, salt), mine, recorder=recorder))
    return BoardRecord(board, tuple(records))


def check_duplicate(rules: Any) -> None:
    """Raise ``ValueError`` unless a duplicate evaluation can rotate the players through fixed places in this game."""
    game = rules.game
    if game.lineup(rules) == "teams" and game.agents(rules) == 3 and rules.episode == "match":
        raise ValueError(
            f"{game.name} for three players: a match's partnerships change from hand to hand (with a fixed "
            "holder, one player plays the other two all match), which a duplicate board cannot swap: "
            'evaluate single hands (episode="hand")'
        )


@dataclass(frozen=True)
class DuplicateResult:
    """The outcome of a duplicate evaluation of player A against player B."""

    players: tuple[str, str]
    boards: int
    mean_points_diff: float
    """A's points minus the field's (B's team, or the mean of the other players), per hand, signed so that
    positive favours A: in a perdere, the field's mean charge minus A's."""
    ci95: tuple[float, float]
    per_seat: dict[str, float]
    """``mean_points_diff`` split by where A sat: seats 0 and 2 (``"team0"``) or 1 and 3 (``"team1"``);
    in a game of individual players, each seat (``"player_0"`` ...)."""
    hands: int
    rules: dict
    seed: int
    match_win_rate: float | None = None
    """A's share of matches won (``episode="match"``; a match that ends with no winner, as a fixed number
    of rounds may, counts half)."""
    match_win_ci95: tuple[float, float] | None = None
    """The 95% interval of ``match_win_rate`` (Student's t over the boards' shares), cut to 0..1 (a lopsided pair's
    interval passed 100%)."""
    points: tuple[float, float] | None = None
    """A's and the field's points per hand (in a perdere, the charges)."""
    points_ci95: tuple[tuple[float, float], tuple[float, float]] | None = None
    against: str = "team"
    """Whom A faced: B's ``"team"`` (a board swaps two teams), or a ``"field"`` of B in every other seat
    (a game of individual players; a board plays the deal once per seat)."""
    points_sign: int = 1
    """+1 when points are good, -1 when they are charges (a perdere): ``mean_points_diff`` is
    ``points_sign * (A's points - the field's)``."""
    seconds_per_decision: tuple[float, float] | None = field(default=None, compare=False)
    """A's and B's mean wall time per decision, in seconds (machine-dependent; left out of equality)."""
    decisions: tuple[int, int] | None = field(default=None, compare=False)
    """A's and B's decisions over the evaluation."""
    fallbacks: tuple[int, int] | None = field(default=None, compare=False)
    """Of those, how many a bot's fallback player played (``tressette eval --bot-fallback``): a bot that
    answered badly, late or not at all. They hang on the bots' time limits, so they are timing."""
    records: list[BoardRecord] = field(default_factory=list, repr=False, compare=False)

    def boards_for(self, width: float) -> int | None:
        """Boards that would give a 95% CI of ``width`` points (both sides together), by this result's spread.

        ``4 * (1.96 * sd / width) ** 2`` from the spread of the board values; None when there is no spread yet.
        """
        low, high = self.ci95
        if not high > low or self.boards < 2 or not width > 0:
            return None
        sd = (high - low) / 2 / 1.96 * self.boards**0.5  # the CI's half-width is about 1.96 sd / sqrt(n)
        return max(2, math.ceil((2 * 1.96 * sd / width) ** 2))

    def game_records(self) -> list[dict]:
        """The game record of every play, board by board (empty unless evaluated with ``record=True``)."""
        return [p.game_record for r in self.records for p in r.plays if p.game_record is not None]

    def to_json(self, timing: bool = False) -> dict:
        """The result as plain JSON types (board records left out).

        ``timing``: include ``seconds_per_decision`` (machine-dependent, so left out of what must
        repeat: a trained policy's info, a training run's evaluation history).
        """
        out = asdict(self)
        out.pop("records")
        if not timing:
            for key in ("seconds_per_decision", "decisions", "fallbacks"):
                out.pop(key)
        out["deals"] = self.boards
        return out


_playing = False
"""In a worker of a parallel evaluation: True while it plays a chunk of boards."""


def _start_worker() -> None:
    """A parallel evaluation's worker: Ctrl-C ends it at once and without a traceback (``_interrupted``).

    Only where Ctrl-C is Python's ``KeyboardInterrupt`` (its default): a worker of a process that
    ignores SIGINT (started in the background by a script) ignores it too, as the process does.
    """
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted)


def _interrupted(signum: int, frame: Any) -> None:
    """Ctrl-C in a worker (the terminal signals every process of the foreground group).

    While a chunk plays, a ``KeyboardInterrupt`` unwinds it, so that its bots are closed
    (``_play_chunk``); between chunks the worker ends at once. The parent process says what
    stopped and where the finished boards are.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the first Ctrl-C is final: a second must not cut the closing short
    if _playing:
        raise KeyboardInterrupt
    os._exit(130)


def _play_chunk(args: tuple) -> list[BoardRecord]:
    global _playing
    player_a, player_b, rules, seed, boards, record_as = args
    _playing = True
    try:
        return [play_board(player_a, player_b, rules, seed, b, record_as) for b in boards]
    except KeyboardInterrupt:  # Ctrl-C in a worker: not a result to send back; the pool must not go on
        _close(player_a, player_b)
        os._exit(130)
    finally:
        _playing = False
        _close(player_a, player_b)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers still running (a Ctrl-C sent to this process alone); the pool, broken, drops its chunks.

    Each worker is sent Ctrl-C first, so that it closes its bots (``_interrupted``; a bot that does
    not end when its input closes is killed after half a second, ``BotPlayer.close``), and is
    terminated if it has not ended five seconds later. (The chunks are not cancelled here: the
    pool's own thread fails them, and a future cancelled first makes it raise on Python 3.11.)
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive() and process.pid is not None:
            try:
                os.kill(process.pid, signal.SIGINT)
            except OSError:  # (ended meanwhile)
                pass
    deadline = time.monotonic() + 5.0
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.terminate()


def _close(*players: Any) -> None:
    """End the processes of players that have one (``protocol.bot.BotPlayer``): a worker's chunk, or the evaluation, is over."""
    for player in players:
        close = getattr(player, "close", None)
        if callable(close):
            close()


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


@contextlib.contextmanager
def _progress(total: int, enabled: bool, description: str) -> Iterator[Callable[[int], None]]:
    """A progress callback: tqdm's bar when tqdm is installed and ``enabled``, else nothing.

    The bar is closed on leaving, however the evaluation ends, so that an error printed next
    (a bot that cannot start, a Ctrl-C) starts a line of its own.
    """
    if not enabled:
        yield lambda n: None
        return
    try:
        from tqdm.auto import tqdm
    except ImportError:
        yield lambda n: None
        return
    bar = tqdm(total=total, desc=description, unit="board")
    try:
        yield bar.update
    finally:
        bar.close()


def duplicate(
    player_a: Player,
    player_b: Player,
    boards: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    workers: int | None = None,
    progress: bool = True,
    names: tuple[str, str] | None = None,
    record: bool = False,
    journal: Any = None,
) -> DuplicateResult:
    """Evaluate ``player_a`` against ``player_b`` on ``boards`` duplicate boards.

    Args:
        player_a: plays team A; ``mean_points_diff`` is from its side. A ``Player``, or a spec
            ``make_player`` takes (``"heuristic"``, ``"search:samples=4"``, a model's path).
        player_b: plays team B (the same).
        boards: the number of boards (each deal, or match, played twice).
        seed: the evaluation's seed, a non-negative int or NumPy integer: the same seed gives the same
            deals and result.
        rules: the rule set (default ``Rules()``); its type names the game.
        workers: processes to play in (default: the CPU count); players must pickle.
        progress: show a tqdm progress bar (when tqdm is installed).
        names: the players' names for the report (default: their ``name`` attribute).
        record: keep a game record of every play (``result.game_records()``; ``tressette eval --record``).
        journal: a file (or an ``evaluation.journal.Journal``) that each board is appended to as it ends; the
            boards it already holds for these names, game, rules and seed are not played again, so an
            interrupted evaluation resumes (``tressette eval --journal``).
    """
    if check_seed(seed) is None:  # boards need a seed to be replayed
        raise TypeError("seed is a non-negative integer (int or NumPy integer); got None")
    seed = int(seed)
    rules = rules or Rules()
    check_duplicate(rules)
    if boards < 2:
        raise ValueError(f"boards={boards}: a duplicate evaluation needs at least 2 boards")
    workers = workers or os.cpu_count() or 1
    names = names or tuple(  # a spec names its player as tressette eval does ("search:samples=4", not "search")
        shown_spec(p) if isinstance(p, str) else getattr(p, "name", type(p).__name__) for p in (player_a, player_b)
    )
    player_a, player_b = as_player(player_a, "player_a"), as_player(player_b, "player_b")
    if journal is not None and not hasattr(journal, "add"):
        from .journal import Journal

        journal = Journal(journal, rules, seed)
    done = {} if journal is None else {b: r for b, r in journal.done(names).items() if b < boards}
    if record:  # a board journaled without its game records is played again, to the same result, with them
        done = {b: r for b, r in done.items() if all(p.game_record is not None for p in r.plays)}
    with _progress(boards, progress, f"{names[0]} vs {names[1]}") as update:
        update(len(done))
        indices = [b for b in range(boards) if b not in done]
        records: list[BoardRecord] = list(done.values())
        record_as = names if record else None

        def finished(chunk_records: list[BoardRecord]) -> None:
            records.extend(chunk_records)
            if journal is not None:
                journal.add(names, chunk_records)
            update(len(chunk_records))

        if workers == 1:
            try:
                for b in indices:
                    finished([play_board(player_a, player_b, rules, seed, b, record_as)])
            finally:
                _close(player_a, player_b)
        elif indices:
            size = max(1, min(64, len(indices) // (workers * 8)))
            jobs = [(player_a, player_b, rules, seed, chunk, record_as) for chunk in _chunks(indices, size)]
            with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker) as pool:
                futures = [pool.submit(_play_chunk, job) for job in jobs]
                failure = None
                try:
                    for future in as_completed(futures):
                        try:
                            chunk_records = future.result()
                        except KeyboardInterrupt:
                            raise
                        except BaseException as error:  # noqa: BLE001 - the first failure stops the rest, not what is done
                            if failure is None:
                                failure = error
                                for waiting in futures:
                                    waiting.cancel()
                            continue
                        finished(chunk_records)  # every chunk that ended well is kept (and journaled)
                except KeyboardInterrupt:  # Ctrl-C: no chunk more; workers the signal did not reach are stopped
                    _stop_workers(pool)
                    raise
                if failure is not None:
                    raise failure
    records.sort(key=lambda r: r.board)
    return summarize(records, names, rules, seed)


def summarize(records: list[BoardRecord], names: tuple[str, str], rules: Rules, seed: int) -> DuplicateResult:
    """Reduce board records to a ``DuplicateResult``."""
    diffs = [r.diff_per_hand for r in records]
    low, high = mean_ci95(diffs)
    per_seat = {
        label: statistics.fmean(statistics.fmean(r.plays[k].diffs) for r in records)
        for k, label in enumerate(lineup_labels(rules))
    }
    hands = sum(len(p.diffs) for r in records for p in r.plays)
    win_rate = win_ci = None
    if rules.episode == "match":
        wins = [statistics.fmean(0.5 if p.a_won is None else p.a_won for p in r.plays) for r in records]
        win_rate = statistics.fmean(wins)
        low_win, high_win = mean_ci95(wins)
        win_ci = (max(0.0, low_win), min(1.0, high_win))  # a share: its interval cut to 0..1
    mine = [r.points_per_hand[0] for r in records]
    theirs = [r.points_per_hand[1] for r in records]
    spent = [sum(p.clock[side][0] for r in records for p in r.plays) for side in (0, 1)]
    decided = [sum(p.clock[side][1] for r in records for p in r.plays) for side in (0, 1)]
    per_decision = tuple(t / n if n else 0.0 for t, n in zip(spent, decided, strict=True))
    fallbacks = tuple(sum(p.clock[side][2] for r in records for p in r.plays) for side in (0, 1))
    return DuplicateResult(
        players=names,
        boards=len(records),
        mean_points_diff=statistics.fmean(diffs),
        ci95=(low, high),
        per_seat=per_seat,
        hands=hands,
        rules={"game": rules.game.name, **asdict(rules)},
        seed=seed,
        match_win_rate=win_rate,
        match_win_ci95=win_ci,
        points=(statistics.fmean(mine), statistics.fmean(theirs)),
        points_ci95=(mean_ci95(mine), mean_ci95(theirs)),
        against="field" if rules.game.lineup(rules) == "field" else "team",
        points_sign=rules.game.points_sign(rules),
        seconds_per_decision=per_decision,
        decisions=tuple(decided),
        fallbacks=fallbacks,
        records=records,
    )
