"""Every player: always legal, sees only its view, deterministic under a seed."""

import random

import gymnasium as gym
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tressette_env  # noqa: F401 (registers the Gymnasium ids)
from tests.hidden import random_positions, rejection_deal, replay, sampler_deal
from tressette_env.agents import HeuristicPlayer, Player, RandomPlayer
from tressette_env.agents.base import mask_chooser
from tressette_env.agents.registry import make_player, parse_spec
from tressette_env.engine import legal_actions, view
from tressette_env.evaluation import duplicate

PLAYERS = [RandomPlayer(), HeuristicPlayer(), make_player("ppo")]  # the last: the model shipped in the package


@pytest.mark.parametrize("player", PLAYERS, ids=lambda p: p.name)
def test_players_follow_the_protocol_on_thousands_of_positions(player):
    assert isinstance(player, Player)
    rng = random.Random(1)
    for state, _ in random_positions(3000):
        seat = state.public.turn
        legal = legal_actions(state)
        seed = rng.randrange(2**32)
        chosen = player.act(view(state, seat), legal, random.Random(seed))
        assert chosen in legal
        assert player.act(view(state, seat), legal, random.Random(seed)) == chosen  # deterministic under a seed


def twins(count, seed):
    """(state, other, seat): the seat on turn, and the game rebuilt on another deal it cannot tell apart.

    The other deals come from the engine's DealSampler and from the tests' own rejection method, in turn.
    """
    rng = random.Random(seed)
    out = []
    for i, position in enumerate(random_positions(count, seed=seed)):
        state = position.state
        seat = state.public.turn
        if i % 2:
            dealt = sampler_deal(position, seat, rng)
        else:
            dealt = rejection_deal(position, seat, rng)
        out.append((state, replay(position, dealt), seat))
    return out


@pytest.fixture(scope="module")
def twin_positions():
    return twins(400, seed=2)


def test_the_twin_positions_hide_other_deals(twin_positions):
    # The decisions below are compared on the same view of different games.
    assert sum(other.hands != state.hands for state, other, _ in twin_positions) > 0.8 * len(twin_positions)
    for state, other, seat in twin_positions:
        assert view(other, seat) == view(state, seat)


@pytest.mark.parametrize("player", PLAYERS, ids=lambda p: p.name)
def test_players_decide_the_same_on_every_deal_they_cannot_tell_apart(player, twin_positions):
    rng = random.Random(3)
    for state, other, seat in twin_positions:
        seed = rng.randrange(2**32)
        mine = player.act(view(state, seat), legal_actions(state), random.Random(seed))
        theirs = player.act(view(other, seat), legal_actions(other), random.Random(seed))
        assert theirs == mine


def test_heuristic_beats_random_clearly_on_fixed_seeds():
    result = duplicate(HeuristicPlayer(), RandomPlayer(), boards=300, seed=123, workers=1, progress=False)
    assert result.ci95[0] > 3.0  # measured: about +4.1 points per hand over thousands of boards


def test_random_vs_random_is_even():
    result = duplicate(RandomPlayer(), RandomPlayer(), boards=300, seed=5, workers=1, progress=False)
    assert result.ci95[0] < 0 < result.ci95[1]


# The heuristic's rules, each on a hand-built position: test_heuristic_rules.py.


def test_registry_names_and_options():
    assert make_player("heuristic").name == "heuristic"
    assert parse_spec("search:samples=20,time_budget=0.05,verbose=true") == (
        "search",
        {"samples": 20, "time_budget": 0.05, "verbose": True},
    )
    with pytest.raises(ValueError, match="unknown player 'best'; the players are: random, heuristic, search"):
        make_player("best")
    with pytest.raises(ValueError, match="bad player option 'x' in 'random:x'"):
        make_player("random:x")
    with pytest.raises(ValueError, match="bad options for player 'random': no option 'depth'; it takes no options"):
        make_player("random:depth=3")
    with pytest.raises(ValueError, match="player 'search': no option 'sample'; its options are samples, time_budget, "):
        make_player("search:sample=3")
    with pytest.raises(
        ValueError, match="player 'search_v1': no option 'sample'; its options are samples, time_budget, "
    ):
        make_player("search_v1:sample=3")  # search_v1 takes SearchPlayer's options, with its own defaults
    assert make_player("search_v1:samples=3").samples == 3
    with pytest.raises(ValueError, match="player 'human': no option 'read'; its options are hint, confirm$"):
        make_player("human:read=x")  # a function only Python can pass
    assert make_player("human:hint=none").hint is None
    for spec, words in [
        ("search:exact_tricks=abc", "exact_tricks must be an int from 0 to 20 .*; got 'abc'"),
        ("search:exact_tricks=21", "exact_tricks must be an int from 0 to 20"),
        ("search:horizon=x", r"horizon must be None or an int >= 1 \(tricks\); got 'x'"),
        ("search:early=foo", "early=foo: unknown player 'foo'; the players are: .*; or none"),
        ("search:inference=foo", "inference=foo: unknown player 'foo'; .*; or none"),
    ]:
        with pytest.raises(ValueError, match=words):
            make_player(spec)
    assert make_player("search:early=none,exact_tricks=0").exact_tricks == 0
    with pytest.raises(
        ValueError,
        match=r"early=search:sample=1: bad options for player 'search': no option 'sample'; its options are [^;]*$",
    ):
        make_player("search:early=search:sample=1")  # (not an unknown player: no 'or none')


def test_the_shipped_model_loads_with_numpy_only_and_knows_how_it_was_made():
    player = make_player("ppo")
    assert player.name == "ppo" and player.policy.info["timesteps"] > 0
    assert set(player.policy.info["final"]) == {"random", "heuristic"}
    assert make_player("ppo:deterministic=false").deterministic is False


def test_the_shipped_model_plays_without_torch():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['torch'] = sys.modules['stable_baselines3'] = sys.modules['sb3_contrib'] = None\n"
        "from tressette_env.cli import main\n"
        "raise SystemExit(main(['eval', 'ppo', 'random', '--deals', '4', '--workers', '1', '--no-progress']))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "| ppo | random | 4 |" in out.stdout


@settings(max_examples=200, deadline=None)
@given(legal=st.integers(1, (1 << 161) - 1), seed=st.integers(0, 2**32))
def test_the_random_player_s_mask_choice_is_its_choice(legal, seed):
    # act_mask(mask) draws as act(view, list) does: the same action, the generator left alike.
    listed = [a for a in range(161) if legal >> a & 1]
    a, b = random.Random(seed), random.Random(seed)
    assert RandomPlayer().act_mask(legal, a) == RandomPlayer().act(None, listed, b)
    assert a.random() == b.random()


def test_a_mask_chooser_only_where_act_and_act_mask_come_from_one_class():
    class Biased(RandomPlayer):  # overrides act alone: must be asked through act
        def act(self, view, legal, rng):
            return legal[0]

    class Both(RandomPlayer):
        def act(self, view, legal, rng):
            return legal[0]

        def act_mask(self, legal, rng):
            return (legal & -legal).bit_length() - 1

    plain = RandomPlayer()
    assert mask_chooser(plain) == plain.act_mask
    assert mask_chooser(Biased()) is None
    assert mask_chooser(Both()) is not None
    patched = RandomPlayer()
    patched.act = lambda view, legal, rng: legal[-1]
    assert mask_chooser(patched) is None
    assert mask_chooser(HeuristicPlayer()) is None


def test_single_learner_episodes_are_the_same_with_or_without_the_mask_choice(monkeypatch):
    # The fast path changes no play: the same seeds give the same observations and rewards.
    from tressette_env.wrappers import single_agent

    def episode():
        env = gym.make("tressette_env/Calabresella-v0", others="random")
        out, (obs, _) = [], env.reset(seed=5)
        out.append(sum(c is not None for c in env.unwrapped._mask_chooser_at))  # seats chosen by mask
        rng = random.Random(5)
        for _ in range(300):
            legal = env.unwrapped.action_masks().nonzero()[0]
            obs, reward, end, cut, _ = env.step(int(legal[rng.randrange(len(legal))]))
            out.append((obs.tobytes(), reward))
            if end or cut:
                obs, _ = env.reset()
        return out

    fast = episode()
    monkeypatch.setattr(single_agent, "mask_chooser", lambda player: None)
    slow = episode()
    assert fast[0] == 2 and slow[0] == 0  # the two other players of Calabresella by mask, then by view
    assert slow[1:] == fast[1:]


def test_players_of_one_for_all_a_sequence_or_a_named_error():
    import itertools

    from tressette_env.agents import RandomPlayer
    from tressette_env.agents.registry import players_of

    assert [p.name for p in players_of("random", 3)] == ["random"] * 3
    assert [p.name for p in players_of(iter(["random", "heuristic"]), 2)] == ["random", "heuristic"]
    with pytest.raises(ValueError, match="others is one player or 3 .*; got 4"):
        players_of(itertools.repeat(RandomPlayer()), 3)  # an endless iterator: refused, not read forever
    with pytest.raises(TypeError, match="others: a player is a name"):
        players_of(None, 3)
