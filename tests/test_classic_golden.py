"""The four-seat game behaves byte for byte as before the family core (see ``tests/golden_classic.py``)."""

import json

import pytest

from tests import golden_classic as g

GOLDEN = json.loads(g.GOLDEN.read_text())
CASES = [(name, seed) for name in g.RULE_SETS for seed in g.SEEDS]


@pytest.mark.parametrize("name, seed", CASES, ids=[f"{n}/{s}" for n, s in CASES])
def test_the_classic_game_is_unchanged(name, seed):
    rules = g.RULE_SETS[name]
    expected = GOLDEN[f"{name}/{seed}"]
    assert g.engine_digest(rules, seed) == expected["engine"]
    assert g.aec_digest(rules, seed) == expected["aec"]
    assert g.single_seat_digest(rules, seed) == expected["single_seat"]
