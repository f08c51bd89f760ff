"""The observation: layout, pieces, relative seats, and no hidden card leaks."""

import dataclasses
import random

import numpy as np
import pytest

from tests.helpers import fill, play
from tests.hidden import random_positions, rejection_deal, replay, sampler_deal
from tressette_env import tressette_v0
from tressette_env.encoders import LAYOUT, SIZE, SLICES, encode, encode_state, layout_table, unflatten
from tressette_env.encoders.observation import THERMOMETERS, thermometer
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, new_game, rotate_seats, view
from tressette_env.engine.cards import cards_of


def test_size_is_the_sum_of_the_pieces_and_slices_tile_the_vector():
    assert SIZE == sum(p.size for p in LAYOUT) == 790
    stops = [0] + [SLICES[p.name].stop for p in LAYOUT]
    assert [SLICES[p.name].start for p in LAYOUT] == stops[:-1]
    assert "| `hand` | (40,) | 0:40 |" in layout_table()


def test_pieces_of_an_opening_position_by_name():
    deal = fill(seat_1="3d Ac 2c 5c", seat_2="4c Rd")
    state = new_game(Rules(), hands=deal, dealer=0)  # seat 1 leads
    state = play(state, "Ac striscio", "4c")  # seat 1 leads, seat 2 follows
    obs = unflatten(encode(view(state, 3)))  # seat 3 to play: relative seats 1 = seat 0, 2 = seat 1, 3 = seat 2
    assert np.flatnonzero(obs["hand"]).tolist() == cards_of(state.hands[3])
    assert list(np.flatnonzero(obs["trick"][2])) == [10]  # seat 1 = my partner, rel 2: asso di coppe
    assert list(np.flatnonzero(obs["trick"][3])) == [13]  # seat 2, rel 3: 4 di coppe
    assert obs["trick"][0].sum() == obs["trick"][1].sum() == 0
    assert list(obs["leader"]) == [0, 0, 1, 0]
    assert obs["signals"][2, 1].tolist() == [0, 1, 0]  # partner, coppe: striscio
    assert obs["signals"].sum() == 1
    assert list(obs["trick_number"]) == [1] + [0] * 9
    assert obs["played"][2, 10] == 1 and obs["played"][3, 13] == 1 and obs["played"].sum() == 2


def test_thermometers_and_team_order():
    state = new_game(Rules(episode="match", target_score=21), seed=0)
    state = state._replace(public=state.public._replace(thirds=(7, 20), match_score=(5, 30)))
    for seat in range(4):
        obs = unflatten(encode(view(state, seat)))
        mine, theirs = (7, 20) if seat % 2 == 0 else (20, 7)
        assert obs["thirds"][0].sum() == mine and obs["thirds"][1].sum() == theirs
        assert obs["thirds"][0, :mine].all()
        need = (16, 0) if seat % 2 == 0 else (0, 16)
        assert tuple(obs["to_target"].sum(axis=1)) == need


def test_inline_encoder_matches_the_plain_helpers():
    # encode_bits writes rotate_seats and thermometer out inline: check it against them.
    rng = random.Random(1)
    state = new_game(Rules(episode="match"), rng)
    while state.public.status == PLAYING:
        p = state.public
        for seat in range(4):
            obs = encode(view(state, seat))
            for name, packed, block in (("played", p.played, 40), ("voids", p.voids, 4), ("signals", p.signals, 12)):
                rotated = rotate_seats(packed, seat, block)
                want = [(rotated >> i) & 1 for i in range(4 * block)]
                assert obs[SLICES[name]].tolist() == want
            team = seat % 2
            want = thermometer(p.thirds[team], THERMOMETERS["thirds"])
            assert obs[SLICES["thirds"]][:35].tolist() == [(want >> i) & 1 for i in range(35)]
        state = apply(state, rng.choice(legal_actions(state)))


# No leak: a seat must see the same thing on every deal that agrees with what it knows. The other
# deal is drawn two ways (the engine's DealSampler, and a rejection method of the tests' own), the
# game is rebuilt on it from scratch by replaying the public actions (tests/hidden.py), and the
# seat's view, observation vector and AEC observation must not change.

DEAL_METHODS = {"sampler": sampler_deal, "rejection": rejection_deal}


@pytest.mark.parametrize("method", DEAL_METHODS)
def test_no_hidden_card_reaches_an_observation(method):
    make_deal = DEAL_METHODS[method]
    rng = random.Random(3)
    compared = differed = 0
    for position in random_positions(150, seed=11):
        state = position.state
        for seat in range(4):
            dealt = make_deal(position, seat, rng)
            assert dealt is not None, "no other deal found"
            other = replay(position, dealt)
            mine = view(state, seat)
            mine_obs = encode(mine)
            theirs = view(other, seat)
            assert theirs.hand == mine.hand and theirs.public == mine.public
            assert np.array_equal(encode(theirs), mine_obs)
            compared += 1
            if other.hands != state.hands:
                differed += 1
                # The full state does see the difference: the comparison above could have failed.
                assert not np.array_equal(encode_state(state), encode_state(other))
    assert differed > 0.8 * compared  # the other deals really are other deals


def aec_observation(rules, dealer, dealt, history, agent):
    """The AEC environment's observation for ``agent`` after playing ``history`` on the deal ``dealt``."""
    env = tressette_v0.raw_env(**dataclasses.asdict(rules))
    env.reset(seed=0, options={"hands": [cards_of(h) for h in dealt], "dealer": dealer})
    for action in history:
        env.step(action)
    return env.observe(agent)


@pytest.mark.parametrize("method", DEAL_METHODS)
def test_no_hidden_card_reaches_the_aec_observation(method):
    make_deal = DEAL_METHODS[method]
    rng = random.Random(4)
    compared = 0
    for position in random_positions(60, seed=12):
        if position.before is not None:  # the environment deals a chosen deal in the first hand only
            continue
        p = position.state.public
        seat = rng.randrange(4)
        dealt = make_deal(position, seat, rng)
        agent = tressette_v0.AGENTS[seat]
        mine = aec_observation(p.rules, p.dealer, position.state.dealt, p.history, agent)
        theirs = aec_observation(p.rules, p.dealer, dealt, p.history, agent)
        assert np.array_equal(mine["observation"], encode(view(position.state, seat)))
        assert np.array_equal(theirs["observation"], mine["observation"])
        assert np.array_equal(theirs["action_mask"], mine["action_mask"])
        compared += 1
    assert compared >= 40


def test_accusi_piece_shows_the_revealed_cards():
    deal = fill(seat_2="Ac 2c 3c")
    state = new_game(Rules(), hands=deal, dealer=0)
    obs = unflatten(encode(view(state, 0)))
    assert sorted(np.flatnonzero(obs["accusi"][2])) == [10, 11, 12]  # partner's napoletana di coppe
    assert obs["declared_points"][0].sum() >= 3


def test_voids_piece():
    deal = fill(seat_1="3d", seat_2="Ab As 2s 3s 4s 5s 6s 7s Fs Cs")  # seat 2 has no denari
    state = play(new_game(Rules(), hands=deal, dealer=0), "3d", "Ab")
    obs = unflatten(encode(view(state, 1)))
    assert obs["voids"][1].tolist() == [1, 0, 0, 0]  # seat 2 is relative seat 1 for seat 1
    assert obs["voids"].sum() == 1


@pytest.mark.parametrize("seat", range(4))
def test_trick_number_and_leader_are_empty_when_the_hand_is_over(seat):
    state = new_game(Rules(), seed=3)
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[0])
    obs = unflatten(encode(view(state, seat)))
    assert obs["trick_number"].sum() == 0 and obs["leader"].sum() == 0 and obs["hand"].sum() == 0
    assert obs["played"].sum() == 40
