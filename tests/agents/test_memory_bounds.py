"""The open-hands solver's caches have fixed ceilings: however many positions it solves, they stay under them.

Tressette in due against the heuristic grew by about 110 MB over a thousand deals in one
process: the solver kept a table of bounds for each set of sides, checked its size only
between searches, and its cache of equivalent cards could hold 236,196 entries. Now one table
serves every search and both are emptied when full (``open_solver._TABLE_LIMIT``,
``_REPS_LIMIT``: their docstrings give the memory).
"""

import random

import pytest

from tressette_env.agents import open_solver


class _Checked(dict):
    """A dict that fails the test when it grows past ``limit``, and keeps its largest size."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.largest = 0

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        assert len(self) <= self.limit, f"{len(self)} entries, over the ceiling {self.limit}"
        self.largest = max(self.largest, len(self))


def _positions(count: int, seats: int, cards: int, seed: int = 0):
    """``count`` random deals of ``cards`` cards a seat, each with a leader and the two sides."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(range(40))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[i * cards : (i + 1) * cards]) for i in range(seats)]
        sides = (0, 1) if seats == 2 else (0, *(rng.randrange(2) for _ in range(seats - 2)), 1)
        out.append((hands, rng.randrange(seats), sides))
    return out


POSITIONS = _positions(6, 2, 6) + _positions(6, 3, 4, seed=1) + _positions(4, 5, 3, seed=2)


def _solve_all():
    return [open_solver.solve_open(hands, leader, sides=sides) for hands, leader, sides in POSITIONS]


def test_every_cache_of_the_solver_is_one_of_the_bounded_two():
    """A new module-level cache must come with its ceiling (and this list)."""
    dicts = {name for name, value in vars(open_solver).items() if isinstance(value, dict) and not name.startswith("__")}
    assert dicts == {"_REPS", "_TABLE"}
    assert open_solver._REPS_LIMIT == 1 << 16 and open_solver._TABLE_LIMIT == 1 << 18  # the docstrings' numbers


def test_the_table_of_bounds_never_passes_its_ceiling_and_the_values_stay_exact(monkeypatch):
    open_solver._TABLE.clear()
    exact = _solve_all()
    table = _Checked(limit=200)
    monkeypatch.setattr(open_solver, "_TABLE", table)
    monkeypatch.setattr(open_solver, "_TABLE_LIMIT", 200)
    for _ in range(2):  # the second time, the table holds some of the first time's positions
        assert _solve_all() == exact  # emptied in the middle of searches, it still solves exactly
    assert table.largest == 200  # it was full, emptied, and filled again


def test_the_equivalent_cards_cache_never_passes_its_ceiling(monkeypatch):
    reps = _Checked(limit=50)
    monkeypatch.setattr(open_solver, "_REPS", reps)
    monkeypatch.setattr(open_solver, "_REPS_LIMIT", 50)
    for hands, _, _ in POSITIONS:
        for hand in hands:
            for led in (None, 0, 1, 2, 3):
                open_solver._moves(hand, led, sum(hands) - hand)
    assert reps.largest == 50  # it was full, emptied, and filled again


def test_one_table_serves_every_set_of_sides_without_mixing_them():
    """Positions solved for other sides (and another last trick) in between do not change a value."""
    hands, leader, _ = POSITIONS[-1]
    answers = {}
    for sides in ((0, 1, 1, 1, 1), (0, 0, 1, 1, 1), (1, 0, 0, 1, 0)):
        for last in (3, 9):
            open_solver._TABLE.clear()
            answers[sides, last] = open_solver.solve_open(hands, leader, sides=sides, last_trick=last)
    open_solver._TABLE.clear()
    for (sides, last), answer in list(answers.items()) * 2:
        assert open_solver.solve_open(hands, leader, sides=sides, last_trick=last) == answer
    # The same hands at a table of two and of three: the number of seats is part of the key too.
    two, three = hands[:2], hands[:3]
    open_solver._TABLE.clear()
    fresh = open_solver.solve_open(two, 0, sides=(0, 1))
    open_solver.solve_open(three, 0, sides=(0, 1, 1))
    assert open_solver.solve_open(two, 0, sides=(0, 1)) == fresh


@pytest.fixture(autouse=True)
def _empty_caches():
    """Each test starts, and leaves, the solver's caches empty (other tests share them)."""
    table = getattr(open_solver, "_TABLE", {})
    table.clear()
    yield
    table.clear()
