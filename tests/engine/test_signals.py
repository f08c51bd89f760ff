"""Signals: only the leader, only about the led suit, only when true (RULES.md 'Signals')."""

import pytest

from tests.helpers import action, fill, play
from tressette_env.engine import BUSSO, STRISCIO, VOLO, IllegalActionError, Rules, apply, legal_actions, new_game
from tressette_env.engine.game import legal_actions_mask


def deal():
    # Seat 1 leads (dealer 0): three coppe, one denaro (the 3), the rest spade and bastoni.
    return fill(seat_1="3d Ac 2c 5c 4s 5s 6s 4b 5b 6b", seat_2="Rd 4d")


def opening(rules=None):
    return new_game(rules or Rules(), hands=deal(), dealer=0)


@pytest.mark.parametrize(
    "move, allowed, why",
    [
        ("Ac busso", True, "keeps 2c and 5c"),
        ("Ac striscio", True, "keeps 2c and 5c"),
        ("Ac volo", False, "it is not the last coppe"),
        ("3d volo", True, "the only denaro"),
        ("3d busso", False, "keeps no denaro"),
        ("3d striscio", False, "keeps no denaro"),
        ("3d", True, "no signal is always allowed"),
    ],
)
def test_each_signal_truth_condition(move, allowed, why):
    state = opening()
    if allowed:
        after = apply(state, action(move))
        assert after.public.history == (action(move),)
    else:
        with pytest.raises(IllegalActionError, match="a signal must be true"):
            apply(state, action(move))


def test_the_mask_offers_exactly_the_true_signals():
    state = opening()
    legal = set(legal_actions(state))
    hand = state.hands[1]
    for card in range(40):
        if not hand >> card & 1:
            assert not {card, card + 40, card + 80, card + 120} & legal
            continue
        others_in_suit = (hand >> (10 * (card // 10)) & 0x3FF).bit_count() - 1
        assert (card + 40 * BUSSO in legal) == (others_in_suit > 0)
        assert (card + 40 * STRISCIO in legal) == (others_in_suit > 0)
        assert (card + 40 * VOLO in legal) == (others_in_suit == 0)
        assert card in legal


def test_signals_are_recorded_by_seat_and_suit():
    state = play(opening(), "Ac striscio")
    assert state.public.signals_by(1, 1) == (False, True, False)
    assert state.public.signals_by(1, 0) == (False, False, False)
    state = play(opening(), "3d volo")
    assert state.public.signals_by(1, 0) == (False, False, True)


def test_only_the_leader_may_signal():
    state = play(opening(), "3d")
    assert legal_actions_mask(state) >> 40 == 0
    with pytest.raises(IllegalActionError, match="only the leader of a trick may signal"):
        apply(state, action("Rd busso"))


def test_signals_off_masks_them_and_rejects_them():
    state = opening(Rules(signals=False))
    assert legal_actions_mask(state) >> 40 == 0
    with pytest.raises(IllegalActionError, match="signals are off"):
        apply(state, action("Ac busso"))


def test_last_card_of_the_hand_may_fly():
    # On the last trick the leader's card is its last of the suit: volo is true, busso is not.
    state = opening()
    while state.public.tricks_done < 9 or state.public.trick:
        state = apply(state, legal_actions(state)[0])  # the lowest ids: no signals
    legal = set(legal_actions(state))
    (card,) = [c for c in range(40) if state.hands[state.public.turn] >> c & 1]
    assert legal == {card, card + 40 * VOLO}


def narrow_deal():
    # Seat 1 leads (dealer 0): coppe A 5 4 (one honour), spade 6 5 4 (none), bastoni 3 2 7 (two), the 3d alone.
    return fill(seat_1="3d Ac 5c 4c 6s 5s 4s 3b 2b 7b", seat_2="Rd 4d")


@pytest.mark.parametrize(
    "move, keeps_suit, no_honours",
    [
        ("6s striscio", True, True),  # spade: no honour at all
        ("Ac striscio", True, True),  # coppe: the asso is the only honour and it is the card led
        ("5c striscio", True, False),  # coppe: the asso stays behind
        ("7b striscio", True, False),  # bastoni: the 3 and the 2 stay behind
        ("3b striscio", True, False),  # bastoni: the 2 stays behind
        ("3d striscio", False, False),  # no other denaro: never a striscio
    ],
)
def test_the_narrow_striscio_reading(move, keeps_suit, no_honours):
    # Seeds 002 ("possiede altre carte di quel seme, ma senza nessun onore") and 003 ("um naipe
    # longo mas sem cartas altas"): the striscio="no_honours" switch.
    for rules, allowed in ((Rules(), keeps_suit), (Rules(striscio="no_honours"), no_honours)):
        state = new_game(rules, hands=narrow_deal(), dealer=0)
        assert (action(move) in legal_actions(state)) == allowed, (rules.striscio, move)
        if allowed:
            assert apply(state, action(move)).public.signals_by(1, action(move) % 40 // 10)[1]
        else:
            with pytest.raises(IllegalActionError, match="must be true"):
                apply(state, action(move))


def test_the_narrow_striscio_leaves_busso_and_volo_as_they_are():
    wide = legal_actions(new_game(Rules(), hands=narrow_deal(), dealer=0))
    narrow = legal_actions(new_game(Rules(striscio="no_honours"), hands=narrow_deal(), dealer=0))
    assert [a for a in wide if not 80 <= a < 120] == [a for a in narrow if not 80 <= a < 120]
