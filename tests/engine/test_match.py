"""Match play: to the target, the higher score when both get there, another hand on a tie."""

import pytest

from tests.helpers import SUITS_DEAL, play_out
from tressette_env.engine import GAME_OVER, HAND_OVER, PLAYING, GameOverError, Rules, apply, new_game, next_hand


def hand_from(match_score, rules):
    """A fresh hand of SUITS_DEAL (team 0 takes everything: 11 points) at a given match score."""
    state = new_game(rules, hands=SUITS_DEAL, dealer=3)
    return state._replace(public=state.public._replace(match_score=match_score))


MATCH = Rules(episode="match", accusi=False, target_score=21)


@pytest.mark.parametrize(
    "before, after, status, winner",
    [
        ((0, 0), (11, 0), HAND_OVER, None),  # nobody at 21: the match goes on
        ((10, 20), (21, 20), GAME_OVER, 0),  # team 0 reaches the target first
        ((12, 20), (23, 20), GAME_OVER, 0),
        ((10, 21), (21, 21), HAND_OVER, None),  # both at 21, a tie: another hand
        ((14, 22), (25, 22), GAME_OVER, 0),  # both over the target: the higher wins
        ((9, 22), (20, 22), GAME_OVER, 1),  # (after a tie) team 1 is over and higher
    ],
)
def test_target_and_tie_rule(before, after, status, winner):
    state = play_out(hand_from(before, MATCH))
    p = state.public
    assert p.match_score == after
    assert p.status == status
    assert p.winner == winner


def test_a_hand_episode_ends_after_one_hand():
    state = play_out(new_game(Rules(), seed=0))
    assert state.public.status == GAME_OVER and state.public.winner is None
    with pytest.raises(GameOverError):
        next_hand(state, seed=1)
    with pytest.raises(GameOverError, match="nobody is to act"):
        apply(state, 0)


def test_a_match_is_played_to_the_end():
    rules = Rules(episode="match", target_score=31)
    state = new_game(rules, seed=5)
    hands_played = 0
    total = [0, 0]
    while True:
        state = play_out(state)
        hands_played += 1
        total = [total[t] + state.public.result.points[t] for t in (0, 1)]
        assert list(state.public.match_score) == total
        if state.public.status == GAME_OVER:
            break
        assert state.public.status == HAND_OVER
        with pytest.raises(GameOverError, match="call next_hand"):
            apply(state, 0)
        state = next_hand(state, seed=hands_played)
        assert state.public.status == PLAYING and state.public.hand_number == hands_played
    winner = state.public.winner
    assert total[winner] >= 31 and total[winner] > total[1 - winner]
    assert hands_played >= 2
