"""Chiamarsi fuori (seed 002): the leader claims the target; true wins the match, false loses it."""

import pytest

from tests.helpers import SUITS_DEAL, action, play, play_trick
from tressette_env.engine import CALL_OUT, GAME_OVER, IllegalActionError, Rules, apply, new_game
from tressette_env.engine.game import legal_actions_mask

RULES = Rules(episode="match", calling_out=True, target_score=21, accusi=False)


def at_score(match_score, rules=RULES):
    state = new_game(rules, hands=SUITS_DEAL, dealer=3)  # seat 0 leads and takes every trick
    return state._replace(public=state.public._replace(match_score=match_score))


def test_call_out_is_offered_only_on_lead_and_only_when_switched_on():
    state = at_score((0, 0))
    assert legal_actions_mask(state) >> CALL_OUT & 1
    assert not legal_actions_mask(play(state, "3d")) >> CALL_OUT & 1
    with pytest.raises(IllegalActionError, match="only the seat on lead may call out"):
        apply(play(state, "3d"), CALL_OUT)
    plain = new_game(Rules(episode="match"), hands=SUITS_DEAL, dealer=3)
    assert not legal_actions_mask(plain) >> CALL_OUT & 1
    with pytest.raises(IllegalActionError, match="calling out is off"):
        apply(plain, CALL_OUT)


def test_a_true_claim_wins_the_match_at_once():
    # Seat 0 takes four tricks (its denari and the others' discards) before claiming.
    state = at_score((18, 20))
    for lead in ("3d", "2d", "Ad", "Rd"):
        state = play_trick(state, lead)
    taken = state.public.thirds[0] // 3
    assert 18 + taken >= 21
    state = apply(state, action("call"))
    p = state.public
    assert p.status == GAME_OVER and p.winner == 0
    assert p.result.called_out == 0 and p.match_score == (18 + taken, 20)


def test_a_false_claim_loses_the_match():
    state = play_trick(at_score((10, 5)), "3d")
    assert 10 + state.public.thirds[0] // 3 < 21
    state = apply(state, CALL_OUT)
    assert state.public.status == GAME_OVER and state.public.winner == 1


def test_declarations_count_once_the_team_has_a_card_point():
    rules = Rules(episode="match", calling_out=True, target_score=21)  # accusi on: 3 per seat here
    state = at_score((15, 0), rules)
    assert state.public.accusi.points == (6, 6)
    # No card point yet: the declarations are not yet the team's, 15 < 21 -> false claim.
    assert apply(state, CALL_OUT).public.winner == 1
    # Three tricks later team 0 has card points, so its 6 declared points count.
    state = play_trick(play_trick(play_trick(state, "3d"), "2d"), "Ad")
    assert state.public.thirds[0] // 3 >= 1
    assert apply(state, CALL_OUT).public.winner == 0  # 15 + points + 6 >= 21
