"""The games of the family and rule sets to test each under (every test module of tests/games uses them)."""

from tressette_env import catalog

MODULES = {entry.name: entry.env_functions() for entry in catalog.entries() if entry.env_module is not None}
"""Each game of the package's catalog -> its PettingZoo module (``env``, ``parallel_env``, ``raw_env``)."""

RULE_SETS = {
    "tressette": [{}, {"episode": "match", "target_score": 11, "calling_out": True}],
    "tressette_in_due": [
        {},
        {"follow_suit_with_stock": False, "show_drawn": False, "accusi": "dealt_and_drawn"},
        {"accusi": "dealt", "objective": "avoid", "episode": "match", "target_score": 11},
        {"episode": "match", "target_score": 11, "calling_out": True, "cappotto_bonus": 11},
        {"deal": "packets"},
        {"deal": "packets", "packet_deal": "choose", "pizzichi_pickup": True, "episode": "match", "target_score": 11},
    ],
    "tressette_col_morto": [
        {},
        {"players": 2},
        {
            "dummy_exposed": "after_first_card",
            "first_lead": "four_of_denari",
            "striscio": "no_honours",
            "episode": "match",
            "target_score": 11,
        },
        {"dummy_holder": "fixed", "signals": False, "accusi": False, "episode": "match", "target_score": 11},
        {"players": 2, "dummy_exposed": "after_first_card"},
    ],
    "tressette_a_perdere": [
        {},
        {"players": 3},
        {"players": 3, "reduce": "dealer_discard", "asso_bastoni_value": 18},
        {"players": 5, "objective": "take", "last_trick": "plus_one", "first_lead": "four_of_denari"},
        {"players": 8, "asso_bastoni_value": 11, "zero_point_charge": 1},
        {"players": 6, "reduce": "monte", "episode": "match", "target_score": 11},
        {"players": 7, "episode": "match", "match_end": "elimination", "target_score": 11},
        {"teams": True, "episode": "match", "target_score": 11, "cappotto": "wins_match"},
        {"players": 7, "reduce": "dealer_discard", "episode": "match", "match_end": "hands", "hands": 3},
        {"players": 3, "reduce": "monte", "last_trick": "plus_one"},
        {"episode": "match", "match_end": "elimination", "target_score": 11},
    ],
    "calabresella": [
        {},
        {"players": 4},
        {"players": 4, "four_player": "dealer_sits_out", "episode": "match", "rounds": 1},
        {"contracts": ("chiamo", "solo", "solissimo", "dividete", "scegliete"), "signals": "full"},
        {"exchange": "partial", "show_monte_on_call": False, "call_rule": "highest_missing"},
        {"all_pass": "solo_only_redeal", "auction": "first_taker", "scoring": "difference", "signals": "none"},
        {"episode": "match", "match_end": "target", "target_score": 6, "solissimo_peek": True},
    ],
    "tressette_a_chiamare": [
        {},
        {"allow_self_call": True, "call_rule": "highest_missing", "signals": "full"},
        {"reveal_partner": True, "auction": "first_taker", "first_lead": "declarer", "cappotto_rule": "all_tricks"},
        {"episode": "match", "rounds": 1, "multipliers": {"chiamo": 2}, "signals": "none"},
    ],
}

assert set(RULE_SETS) == set(MODULES), "every game of the catalog has rule sets to be tested under"

CASES = [(game, rules) for game, sets in RULE_SETS.items() for rules in sets]
IDS = [f"{game}-" + (",".join(f"{k}={v}" for k, v in rules.items()) or "default") for game, rules in CASES]
