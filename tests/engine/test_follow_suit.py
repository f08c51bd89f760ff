"""Following suit: the leader plays any card, the others must follow when they can."""

import numpy as np
import pytest

from tests.helpers import action, fill, play
from tressette_env.engine import IllegalActionError, Rules, apply, cards_of, legal_actions, new_game, parse_cards
from tressette_env.engine.game import legal_actions_mask


def deal():
    # Seat 1 leads (dealer 0). Seat 2 holds denari, seat 3 none.
    return fill(
        seat_1="3d Ac 2c 3c 4c 5c 6c 7c Fc Cc",
        seat_2="Rd 4d As 2s 3s 4s 5s 6s 7s Fs",
        seat_3="Cs Rs Ab 2b 3b 4b 5b 6b 7b Fb",
    )


def test_leader_may_play_any_card():
    state = new_game(Rules(signals=False), hands=deal(), dealer=0)
    assert legal_actions(state) == cards_of(state.hands[1])


def test_must_follow_the_led_suit_when_able():
    state = play(new_game(Rules(signals=False), hands=deal(), dealer=0), "3d")
    assert state.public.turn == 2
    assert legal_actions_mask(state) == parse_cards("Rd 4d")
    before = state
    with pytest.raises(
        IllegalActionError, match=r"seat 2 may not play 20 \(As\): it must follow the led suit; legal: 4d Rd"
    ):
        apply(state, action("As"))
    assert state == before


def test_a_void_seat_may_play_anything_and_shows_the_void():
    state = play(new_game(Rules(signals=False), hands=deal(), dealer=0), "3d", "4d")
    assert state.public.turn == 3
    assert legal_actions_mask(state) == state.hands[3]
    state = play(state, "Ab")
    assert state.public.is_void(3, 0)
    assert not state.public.is_void(2, 0)


def test_a_card_not_in_hand_is_illegal():
    state = new_game(Rules(), hands=deal(), dealer=0)
    with pytest.raises(IllegalActionError, match="the card is not in its hand"):
        apply(state, action("Rd"))


@pytest.mark.parametrize("bad", [1.0, 160.0, "3d", None, [0], np.array([0])])
def test_a_non_integer_action_is_a_type_error_naming_the_ids(bad):
    state = new_game(Rules(), hands=deal(), dealer=0)
    with pytest.raises(TypeError, match=r"an action is an integer id 0..160; got"):
        apply(state, bad)


def test_numpy_integer_actions_play_and_enter_the_history_as_ints():
    state = new_game(Rules(), hands=deal(), dealer=0)
    after = apply(state, np.int64(action("3d")))
    assert after.public.history == (action("3d"),) and type(after.public.history[0]) is int
