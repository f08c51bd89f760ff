"""Duplicate-deal evaluation: every deal is played twice with the teams swapping seats.

The cards' luck cancels out: in the first play team A holds seats 0 and 2, in the
second the same deal is played with team A in seats 1 and 3. One *board* is the
pair; its value is team A's points minus team B's, averaged over the two plays
(per hand). Boards are independent, so the mean over boards has an honest 95%
confidence interval (Student's t).

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

import os
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from ..agents.base import Player
from ..engine.game import apply, legal_actions, new_game, next_hand, view
from ..engine.rules import Rules
from ..engine.state import HAND_OVER, PLAYING, GameState
from .stats import mean_ci95

_SALT_PLAY = (0x5EED, 0xA11CE)  # separate streams for the two plays of a board


def _board_seed(seed: int, board: int, stream: int = 0) -> int:
    """A 64-bit seed for board ``board`` of an evaluation seeded with ``seed``."""
    return (seed * 0x9E3779B97F4A7C15 + board * 0xBF58476D1CE4E5B9 + stream * 0x94D049BB133111EB) % 2**64


def play_hand(players: Sequence[Player], state: GameState, rng: random.Random) -> GameState:
    """Play the hand in ``state`` to its end, ``players[agent]`` choosing for each agent.

    An agent plays every seat it controls (its own, and its dummy's in col morto), from its
    own seat's view.
    """
    while state.public.status == PLAYING:
        p = state.public
        table = p.table
        agent = table.controllers[p.turn]
        state = apply(state, players[agent].act(view(state, table.seat_of[agent]), legal_actions(state), rng))
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
    if len(table.seat_of) == 3:  # col morto: the dealer's side (his own seat and his dummy) first
        dealer = table.controllers[state.public.dealer]
        x, y = (dealer,), tuple(a for a in agents if a != dealer)
    return x, y


@dataclass(frozen=True)
class EpisodeRecord:
    """One play of a board: team A's points minus team B's, hand by hand, and the match winner."""

    diffs: tuple[int, ...]
    a_won: bool | None


def play_episode(
    players: Sequence[Player], rules: Any, deal_seed: int, play_seed: int, a_team: int, max_hands: int = 100
) -> EpisodeRecord:
    """Play one episode (a hand, or a match) from the deals of ``deal_seed``.

    ``players`` holds a player per agent; ``a_team`` is the index (0 or 1, see ``teams``)
    of the team of agents player A plays: in the four-seat game 0 when team A holds seats 0
    and 2, 1 when it holds seats 1 and 3. The deals depend on ``deal_seed`` only, so the two
    plays of a board see the same cards in the same seats, hand after hand.
    """
    deal_rng = random.Random(deal_seed)
    rng = random.Random(play_seed)
    state = new_game(rules, deal_rng)
    a_agents = teams(state)[a_team]
    game = rules.game
    diffs = []
    for _ in range(max_hands):
        state = play_hand(players, state, rng)
        p = state.public
        points = p.result.points
        side = p.table.sides[p.table.seat_of[a_agents[0]]]
        diffs.append(points[side] - points[1 - side])
        if p.status != HAND_OVER:
            break
        state = next_hand(state, deal_rng)
    winner = state.public.winner
    if winner is None:
        return EpisodeRecord(tuple(diffs), None)
    table = state.public.table
    return EpisodeRecord(tuple(diffs), winner == game.competitor_of(table, a_agents[0]))


@dataclass(frozen=True)
class BoardRecord:
    """Both plays of one board."""

    board: int
    a_as_team0: EpisodeRecord
    a_as_team1: EpisodeRecord

    @property
    def diff_per_hand(self) -> float:
        """Team A minus team B, points per hand, averaged over the two plays."""
        plays = (self.a_as_team0, self.a_as_team1)
        return statistics.fmean(statistics.fmean(p.diffs) for p in plays)


def play_board(player_a: Player, player_b: Player, rules: Any, seed: int, board: int) -> BoardRecord:
    """Play board ``board``: A as the first team (``teams``; seats 0 and 2 in the four-seat game), then as the second."""
    deal_seed = _board_seed(seed, board)
    x, y = teams(new_game(rules, random.Random(deal_seed)))
    agents = len(x) + len(y)
    first = [player_a if a in x else player_b for a in range(agents)]
    second = [player_b if a in x else player_a for a in range(agents)]
    return BoardRecord(
        board,
        play_episode(first, rules, deal_seed, _board_seed(seed, board, _SALT_PLAY[0]), 0),
        play_episode(second, rules, deal_seed, _board_seed(seed, board, _SALT_PLAY[1]), 1),
    )


def check_two_sided(rules: Any) -> None:
    """Raise ``ValueError`` unless a duplicate evaluation can swap two teams in this game and episode."""
    game = rules.game
    if game.sides(rules) != 2:
        raise ValueError(f"{game.name} has more than two sides: a duplicate board swaps two teams")
    if game.agents(rules) == 3 and rules.episode == "match":
        raise ValueError(
            f"{game.name} for three players changes partnerships from hand to hand: "
            'evaluate single hands (episode="hand")'
        )


@dataclass(frozen=True)
class DuplicateResult:
    """The outcome of a duplicate evaluation of player A against player B."""

    players: tuple[str, str]
    boards: int
    mean_points_diff: float
    """Team A's points minus team B's, per hand (of 11 points plus declarations)."""
    ci95: tuple[float, float]
    per_seat: dict[str, float]
    """``mean_points_diff`` split by where team A sat: seats 0 and 2 (``"team0"``) or 1 and 3 (``"team1"``)."""
    hands: int
    rules: dict
    seed: int
    match_win_rate: float | None = None
    """Team A's share of matches won (``episode="match"``)."""
    match_win_ci95: tuple[float, float] | None = None
    records: list[BoardRecord] = field(default_factory=list, repr=False, compare=False)

    def to_json(self) -> dict:
        """The result as plain JSON types (board records left out)."""
        out = asdict(self)
        out.pop("records")
        out["deals"] = self.boards
        return out


def _play_chunk(args: tuple) -> list[BoardRecord]:
    player_a, player_b, rules, seed, boards = args
    return [play_board(player_a, player_b, rules, seed, b) for b in boards]


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _progress(total: int, enabled: bool, description: str) -> Callable[[int], None]:
    """A progress callback: tqdm's bar when tqdm is installed and ``enabled``, else nothing."""
    if not enabled:
        return lambda n: None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return lambda n: None
    bar = tqdm(total=total, desc=description, unit="board")

    def update(n: int) -> None:
        bar.update(n)
        if bar.n >= total:
            bar.close()

    return update


def duplicate(
    player_a: Player,
    player_b: Player,
    boards: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    workers: int | None = None,
    progress: bool = True,
    names: tuple[str, str] | None = None,
) -> DuplicateResult:
    """Evaluate ``player_a`` against ``player_b`` on ``boards`` duplicate boards.

    Args:
        player_a: plays team A; ``mean_points_diff`` is from its side.
        player_b: plays team B.
        boards: the number of boards (each deal, or match, played twice).
        seed: the evaluation's seed: the same seed gives the same deals and result.
        rules: the rule set (default ``Rules()``); its type names the game (any game of two sides).
        workers: processes to play in (default: the CPU count); players must pickle.
        progress: show a tqdm progress bar (when tqdm is installed).
        names: the players' names for the report (default: their ``name`` attribute).
    """
    rules = rules or Rules()
    check_two_sided(rules)
    if boards < 2:
        raise ValueError(f"boards={boards}: a duplicate evaluation needs at least 2 boards")
    workers = workers or os.cpu_count() or 1
    names = names or (
        getattr(player_a, "name", type(player_a).__name__),
        getattr(player_b, "name", type(player_b).__name__),
    )
    update = _progress(boards, progress, f"{names[0]} vs {names[1]}")
    indices = list(range(boards))
    records: list[BoardRecord] = []
    if workers == 1:
        for chunk in _chunks(indices, 16):
            records += _play_chunk((player_a, player_b, rules, seed, chunk))
            update(len(chunk))
    else:
        size = max(1, min(64, boards // (workers * 8)))
        jobs = [(player_a, player_b, rules, seed, chunk) for chunk in _chunks(indices, size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for chunk_records in pool.map(_play_chunk, jobs):
                records += chunk_records
                update(len(chunk_records))
    return summarize(records, names, rules, seed)


def summarize(records: list[BoardRecord], names: tuple[str, str], rules: Rules, seed: int) -> DuplicateResult:
    """Reduce board records to a ``DuplicateResult``."""
    diffs = [r.diff_per_hand for r in records]
    low, high = mean_ci95(diffs)
    per_seat = {
        "team0": statistics.fmean(statistics.fmean(r.a_as_team0.diffs) for r in records),
        "team1": statistics.fmean(statistics.fmean(r.a_as_team1.diffs) for r in records),
    }
    hands = sum(len(r.a_as_team0.diffs) + len(r.a_as_team1.diffs) for r in records)
    win_rate = win_ci = None
    if rules.episode == "match":
        wins = [(r.a_as_team0.a_won + r.a_as_team1.a_won) / 2 for r in records]
        win_rate = statistics.fmean(wins)
        win_ci = mean_ci95(wins)
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
        records=records,
    )
