"""Every player: always legal, sees only its view, deterministic under a seed."""

import random

import pytest

from tests.helpers import action, fill, hands, play
from tests.hidden import SAMPLER_RULE_SETS, random_positions, rejection_deal, replay, sampler_deal
from tressette_env.agents import HeuristicPlayer, Player, RandomPlayer
from tressette_env.agents.registry import make_player, parse_spec
from tressette_env.engine import CALL_OUT, Rules, legal_actions, new_game, view
from tressette_env.engine.cards import parse_cards
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
        rules = state.public.rules
        if i % 2 and rules in SAMPLER_RULE_SETS:
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


# The heuristic's rules, each on a hand-built position.


def decide(state):
    seat = state.public.turn
    return HeuristicPlayer().act(view(state, seat), legal_actions(state), random.Random(0))


def test_gives_an_asso_to_a_partner_sure_to_take():
    # Seat 1 leads the 3 di coppe (the master); seat 2 follows low; seat 3 holds the asso di coppe and more.
    deal = fill(seat_1="3c", seat_2="4c", seat_3="Ac 5c Fc")
    state = play(new_game(Rules(), hands=deal, dealer=0), "3c", "4c")
    assert decide(state) == action("Ac")


def test_void_gives_the_partner_an_asso_from_the_shortest_suit():
    deal = fill(seat_1="3c", seat_2="4c", seat_3="Ad 4d 5d Ab 4s 5s 6s 7s Fs Cs")  # seat 3 has no coppe
    state = play(new_game(Rules(), hands=deal, dealer=0), "3c", "4c")
    assert decide(state) == action("Ab")  # the lone asso di bastoni, not the guarded asso di denari


def test_void_and_opponent_ahead_throws_a_worthless_card():
    deal = hands(
        "Ad 4d Fd 2s As 7s Cs Rs 4b Rb",  # seat 0: no coppe
        "3c 5c 6c 7c Fc Cc 5d 6d 7d Cd",
        "4c Ac 2c 2d 3d Rd 3s 4s 5s 6s",
        "Rc 2b 3b Ab 5b 6b 7b Fb Cb Fs",
    )
    state = play(new_game(Rules(), hands=deal, dealer=0), "3c", "4c", "Rc")  # seat 1's 3c is winning
    # A liscio, and from bastoni: the denari and spade lisci guard seat 0's assi.
    assert decide(state) == action("4b")


def test_leads_a_master_three_from_a_long_suit():
    deal = fill(seat_1="3d 5d 7d Fc 4s")
    state = new_game(Rules(), hands=deal, dealer=0)
    assert decide(state) % 40 == parse_cards("3d").bit_length() - 1


def test_signals_on_the_lead_are_the_club_conventions():
    from tressette_env.agents.heuristic import _with_signal

    deal = hands(
        "3d 4c 5c 6c Ac 2s 5s Fb Cb Rb",
        "Ad 2d 4d 5d 6d 7d Fd Cd Rd 7c",
        "2c 3c Fc Cc Rc As 3s 4s 6s 7s",
        "Fs Cs Rs Ab 2b 3b 4b 5b 6b 7b",
    )
    state = new_game(Rules(accusi=False), hands=deal, dealer=3)  # seat 0 leads
    seat_view, legal = view(state, 0), legal_actions(state)
    unplayed = (1 << 40) - 1
    assert _with_signal(seat_view, action("3d"), legal, unplayed) == action("3d volo")  # its last denaro
    assert _with_signal(seat_view, action("5s"), legal, unplayed) == action("5s busso")  # keeps the 2, not the master
    assert _with_signal(seat_view, action("Fb"), legal, unplayed) == action("Fb striscio")  # long, no honours
    assert _with_signal(seat_view, action("4c"), legal, unplayed) == action("4c busso")  # keeps the asso di coppe


def test_calls_out_when_the_claim_is_true():
    state = new_game(Rules(episode="match", calling_out=True, target_score=21), seed=0)
    team = state.public.turn % 2
    ahead = (20, 3) if team == 0 else (3, 20)
    # 20 points and no card point yet in this hand: the claim would be false.
    assert decide(state._replace(public=state.public._replace(match_score=ahead))) != CALL_OUT
    there = (21, 3) if team == 0 else (3, 21)  # (after a tie the match can go on at 21 or more)
    assert decide(state._replace(public=state.public._replace(match_score=there))) == CALL_OUT


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
    with pytest.raises(ValueError, match="bad options for player 'random'"):
        make_player("random:depth=3")


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
