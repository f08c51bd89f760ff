"""The history observation (``history=True``): its pieces on hand-built deals, in every game, in every environment."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.family import MODULES, RULE_SETS
from tests.helpers import SUITS_DEAL, fill, play
from tressette_env.encoders import SIZE, encode, history_pieces, observation_of, unflatten, with_history
from tressette_env.encoders.observation import CLASSIC
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, new_game, view
from tressette_env.engine.cards import parse_card
from tressette_env.engine.tricks import trick_winner
from tressette_env.envs.spec import game_spec

HISTORY = observation_of(Rules(), history=True)
PIECES = ("card_trick", "card_place", "trick_leader", "trick_winner", "lead_signal")


def test_the_layout_is_the_default_one_then_the_history_pieces():
    assert HISTORY.size == SIZE + 670 == 1460
    assert HISTORY.layout[: len(CLASSIC.layout)] == CLASSIC.layout
    assert [p.name for p in HISTORY.layout[len(CLASSIC.layout) :]] == list(PIECES)
    assert {p.name: p.shape for p in HISTORY.history_layout} == {
        "card_trick": (40, 10), "card_place": (40, 4), "trick_leader": (10, 4), "trick_winner": (10, 4),
        "lead_signal": (10, 3),
    }  # fmt: skip
    assert "| `card_trick` | (40, 10) | 790:1190 |" in HISTORY.table()
    assert observation_of(Rules(), history=True) is HISTORY  # made once
    assert [p.name for p in history_pieces(3, 13, signals=False)] == list(PIECES[:4])


def test_pieces_of_a_hand_built_deal():
    # Dealer 0: seat 1 leads. Trick 0: 1 Ac (striscio), 2 4c, 3 3c, 0 Ad (a void in coppe): seat 3 takes it
    # with the 3. Trick 1: seat 3 leads 2c (busso), 0 plays 2d, 1 plays 5c, 2 plays 6c.
    deal = fill(seat_0="Ad 2d", seat_1="Ac 5c 7c", seat_2="4c 6c", seat_3="3c 2c Rc")
    state = new_game(Rules(), hands=deal, dealer=0)
    state = play(state, "Ac striscio", "4c", "3c", "Ad", "2c busso", "2d", "5c")
    obs = HISTORY.unflatten(HISTORY.encode(view(state, 2)))  # seat 2 to play: rel 1 = seat 3, 2 = seat 0, 3 = seat 1
    trick_of = {card: int(np.flatnonzero(obs["card_trick"][parse_card(card)])[0]) for card in ("Ac", "4c", "3c", "Ad")}
    assert trick_of == {"Ac": 0, "4c": 0, "3c": 0, "Ad": 0}
    assert [int(np.flatnonzero(obs["card_trick"][parse_card(c)])[0]) for c in ("2c", "2d", "5c")] == [1, 1, 1]
    places = {c: int(np.flatnonzero(obs["card_place"][parse_card(c)])[0]) for c in ("Ac", "4c", "3c", "Ad", "2c", "2d", "5c")}  # fmt: skip
    assert places == {"Ac": 0, "4c": 1, "3c": 2, "Ad": 3, "2c": 0, "2d": 1, "5c": 2}
    assert obs["card_trick"].sum() == obs["card_place"].sum() == 7  # unplayed cards: all 0
    assert obs["card_trick"][parse_card("6c")].sum() == 0
    assert obs["trick_leader"][0].tolist() == [0, 0, 0, 1]  # seat 1 led trick 0: rel 3 for seat 2
    assert obs["trick_leader"][1].tolist() == [0, 1, 0, 0]  # seat 3 led trick 1: rel 1
    assert obs["trick_leader"][2:].sum() == 0
    assert obs["trick_winner"][0].tolist() == [0, 1, 0, 0]  # seat 3 took trick 0
    assert obs["trick_winner"][1:].sum() == 0  # trick 1 is not complete
    assert obs["lead_signal"][0].tolist() == [0, 1, 0] and obs["lead_signal"][1].tolist() == [1, 0, 0]
    assert obs["lead_signal"][2:].sum() == 0
    # The same history from seat 1's side: only the relative seats turn.
    other = HISTORY.unflatten(HISTORY.encode(view(state, 1)))
    assert other["trick_leader"][0].tolist() == [1, 0, 0, 0] and other["trick_winner"][0].tolist() == [0, 0, 1, 0]
    for name in ("card_trick", "card_place", "lead_signal"):
        assert np.array_equal(other[name], obs[name])


def test_a_whole_hand_leaves_every_card_placed_and_every_trick_won():
    state = new_game(Rules(), hands=SUITS_DEAL, dealer=3)  # seat 0 leads and takes every trick
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[-1] % 40)
    obs = HISTORY.unflatten(HISTORY.encode(view(state, 0)))
    assert (obs["card_trick"].sum(axis=1) == 1).all() and (obs["card_place"].sum(axis=1) == 1).all()
    assert (obs["trick_leader"][:, 0] == 1).all() and (obs["trick_winner"][:, 0] == 1).all()
    assert obs["lead_signal"].sum() == 0


def test_the_default_observation_is_unchanged_and_a_prefix():
    rng = random.Random(5)
    state = new_game(Rules(), rng)
    while state.public.status == PLAYING:
        for seat in range(4):
            full = HISTORY.encode(view(state, seat))
            assert np.array_equal(full[:SIZE], encode(view(state, seat)))
        state = apply(state, rng.choice(legal_actions(state)))


def expected_history(observation, p, me: int) -> dict[str, np.ndarray]:
    """The history pieces written out from ``PublicState.tricks()``, piece by piece."""
    shapes = {piece.name: piece.shape for piece in observation.history_layout}
    out = {name: np.zeros(shape, dtype=np.int8) for name, shape in shapes.items()}
    n = p.table.seats
    tricks = p.tricks()
    for t, (leader, cards, actions) in enumerate(tricks):
        if not cards:
            continue
        out["trick_leader"][t, (leader - me) % n] = 1
        if "lead_signal" in out and actions[0] >= 40:
            out["lead_signal"][t, actions[0] // 40 - 1] = 1
        for place, card in enumerate(cards):
            out["card_trick"][card, t] = 1
            out["card_place"][card, place] = 1
        if len(cards) == n:
            # The next trick's leader; the last trick of the hand leads nothing: the rule's own home.
            winner = tricks[t + 1][0] if t + 1 < len(tricks) else trick_winner(leader, cards, n)
            out["trick_winner"][t, (winner - me) % n] = 1
    return out


GAME_RULES = [(game, rules) for game, sets in RULE_SETS.items() for rules in sets]


@pytest.mark.parametrize(
    "game,rules", GAME_RULES, ids=[f"{g}-{i}" for g, s in RULE_SETS.items() for i in range(len(s))]
)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_every_game_every_seat_every_decision(game, rules, seed):
    spec = game_spec(game)
    rules = spec.make_rules(**rules)
    observation = spec.observation_for(rules, history=True)
    base = spec.observation(rules)
    assert observation.layout[: len(base.layout)] == tuple(base.layout)
    rng = random.Random(seed)
    state = new_game(rules, rng)
    steps = 0
    while state.public.status == PLAYING and steps < 200:
        p = state.public
        for seat in range(p.table.seats):
            seen = view(state, seat)
            full = observation.encode(seen)
            assert np.array_equal(full[: base.size], base.encode(seen))
            got = observation.unflatten(full)
            for name, expected in expected_history(observation, p, seat).items():
                assert np.array_equal(got[name][tuple(slice(0, k) for k in expected.shape)], expected), (name, seat)
        state = apply(state, rng.choice(legal_actions(state)))
        steps += 1


@pytest.mark.parametrize("game", MODULES)
def test_every_environment_takes_the_keyword(game):
    module = MODULES[game]
    spec = game_spec(game)
    size = spec.observation_for(spec.make_rules(), history=True).size
    env = module.env(history=True)
    env.reset(seed=0)
    agent = env.agent_selection
    assert env.observation_space(agent)["observation"].shape == (size,)
    assert env.observe(agent)["observation"].shape == (size,)
    parallel = module.parallel_env(history=True)
    observations, _ = parallel.reset(seed=0)
    assert next(iter(observations.values()))["observation"].shape == (size,)
    default = module.env()
    assert default.observation_space(agent)["observation"].shape == (spec.observation(spec.make_rules()).size,)
    single = gym.make(spec.gym_id, history=True)
    assert single.observation_space.shape == (size,)
    obs, _ = single.reset(seed=0)
    assert obs.shape == (size,)


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_a_history_that_is_not_a_bool_is_refused(bad):
    with pytest.raises(TypeError, match="history is True"):
        MODULES["tressette"].env(history=bad)
    with pytest.raises(TypeError, match="history is True"):
        observation_of(Rules(), history=bad)


def test_with_history_wraps_any_observation_once():
    assert with_history(CLASSIC) is HISTORY
    obs = HISTORY.encode(view(new_game(Rules(), seed=0), 1))
    assert obs.dtype == np.int8 and obs.shape == (1460,) and set(np.unique(obs)) <= {0, 1}
    assert unflatten(obs[:SIZE])["hand"].sum() == 10


def test_states_in_any_order_read_as_from_a_fresh_encoder():
    # The encoder remembers the last hand it read: states of other hands, earlier states, in any order.
    from tressette_env.encoders.history import history_encoder

    rng = random.Random(9)
    states = []
    for _ in range(3):
        state = new_game(Rules(), rng)
        while state.public.status == PLAYING:
            states.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    rng.shuffle(states)
    reused = history_encoder(4, 10, True, 0)
    for state in states + states[::-1]:
        seat = rng.randrange(4)
        assert reused(state.public, seat) == history_encoder(4, 10, True, 0)(state.public, seat)


def test_an_elimination_match_keeps_the_layout_as_tables_shrink():
    from tressette_env.engine import HAND_OVER, next_hand

    spec = game_spec("tressette_a_perdere")
    rules = spec.make_rules(players=5, episode="match", match_end="elimination", target_score=11)
    observation = spec.observation_for(rules, history=True)
    rng = random.Random(3)
    state = new_game(rules, rng)
    tables = set()
    while True:
        p = state.public
        if p.status == HAND_OVER:
            state = next_hand(state, rng)
            continue
        if p.status != PLAYING:
            break
        tables.add(p.table.seats)
        seat = rng.randrange(p.table.seats)
        got = observation.unflatten(observation.encode(view(state, seat)))
        for name, expected in expected_history(observation, p, seat).items():
            assert np.array_equal(got[name][tuple(slice(0, k) for k in expected.shape)], expected), name
            assert got[name].sum() == expected.sum()  # the seats and tricks beyond this table's stay 0
        state = apply(state, rng.choice(legal_actions(state)))
    assert len(tables) > 1  # players were put out: smaller tables, one layout


def test_threads_sharing_an_encoder_keep_their_own_hands():
    import sys
    import threading

    from tressette_env.encoders.history import history_encoder

    shared = history_encoder(4, 10, True, 0)
    failures = []

    def play(seed):
        rng = random.Random(seed)
        for _ in range(20):
            state = new_game(Rules(), rng)
            while state.public.status == PLAYING:
                seat = state.public.turn
                if shared(state.public, seat) != history_encoder(4, 10, True, 0)(state.public, seat):
                    failures.append(seed)
                state = apply(state, rng.choice(legal_actions(state)))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as can be, also inside the encoder
    try:
        # The same hands in every thread: each extends what another may be extending at that moment.
        threads = [threading.Thread(target=play, args=(0,)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures


def test_an_encoder_pickles_and_its_copy_starts_afresh():
    import pickle

    import cloudpickle

    rng = random.Random(2)
    state = new_game(Rules(), rng)
    for _ in range(9):
        state = apply(state, rng.choice(legal_actions(state)))
    expected = HISTORY.encode(view(state, 1))  # the encoder now remembers this hand
    for dumps in (pickle.dumps, cloudpickle.dumps):  # SB3 saves with cloudpickle
        copy = pickle.loads(dumps(HISTORY.history_bits))
        assert copy(state.public, 1) == HISTORY.history_bits(state.public, 1)
    copy = pickle.loads(cloudpickle.dumps(HISTORY))  # the whole observation, its closures by value
    assert np.array_equal(copy.encode(view(state, 1)), expected)
