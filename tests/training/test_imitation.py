"""The warm start's teacher games: the same data as before for the four-seat game, and any game of the family."""

import random

import numpy as np
import pytest

from tressette_env.agents.random_player import RandomPlayer
from tressette_env.agents.registry import make_player
from tressette_env.encoders.family import observation_of
from tressette_env.encoders.observation import SIZE, encode_bits, unpack
from tressette_env.engine.actions import NUM_ACTIONS
from tressette_env.engine.game import apply, legal_actions, new_game, view
from tressette_env.engine.rules import Rules
from tressette_env.engine.state import PLAYING
from tressette_env.envs.spec import game_spec
from tressette_env.training.imitation import teacher_games


def four_seat_teacher_games(teacher, decisions, rules, seed, vs_random=0.25, reward_scale=1 / 11):
    """``teacher_games`` as it was written for the four-seat game alone (seats, ``seat % 2``, the classic encoder)."""
    rng = random.Random(seed)
    player = make_player(teacher)
    observations = np.zeros((decisions, SIZE), dtype=np.int8)
    masks = np.zeros((decisions, NUM_ACTIONS), dtype=bool)
    actions = np.zeros(decisions, dtype=np.int64)
    targets = np.zeros(decisions, dtype=np.float32)
    n = 0
    while n < decisions:
        state = new_game(Rules(accusi=rules.accusi, signals=rules.signals, first_lead=rules.first_lead), rng)
        players = [player] * 4
        teacher_team = None
        if rng.random() < vs_random:
            teacher_team = rng.randrange(2)
            players = [player if seat % 2 == teacher_team else RandomPlayer() for seat in range(4)]
        start = n
        recorded_teams, leads = [], []
        while state.public.status == PLAYING:
            seat = state.public.turn
            seat_view = view(state, seat)
            legal = legal_actions(state)
            action = players[seat].act(seat_view, legal, rng)
            if len(legal) > 1 and n < decisions and (teacher_team is None or seat % 2 == teacher_team):
                observations[n] = unpack(encode_bits(seat_view), SIZE)
                masks[n, legal] = True
                actions[n] = action
                thirds = state.public.thirds
                recorded_teams.append(seat % 2)
                leads.append((thirds[seat % 2] - thirds[1 - seat % 2]) / 3)
                n += 1
            state = apply(state, action)
        points = state.public.result.points
        for i, (team, lead) in enumerate(zip(recorded_teams, leads, strict=True)):
            targets[start + i] = (points[team] - points[1 - team] - lead) * reward_scale
    return observations, masks, actions, targets


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(accusi=False, signals=False), Rules(first_lead="four_of_denari"),
     Rules(episode="match", calling_out=True, target_score=31)],
    ids=["standard", "plain", "four_of_denari", "match"],
)  # fmt: skip
@pytest.mark.parametrize("teacher", ["heuristic", "random"])
def test_the_four_seat_game_gets_the_same_data_bit_for_bit(rules, teacher):
    new = teacher_games(teacher, 600, rules, 3)
    old = four_seat_teacher_games(teacher, 600, rules, 3)
    for a, b in zip(new, old, strict=True):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()  # bytes: +0.0 and -0.0 differ too


@pytest.mark.parametrize(
    ("game", "switches"),
    [
        ("tressette_in_due", {"deal": "packets", "packet_deal": "choose"}),
        ("tressette_in_due", {"episode": "match", "calling_out": True}),
        ("tressette_col_morto", {}),
        ("tressette_col_morto", {"players": 2, "episode": "match"}),
    ],
    ids=["in_due_packets", "in_due_match", "col_morto_3", "col_morto_2"],
)
def test_teacher_games_of_every_game(game, switches):
    rules = game_spec(game).make_rules(**switches)
    n = 150
    observations, masks, actions, targets = teacher_games("heuristic", n, rules, 1, reward_scale=1.0)
    assert observations.shape == (n, observation_of(rules).size) and masks.shape == (n, rules.game.num_actions)
    assert masks[np.arange(n), actions].all() and (masks.sum(1) > 1).all()  # the teacher's legal choices
    assert set(np.unique(observations)) <= {0, 1} and np.abs(targets).max() > 0
    if switches.get("packet_deal") == "choose":
        assert (actions >= 161).any()  # the packet phase's actions are taught too
