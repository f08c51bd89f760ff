"""Points: thirds, the last trick, rounding each team down, cappotto and its bonus (RULES.md 5-6)."""

import pytest

from tests.helpers import SUITS_DEAL, hands, play, play_out, play_trick
from tressette_env.engine import GAME_OVER, Rules, new_game, score_hand, thirds_to_points


@pytest.mark.parametrize("thirds, points", [(0, 0), (2, 0), (3, 1), (17, 5), (18, 6), (35, 11)])
def test_thirds_round_down(thirds, points):
    assert thirds_to_points(thirds) == points


def test_seed_003_rounding_example():
    # "4 + 5/3 de ponto vira 4 + 1 = 5 (com 2/3 descartados)": 12 + 5 = 17 thirds.
    result = score_hand((17, 18), (0, 0))
    assert result.points == (5, 6)


@pytest.mark.parametrize("team0", range(36))
def test_without_declarations_the_teams_always_share_11(team0):
    result = score_hand((team0, 35 - team0), (0, 0))
    assert sum(result.points) == 11


def test_a_whole_hand_where_the_leader_takes_every_trick():
    # Each seat holds one suit; seat 0 leads (dealer 3) and nobody can follow it.
    state = new_game(Rules(accusi=False), hands=SUITS_DEAL, dealer=3)
    state = play_out(state)
    p = state.public
    assert p.status == GAME_OVER and p.tricks_done == 10
    assert p.thirds == (35, 0)  # 32 in cards + 3 for the last trick
    assert p.result.points == (11, 0)
    assert p.result.cappotto == 0


def test_the_last_trick_is_worth_a_point():
    # Seat 0 leads nine denari and takes nine tricks; it must then lead the 4 di coppe,
    # the lowest card, and seat 1 takes the tenth trick and its point.
    deal = hands(
        "Ad 2d 3d 5d 6d 7d Fd Cd Rd 4c",
        "4d Ac 2c 3c 5c 6c 7c Fc Cc Rc",
        "As 2s 3s 4s 5s 6s 7s Fs Cs Rs",
        "Ab 2b 3b 4b 5b 6b 7b Fb Cb Rb",
    )
    state = new_game(Rules(accusi=False), hands=deal, dealer=3)
    state = play(state, "3d", "4d", "4s", "4b")
    for lead in "2d Ad Rd Cd Fd 7d 6d 5d".split():
        state = play_trick(state, lead)  # the others discard their lowest ids, keeping their re
    assert state.public.tricks_done == 9 and state.public.turn == 0
    state = play(state, "4c", "Rc", "Rs", "Rb")
    p = state.public
    assert p.status == GAME_OVER
    # Team 1: re di coppe, spade, bastoni (3 thirds) + the last trick (3 thirds).
    assert p.result.card_thirds == (29, 6)
    assert p.result.points == (9, 2)  # 9 2/3 and 2: the lost 2/3 of the deck


@pytest.mark.parametrize("bonus", [0, 11])
def test_cappotto_bonus(bonus):
    state = play_out(new_game(Rules(accusi=False, cappotto_bonus=bonus), hands=SUITS_DEAL, dealer=3))
    assert state.public.result.points == (11 + bonus, 0)


def test_cappotto_means_no_point_even_with_a_few_thirds():
    # Two thirds are no point: the team that made them has been given cappotto.
    result = score_hand((33, 2), (3, 3), cappotto_bonus=11)
    assert result.cappotto == 0
    assert result.points == (11 + 3 + 11, 0)
    assert result.accusi == (3, 0)
