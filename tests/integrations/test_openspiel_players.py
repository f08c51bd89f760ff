"""OpenSpiel's ISMCTS and MCTS bots as players (``tressette_env.integrations.openspiel_players``).

Needs the ``openspiel`` extra (``pip install open_spiel``); skipped elsewhere. Budgets are tiny
(a few simulations): these tests check the plumbing and the no-leak guarantee, not strength.
"""

from __future__ import annotations

import importlib
import random
import sys

import pytest

pytest.importorskip("pyspiel")

from tressette_env import catalog  # noqa: E402
from tressette_env.agents import HeuristicPlayer, RandomPlayer  # noqa: E402
from tressette_env.agents.registry import make_player  # noqa: E402
from tressette_env.engine.game import apply, legal_actions, view  # noqa: E402
from tressette_env.evaluation.duplicate import duplicate, play_hand  # noqa: E402
from tressette_env.integrations import openspiel_players  # noqa: E402

PLAYED = [e.name for e in catalog.entries() if openspiel_players.refusal(e.make_rules()) is None]


def _deal(rules, seed: int):
    game = rules.game
    return game.new_game(rules, random.Random(seed), game.check_deal_options(rules, {}))


@pytest.mark.parametrize("spec", ["ismcts:simulations=3", "mcts:simulations=3"])
@pytest.mark.parametrize("name", PLAYED)
def test_a_bot_plays_whole_hands_through_the_evaluation(name, spec):
    """Two duplicate boards of the game (four hands) through ``evaluation.duplicate``: the bot's actions are legal."""
    rules = catalog.entry(name).make_rules()
    result = duplicate(make_player(spec), HeuristicPlayer(), boards=2, seed=1, rules=rules, workers=1, progress=False)
    assert result.boards == 2


@pytest.mark.parametrize("name", PLAYED)
def test_the_built_state_is_the_view(name):
    """At every decision of a hand, the state built from the seat's view gives the seat that view and its legal actions."""
    rules = catalog.entry(name).make_rules()
    state = _deal(rules, 3)
    rng = random.Random(4)
    checked = 0
    while state.public.status == 0 and checked < 40:
        p = state.public
        seat = p.table.seat_of[p.table.controllers[p.turn]]
        seen = view(state, seat)
        built = openspiel_players.state_from_view(seen, rng)
        assert view(built.game_state, seat) == seen
        assert built.legal_actions() == sorted(legal_actions(state))
        assert built.current_player() == p.table.controllers[p.turn]
        state = apply(state, rng.choice(legal_actions(state)))
        checked += 1


def _same_view_other_cards(seed: int):
    """Two four-seat deals in which the seat to lead holds the same cards but two other seats have swapped a card each."""
    from tressette_env.engine import Rules, new_game
    from tressette_env.engine.cards import cards_of

    rules = Rules(accusi=False)  # a declaration would show the cards
    first = new_game(rules, seed=seed)
    hands = [cards_of(h) for h in first.hands]
    one, two = (first.public.turn + 1) % 4, (first.public.turn + 2) % 4
    hands[one][0], hands[two][0] = hands[two][0], hands[one][0]
    second = new_game(rules, dealer=first.public.dealer, hands=hands)
    return first, second


@pytest.mark.parametrize("spec", ["ismcts:simulations=6", "mcts:simulations=6"])
def test_the_bot_never_sees_the_other_seats_cards(spec, monkeypatch):
    """Same view, different hidden cards: every state the bot is given (the root, ISMCTS's resamples) and its action are
    the same, and the states' other hands are draws (the true ones are not where the bot could read them)."""
    first, second = _same_view_other_cards(5)
    seat = first.public.turn
    assert view(first, seat) == view(second, seat) and first.hands != second.hands
    built = []
    original = openspiel_players.state_from_view

    def recording(seen, rng):
        state = original(seen, rng)
        built.append(state.game_state)
        return state

    monkeypatch.setattr(openspiel_players, "state_from_view", recording)
    player = make_player(spec)
    runs = []
    for truth in (first, second):
        built.clear()
        action = player.act(view(truth, seat), sorted(legal_actions(truth)), random.Random(9))
        runs.append((action, list(built)))
    assert runs[0] == runs[1]
    assert len(runs[0][1]) >= 1
    for gs in runs[0][1]:
        assert gs.hands[seat] == first.hands[seat]
        assert gs.public == first.public


def test_a_determinization_reads_the_view_only():
    """``determinize`` takes a view: with the same draws it deals the same cards whatever the true hidden hands."""
    first, second = _same_view_other_cards(6)
    seat = first.public.turn
    assert view(first, seat) == view(second, seat) and first.hands != second.hands
    a = openspiel_players.determinize(view(first, seat), random.Random(1))
    b = openspiel_players.determinize(view(second, seat), random.Random(1))
    assert a == b
    draws = {openspiel_players.determinize(view(first, seat), random.Random(s)).hands for s in range(20)}
    assert len(draws) > 1  # drawn, not copied


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:simulations=0", "simulations"),
        ("mcts:simulations=many", "simulations"),
        ("ismcts:uct_c=-1", "uct_c"),
        ("mcts:rollouts=0", "rollouts"),
        ("ismcts:max_world_samples=0", r"max_world_samples is -1 \(a fresh draw at each simulation\) or an integer"),
        ("ismcts:max_world_samples=-1.0", "max_world_samples is -1"),
        ("mcts:max_world_samples=3", "max_world_samples"),
        ("ismcts:depth=3", "depth"),
    ],
)
def test_bad_options_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_player(spec)


def test_refused_games_say_why():
    player = make_player("ismcts")
    with pytest.raises(ValueError, match="calabresella"):
        player.check_game(catalog.entry("calabresella").make_rules())
    with pytest.raises(ValueError, match="stock"):
        player.check_game(catalog.entry("tressette_in_due").make_rules(deal="packets"))
    with pytest.raises(ValueError, match="one hand"):
        player.check_game(catalog.entry("tressette").make_rules(episode="match"))
    rules = catalog.entry("calabresella").make_rules()
    state = _deal(rules, 0)
    with pytest.raises(ValueError, match="calabresella"):
        player.act(view(state, state.public.turn), sorted(legal_actions(state)), random.Random(0))


def test_without_openspiel_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "tressette_env.integrations.openspiel_players")
    with pytest.raises(ImportError, match=r"openspiel\]"):
        importlib.import_module("tressette_env.integrations.openspiel_players")
    with pytest.raises(ImportError, match="openspiel extra"):
        make_player("mcts")


def test_the_bots_beat_random_in_a_short_hand_series():
    """Against random, with a small budget, the bots do not lose on average over a few hands of the four-seat game
    (a weak check that they search for their own side: a sign error would lose clearly)."""
    rules = catalog.entry("tressette").make_rules()
    total = 0.0
    for seed in range(4):
        state = _deal(rules, seed)
        end = play_hand([make_player("ismcts:simulations=20"), RandomPlayer()] * 2, state, random.Random(seed))
        total += rules.game.returns(end.public)[0]
    assert total > 0
