"""Switches that would have no effect are refused, naming both switches (issue 31).

Each row of ``DEPENDENCIES`` is one switch value and what it needs: refused where the need
does not hold (the message names the switch, the other switches and the advice), allowed at
its default there, accepted where it has an effect; and, unless the row says otherwise, truly
inert where it is refused: a seeded deal played both ways (the check bypassed) takes the same
course. A property test then sweeps each game's switch space.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tressette_env.engine import GAME_OVER, PLAYING, Rules, apply, legal_actions, new_game, next_hand
from tressette_env.engine.switches import InertSwitchError, make_effective
from tressette_env.games.a_chiamare import AChiamareRules
from tressette_env.games.a_perdere import APerdereRules
from tressette_env.games.calabresella import ALL_CONTRACTS, CalabresellaRules
from tressette_env.games.col_morto import ColMortoRules
from tressette_env.games.in_due import InDueRules

MATCH = {"episode": "match"}


class Dependency(NamedTuple):
    """A switch value, the switches under which it is refused (with those the message names), and accepted."""

    rules: type
    switch: str
    value: Any
    refused: tuple[tuple[dict, tuple[str, ...]], ...]
    accepted: tuple[dict, ...]
    inert: bool = True
    """Whether the refused combinations play exactly as the default (False: see the row's comment)."""


D = Dependency
DEPENDENCIES = [
    # The four-seat game (engine/rules.py, its own mechanism).
    D(Rules, "target_score", 31, (({}, ("episode",)),), (MATCH,)),
    D(Rules, "striscio", "no_honours", (({"signals": False}, ("signals",)),), ({},)),
    # A claim in a single hand has no match target to reach: refused since before issue 31, not inert.
    D(Rules, "calling_out", True, (({}, ("episode",)),), (MATCH,), inert=False),
    # Tressette in due: the stock form's switches and the packet form's.
    D(InDueRules, "follow_suit_with_stock", False, (({"deal": "packets"}, ("deal",)),), ({},)),
    D(InDueRules, "show_drawn", False, (({"deal": "packets"}, ("deal",)),), ({},)),
    D(InDueRules, "accusi", "dealt", (({"deal": "packets"}, ("deal",)),), ({},)),
    D(InDueRules, "accusi", "dealt_and_drawn", (({"deal": "packets"}, ("deal",)),), ({},)),
    D(InDueRules, "packet_deal", "choose", (({}, ("deal",)),), ({"deal": "packets"},)),
    D(InDueRules, "pizzichi_pickup", True, (({}, ("deal",)),), ({"deal": "packets"},)),
    D(InDueRules, "target_score", 11, (({}, ("episode",)),), (MATCH,)),
    D(InDueRules, "calling_out", True, (({}, ("episode",)),), (MATCH,), inert=False),  # as the four-seat game's
    # Col morto: with two players every partner is a dummy.
    D(ColMortoRules, "dummy_holder", "fixed", (({"players": 2}, ("players",)),), ({},)),
    D(ColMortoRules, "signals", False, (({"players": 2}, ("players",)),), ({},)),
    D(
        ColMortoRules,
        "striscio",
        "no_honours",
        (({"players": 2}, ("players",)), ({"signals": False}, ("signals",))),
        ({},),
    ),
    D(ColMortoRules, "target_score", 11, (({}, ("episode",)),), (MATCH,)),
    # A perdere.
    D(
        APerdereRules,
        "reduce",
        "monte",
        tuple(
            (others, ("players", "episode", "match_end")) for others in ({}, {"players": 5}, {"players": 8, **MATCH})
        ),
        ({"players": 3}, {"players": 6}, {"players": 7}, {"players": 5, **MATCH, "match_end": "elimination"}),
    ),
    D(APerdereRules, "reduce", "dealer_discard", (({}, ("players", "episode", "match_end")),), ({"players": 7},)),
    D(APerdereRules, "cappotto", "none", (({"objective": "take"}, ("objective",)),), ({},)),
    D(APerdereRules, "zero_point_charge", 1, (({"objective": "take"}, ("objective",)),), ({},)),
    D(APerdereRules, "match_end", "hands", (({}, ("episode",)),), (MATCH,)),
    D(APerdereRules, "match_end", "elimination", (({}, ("episode",)),), (MATCH,)),
    D(
        APerdereRules,
        "target_score",
        11,
        (({}, ("episode",)), ({**MATCH, "match_end": "hands"}, ("match_end",))),
        (MATCH, {**MATCH, "match_end": "elimination"}),
    ),
    D(
        APerdereRules,
        "hands",
        3,
        (
            ({}, ("episode", "match_end")),
            (MATCH, ("match_end",)),
            ({**MATCH, "match_end": "elimination"}, ("match_end",)),
        ),
        ({**MATCH, "match_end": "hands"},),
    ),
    # Calabresella.
    D(CalabresellaRules, "four_player", "dealer_sits_out", (({}, ("players",)),), ({"players": 4},)),
    D(
        CalabresellaRules,
        "call_rule",
        "highest_missing",
        (({"contracts": ("solo", "solissimo")}, ("contracts",)),),
        ({},),
    ),
    D(
        CalabresellaRules,
        "show_monte_on_call",
        False,
        (({"players": 4}, ("players", "four_player")), ({"contracts": ("solo",)}, ("contracts",))),
        ({}, {"players": 4, "four_player": "dealer_sits_out"}),
    ),
    D(
        CalabresellaRules,
        "exchange",
        "partial",
        (({"players": 4}, ("players", "four_player")), ({"contracts": ("solissimo", "dividete")}, ("contracts",))),
        ({}, {"contracts": ("solo",)}, {"players": 4, "four_player": "dealer_sits_out"}),
    ),
    D(
        CalabresellaRules,
        "solissimo_peek",
        True,
        (
            ({"players": 4}, ("contracts", "players", "four_player")),
            ({"contracts": ("chiamo", "solo")}, ("contracts",)),
        ),
        ({}, {"contracts": ("solissimo",)}),
    ),
    D(CalabresellaRules, "first_lead", "forehand", (({"contracts": ("chiamo",)}, ("contracts",)),), ({},)),
    D(CalabresellaRules, "first_lead", "soloist", (({"contracts": ("solo", "solissimo")}, ("contracts",)),), ({},)),
    D(CalabresellaRules, "multipliers", (("solo", 4),), (({"scoring": "difference"}, ("scoring",)),), ({},)),
    D(
        CalabresellaRules,
        "multipliers",
        (("dividete", 8),),
        (({}, ("contracts",)), ({"players": 4}, ("contracts", "players", "four_player"))),
        ({"contracts": ALL_CONTRACTS},),
    ),
    # With chiamo alone a redeal offers no contract: the same void hand, after a second round of passes.
    D(
        CalabresellaRules,
        "all_pass",
        "solo_only_redeal",
        (({"contracts": ("chiamo",)}, ("contracts",)),),
        ({}, {"contracts": ("chiamo", "solo")}),
        inert=False,
    ),
    D(CalabresellaRules, "match_end", "target", (({}, ("episode",)),), (MATCH,)),
    D(
        CalabresellaRules,
        "rounds",
        2,
        (({}, ("episode",)), ({**MATCH, "match_end": "target"}, ("match_end",))),
        (MATCH,),
    ),
    D(
        CalabresellaRules,
        "target_score",
        5,
        (({}, ("episode", "match_end")), (MATCH, ("match_end",))),
        ({**MATCH, "match_end": "target"},),
    ),
    # Tressette a chiamare.
    D(AChiamareRules, "match_end", "target", (({}, ("episode",)),), (MATCH,)),
    D(AChiamareRules, "rounds", 2, (({}, ("episode",)), ({**MATCH, "match_end": "target"}, ("match_end",))), (MATCH,)),
    D(
        AChiamareRules,
        "target_score",
        5,
        (({}, ("episode", "match_end")), (MATCH, ("match_end",))),
        ({**MATCH, "match_end": "target"},),
    ),
]
IDS = [f"{d.rules.__name__}-{d.switch}={d.value!r}" for d in DEPENDENCIES]


def default_of(rules_type: type, name: str) -> Any:
    return next(f.default for f in dataclasses.fields(rules_type) if f.name == name)


@pytest.mark.parametrize("dep", DEPENDENCIES, ids=IDS)
def test_refused_with_a_message_naming_both_switches(dep):
    default = default_of(dep.rules, dep.switch)
    for others, named in dep.refused:
        with pytest.raises(InertSwitchError) as error:
            dep.rules(**others, **{dep.switch: dep.value})
        message = str(error.value)
        assert isinstance(error.value, ValueError) and "\n" not in message
        assert message.startswith(f"rule switch {dep.switch}=") and " has no effect with " in message
        assert error.value.switch == dep.switch and error.value.others == named
        for other in named:
            assert re.search(rf"\b{other}=", message.split(": it needs")[0]), (other, message)
        assert message.endswith(f"(leave {dep.switch} at its default {default!r})")


@pytest.mark.parametrize("dep", DEPENDENCIES, ids=IDS)
def test_the_default_is_allowed_and_the_value_accepted_where_it_has_an_effect(dep):
    default = default_of(dep.rules, dep.switch)
    for others, _ in dep.refused:
        assert dep.rules(**others) == dep.rules(**others, **{dep.switch: default})
    for others in dep.accepted:
        rules = dep.rules(**others, **{dep.switch: dep.value})
        assert getattr(rules, dep.switch) == dep.value


def _course(rules: Any, seed: int, most_hands: int = 40) -> list:
    """What a seeded random play of an episode does: each decision (turn, legal, action), each hand's end."""
    rng = random.Random(seed)
    state = new_game(rules, rng)
    course: list = []
    for _ in range(most_hands):
        while state.public.status == PLAYING:
            legal = legal_actions(state)
            action = rng.choice(legal)
            course.append((state.public.turn, tuple(legal), action))
            state = apply(state, action)
        p = state.public
        course.append((p.result, p.match_score, p.winner, p.history, p.table.extra, p.table.controllers))
        if p.status == GAME_OVER:
            course.append(rules.game.returns(p))
            break
        state = next_hand(state, rng)
    return course


INERT = [pytest.param(d, id=i) for d, i in zip(DEPENDENCIES, IDS, strict=True) if d.inert]


@pytest.mark.parametrize("dep", INERT)
def test_a_refused_value_would_change_nothing(dep):
    for others, _ in dep.refused:
        plain = dep.rules(**others)
        inert = copy.copy(plain)
        object.__setattr__(inert, dep.switch, dep.value)  # past the check, as if it had been accepted
        for seed in range(3):
            assert _course(inert, seed) == _course(plain, seed)


# ------------------------------------------------------------------ the switch space of each game


def _values(f: dataclasses.Field) -> st.SearchStrategy:
    """Values of a switch (its default often), from what it allows."""
    allowed = f.metadata["switch"].allowed
    if allowed is bool:
        drawn = st.booleans()
    elif allowed[0] in ("int", "int|None"):
        drawn = st.integers(allowed[1], allowed[1] + 9)
        if allowed[0] == "int|None":
            drawn = st.none() | drawn
    elif allowed[0] == "subset|None":
        sets = st.sets(st.sampled_from(allowed[1]), min_size=1)
        drawn = st.none() | sets.map(lambda chosen: tuple(v for v in allowed[1] if v in chosen))
    elif allowed[0] == "mapping|None":
        drawn = st.none() | st.dictionaries(st.sampled_from(allowed[1]), st.integers(1, 20), min_size=1)
    else:
        drawn = st.sampled_from(allowed)
    return st.just(f.default) | drawn


CLASSIC_VALUES = {
    "target_score": st.integers(1, 41),
    "episode": st.sampled_from(["hand", "match"]),
    "accusi": st.booleans(),
    "signals": st.booleans(),
    "striscio": st.sampled_from(["keeps_suit", "no_honours"]),
    "first_lead": st.sampled_from(["dealer_right", "four_of_denari"]),
    "cappotto_bonus": st.integers(0, 11),
    "calling_out": st.booleans(),
    "illegal_action": st.sampled_from(["renuncio", "raise"]),
}


def switch_space(rules_type: type) -> st.SearchStrategy:
    """Every switch of a game drawn at once (each often at its default)."""
    if rules_type is Rules:
        return st.fixed_dictionaries({k: st.just(default_of(Rules, k)) | v for k, v in CLASSIC_VALUES.items()})
    return st.fixed_dictionaries({f.name: _values(f) for f in dataclasses.fields(rules_type) if "switch" in f.metadata})


GAMES = [Rules, InDueRules, ColMortoRules, APerdereRules, CalabresellaRules, AChiamareRules]


@pytest.mark.parametrize("rules_type", GAMES, ids=lambda t: t.__name__)
@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_every_rule_set_builds_or_is_refused_and_the_advice_leads_to_one_that_plays(rules_type, data, seed):
    switches = data.draw(switch_space(rules_type))
    names = {f.name for f in dataclasses.fields(rules_type)}
    try:
        rules_type(**switches)
    except InertSwitchError as error:
        # The switch named is set (not to its default), the others named are switches.
        assert error.switch in switches and switches[error.switch] != default_of(rules_type, error.switch)
        assert error.others and set(error.others) <= names and error.switch not in error.others
        # Following the advice (leaving it at its default) never refuses it again.
        rest = {k: v for k, v in switches.items() if k != error.switch}
        try:
            rules_type(**rest)
        except InertSwitchError as again:
            assert again.switch != error.switch
        except ValueError:
            raise AssertionError(f"leaving {error.switch} at its default made a bad rule set") from None
    except ValueError as error:  # a bad value or a combination the game refuses: it names a switch
        assert str(error).startswith("rule switch ") and any(f"{n}=" in str(error) for n in names), str(error)
        return
    rules = make_effective(rules_type, **switches)  # every switch as drawn, or at its default
    for name, drawn in switches.items():
        value = getattr(rules, name)
        if isinstance(drawn, dict):  # a mapping switch keeps its pairs
            drawn = tuple(sorted(drawn.items()))
            value = tuple(sorted(value)) if value is not None else None
        assert value == drawn or value == default_of(rules_type, name), (name, drawn, value)
    state = new_game(rules, seed)
    rng = random.Random(seed)
    while state.public.status == PLAYING:
        state = apply(state, rng.choice(legal_actions(state)))


def test_the_refusal_crosses_a_process_pool_whole_and_quotes_values_cut_short():
    import pickle

    from tressette_env.engine.rules import Rules
    from tressette_env.engine.switches import InertSwitchError

    with pytest.raises(InertSwitchError) as caught:
        Rules(target_score=31)
    error = pickle.loads(pickle.dumps(caught.value))
    assert (error.switch, error.others, str(error)) == ("target_score", ("episode",), str(caught.value))
    with pytest.raises(ValueError) as caught:  # past the largest whole-number switch (switches.MOST)
        Rules(target_score=10**5000, episode="match")
    assert "an int of about 5001 digits" in str(caught.value) and len(str(caught.value)) < 200
    with pytest.raises(ValueError) as caught:
        Rules(episode="x" * 10**5)
    assert len(str(caught.value)) < 200
    # Switches whose other values only change what the result is called are taken, not refused.
    assert CalabresellaRules(scoring="difference", cappotto_rule="zero_thirds").cappotto_rule == "zero_thirds"
