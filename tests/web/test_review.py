"""The review after a hand (``tressette_env.web.review``): double-dummy values on hand-built deals, the heuristic's choices."""

from __future__ import annotations

import json
import random

import pytest

from tests.helpers import SUITS_DEAL, action, hands
from tressette_env import catalog
from tressette_env.agents import registry, solver_core
from tressette_env.agents.open_solver import open_moves
from tressette_env.agents.solver import best_moves, solve_state, solve_state_moves
from tressette_env.engine import (
    CALL_OUT,
    PLAY,
    PLAYING,
    GameState,
    Rules,
    SeatView,
    action_to_string,
    apply,
    legal_actions,
    new_game,
    renuncio,
    view,
)
from tressette_env.games.col_morto import ColMortoRules
from tressette_env.games.in_due import InDueRules
from tressette_env.web import review as review_module
from tressette_env.web.review import ReviewError, for_agent, review_hand

PLAIN = Rules(accusi=False, signals=False)
# Seat 0's 3c is its only way back to the lead after seat 1's 3d takes a denari trick: leading it
# at once throws the hand away (seat 1 then cashes every coppe).
ENTRY_DEAL = hands(
    "Ad 2d 4d 5d 6d 7d Fd Cd Rd 3c",
    "3d Ac 2c 4c 5c 6c 7c Fc Cc Rc",
    "As 2s 3s 4s 5s 6s 7s Fs Cs Rs",
    "Ab 2b 3b 4b 5b 6b 7b Fb Cb Rb",
)


@pytest.fixture
def every_trick_solved(monkeypatch):
    """Every four-seat trick valued, numba or not (without it the review solves only the last tricks)."""
    monkeypatch.setattr(review_module, "_compiled", lambda: True)


def played_out(state: GameState, choose) -> tuple[list[tuple[GameState, int]], GameState]:
    """Play the hand to its end, ``choose(state)`` each action: the steps and the final state."""
    steps = []
    while state.public.status == PLAYING:
        chosen = choose(state)
        steps.append((state, chosen))
        state = apply(state, chosen)
    return steps, state


def best_four(state: GameState) -> int:
    """A best card of the four-seat double-dummy solution (the lowest id of the best)."""
    p = state.public
    return best_moves(state.hands, p.leader, p.trick, p.thirds)[0]


def random_choice(seed: int):
    """A chooser that plays a random legal action, from its own ``random.Random(seed)``."""
    rng = random.Random(seed)
    return lambda state: rng.choice(legal_actions(state))


def heuristic_choice(state: GameState) -> int:
    return registry.make_player("heuristic").act(view(state, state.public.turn), legal_actions(state), random.Random(0))


# ------------------------------------------------------------------------------------------------ four seats


@pytest.mark.usefixtures("every_trick_solved")
def test_a_thrown_away_entry_is_the_marked_loss():
    state = new_game(PLAIN, hands=ENTRY_DEAL, dealer=3)
    values = solve_state_moves(state)
    assert state.public.turn == 0 and values[action("3c")] == 4 and max(values.values()) == 31
    first = [(state, action("3c"))]
    steps, final = played_out(apply(state, action("3c")), best_four)
    review = review_hand(first + steps, final, persons=[0])
    assert review["kind"] == "double_dummy" and len(review["plays"]) == 40
    thrown = review["plays"][0]
    assert thrown["seat"] == thrown["agent"] == 0 and thrown["name"] == "3c"
    assert (thrown["value"], thrown["best"], thrown["loss"]) == (4, 31, 27)
    assert thrown["best_name"] == "4d" and thrown["marked"]  # the cheapest of the best cards
    assert all(play["loss"] == 0 and not play["marked"] for play in review["plays"][1:])
    assert final.public.thirds == (4, 31)


@pytest.mark.usefixtures("every_trick_solved")
def test_a_perfect_hand_loses_nothing():
    steps, final = played_out(new_game(PLAIN, hands=ENTRY_DEAL, dealer=3), best_four)
    review = review_hand(steps, final)
    assert [play["loss"] for play in review["plays"]] == [0] * 40
    assert not any(play["marked"] for play in review["plays"])
    assert review["plays"][0]["value"] == review["plays"][0]["best"] == 31
    assert all(play["best_name"] == play["name"] for play in review["plays"])


def test_values_are_the_solver_s_and_add_up_to_the_result():
    """Each card's value and the best are solve_state_moves's; a team's losses less the gifts it got are its shortfall.

    Compiled, every trick is valued; without numba the last ``PLAIN_TRICKS`` (the sums run from the first one valued).
    """
    for seed in (0, 2):
        start = new_game(seed=seed)
        steps, final = played_out(start, lambda s: random.Random(len(s.public.history)).choice(legal_actions(s)))
        review = review_hand(steps, final)  # persons None: a play for every decision
        losses = [0, 0]
        valued = [
            (step, play) for step, play in zip(steps, review["plays"], strict=True) if play["by"] == "double_dummy"
        ]
        assert len(valued) == (40 if solver_core.COMPILED else 4 * review_module.PLAIN_TRICKS)
        for (state, played), play in valued:
            team, taken = state.public.turn % 2, state.public.thirds[state.public.turn % 2]
            values = solve_state_moves(state)
            assert play["value"] == values[played % 40] - taken and play["best"] == max(values.values()) - taken
            assert play["name"] == action_to_string(played)
            assert values[(play["best_action"])] == max(values.values())
            losses[team] += play["loss"]
        start_thirds = solve_state(valued[0][0][0]).thirds
        assert start_thirds[0] - final.public.thirds[0] == losses[0] - losses[1]
        marked = sorted((p["loss"] for p in review["plays"] if p["marked"]), reverse=True)
        assert marked == sorted((p["loss"] for p in review["plays"] if p["loss"]), reverse=True)[:3]


def test_without_numba_only_the_last_tricks_are_solved(monkeypatch):
    monkeypatch.setattr(review_module, "_compiled", lambda: False)
    steps, final = played_out(new_game(PLAIN, hands=ENTRY_DEAL, dealer=3), best_four)
    review = review_hand(steps, final, persons=[1])
    early = 4 * (10 - review_module.PLAIN_TRICKS)
    assert review["kind"] == "double_dummy" and "numba" in review["reason"]
    assert [play["by"] for play in review["plays"]] == ["heuristic"] * 4 + ["double_dummy"] * (40 - early)
    assert all(play["agent"] == 1 for play in review["plays"][:4])
    assert [play["loss"] for play in review["plays"][4:]] == [0] * (40 - early)


@pytest.mark.usefixtures("every_trick_solved")
def test_a_signal_changes_nothing():
    deal = SUITS_DEAL
    state = new_game(Rules(accusi=False), hands=deal, dealer=3)
    steps, final = played_out(state, lambda s: legal_actions(s)[-1])  # volo, busso... the highest ids
    review = review_hand(steps, final)
    assert any(" " in play["name"] for play in review["plays"])  # a card played with a signal
    assert all(play["loss"] == 0 for play in review["plays"])
    assert review["plays"][0]["value"] == 35


def test_a_renuncio_or_a_call_out_gets_no_review():
    state = new_game(PLAIN, hands=ENTRY_DEAL, dealer=3)
    steps, _ = played_out(state, best_four)
    cut = steps[:9]
    final = renuncio(apply(*cut[-1]))
    review = review_hand(cut, final)
    assert review["kind"] == "none" and review["plays"] == [] and "renuncio" in review["reason"]
    assert review_hand([], renuncio(state))["kind"] == "none"

    rules = Rules(accusi=False, episode="match", calling_out=True, target_score=1)
    state = new_game(rules, hands=ENTRY_DEAL, dealer=3)
    steps = [(state, action("4d")), (apply(state, action("4d")), action("3d"))]
    for _ in range(2):
        steps.append((apply(*steps[-1]), legal_actions(apply(*steps[-1]))[0]))
    on_lead = apply(*steps[-1])
    assert CALL_OUT in legal_actions(on_lead)
    review = review_hand([*steps, (on_lead, CALL_OUT)])
    assert review["kind"] == "none" and "called out" in review["reason"]


# ------------------------------------------------------------------------------------------------ two-sided games


@pytest.mark.usefixtures("every_trick_solved")
def test_col_morto_values_the_dummy_s_cards_for_its_player():
    for players in (3, 2):
        state = new_game(ColMortoRules(players=players, accusi=False), hands=ENTRY_DEAL, dealer=0)
        first = state
        mistake = None
        steps = []
        while state.public.status == PLAYING:
            values = solve_state_moves(state)
            worst = min(values, key=lambda c: (values[c], c))
            chosen = worst if mistake is None and values[worst] < max(values.values()) else best_four(state)
            if chosen == worst and mistake is None:
                mistake = (len(steps), max(values.values()) - values[worst])
            steps.append((state, chosen))
            state = apply(state, chosen)
        review = review_hand(steps, state, persons=[0])
        assert review["kind"] == "double_dummy" and len(review["plays"]) == 40
        table = first.public.table
        for (s, _), play in zip(steps, review["plays"], strict=True):
            assert play["agent"] == table.controllers[s.public.turn] and play["seat"] == s.public.turn
        index, loss = mistake
        assert review["plays"][index]["loss"] == loss > 0 and review["plays"][index]["marked"]
        assert sum(1 for play in review["plays"] if play["loss"]) == 1


def in_due_deal() -> dict:
    cards = list(range(40))
    return {"hands": [cards[0:40:4], cards[1:40:4]], "stock": cards[2:40:4] + cards[3:40:4], "dealer": 1}


def test_in_due_values_only_the_tricks_after_the_stock():
    state = new_game(InDueRules(), **in_due_deal())
    steps, final = played_out(state, heuristic_choice)
    review = review_hand(steps, final, persons=[0])
    assert review["kind"] == "double_dummy" and "stock" in review["reason"]
    stock_steps = [(s, a) for s, a in steps if s.public.table.phase != PLAY]
    assert len(stock_steps) == 20
    heuristic = [play for play in review["plays"] if play["by"] == "heuristic"]
    valued = [play for play in review["plays"] if play["by"] == "double_dummy"]
    assert len(valued) == 20 and len(heuristic) == 10  # every endgame card; the person's stock decisions
    assert all(play["agent"] == 0 and play["loss"] is None and play["value"] is None for play in heuristic)
    mine = [(s, a) for s, a in stock_steps if s.public.turn == 0]
    assert [play["best_action"] for play in heuristic] == [heuristic_choice(s) for s, _ in mine]
    assert all(play["loss"] == 0 for play in valued)  # the heuristic plays the endgame exactly


def test_in_due_endgame_mistake():
    state = new_game(InDueRules(), **in_due_deal())
    mistake = None
    steps = []
    while state.public.status == PLAYING:
        p = state.public
        chosen = heuristic_choice(state)
        if mistake is None and p.table.phase == PLAY:
            values = open_moves(state.hands, p.leader, p.trick, p.thirds, sides=(0, 1))
            worst = min(values, key=lambda c: (values[c], c))
            if values[worst] < max(values.values()):
                chosen, mistake = worst, (len(steps), max(values.values()) - values[worst])
        steps.append((state, chosen))
        state = apply(state, chosen)
    assert mistake is not None
    review = review_hand(steps, state, persons=[])
    index = mistake[0] - 20  # the 20 stock-phase decisions are nobody's to review (persons=[])
    assert [play["by"] for play in review["plays"]] == ["double_dummy"] * 20
    assert review["plays"][index]["loss"] == mistake[1] > 0 and review["plays"][index]["marked"]


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_in_due_packets_values_only_the_cards_played_once_the_packets_are_gone(seed):
    state = new_game(InDueRules(deal="packets", packet_deal="choose", pizzichi_pickup=True), seed=seed)
    steps, final = played_out(state, heuristic_choice)
    review = review_hand(steps, final, persons=[1])
    known = [(s, a) for s, a in steps if s.public.table.phase == PLAY]
    valued = [play for play in review["plays"] if play["by"] == "double_dummy"]
    assert [play["action"] for play in valued] == [a for _, a in known]
    assert review["kind"] == ("double_dummy" if known else "heuristic")
    mine = [(s, a) for s, a in steps if s.public.table.phase != PLAY and s.public.turn == 1]
    assert len(review["plays"]) == len(valued) + len(mine)
    json.dumps(review)  # plain data for the end message


def test_in_due_avoid_is_heuristic():
    state = new_game(InDueRules(objective="avoid"), **in_due_deal())
    steps, final = played_out(state, heuristic_choice)
    review = review_hand(steps, final, persons=[1])
    assert review["kind"] == "heuristic" and "avoid" in review["reason"]
    assert len(review["plays"]) == 20 and all(play["agent"] == 1 for play in review["plays"])


# ------------------------------------------------------------------------------------------------ heuristic games


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare", "tressette_a_perdere"])
def test_heuristic_review_is_the_heuristic_s_act(game):
    rules = catalog.entry(game).make_rules()
    for seed in range(3):
        steps, final = played_out(new_game(rules, seed=seed), random_choice(seed))
        review = review_hand(steps, final, persons=[1])
        assert review["kind"] == "heuristic"
        mine = [(s, a) for s, a in steps if s.public.table.controllers[s.public.turn] == 1]
        assert len(review["plays"]) == len(mine)
        g = rules.game
        for (s, a), play in zip(mine, review["plays"], strict=True):
            suggestion = heuristic_choice(s)
            assert play["action"] == a and play["name"] == g.action_label(s.public, a)
            assert play["best_action"] == suggestion and play["best_name"] == g.action_label(s.public, suggestion)
            assert play["loss"] is None and not play["marked"]


def test_heuristic_review_reads_only_the_seat_s_view(monkeypatch):
    seen: list[tuple[SeatView, list[int]]] = []
    real = registry.make_player

    class Spy:
        def __init__(self):
            self.inner = real("heuristic")

        def act(self, seat_view, legal, rng):
            seen.append((seat_view, legal))
            return self.inner.act(seat_view, legal, rng)

    monkeypatch.setattr(registry, "make_player", lambda spec: Spy())
    rules = catalog.entry("calabresella").make_rules()
    rng = random.Random(5)
    steps, final = played_out(new_game(rules, seed=5), lambda s: rng.choice(legal_actions(s)))
    review = review_hand(steps, final)  # every agent's decisions
    assert len(seen) == len(steps) == len(review["plays"])
    for (state, _), (seat_view, legal) in zip(steps, seen, strict=True):
        assert type(seat_view) is SeatView and seat_view == view(state, state.public.turn)
        assert legal == legal_actions(state)


def test_for_agent_keeps_only_its_own_heuristic_plays():
    rules = catalog.entry("tressette_a_chiamare").make_rules()
    rng = random.Random(1)
    steps, final = played_out(new_game(rules, seed=1), lambda s: rng.choice(legal_actions(s)))
    review = review_hand(steps, final, persons=[0, 2])
    own = for_agent(review, 2)
    assert own["plays"] and all(play["agent"] == 2 for play in own["plays"])
    assert len(own["plays"]) + len(for_agent(review, 0)["plays"]) == len(review["plays"])


# ------------------------------------------------------------------------------------------------ bad input


def test_bad_input_is_refused_clearly():
    state = new_game(PLAIN, hands=ENTRY_DEAL, dealer=3)
    steps, final = played_out(state, best_four)
    with pytest.raises(ReviewError, match="list of"):
        review_hand("steps", final)
    with pytest.raises(ReviewError, match="not a .GameState, action. pair"):
        review_hand([(state,)], final)
    with pytest.raises(ReviewError, match="not legal"):
        review_hand([(state, action("3d"))] + steps[1:], final)
    with pytest.raises(ReviewError, match="step 2: its state"):
        review_hand(steps[:2] + steps[3:], final)
    with pytest.raises(ReviewError, match="not over"):
        review_hand(steps[:3], steps[3][0])
    with pytest.raises(ReviewError, match="final is not"):
        review_hand(steps[:-1], final)
    with pytest.raises(ReviewError, match="persons"):
        review_hand(steps, final, persons=[4])
    with pytest.raises(ReviewError, match="no steps"):
        review_hand([])
    with pytest.raises(ReviewError, match="int id"):
        review_hand([(state, True)], final)
    assert review_hand(steps, final)["kind"] == "double_dummy"  # the same input, whole: reviewed
