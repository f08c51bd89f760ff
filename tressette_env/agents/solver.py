"""Double-dummy solver: the exact value of the card play when every hand is known.

Given the four hands, the seat that leads the current trick and the cards already on
the table, ``solve`` finds the minimax value of the rest of the hand with perfect
information: team 0 (seats 0 and 2) maximises the thirds it takes from here on (the
last trick's 3 included), team 1 minimises them. The game is zero-sum: the thirds
still in play (the cards in the hands and on the table, plus the last trick's 3) are
split between the two teams.

Maximising thirds is also optimal for the score of the hand. A team's points are its
thirds rounded down (``thirds // 3``), plus its declarations when it has a card point,
plus the cappotto bonus when the other team has none: each is a non-decreasing
function of the team's own thirds and a non-increasing one of the other team's. So
the final score difference is non-decreasing in team 0's thirds (rounding,
declarations and cappotto included), and a play that maximises team 0's thirds also
maximises its score difference. Signals change nothing with perfect information: only
the card played matters.

| function | returns |
| --- | --- |
| ``solve(hands, leader, trick=(), taken=(0, 0))`` | ``SolveResult``: each team's best thirds and points |
| ``solve_moves(hands, leader, trick=(), taken=(0, 0), horizon=None, deadline=None)`` | ``{card: thirds}`` for each legal card of the seat on turn |
| ``best_moves(hands, leader, trick=(), taken=(0, 0))`` | the legal cards that reach the best value |
| ``solve_state(state)`` / ``solve_state_moves(state)`` | the same from a ``GameState`` |

Hands are card masks (``engine.cards``); ``trick`` holds the card ids on the table in
play order, the first led by ``leader``.

How it searches: ``solver_core`` (null-window alpha-beta with a transposition table over
positions up to isomorphism, where positions that play alike bound each other's value,
quick cashing bounds, move ordering, equivalent cards, an exhaustive search of the last
two tricks), compiled by numba when it is installed
(``pip install "tressette-env[fast]"``), plain Python otherwise: the same code, the same
values, about fifty times slower. ``solver_core.COMPILED`` says which runs.

Example:
    >>> from tressette_env.engine import parse_cards
    >>> hands = [parse_cards("3d Ad"), parse_cards("2d 4c"), parse_cards("Rd 5c"), parse_cards("4d 6c")]
    >>> result = solve(hands, leader=0)
    >>> result.thirds  # seat 0 leads the 3, then the asso takes the last trick: every third
    (9, 0)
    >>> result.points
    (3, 0)
    >>> solve_moves(hands, leader=0)  # the asso first loses it to the 2: team 1 takes all
    {0: 0, 2: 9}
"""

from __future__ import annotations

from collections.abc import Sequence
from math import inf
from typing import NamedTuple

from ..engine.cards import cards_of
from ..engine.scoring import LAST_TRICK_THIRDS
from ..engine.state import GameState
from . import solver_core as core

__all__ = ["SolveResult", "SolveTimeout", "best_moves", "solve", "solve_moves", "solve_state", "solve_state_moves"]

# --------------------------------------------------------------------------------------
# Internal card numbering (solver_core's): suit * 10 + power (0 = the 4 ... 9 = the 3).

_TO_INT = core._TO_INT
_TO_EXT = core._TO_EXT
_PTS = tuple(int(v) for v in core.PTS)
_SM = tuple(0x3FF << (10 * s) for s in range(4))
_LAST = LAST_TRICK_THIRDS


def _to_int(mask: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << _TO_INT[low.bit_length() - 1]
        mask ^= low
    return out


# --------------------------------------------------------------------------------------
# Public API


class SolveTimeout(RuntimeError):
    """``solve_moves`` passed its ``deadline`` before finishing."""


class SolveResult(NamedTuple):
    """The double-dummy value of a position."""

    thirds: tuple[int, int]
    """Thirds each team ends the hand with under best play: ``taken`` plus its share of the rest."""
    points: tuple[int, int]
    """Those thirds as whole card points, each team rounded down (declarations not included)."""
    value: int
    """Thirds team 0 takes from here on (this trick and the last trick's 3 included)."""
    remaining: int
    """Thirds still in play: the cards in the hands and on the table, plus the last trick's 3."""
    nodes: int
    """Trick-boundary positions expanded by the search (a measure of the work done)."""


def _position(hands: Sequence[int], leader: int, trick: Sequence[int]) -> tuple[list[int], list[int], int, int]:
    """Validate a position; return the internal hands and trick, the thirds in play, the cards in play."""
    if len(hands) != 4:
        raise ValueError(f"hands must be 4 card masks, one per seat; got {len(hands)}")
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < 4:
        raise ValueError(f"leader must be a seat 0..3; got {leader!r}")
    if len(trick) > 3:
        raise ValueError(f"a trick in progress holds 0 to 3 cards; got {len(trick)}")
    seen = 0
    for seat, h in enumerate(hands):
        if not isinstance(h, int) or h < 0 or h >> 40:
            raise ValueError(f"hand {seat} is not a 40-bit card mask: {h!r}")
        if seen & h:
            raise ValueError(f"hand {seat} shares cards with another hand")
        seen |= h
    for c in trick:
        if not isinstance(c, int) or not 0 <= c < 40 or seen >> c & 1:
            raise ValueError(f"card {c!r} on the table is not a card id, or is played twice or also held")
        seen |= 1 << c
    counts = [hands[(leader + i) % 4].bit_count() + (i < len(trick)) for i in range(4)]
    if len(set(counts)) != 1:
        raise ValueError(
            f"the hands do not fit a trick led by seat {leader} with {len(trick)} card(s) on the table: "
            f"each seat must hold, with the card it played to this trick, as many cards as the others "
            f"(from the leader on: {counts})"
        )
    H = [_to_int(h) for h in hands]
    itrick = [_TO_INT[c] for c in trick]
    P = _to_int(seen)
    rem = _LAST + sum(_PTS[c] for c in cards_of(P)) if P else 0
    return H, itrick, rem, P


def _run(leader: int, trick: list[int], rem: int, P: int, guess: int, deadline: float | None) -> int:
    """Team 0's exact thirds from a position whose hands are in this thread's tables (``tables().start``)."""
    v = core.value(core.tables(), leader, trick, rem, P, guess, inf if deadline is None else deadline)
    if v < 0:
        raise SolveTimeout(f"the search passed its deadline after {core.tables().nodes} positions")
    return v


def _stop(hand: int, horizon: int | None) -> int:
    """Cards per hand at which a ``horizon``-trick search stops (0: search to the end)."""
    if horizon is None:
        return 0
    if horizon < 1:
        raise ValueError(f"horizon must be None or at least 1 trick; got {horizon!r}")
    return max(0, hand.bit_count() - horizon)


def _result(value: int, rem: int, taken: tuple[int, int], nodes: int) -> SolveResult:
    thirds = (taken[0] + value, taken[1] + rem - value)
    return SolveResult(thirds, (thirds[0] // 3, thirds[1] // 3), value, rem, nodes)


def solve(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: tuple[int, int] = (0, 0),
) -> SolveResult:
    """The double-dummy value of a position: both teams play perfectly, every hand known.

    Args:
        hands: four card masks, ``hands[s]`` the cards seat ``s`` holds now.
        leader: the seat that led the current trick (or leads the next one when
            ``trick`` is empty).
        trick: the card ids already on the table in play order, the first led by ``leader``.
        taken: thirds each team has already taken this hand (added to ``thirds``).

    Returns:
        A ``SolveResult``: each team's thirds and points at the end of the hand under
        best play, team 0's thirds from here on, and the work done.

    Raises:
        ValueError: the hands overlap, or do not fit the trick (each seat must hold one
            card more than those that already played to it).

    Example:
        >>> whole_suits = [0x3FF << (10 * seat) for seat in range(4)]  # seat s holds suit s
        >>> solve(whole_suits, leader=0).thirds  # nobody can follow: seat 0 takes all 35
        (35, 0)
        >>> solve(whole_suits, leader=1, taken=(0, 0)).points
        (0, 11)
    """
    H, itrick, rem, P = _position(hands, leader, trick)
    if not P:
        return _result(0, 0, taken, 0)
    tables = core.tables()
    tables.start(H, 0)
    return _result(_run(leader, itrick, rem, P, -1, None), rem, taken, tables.nodes)


def solve_moves(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: tuple[int, int] = (0, 0),
    *,
    horizon: int | None = None,
    deadline: float | None = None,
) -> dict[int, int]:
    """The value of each legal card of the seat on turn, for that seat's team.

    Args:
        hands: four card masks, as in ``solve``.
        leader: the seat that led the current trick, as in ``solve``.
        trick: the card ids on the table, as in ``solve``.
        taken: thirds each team has already taken; the seat's team's share is added.
        horizon: ``None`` (exact, the default), or the number of tricks to search (this
            one included) before a static estimate stands for the rest of the hand: a
            faster approximation for early tricks. Within the horizon's reach (at most
            ``horizon`` tricks left) the values are exact.
        deadline: a ``time.perf_counter()`` time after which the search gives up and
            raises ``SolveTimeout`` (checked every 256 positions); None: no limit.

    Returns:
        ``{card id: thirds}`` for every legal card of the seat on turn (seat
        ``(leader + len(trick)) % 4``), lowest id first: the thirds its team ends the
        hand with when it plays that card and both teams then play perfectly.
        Equivalent cards share a value.

    Raises:
        ValueError: a bad position (see ``solve``) or horizon.
        SolveTimeout: the ``deadline`` passed.

    Example:
        >>> from tressette_env.engine import parse_card, parse_cards
        >>> hands = [parse_cards("Ac"), parse_cards("3d 4c"), parse_cards("Rd 5c"), parse_cards("5d 6c")]
        >>> solve_moves(hands, leader=0, trick=[parse_card("2d")])  # seat 1 must play its 3d
        {2: 3}
    """
    H, itrick, rem, P = _position(hands, leader, trick)
    n = len(itrick)
    seat = (leader + n) % 4
    hand = H[seat]
    if not hand:
        return {}
    follow = hand & _SM[itrick[0] // 10] if itrick else 0
    legal = follow or hand
    values: dict[int, int] = {}
    guess = -1  # each card's search starts from the value of the one before
    tables = core.tables()
    tables.start(H, _stop(hand, horizon))
    for c in cards_of(core.rep_mask(legal, P)):
        tables.hands[seat] = hand ^ (1 << c)
        guess = values[c] = _run(leader, [*itrick, c], rem, P, guess, deadline)
        tables.hands[seat] = hand
    team = seat % 2
    out = {}
    for c in cards_of(legal):
        v0 = values[_rep_of(c, legal, P)]
        out[_TO_EXT[c]] = taken[team] + (v0 if team == 0 else rem - v0)
    return dict(sorted(out.items()))


def _rep_of(c: int, legal: int, P: int) -> int:
    """The representative (lowest card of its run of equivalent cards) of internal card ``c``."""
    sh = c // 10 * 10
    p = P >> sh & 1023
    reps = core._reps(p, legal >> sh & 1023)
    b = c - sh
    while not reps >> b & 1:
        b -= 1
        while not p >> b & 1:  # skip the cards already gone
            b -= 1
    return sh + b


def best_moves(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int] = (),
    taken: tuple[int, int] = (0, 0),
) -> list[int]:
    """The legal cards of the seat on turn that reach the best value for its team, lowest id first.

    Example:
        >>> from tressette_env.engine import parse_cards
        >>> hands = [parse_cards("3d Ad"), parse_cards("2d 4c"), parse_cards("Rd 5c"), parse_cards("4d 6c")]
        >>> best_moves(hands, leader=0)  # the 3d first: the asso then takes the last trick
        [2]
    """
    values = solve_moves(hands, leader, trick, taken)
    best = max(values.values(), default=None)
    return [c for c, v in values.items() if v == best]


def solve_state(state: GameState) -> SolveResult:
    """``solve`` on a ``GameState``: its hands, the trick on the table and the thirds taken.

    Example:
        >>> from tressette_env.engine import apply, legal_actions, new_game
        >>> state = new_game(seed=3)
        >>> for _ in range(28):  # seven tricks, lowest legal action each time
        ...     state = apply(state, legal_actions(state)[0])
        >>> result = solve_state(state)
        >>> sum(result.thirds), result.thirds[0] - state.public.thirds[0] == result.value
        (35, True)
    """
    p = state.public
    return solve(state.hands, p.leader, p.trick, p.thirds)


def solve_state_moves(state: GameState, *, horizon: int | None = None) -> dict[int, int]:
    """``solve_moves`` on a ``GameState``: each legal card's final thirds for the team on turn."""
    p = state.public
    return solve_moves(state.hands, p.leader, p.trick, p.thirds, horizon=horizon)
