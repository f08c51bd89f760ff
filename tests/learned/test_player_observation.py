"""A trained policy playing as a ``Player`` sees exactly the observation the environments gave it in training."""

import random

import numpy as np
import pytest

from tests.games.family import MODULES, RULE_SETS
from tressette_env.learned import MLPPlayer
from tressette_env.learned.mlp import MLPPolicy


class Seen(MLPPolicy):
    """A one-layer policy that keeps every observation it is given."""

    def logits(self, observations):
        self.seen.append(np.array(observations))
        return super().logits(observations)


def check_observations(game, rules):
    """Play six deals; at every choice compare the player's observation with the AEC env's; the positions with private cards."""
    env = MODULES[game].raw_env(**rules)
    size, actions = env._encoder.size, env._num_actions
    policy = Seen([(np.zeros((actions, size), np.float32), np.zeros(actions, np.float32))])
    policy.seen = []
    player, rng = MLPPlayer(policy), random.Random(0)
    private_positions = 0
    for seed in range(6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0].tolist()
            view = env.view(agent)
            if len(legal) > 1:
                player.act(view, legal, rng)
                assert np.array_equal(policy.seen.pop(), obs["observation"]), (game, seed, agent)
                private_positions += view.private != 0
            env.step(rng.choice(legal))
    return private_positions


@pytest.mark.parametrize("game, rules", [(g, r) for g in MODULES for r in RULE_SETS[g]])
def test_the_player_sees_the_environments_observation_private_cards_included(game, rules):
    check_observations(game, rules)


def test_positions_with_private_cards_were_tried():
    """The test above met positions where a seat knows cards the others do not (else it could not fail)."""
    tried = {g: sum(check_observations(g, r) for r in RULE_SETS[g])
             for g in ("tressette_a_perdere", "calabresella", "tressette_a_chiamare")}  # fmt: skip
    assert tried["tressette_a_perdere"] > 0 and tried["calabresella"] > 0, tried


def test_a_policy_of_a_game_under_any_switches_loads_and_plays_that_game_only(tmp_path):
    """The observation's size follows the switches (signals, players, episode): such a policy loads and plays."""
    from tressette_env.envs.spec import game_spec

    rules = game_spec("calabresella").make_rules(signals="none", scoring="difference")
    env = MODULES["calabresella"].raw_env(signals="none", scoring="difference")
    size = env._encoder.size
    path = MLPPolicy([(np.zeros((255, size), np.float32), np.zeros(255, np.float32))]).save(tmp_path / "p.npz")
    player = MLPPlayer(path)
    player.check_game(rules)
    with pytest.raises(ValueError, match=f"takes {size} observation entries .*calabresella gives"):
        player.check_game(game_spec("calabresella").make_rules())


def test_a_learned_players_probabilities_are_a_softmax_whose_top_is_its_choice():
    from tressette_env.engine import Rules, legal_actions, new_game, view
    from tressette_env.learned.loading import shipped_player

    player = shipped_player()
    state = new_game(Rules(), seed=5)
    seen = view(state, state.public.turn)
    legal = sorted(legal_actions(state))
    probabilities = player.probabilities(seen, legal)
    assert probabilities.shape == (len(legal),) and abs(probabilities.sum() - 1) < 1e-9 and (probabilities > 0).all()
    assert legal[int(np.argmax(probabilities))] == player.act(seen, legal, random.Random(0))
