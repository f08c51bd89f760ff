"""Declarations (accusi): every combination, adding up, public, void under cappotto (RULES.md)."""

import random

import numpy as np
import pytest

from tests.helpers import SUITS_DEAL, hands, play_out
from tressette_env.engine import Rules, find_accusi, new_game, parse_cards, view
from tressette_env.engine.cards import cards_of
from tressette_env.engine.scoring import _FOUND, _HONOUR_CARDS, _combinations


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("Ad 2d 3d 4c 5c 6c 7c 4s 5s 6s", [("napoletana di denari", 3)]),
        ("3d 3c 3s 4c 5c 6c 7c 4s 5s 6s", [("tris di 3 (manca bastoni)", 3)]),
        ("2d 2c 2b 4c 5c 6c 7c 4s 5s 6s", [("tris di 2 (manca spade)", 3)]),
        ("Ac As Ab 4c 5c 6c 7c 4s 5s 6s", [("tris di assi (manca denari)", 3)]),
        ("3d 3c 3s 3b 5c 6c 7c 4s 5s 6s", [("quattro 3", 4)]),
        ("2d 2c 2s 2b 5c 6c 7c 4s 5s 6s", [("quattro 2", 4)]),
        ("Ad Ac As Ab 5c 6c 7c 4s 5s 6s", [("quattro assi", 4)]),
        ("Ad 2d 4c 5c 6c 7c 4s 5s 6s 7s", []),  # asso and 2 only: nothing
        ("3d 3c 2s 2b Ad Ac 7c 4s 5s 6s", []),  # pairs are nothing
        # Seed 002: a napoletana di coppe with the 2 di spade and the 2 di bastoni is worth 6.
        ("Ac 2c 3c 2s 2b 4d 5d 6d 7d Fd", [("napoletana di coppe", 3), ("tris di 2 (manca denari)", 3)]),
        # Two napoletane share nothing but add up; the four 3s would need the other two.
        (
            "Ad 2d 3d Ac 2c 3c 3s 3b 4b 5b",
            [("napoletana di denari", 3), ("napoletana di coppe", 3), ("quattro 3", 4)],
        ),
        # Four 3s, three 2s, three assi: napoletane in the three suits with all three (19).
        (
            "3d 3c 3s 3b 2d 2c 2s Ad Ac As",
            [
                ("napoletana di denari", 3),
                ("napoletana di coppe", 3),
                ("napoletana di spade", 3),
                ("tris di assi (manca bastoni)", 3),
                ("tris di 2 (manca bastoni)", 3),
                ("quattro 3", 4),
            ],
        ),
    ],
)
def test_combinations(hand, expected):
    found = find_accusi(parse_cards(hand))
    assert [(a.name, a.points) for a in found] == expected
    for accuso in found:
        assert accuso.cards & parse_cards(hand) == accuso.cards  # it reveals cards really held


def test_seed_002_example_is_worth_six():
    assert sum(a.points for a in find_accusi(parse_cards("Ac 2c 3c 2s 2b 4d 5d 6d 7d Fd"))) == 6


def test_tris_reveals_the_missing_suit():
    (tris,) = find_accusi(parse_cards("3d 3c 3s 4c 5c 6c 7c 4s 5s 6s"))
    assert cards_of(tris.cards) == [2, 12, 22]  # the 3s of denari, coppe, spade: bastoni is missing


def deal_with_declarations():
    # Seat 1 (team 1) holds a napoletana di coppe and the 2s of spade and bastoni (6);
    # seat 2 (team 0) holds three assi (3).
    return hands(
        "2d 3d 4d 5d 6d 7d Fd Cd Rd 3s",
        "Ac 2c 3c 2s 2b 4c 5c 6c 7c Fc",
        "Ad As Ab Cc Rc 4s 5s 6s 7s Fs",
        "Cs Rs 3b 4b 5b 6b 7b Fb Cb Rb",
    )


def test_declarations_are_public_from_the_first_lead():
    state = new_game(Rules(), hands=deal_with_declarations(), dealer=0)
    p = state.public
    assert p.accusi.points == (3, 6)
    assert [a.name for a in p.accusi.by_seat[1]] == ["napoletana di coppe", "tris di 2 (manca denari)"]
    assert p.revealed_by(1) == parse_cards("Ac 2c 3c 2s 2b 2c")
    assert p.revealed_by(2) == parse_cards("Ad As Ab")
    assert p.revealed_by(0) == p.revealed_by(3) == 0
    # Every seat sees them: they are in the public state of every view.
    for seat in range(4):
        assert view(state, seat).public.accusi == p.accusi


def test_declarations_add_to_the_hand_score():
    state = play_out(new_game(Rules(), hands=deal_with_declarations(), dealer=0))
    r = state.public.result
    card_points = (r.card_thirds[0] // 3, r.card_thirds[1] // 3)
    assert all(card_points)  # both teams made a point in this deal
    assert r.accusi == (3, 6)
    assert r.points == (card_points[0] + 3, card_points[1] + 6)


def test_accusi_off_declares_nothing():
    state = new_game(Rules(accusi=False), hands=deal_with_declarations(), dealer=0)
    assert state.public.accusi.points == (0, 0) and state.public.accusi.revealed == 0
    r = play_out(state).public.result
    assert sum(r.points) == 11 and r.accusi == (0, 0)


def test_a_team_given_cappotto_loses_its_declarations():
    # In SUITS_DEAL every seat holds a napoletana (3 each) and seat 0 takes every trick.
    state = play_out(new_game(Rules(), hands=SUITS_DEAL, dealer=3))
    r = state.public.result
    assert state.public.accusi.points == (6, 6)
    assert r.cappotto == 0
    assert r.accusi == (6, 0)
    assert r.points == (11 + 6, 0)


def test_seed_004_opening_example():
    # "Player 3 deals. Player 1 is on his right and leads. He holds the 3, the 2 and the asso
    # di denari: a napoletana (3 points)." Player 3 is seat 3, player 1 is seat 0.
    deal = hands(
        "Ad 2d 3d 4c 5c 6c 7c 4s 5s 6s",
        "4d 5d 6d 7d Fd Cd Rd Ac 2c 3c",
        "Fc Cc Rc As 2s 3s 7s Fs Cs Rs",
        "Ab 2b 3b 4b 5b 6b 7b Fb Cb Rb",
    )
    state = new_game(Rules(), hands=deal, dealer=3)
    assert state.public.turn == 0
    assert [(a.name, a.points) for a in state.public.accusi.by_seat[0]] == [("napoletana di denari", 3)]


def test_find_accusi_kept_answer_is_worked_out_answer():
    rng = random.Random(5)
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(40), rng.choice([3, 10, 13, 20])))
        assert find_accusi(hand) == _combinations(hand)
        assert find_accusi(hand) is find_accusi(hand | (1 << 9))  # a 9th-rank card (a re) changes nothing


def test_find_accusi_keeps_plain_ints_whatever_it_is_first_asked_with():
    hand = (1 << 30) | (1 << 31) | (1 << 32) | (1 << 11)  # napoletana of suit 3, and a 2 elsewhere
    _FOUND.pop(hand & _HONOUR_CARDS, None)
    first = find_accusi(np.int64(hand))
    assert [type(a.cards) for a in first + find_accusi(hand)] == [int, int]
