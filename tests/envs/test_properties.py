"""Invariants of random legal play through the AEC environment under random rule switches."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env import tressette_v0
from tressette_env.engine import legal_actions

switches = st.fixed_dictionaries(
    {
        "episode": st.sampled_from(["hand", "match"]),
        "target_score": st.sampled_from([11, 21]),
        "accusi": st.booleans(),
        "signals": st.booleans(),
        "first_lead": st.sampled_from(["dealer_right", "four_of_denari"]),
        "cappotto_bonus": st.sampled_from([0, 11]),
        "illegal_action": st.sampled_from(["renuncio", "raise"]),
    }
).map(lambda r: r if r["episode"] == "match" else {k: v for k, v in r.items() if k != "target_score"})
"""A single hand has no target: the rules refuse target_score there (engine.switches.InertSwitchError)."""


@settings(max_examples=25, deadline=None)
@given(rules=switches, seed=st.integers(0, 2**31 - 1))
def test_random_play_through_the_env(rules, seed):
    env = tressette_v0.raw_env(**rules)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    card_plays = 0
    final = {}
    hand_infos = []
    while env.agents:
        agent = env.agent_selection
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        # The mask is the engine's legal set, for the agent to act only.
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal_actions(env.game)
        assert reward == 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        card_plays += 1
        if env.infos[agent].get("hand") == len(hand_infos):  # this play ended a hand
            hand_infos.append(env.infos[agent])
    assert final["player_0"] == final["player_2"] == -final["player_1"] == -final["player_3"]
    assert card_plays == 40 * len(hand_infos)
    for info in hand_infos:
        assert sum(info["card_thirds"]) == 35
        assert info["card_thirds"][0] // 3 + info["card_thirds"][1] // 3 == 11
    last = hand_infos[-1]
    if rules["episode"] == "hand":
        assert final["player_0"] == last["hand_score"][0] - last["hand_score"][1]
    else:
        assert abs(final["player_0"]) == 1
        winner = 0 if final["player_0"] > 0 else 1
        assert last["match_score"][winner] >= rules["target_score"]
        assert last["match_score"][winner] > last["match_score"][1 - winner]
