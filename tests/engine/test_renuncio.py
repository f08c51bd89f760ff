"""Renuncio: an illegal play loses the hand, the opponents score 11 (seed 004)."""

import pytest

from tests.helpers import SUITS_DEAL, fill, play
from tressette_env.engine import GAME_OVER, HAND_OVER, GameOverError, Rules, new_game, renuncio


@pytest.mark.parametrize("offender, points", [(0, (0, 11)), (1, (11, 0)), (2, (0, 11)), (3, (11, 0))])
def test_the_offending_team_loses_the_hand(offender, points):
    state = new_game(Rules(), hands=SUITS_DEAL, dealer=(offender - 1) % 4)
    assert state.public.turn == offender
    state = renuncio(state)
    r = state.public.result
    assert r.points == points and r.renuncio == offender and r.accusi == (0, 0)
    assert state.public.status == GAME_OVER


def test_renuncio_mid_hand_keeps_the_thirds_taken_for_the_record():
    state = play(new_game(Rules(signals=False), hands=fill(seat_1="3d", seat_2="Rd"), dealer=0), "3d")
    state = renuncio(state)  # seat 2 revokes
    assert state.public.result.points == (0, 11)
    assert state.public.result.card_thirds == (0, 0)


def test_in_a_match_the_hand_is_lost_and_the_match_goes_on():
    state = renuncio(new_game(Rules(episode="match"), hands=SUITS_DEAL, dealer=3))
    assert state.public.status == HAND_OVER and state.public.match_score == (0, 11)


def test_no_renuncio_after_the_end():
    state = renuncio(new_game(Rules(), seed=0))
    with pytest.raises(GameOverError):
        renuncio(state)
