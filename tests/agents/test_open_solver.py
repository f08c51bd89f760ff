"""The open-hands solver: exact against plain minimax (two and three seats) and against the four-seat solver."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.agents.open_solver import open_moves, solve_open
from tressette_env.agents.solver import solve, solve_moves
from tressette_env.engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of, mask_of, parse_cards


def minimax(hands, leader, trick, sides):
    """Side 0's thirds from here by plain minimax (no table, no pruning): the reference."""
    n = len(hands)
    seat = (leader + len(trick)) % n
    hand = hands[seat]
    legal = hand & SUIT_MASK[trick[0] // 10] if trick else 0
    values = []
    for card in cards_of(legal or hand):
        rest = list(hands)
        rest[seat] ^= 1 << card
        played = [*trick, card]
        if len(played) < n:
            values.append(minimax(rest, leader, played, sides))
            continue
        led = played[0] // 10
        best = max(range(n), key=lambda i: STRENGTH[played[i]] if played[i] // 10 == led else -1)
        winner = (leader + best) % n
        taken = sum(THIRDS[c] for c in played) + (3 if not any(rest) else 0)
        values.append((taken if sides[winner] == 0 else 0) + (minimax(rest, winner, [], sides) if any(rest) else 0))
    return max(values) if sides[seat] == 0 else min(values)


def random_position(rng, seats, cards):
    deck = list(range(40))
    rng.shuffle(deck)
    return [mask_of(deck[cards * s : cards * (s + 1)]) for s in range(seats)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.sampled_from([2, 3]), cards=st.integers(1, 4), leader=st.integers(0, 2))
def test_exact_against_plain_minimax(seed, seats, cards, leader):
    rng = random.Random(seed)
    hands = random_position(rng, seats, cards)
    leader %= seats
    sides = (0, 1) if seats == 2 else tuple(rng.choice([(0, 1, 1), (0, 0, 1), (1, 0, 1)]))
    value = minimax(hands, leader, [], sides)
    assert solve_open(hands, leader, sides=sides)[0] == value
    moves = open_moves(hands, leader, sides=sides)
    me = sides[leader]
    assert max(moves.values()) == (value if me == 0 else sum(THIRDS[c] for c in cards_of(sum(hands))) + 3 - value)


def test_the_four_seat_game_agrees_with_the_double_dummy_solver():
    rng = random.Random(0)
    for _ in range(150):
        hands = random_position(rng, 4, rng.randint(1, 5))
        leader = rng.randrange(4)
        assert solve_open(hands, leader, sides=(0, 1, 0, 1)) == solve(hands, leader).thirds
        assert open_moves(hands, leader, sides=(0, 1, 0, 1)) == solve_moves(hands, leader)


def test_two_seats_ten_cards_each_is_solved():
    hands = [parse_cards("3d 2d Ad Rd Cd Fd 7d 3c 2c Ac"), parse_cards("3s 2s As Rs Cs Fs 7s 3b 2b Ab")]
    # Nobody can follow the other's suits: the leader takes every trick, 13 + 13 thirds and the last 3.
    assert solve_open(hands, 0, sides=(0, 1)) == (29, 0)
    assert solve_open(hands, 1, sides=(0, 1)) == (0, 29)


def test_bad_positions_are_named():
    with pytest.raises(ValueError, match="sides are 0 or 1"):
        solve_open([1, 2], 0, sides=(0, 2))
    with pytest.raises(ValueError, match="apart from the others"):
        solve_open([1, 1], 0, sides=(0, 1))
    with pytest.raises(ValueError, match="do not fit the trick"):
        solve_open([1, 6], 0, sides=(0, 1))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), cards=st.integers(1, 6), least=st.booleans())
def test_the_best_move_is_the_preferred_of_the_best_valued(seed, cards, least):
    from tressette_env.agents.open_solver import best_open_move

    rng = random.Random(seed)
    hands = random_position(rng, 2, cards)
    leader = rng.randrange(2)
    values = open_moves(hands, leader, sides=(0, 1))
    target = (min if least else max)(values.values())
    prefer = lambda c: (THIRDS[c], STRENGTH[c])  # noqa: E731
    chosen = best_open_move(hands, leader, sides=(0, 1), prefer=prefer, least=least)
    assert values[chosen] == target
    assert chosen == min((c for c, v in values.items() if v == target), key=prefer)
