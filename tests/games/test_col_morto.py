"""Tressette col morto (FAMILY.md section 2), rule by rule, with hand-built deals."""

import random

import pytest

from tests.helpers import SUITS_DEAL, action, fill, play
from tressette_env import tressette_col_morto_v0
from tressette_env.agents.sampling import DealSampler
from tressette_env.encoders.col_morto import observation
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    IllegalActionError,
    apply,
    legal_actions,
    new_game,
    next_hand,
    renuncio,
    view,
)
from tressette_env.engine.game import current_agent
from tressette_env.engine.render import render_state
from tressette_env.engine.scoring import HandScore
from tressette_env.games.col_morto import COL_MORTO, ColMortoRules
from tressette_env.protocol.state import decode_public, encode_public


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_three_players_the_dummy_sits_opposite_the_dealer(dealer):
    state = new_game(ColMortoRules(), hands=SUITS_DEAL, dealer=dealer)
    t = state.public.table
    d = state.public.dealer
    assert t.controllers[d] == dealer and t.controllers[(d + 2) % 4] == dealer  # the dealer plays his dummy
    assert t.extra.dummies == ((d + 2) % 4,)
    pair = {t.controllers[(d + 1) % 4], t.controllers[(d + 3) % 4]}
    assert pair == {0, 1, 2} - {dealer}
    assert state.public.turn == (d + 1) % 4  # the seat after the dealer leads: a member of the pair
    assert state.public.exposed_by((d + 2) % 4) == state.hands[(d + 2) % 4]  # face up from the deal


def test_the_deal_rotates_to_the_next_player_and_the_dummy_with_it():
    state = new_game(ColMortoRules(episode="match", target_score=100), seed=0, dealer=0)
    seen = []
    for hand in range(4):
        t = state.public.table
        seen.append((t.controllers[state.public.dealer], t.extra.dummies))
        while state.public.status == PLAYING:
            state = apply(state, legal_actions(state)[0])
        state = next_hand(state, seed=hand)
    assert [who for who, _ in seen] == [0, 1, 2, 0]
    assert len({dummies for _, dummies in seen[:3]}) == 3  # the dummy moves with the deal


def test_the_holder_plays_the_dummy_in_its_turn_with_the_follow_suit_rule():
    deal = fill(seat_1="4d", seat_2="3d 2d Ad")  # dealer 0: the pair at seats 1 and 3, the dummy at seat 2
    state = new_game(ColMortoRules(), hands=deal, dealer=0)
    state = play(state, "4d")
    assert state.public.turn == 2 and current_agent(state) == 0  # the dummy's turn: player 0 plays it
    assert set(legal_actions(state)) == {action("3d"), action("2d"), action("Ad")}
    with pytest.raises(IllegalActionError):
        apply(state, action("4c"))


def test_signals_only_between_two_live_partners():
    deal = fill(seat_1="3c 2c 4c", seat_0="3s 2s 4s")
    state = new_game(ColMortoRules(), hands=deal, dealer=0)  # seat 1 leads, its partner at seat 3 is live
    assert action("3c busso") in legal_actions(state)
    state = new_game(ColMortoRules(), hands=deal, dealer=2)
    t = state.public.table
    for seat in range(4):
        partner_live = (seat + 2) % 4 not in t.extra.dummies and seat not in t.extra.dummies
        assert bool(t.signal_seats >> seat & 1) == partner_live
    assert new_game(ColMortoRules(players=2), seed=0).public.table.signal_seats == 0


def test_the_dummy_declarations_count_for_its_side():
    deal = fill(seat_2="Ac 2c 3c")  # the dummy (dealer 0) holds a napoletana
    state = new_game(ColMortoRules(), hands=deal, dealer=0)
    assert state.public.accusi.points[0] >= 3 and [a.name for a in state.public.accusi.by_seat[2]][0].startswith(
        "napoletana"
    )


def test_after_first_card_the_dummy_is_shown_after_the_opening_lead():
    state = new_game(ColMortoRules(dummy_exposed="after_first_card"), hands=SUITS_DEAL, dealer=0)
    assert state.public.exposed == 0 and state.public.phase == 1
    state = apply(state, legal_actions(state)[0])
    assert state.public.exposed_by(2) == state.hands[2] and state.public.phase == 0


def test_two_players_each_with_a_dummy_see_every_card():
    state = new_game(ColMortoRules(players=2), seed=4, dealer=1)
    t = state.public.table
    assert t.controllers == (0, 1, 0, 1) and t.seat_of == (0, 1) and t.extra.dummies == (2, 3)
    assert state.public.turn == 2  # player 1 deals: the seat after it, player 0's dummy, leads
    for me in (0, 1):
        deals = {DealSampler(view(state, me)).sample(random.Random(k)) for k in range(5)}
        assert deals == {state.hands}  # perfect information: one deal fits what it sees


def test_match_scores_are_individual():
    state = new_game(ColMortoRules(episode="match", target_score=21, accusi=False), hands=SUITS_DEAL, dealer=0)
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[0])
    p = state.public
    # SUITS_DEAL: the leader takes every trick; seat 1 (a member of the pair) leads: the pair takes 11.
    t = p.table
    pair = [t.controllers[1], t.controllers[3]]
    assert [p.match_score[a] for a in pair] == [11, 11] and p.match_score[0] == 0
    assert p.status == HAND_OVER


def test_a_match_ends_at_the_target_the_highest_wins():
    game = ColMortoRules().game
    rules = ColMortoRules(episode="match")
    assert game.match_winner(rules, (22, 14, 22)) is None  # a tie for the highest plays on
    assert game.match_winner(rules, (22, 14, 23)) == 2


def test_rewards_each_side_its_difference_and_a_match_is_zero_sum():
    env = tressette_col_morto_v0.raw_env(accusi=False)
    env.reset(options={"hands": SUITS_DEAL, "dealer": 0})
    while not any(env.terminations.values()):
        env.step(legal_actions(env.game)[0])
    p = env.game.public
    assert env.rewards == {"player_0": -11.0, "player_1": 11.0, "player_2": 11.0}
    assert env.infos["player_1"]["sides"] == [["player_0"], ["player_1", "player_2"]]
    # The pair ties at the top (11, 11): a tie plays on, and the next hand's partnerships part them.
    state = new_game(ColMortoRules(episode="match", target_score=11, accusi=False), hands=SUITS_DEAL, dealer=0)
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[0])
    assert state.public.status == HAND_OVER and state.public.match_score == (0, 11, 11)
    rng = random.Random(0)
    while state.public.status != GAME_OVER:
        state = next_hand(state, rng)
        while state.public.status == PLAYING:
            state = apply(state, rng.choice(legal_actions(state)))
    assert sum(p.rules.game.returns(state.public)) == pytest.approx(0)


def test_the_observation_says_whom_the_agent_plays():
    env = tressette_col_morto_v0.raw_env()
    env.reset(options={"hands": SUITS_DEAL, "dealer": 0})
    obs_of = observation(ColMortoRules())
    env.step(legal_actions(env.game)[0])  # seat 1 led: now the dummy's turn (seat 2), played by player 0
    assert env.agent_selection == "player_0"
    pieces = obs_of.unflatten(env.observe("player_0")["observation"])
    assert pieces["acting_for"].tolist() == [0, 0, 1, 0] and pieces["dummies"].tolist() == [0, 0, 1, 0]
    assert pieces["exposed"][2].sum() == 10  # the dummy's cards, face up
    assert env.observe("player_0")["action_mask"].sum() == len(legal_actions(env.game))
    assert obs_of.unflatten(env.observe("player_1")["observation"])["acting_for"].sum() == 0


def test_a_fixed_holder_keeps_the_dummy_all_match():
    state = new_game(ColMortoRules(dummy_holder="fixed", episode="match", target_score=100), seed=5)
    holder = state.public.table.controllers[0]
    for hand in range(3):
        t = state.public.table
        assert t.controllers[0] == t.controllers[2] == holder and t.extra.dummies == (2,)
        while state.public.status == PLAYING:
            state = apply(state, legal_actions(state)[0])
        state = next_hand(state, seed=hand)


@pytest.mark.parametrize("offending_side", [0, 1])
def test_a_fixed_holder_plays_the_match_against_the_pair(offending_side):
    """With a fixed holder the match is kept by side: the pair wins or loses it together.

    A renuncio gives the other side 11 points, the target: the match ends at once. With
    individual scores the pair, always level, would tie at the top and play on.
    """
    rules = ColMortoRules(dummy_holder="fixed", episode="match", target_score=11, accusi=False)
    state = new_game(rules, hands=SUITS_DEAL, dealer=0, seed=3)
    t = state.public.table
    holder = t.controllers[0]
    pair = sorted({0, 1, 2} - {holder})
    assert COL_MORTO.competitors(rules) == 2 and state.public.match_score == (0, 0)
    assert t.extra.by_side and COL_MORTO.competitor_of(t, holder) == 0
    assert [COL_MORTO.competitor_of(t, a) for a in pair] == [1, 1]
    while t.sides[state.public.turn] != offending_side:
        state = apply(state, legal_actions(state)[0])
    state = renuncio(state)
    p = state.public
    winner = 1 - offending_side
    assert p.status == GAME_OVER and p.winner == winner
    assert p.match_score == ((0, 11) if winner else (11, 0))
    returns = COL_MORTO.returns(p)
    assert returns[holder] == (1.0 if winner == 0 else -1.0)  # the holder alone, the pair shares: zero-sum
    assert [returns[a] for a in pair] == [0.5 if winner == 1 else -0.5] * 2
    assert COL_MORTO.competitor_name(p, 1) == f"player_{pair[0]} and player_{pair[1]}"
    assert COL_MORTO.competitor_name(p, 0) == f"player_{holder}"
    assert f"match won by {COL_MORTO.competitor_name(p, winner)}" in render_state(state)


def test_a_fixed_holder_level_with_the_pair_at_the_target_plays_on():
    state = new_game(ColMortoRules(dummy_holder="fixed", episode="match", target_score=11), seed=1)
    level = COL_MORTO.close_hand(state.public, HandScore((11, 11), (33, 33), (0, 0)))
    assert level.status == HAND_OVER and level.winner is None and level.match_score == (11, 11)
    ahead = COL_MORTO.close_hand(state.public, HandScore((11, 12), (33, 36), (0, 0)))
    assert ahead.status == GAME_OVER and ahead.winner == 1


def test_a_fixed_holders_single_hands_keep_scores_and_the_observation_by_player():
    """Only a match is kept by side: a hand's layout is the three-player one (the shipped model plays it)."""
    hand = ColMortoRules(dummy_holder="fixed")
    state = new_game(hand, seed=2)
    assert COL_MORTO.competitors(hand) == 3 and not state.public.table.extra.by_side
    assert observation(hand).layout == observation(ColMortoRules()).layout
    match = ColMortoRules(dummy_holder="fixed", episode="match")
    assert COL_MORTO.competitors(match) == 2 and observation(match).size == observation(ColMortoRules(players=2)).size
    assert (
        "each side still needs"
        in next(piece for piece in observation(match).layout if piece.name == "to_target").meaning
    )
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[0])
    p = state.public
    assert len(p.match_score) == 3 and p.winner is None
    assert COL_MORTO.returns(p) == tuple(
        float(
            p.result.points[p.table.sides[p.table.seat_of[a]]] - p.result.points[1 - p.table.sides[p.table.seat_of[a]]]
        )
        for a in range(3)
    )


def test_only_a_fixed_holders_match_has_a_record_of_its_own_on_the_wire():
    """``BySidePublic`` marks the match kept by side; every other rule set's record is as before the rule."""
    for rules, tag in (
        (ColMortoRules(), "ColMortoPublic"),
        (ColMortoRules(dummy_holder="fixed"), "ColMortoPublic"),
        (ColMortoRules(episode="match"), "ColMortoPublic"),
        (ColMortoRules(players=2, episode="match"), "ColMortoPublic"),
        (ColMortoRules(dummy_holder="fixed", episode="match"), "BySidePublic"),
    ):
        public = new_game(rules, seed=0).public
        encoded = encode_public(public.table.extra)
        assert encoded == {"@": f"tressette_env.games.col_morto:{tag}", "v": [list(public.table.extra.dummies)]}
        assert decode_public(encode_public(public)) == public
        assert type(decode_public(encoded)).by_side == (tag == "BySidePublic")


@pytest.mark.parametrize("seed", range(6))
def test_a_fixed_holder_match_ends_under_random_play(seed):
    """The match of a fixed holder ends once a side is alone at the top past the target (it ran on before)."""
    env = tressette_col_morto_v0.raw_env(dummy_holder="fixed", episode="match", target_score=11)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    final = {}
    while env.agents and steps < 40 * 12:
        agent = env.agent_selection
        _, reward, terminated, _, _ = env.last()
        if terminated:
            final[agent] = reward
        env.step(None if terminated else rng.choice(legal_actions(env.game)))
        steps += 1
    p = env.game.public
    assert p.status == GAME_OVER and max(p.match_score) >= 11 and p.match_score[p.winner] == max(p.match_score)
    holder = p.table.controllers[0]
    pair = [f"player_{a}" for a in range(3) if a != holder]
    assert final[pair[0]] == final[pair[1]] == -final[f"player_{holder}"] / 2 == (0.5 if p.winner == 1 else -0.5)


def test_a_chosen_deal_is_checked():
    env = tressette_col_morto_v0.raw_env()
    env.reset(seed=0)
    game = env.game
    with pytest.raises(ValueError, match="dealer \\(a player\\) must be a seat 0..2"):
        env.reset(options={"dealer": 3})
    with pytest.raises(ValueError, match="a deal is 4 lists of 10"):
        env.reset(options={"hands": SUITS_DEAL[:3]})
    assert env.game is game
