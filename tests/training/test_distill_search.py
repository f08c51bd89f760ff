"""benchmarks/distill_search.py: the teacher's labels are its legal cards on the student's positions; the fit moves towards them."""

import random

import numpy as np
import pytest

from tests.helpers import load_script
from tressette_env.agents import make_player
from tressette_env.encoders import observation_of
from tressette_env.engine import Rules, new_game, view
from tressette_env.learned.mlp import MLPPolicy

pytest.importorskip("torch")


def _script():
    return load_script("benchmarks/distill_search.py")


def test_labels_are_the_teachers_legal_cards_and_the_fit_learns_them(tmp_path):
    script = _script()
    assert script.label(0, 1, 60, 7, 0.5, "heuristic", tmp_path, 25) == 60
    labels = script.read_labels(tmp_path)
    assert labels["obs"].shape == (60, 790) and labels["masks"].shape == (60, 161)
    rows = np.arange(60)
    assert labels["masks"][rows, labels["teacher"]].all() and labels["masks"][rows, labels["student"]].all()
    assert (labels["masks"].sum(axis=1) > 1).all()  # only real choices
    # The first decision is the first lead of seed 7's hand: the heuristic's card there, the observation that seat's.
    state = new_game(Rules(), 7)
    first = view(state, state.public.turn)
    assert np.array_equal(labels["obs"][0], observation_of(Rules()).encode(first))
    legal = [a for a in range(161) if labels["masks"][0, a]]
    assert labels["teacher"][0] == make_player("heuristic").act(first, legal, random.Random(0))
    policy, figures = script.fit(labels, epochs=30, lr=1e-3, seed=0)
    assert isinstance(policy, MLPPolicy) and figures["labels"] == 60
    fitted = policy.best_actions(labels["obs"], labels["masks"])
    base = MLPPolicy.load(script.shipped_model_path()).best_actions(labels["obs"], labels["masks"])
    assert (fitted == labels["teacher"]).mean() > (base == labels["teacher"]).mean()


def test_soft_labels_are_the_teachers_card_values_and_the_soft_fit_moves_towards_its_best_cards(tmp_path):
    from tressette_env.agents.search import SearchPlayer

    class Recording(SearchPlayer):
        """The search player, keeping every set of card values it gives, in order."""

        given: list = []

        def card_values(self, view, rng):
            valued, deals = super().card_values(view, rng)
            self.given.append(valued)
            return valued, deals

    script = _script()
    teacher = Recording(samples=2, exact_tricks=3, prior=0)
    assert script.label(0, 1, 200, 11, 0.5, teacher, tmp_path, 100, soft=True) == 200
    labels = script.read_labels(tmp_path)
    values, masks = labels["values"], labels["masks"]
    assert values.shape == (200, 40)
    legal_cards = masks[:, :160].reshape(200, 4, 40).any(axis=1)
    valued = np.isfinite(values).any(axis=1)
    assert valued.any() and not valued.all()
    in_hand = labels["obs"][:, observation_of(Rules()).slices["hand"]].sum(axis=1)
    # Valued exactly where the teacher searches to the end and has a choice of cards.
    assert np.array_equal(valued, (in_hand <= teacher.exact_tricks) & (legal_cards.sum(axis=1) > 1))
    # Each valued row holds the values the teacher gave there, in order.
    assert len(teacher.given) == valued.sum()
    for row, given in zip(np.flatnonzero(valued), teacher.given, strict=True):
        assert {int(c): float(values[row, c]) for c in np.flatnonzero(np.isfinite(values[row]))} == pytest.approx(given)
    for row in np.flatnonzero(valued):
        # Every legal card valued, nothing else; the teacher played the best (lowest id among equals).
        assert np.array_equal(np.isfinite(values[row]), legal_cards[row])
        best = max(np.flatnonzero(legal_cards[row]), key=lambda c: (values[row, c], -c))
        assert labels["teacher"][row] % 40 == best
    policy, figures = script.fit(labels, epochs=40, lr=1e-3, seed=0, tau=0.5, anchor=0.0)
    assert figures["tau"] == 0.5
    # The held-out figures of the card the player plays, computed again here.
    held = np.random.default_rng(0).permutation(200)[:10]
    held = held[valued[held]]
    assert figures["valued_held_out"] == len(held) > 0
    played = policy.best_actions(labels["obs"][held], masks[held]) % 40
    best = np.nanmax(values[held], axis=1)
    assert figures["after"]["played_agreement"] == pytest.approx(np.mean(values[held, played] == best))
    assert figures["after"]["played_regret_thirds"] == pytest.approx(np.mean(best - values[held, played]))

    def best_card_rate(p: MLPPolicy) -> float:
        rows = np.flatnonzero(valued)
        choice = p.best_actions(labels["obs"][rows], masks[rows]) % 40
        return float(np.mean(values[rows, choice] == np.nanmax(values[rows], axis=1)))

    assert best_card_rate(policy) > best_card_rate(MLPPolicy.load(script.shipped_model_path()))


def test_open_hands_values_are_the_solvers_on_the_deal_as_it_lies_and_the_regression_learns_them(tmp_path):
    from tressette_env.agents.solver import solve_moves
    from tressette_env.engine import PLAYING, apply, legal_actions

    script = _script()
    assert script.label(0, 1, 120, 5, 0.0, "search", tmp_path, 60, soft=True, open_hands=True) == 120
    labels = script.read_labels(tmp_path)
    values, masks = labels["values"], labels["masks"]
    # follow=0: every card is the (deterministic) student's, so the hands replay; the values are those of the deal dealt.
    student, encoder, row, hand = make_player("ppo"), observation_of(Rules()), 0, 0
    while row < 120:
        state = new_game(Rules(), 5 + hand)
        hand += 1
        while state.public.status == PLAYING and row < 120:
            legal = legal_actions(state)
            seen = view(state, state.public.turn)
            if len(legal) > 1:
                assert np.array_equal(labels["obs"][row], encoder.encode(seen))
                cards = {a % 40 for a in legal if a != 160}
                if len(cards) > 1 and seen.hand.bit_count() <= 8:
                    p = state.public
                    expected = solve_moves(state.hands, p.leader, p.trick, p.thirds)
                    assert {c: values[row, c] for c in np.flatnonzero(np.isfinite(values[row]))} == expected
                else:
                    assert not np.isfinite(values[row]).any() and labels["teacher"][row] == labels["student"][row]
                row += 1
            state = apply(state, student.act(seen, legal, random.Random(0)))
    valued = np.flatnonzero(np.isfinite(values).any(axis=1))
    assert len(valued) > 20
    policy, figures = script.fit(labels, epochs=60, lr=1e-3, seed=0, tau=1.0, regress=True)
    assert figures["regress"] is True

    def regret(p: MLPPolicy) -> float:
        choice = p.best_actions(labels["obs"][valued], masks[valued]) % 40
        return float(np.mean(np.nanmax(values[valued], axis=1) - values[valued, choice]))

    assert regret(policy) < regret(MLPPolicy.load(script.shipped_model_path()))


def test_split_plays_the_early_player_with_more_than_eight_cards_and_the_late_one_after():
    from tressette_env.engine import apply, legal_actions

    script = _script()
    both = script.Split("random", "heuristic")
    heuristic, rng = make_player("heuristic"), random.Random(3)
    state, early_differs = new_game(Rules(), 2), False
    for _ in range(36):
        legal = legal_actions(state)
        seen = view(state, state.public.turn)
        action = both.act(seen, legal, random.Random(0))
        if seen.hand.bit_count() <= 8:
            assert action == heuristic.act(seen, legal, random.Random(0))
        else:
            early_differs |= action != heuristic.act(seen, legal, random.Random(0))
        state = apply(state, legal[rng.randrange(len(legal))])
    assert early_differs  # the first two tricks are random's, not the heuristic's


def test_the_anchor_holds_every_action_without_values_and_only_the_signals_with_them():
    import torch

    script = _script()
    rng = np.random.default_rng(0)
    base = torch.log_softmax(torch.as_tensor(rng.normal(size=(2, 161))), 1)
    # The same split of each card over its signals, other card probabilities.
    reweighted = base.clone()
    reweighted[:, :160] += torch.as_tensor(rng.normal(size=(2, 1, 40))).expand(2, 4, 40).reshape(2, 160)
    reweighted = torch.log_softmax(reweighted, 1)
    # The same card probabilities, another split over the signals.
    resplit = base[:, :160].view(2, 4, 40).flip(1).reshape(2, 160)
    resplit = torch.cat([resplit, base[:, 160:]], 1)
    valued = torch.tensor([True, False])
    assert torch.allclose(script.anchor_kl(base, base, valued), torch.zeros(2, dtype=base.dtype), atol=1e-9)
    kl = script.anchor_kl(base, reweighted, valued)
    assert abs(kl[0].item()) < 1e-9 and kl[1].item() > 0.01  # cards free where valued, held elsewhere
    kl = script.anchor_kl(base, resplit, valued)
    assert kl[0].item() > 0.01 and kl[1].item() > 0.01  # signals held everywhere
    full = script.anchor_kl(base, reweighted)
    expected = (base.exp() * (base - reweighted)).sum(1)
    assert torch.allclose(full, expected)


def test_bad_settings_are_refused(tmp_path):
    script = _script()
    with pytest.raises(ValueError, match="follow must be 0"):
        script.label(0, 1, 10, 1, 0.5, "heuristic", tmp_path, 10, open_hands=True)
    assert not list(tmp_path.iterdir())
    script.label(0, 1, 10, 1, 0.5, "heuristic", tmp_path, 10)
    labels = script.read_labels(tmp_path)
    with pytest.raises(ValueError, match="label them with --soft"):
        script.fit(labels, epochs=1, lr=1e-4, seed=0, tau=1.0)
    with pytest.raises(ValueError, match="give tau too"):
        script.fit(labels, epochs=1, lr=1e-4, seed=0, regress=True)
