"""The OpenSpiel games (``tressette_env.integrations.openspiel``): OpenSpiel's own checks, and parity with the engine.

Needs the ``openspiel`` extra (``pip install open_spiel``); skipped elsewhere.
"""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tressette_env import catalog  # noqa: E402
from tressette_env.engine import Rules, apply, legal_actions, new_game, view  # noqa: E402
from tressette_env.engine.cards import cards_of, mask_of  # noqa: E402
from tressette_env.integrations import openspiel  # noqa: E402
from tressette_env.protocol.state import encode_public  # noqa: E402

from ..games.family import RULE_SETS  # noqa: E402

HAND_RULE_SETS = [
    (name, switches)
    for name, sets in RULE_SETS.items()
    for switches in sets
    if switches.get("episode", "hand") == "hand"
]


def _load(name: str, switches: dict):
    return pyspiel.load_game(openspiel.game_name(name), openspiel.parameters_of(name, switches))


def _ids(item):
    name, switches = item
    return f"{name}-{'-'.join(f'{k}={v}' for k, v in switches.items()) or 'default'}"


def _play(game, rng: random.Random):
    """A hand with random chance outcomes and random legal actions; the states at each decision, and the end."""
    state = game.new_initial_state()
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            assert sum(probabilities) == pytest.approx(1.0)
            state.apply_action(rng.choice(outcomes))
        else:
            decisions.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return decisions, state


def test_every_catalog_game_is_registered():
    names = set(pyspiel.registered_names())
    for entry in catalog.entries():
        assert openspiel.game_name(entry.name) in names
    assert openspiel.register_all() == []  # registering again registers nothing


@pytest.mark.parametrize("item", HAND_RULE_SETS, ids=[_ids(i) for i in HAND_RULE_SETS])
def test_openspiel_random_sim_test(item):
    """OpenSpiel's own checks of a game (legal actions, clones, observations, returns) over random hands."""
    pyspiel.random_sim_test(_load(*item), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("item", HAND_RULE_SETS, ids=[_ids(i) for i in HAND_RULE_SETS])
def test_each_decision_is_the_engines(item):
    """At each decision: the engine's agent to act and legal actions, the view as the information state and
    observation, and at the end the engine's returns, within the bound, summing to 0 where the game says so."""
    name, switches = item
    game = _load(name, switches)
    rules = catalog.entry(name).make_rules(**switches)
    engine_game = type(rules).game
    observation = openspiel.observation_of(rules)
    bound = engine_game.return_bound(rules)
    rng = random.Random(7)
    for _ in range(4):
        decisions, end = _play(game, rng)
        assert len(decisions) <= game.max_game_length()
        for state in decisions[:: max(1, len(decisions) // 6)]:
            gs = state.game_state
            player = state.current_player()
            assert player == gs.public.table.controllers[gs.public.turn]
            assert state.legal_actions() == sorted(legal_actions(gs))
            seen = view(gs, gs.public.table.seat_of[player])
            info = json.loads(state.information_state_string(player))
            assert (info["seat"], info["hand"], info["private"]) == (seen.seat, seen.hand, seen.private)
            assert info["public"] == json.loads(json.dumps(encode_public(seen.public)))
            assert state.observation_tensor(player) == pytest.approx(observation.encode(seen).tolist())
        returns = end.returns()
        assert returns == [float(r) for r in engine_game.returns(end.game_state.public)]
        assert all(abs(r) <= bound for r in returns)
        if engine_game.zero_sum(rules):
            assert sum(returns) == 0
            assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_a_hand_built_deal_four_seats():
    """The chance outcomes are the dealer's draw, then the shuffled deck card by card: seat s gets cards 10s..10s+9."""
    game = pyspiel.load_game("python_tressette")
    state = game.new_initial_state()
    assert [o for o, _ in state.chance_outcomes()] == [0, 1, 2, 3]
    state.apply_action(2)  # seat 2 deals
    deck = list(range(39, -1, -1))  # every card, highest id first
    for i, card in enumerate(deck[:-1]):
        outcomes = [o for o, _ in state.chance_outcomes()]
        assert outcomes == sorted(deck[i:])
        assert state.chance_outcomes()[0][1] == pytest.approx(1 / (40 - i))
        state.apply_action(card)
    assert not state.is_chance_node()
    gs = state.game_state
    assert gs.public.dealer == 2
    assert gs.hands == tuple(mask_of(deck[10 * s : 10 * s + 10]) for s in range(4))
    assert state.current_player() == 3  # the seat after the dealer leads


def test_four_seat_hands_match_the_engine_dealt_the_same_cards():
    """A hand played here and the same hand dealt to the engine by ``new_game(hands=..., dealer=...)`` agree."""
    game = pyspiel.load_game("python_tressette")
    rng = random.Random(11)
    for _ in range(3):
        decisions, end = _play(game, rng)
        first = decisions[0].game_state
        gs = new_game(Rules(), dealer=first.public.dealer, hands=[cards_of(h) for h in first.hands])
        for state in decisions[1:] + [end]:
            action = state.history()[-1]
            assert action in legal_actions(gs)
            gs = apply(gs, action)
        assert end.returns() == [float(r) for r in Rules.game.returns(gs.public)]


def test_the_information_state_hides_the_other_hands():
    """Two deals that differ only in two cards of seats 1 and 2: seat 0's information state is the same, theirs differ.

    (Without declarations: a declared combination is public, and the ordered deck deals napoletane.)
    """
    game = pyspiel.load_game("python_tressette", {"accusi": False})
    deck = list(range(40))
    swapped = deck[:]
    swapped[10], swapped[20] = swapped[20], swapped[10]  # a card of seat 1's for one of seat 2's
    states = []
    for order in (deck, swapped):
        state = game.new_initial_state()
        state.apply_action(3)  # seat 3 deals: seat 0 leads
        for card in order[:-1]:
            state.apply_action(card)
        states.append(state)
    a, b = states
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(3) == b.information_state_string(3)
    for seat in (1, 2):
        assert a.information_state_string(seat) != b.information_state_string(seat)
    card = a.legal_actions()[0]
    a.apply_action(card)
    b.apply_action(card)
    assert a.information_state_string(0) == b.information_state_string(0)


def test_parameters_are_the_rule_switches():
    game = pyspiel.load_game(
        "python_calabresella",
        {"players": 4, "contracts": "chiamo+solo", "multipliers": "chiamo:2+solo:3"},
    )
    assert game.num_players() == 4
    assert game.rules.contracts == ("chiamo", "solo")
    assert game.rules.multipliers == (("chiamo", 2), ("solo", 3))
    assert pyspiel.load_game("python_tressette_col_morto", {"players": 2}).get_type().utility == (
        pyspiel.GameType.Utility.ZERO_SUM
    )
    assert pyspiel.load_game("python_tressette_col_morto").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 9}, "players"),
        ({"contracts": 3}, "contracts"),
        ({"multipliers": "chiamo:two"}, "multipliers"),
        ({"contracts": "chiamo+nothing"}, "contracts"),
    ],
)
def test_a_bad_parameter_is_refused(params, message):
    with pytest.raises(Exception, match=message):
        pyspiel.load_game("python_calabresella", params)


def test_a_matchs_own_switches_are_no_parameters_and_list_parameters_read_back():
    """One hand has no target_score, calling_out, rounds...: they were listed, and refused whatever their value."""
    assert "target_score" not in pyspiel.load_game("python_tressette").get_parameters()
    with pytest.raises(Exception, match="Unknown parameter 'target_score'"):
        pyspiel.load_game("python_tressette", {"target_score": 50})
    for name in ("calling_out", "target_score"):
        assert name not in openspiel._parameters(catalog.entry("tressette_in_due"))
    assert "rounds" not in openspiel._parameters(catalog.entry("calabresella"))
    assert "cappotto_bonus" in openspiel._parameters(catalog.entry("tressette"))  # (a hand's own)
    empty = openspiel.parameters_of("calabresella", {"multipliers": {}})
    assert pyspiel.load_game("python_calabresella", empty).rules.multipliers == ()
    for value, words in [
        ("chiamo:2+chiamo:3", "'chiamo' is given twice"),
        ("chiamo:-1", "to ints 1..10000"),
        ("chiamo:x", "key:number pairs joined by"),
    ]:
        with pytest.raises(Exception, match=words):
            pyspiel.load_game("python_calabresella", {"multipliers": value})


def test_a_match_is_refused():
    with pytest.raises(Exception, match="episode"):
        pyspiel.load_game("python_tressette", {"episode": "match"})
    with pytest.raises(ValueError, match="one hand"):
        openspiel.rules_of("tressette", {"episode": "match"})


def test_an_openspiel_algorithm_runs_on_the_game():
    """OpenSpiel's outcome-sampling MCCFR (C++) reads the information states and plays the legal actions."""
    game = pyspiel.load_game("python_tressette_in_due")
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game)
    for _ in range(5):
        solver.run_iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    policy = solver.average_policy().get_state_policy(state)
    assert sorted(a for a, _ in policy) == state.legal_actions()
    assert sum(p for _, p in policy) == pytest.approx(1.0)


def test_scripted_random_refuses_other_draws():
    rng = openspiel.ScriptedRandom([1])
    assert rng.randrange(3) == 1
    with pytest.raises(TypeError, match="random"):
        rng.random()
    with pytest.raises(TypeError, match="card ids"):
        openspiel.ScriptedRandom([]).shuffle(["a", "b"])
    with pytest.raises(ValueError, match="not one of"):
        openspiel.ScriptedRandom([5]).randrange(3)


class _Uniform:
    """A seeded probability sampler (OpenSpiel's ``UniformProbabilitySampler`` takes no seed from Python)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


@pytest.mark.parametrize("item", HAND_RULE_SETS, ids=[_ids(i) for i in HAND_RULE_SETS])
def test_resampling_keeps_the_information_state(item):
    """A resampled state: the same information state for the player, the same public record, its own hand;
    the replay is a hand of the game (its legal actions are the engine's)."""
    game = _load(*item)
    decisions, _ = _play(game, random.Random(3))
    sampler = _Uniform(5)
    for state in decisions[:: max(1, len(decisions) // 5)]:
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.current_player() == player
        assert other.legal_actions() == state.legal_actions()
        assert other.game_state.public == state.game_state.public
        assert other.legal_actions() == sorted(legal_actions(other.game_state))
        assert len(other.history()) == len(state.history())


def test_resampling_deals_the_unseen_cards_anew():
    """At the first lead of the four-seat game, a card seat 0 does not hold goes to each other seat about a third of the time.

    (Without declarations, which place the cards they show.)
    """
    game = pyspiel.load_game("python_tressette", {"accusi": False})
    state = game.new_initial_state()
    state.apply_action(3)  # seat 3 deals: seat 0 leads
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    hands = state.game_state.hands
    card = next(c for c in range(40) if not hands[0] >> c & 1)
    sampler = _Uniform(1)
    holders = [0, 0, 0, 0]
    for _ in range(300):
        other = state.resample_from_infostate(0, sampler)
        assert other.game_state.hands[0] == hands[0]
        holders[next(s for s in range(4) if other.game_state.hands[s] >> card & 1)] += 1
    assert holders[0] == 0
    assert all(60 <= n <= 140 for n in holders[1:]), holders


def test_resampling_in_due_draws_the_stock_anew_even_where_the_opponent_showed_a_void():
    """The stock's cards are renamed at random: the places of the opponent's void suit in it vary."""
    game = pyspiel.load_game("python_tressette_in_due")
    for seed in range(200):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        found = None
        while not state.is_terminal() and found is None:
            state.apply_action(rng.choice(state.legal_actions()))
            p = state.game_state.public
            if p.status == 0 and p.extra.stock >= 6 and state.current_player() == 0:
                found = next((s for s in range(4) if p.is_void(1, s)), None)
        if found is not None:
            break
    assert found is not None
    sampler = _Uniform(3)
    patterns = set()
    for _ in range(40):
        other = state.resample_from_infostate(0, sampler)
        stock = other.game_state.hidden.stock
        patterns.add(tuple(card // 10 == found for card in stock))
    assert len(patterns) > 5, patterns


def test_resampling_a_deal_made_in_one_draw_is_refused_clearly():
    """Tressette mini's small decks are dealt by one draw among the deals: no card can be renamed."""
    import tressette_env.games.mini  # noqa: F401 - registers tressette_mini

    openspiel.register_all()
    game = pyspiel.load_game("python_tressette_mini", {"players": 4})
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[7][0])
    with pytest.raises(ValueError, match="dealt by no shuffle.*integrations.efg"):
        state.resample_from_infostate(0, _Uniform(0))


@pytest.mark.parametrize("name", [e.name for e in catalog.entries()][:6])
def test_openspiel_ismcts_plays_a_hand(name):
    """OpenSpiel's Python ISMCTS (it resamples from the information state at each decision) plays a whole hand."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(openspiel.game_name(name))
    random_state = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), 2.0, 8, random_state=random_state)
    # The bot's own resampling draws from an unseeded pyspiel.UniformProbabilitySampler, so the hand it plays
    # differed run to run, and in about one run in 70 a Calabresella draw exhausted RESAMPLE_TRIES (measured on
    # 4b400e4 and later alike): its resampler callback draws from the seeded random state instead.
    bot._resampler_cb = lambda s, player: s.resample_from_infostate(player, random_state.uniform)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert len(state.returns()) == game.num_players()


@pytest.mark.parametrize("item", HAND_RULE_SETS, ids=[_ids(i) for i in HAND_RULE_SETS])
def test_every_player_resamples_at_every_decision(item):
    """At each decision of random hands, each seated player's resample succeeds (no RuntimeError: a consistent
    replay found within RESAMPLE_TRIES draws), before the card play too: the auctions, the calls, the exchanges,
    a scegliete's swaps. (The information state's equality is the resample's own check, asserted as a guard.)"""
    game = _load(*item)
    rng = random.Random(17)
    for _ in range(3):
        decisions, _ = _play(game, rng)
        for state in decisions:
            for player in range(game.num_players()):
                if state.game_state.public.table.seat_of[player] < 0:
                    with pytest.raises(ValueError, match="no seat"):
                        state.resample_from_infostate(player, rng.random)
                    continue
                other = state.resample_from_infostate(player, rng.random)
                assert other.information_state_string(player) == state.information_state_string(player)


@pytest.mark.parametrize("item", HAND_RULE_SETS, ids=[_ids(i) for i in HAND_RULE_SETS])
def test_the_information_state_recalls_the_hand(item):
    """Along a hand, each seated player's later information state holds its earlier one: its trail (its hand and
    private cards each time they changed) extends the earlier trail, and the public history extends the earlier one."""
    game = _load(*item)
    decisions, end = _play(game, random.Random(23))
    before: dict[int, tuple] = {}
    for state in [*decisions, end]:
        gs = state.game_state
        for player in range(game.num_players()):
            seat = gs.public.table.seat_of[player]
            if seat < 0:
                continue
            info = json.loads(state.information_state_string(player))
            trail = [tuple(t) for t in info["trail"]]
            assert trail[-1] == (info["hand"], info["private"])
            if player in before:
                old_trail, old_history = before[player]
                assert trail[: len(old_trail)] == old_trail
                assert gs.public.history[: len(old_history)] == old_history
            before[player] = (trail, gs.public.history)


def test_action_strings_outside_their_node():
    """A past chance outcome and a player's action asked for while dealing still get a string (no error)."""
    game = pyspiel.load_game("python_tressette")
    state = game.new_initial_state()
    assert state.action_to_string(0, 5) == "action 5"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "draw 2"
    state.apply_action(2)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal " + openspiel.card_code(7)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "chance outcome 0"


@pytest.mark.parametrize("item", HAND_RULE_SETS, ids=[_ids(i) for i in HAND_RULE_SETS])
def test_the_information_state_tensor_identifies_the_information_state(item):
    """Over random hands, at every state and for every player (while dealing, with no seat, at the end too): the tensor
    has the declared shape, equal information state strings give equal tensors, different strings different ones."""
    game = _load(*item)
    shape = game.information_state_tensor_shape()
    assert shape == [game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True)).tensor.size]
    rng = random.Random(29)
    tensors: dict[str, tuple] = {}
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            for player in range(game.num_players()):
                tensor = state.information_state_tensor(player)
                assert len(tensor) == shape[0]
                assert all(0.0 <= x <= 1.0 for x in tensor)
                key = state.information_state_string(player)
                assert tensors.setdefault(key, tuple(tensor)) == tuple(tensor)
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert len(set(tensors.values())) == len(tensors)  # different strings, different tensors


def test_the_information_state_tensor_pieces():
    """The pieces of the four-seat game's tensor: the history observation, then the player, seat, turn, the deal, the
    public actions and the own cards' changes; a played card's change is in its place of the trail."""
    game = pyspiel.load_game("python_tressette")
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    length = game.max_game_length()
    assert {k: v.shape for k, v in observer.dict.items()} == {
        "observation": (1460,),
        "player": (4,),
        "seat": (8,),
        "turn": (8,),
        "dealing": (1,),
        "actions": (length,),
        "own_cards": (40, 2, openspiel.OWN_CARD_CHANGES),
    }
    assert game.information_state_tensor_shape() == [observer.tensor.size] == [1460 + 4 + 16 + 1 + length + 480]
    state = game.new_initial_state()
    observer.set_from(state, 0)
    assert observer.dict["dealing"][0] == pytest.approx(1 / (length + 2))
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    player = state.current_player()
    card = state.legal_actions()[0]
    state.apply_action(card)
    observer.set_from(state, player)
    assert observer.dict["seat"][state.game_state.public.table.seat_of[player]] == 1
    assert observer.dict["actions"][0] == pytest.approx((card + 1) / game.num_distinct_actions())
    assert observer.dict["actions"][1] == 0
    changes = observer.dict["own_cards"][card % 40, 0]
    assert changes[:2] == pytest.approx([1 / (length + 2), 2 / (length + 2)])  # dealt (place 0), played (place 1)
