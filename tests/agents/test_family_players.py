"""The players of the family's games: the heuristics beat random by a clear margin, and play what they say."""

import random

import pytest

from tressette_env.agents import HeuristicPlayer, RandomPlayer, SearchPlayer
from tressette_env.agents.in_due_heuristic import InDueHeuristic
from tressette_env.agents.open_solver import open_moves
from tressette_env.engine import PLAYING, apply, legal_actions, new_game, view
from tressette_env.evaluation import duplicate
from tressette_env.games.col_morto import ColMortoRules
from tressette_env.games.in_due import InDueRules


@pytest.mark.parametrize(
    "rules, boards, margin",
    [(InDueRules(), 20, 2.0), (InDueRules(deal="packets"), 40, 0.5), (ColMortoRules(), 60, 2.0),
     (ColMortoRules(players=2), 60, 1.5)],
    ids=["in_due", "in_due_packets", "col_morto", "col_morto_2"],
)  # fmt: skip
def test_the_heuristic_beats_random(rules, boards, margin):
    # The margins are well below what the README's longer evaluations measure: a test of direction.
    result = duplicate(HeuristicPlayer(), RandomPlayer(), boards=boards, seed=1, rules=rules, workers=1, progress=False)
    assert result.ci95[0] > margin, result


def test_the_in_due_heuristic_plays_the_endgame_exactly():
    rng = random.Random(0)
    player = InDueHeuristic()
    checked = 0
    for seed in range(6):
        state = new_game(InDueRules(), seed)
        while state.public.status == PLAYING:
            p = state.public
            legal = legal_actions(state)
            if p.extra.stock == 0 and len(legal) > 1:
                me = p.turn
                values = open_moves(list(state.hands), p.leader, p.trick, p.thirds, sides=(0, 1))
                chosen = player.act(view(state, me), legal, rng)
                assert values[chosen] == max(values.values())
                checked += 1
            state = apply(state, rng.choice(legal))
    assert checked > 20


def test_the_search_player_plays_every_game():
    rng = random.Random(0)
    search = SearchPlayer(samples=2)
    for rules in (InDueRules(), ColMortoRules(), ColMortoRules(players=2)):
        state = new_game(rules, 0)
        for _ in range(40):
            if state.public.status != PLAYING:
                break
            t = state.public.table
            agent = t.controllers[state.public.turn]
            legal = legal_actions(state)
            action = search.act(view(state, t.seat_of[agent]), legal, rng)
            assert action in legal
            state = apply(state, action)


def test_the_col_morto_heuristic_plays_its_dummy_from_the_dummy_seat():
    state = new_game(ColMortoRules(), seed=2, dealer=0)
    rng = random.Random(0)
    while state.public.table.controllers[state.public.turn] != 0 or state.public.turn == state.public.table.seat_of[0]:
        state = apply(state, legal_actions(state)[0])
    legal = legal_actions(state)
    assert HeuristicPlayer().act(view(state, 0), legal, rng) in legal


def test_the_search_player_names_the_games_it_does_not_search():
    from tressette_env.games.a_perdere import APerdereRules

    rules = APerdereRules(players=5)
    state = new_game(rules, 0)
    with pytest.raises(ValueError, match="tressette_a_perdere with 5 players each for himself is not searched"):
        SearchPlayer().check_game(rules)
    with pytest.raises(ValueError, match="play heuristic or random there"):
        SearchPlayer().act(view(state, state.public.turn), legal_actions(state), random.Random(0))
    SearchPlayer().check_game(ColMortoRules())  # a two-sided game: searched


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare"])
def test_the_search_player_plays_the_auction_games(game):
    # Every decision legal over whole hands: the heuristic's auction and early tricks, PIMC for the last ones.
    from tressette_env.engine.state import PLAY
    from tressette_env.envs.spec import game_spec
    from tressette_env.games.a_chiamare import AUCTION

    rules = game_spec(game).make_rules()
    SearchPlayer().check_game(rules)
    assert rules.game.search_tricks == {"calabresella": 6, "tressette_a_chiamare": 5}[game]
    search = SearchPlayer(samples=2)
    rng = random.Random(0)
    searched = 0  # decisions of the searched tricks with a choice of cards
    for seed in range(8):
        state = new_game(rules, seed)
        while state.public.status == PLAYING:
            p = state.public
            legal = legal_actions(state)
            if p.phase == AUCTION and len(legal) > 1:  # bid, so that a hand is played
                action = legal[1]
            else:
                v = view(state, p.turn)
                action = search.act(v, legal, rng)
                searched += (
                    p.phase == PLAY
                    and v.hand.bit_count() <= rules.game.search_tricks
                    and len({a % 40 for a in legal}) > 1
                )
            assert action in legal
            state = apply(state, action)
    assert searched > 20
