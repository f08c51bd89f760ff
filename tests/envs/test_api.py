"""PettingZoo's own API, seed and state tests over several rule sets."""

import warnings

import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.state_test import test_state as state_test

from tressette_env import tressette_v0

RULE_SETS = [
    {},
    {"episode": "match"},
    {"episode": "match", "target_score": 11, "calling_out": True},
    {"accusi": False},
    {"signals": False},
    {"first_lead": "four_of_denari"},
    {"illegal_action": "raise"},
    {"cappotto_bonus": 11},
]


@pytest.fixture(autouse=True)
def quiet_api_test_advice():
    # api_test warns that a dict observation "probably should be" a Box: PettingZoo's own
    # classic games use the same dict, and so do we.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_pettingzoo_api(rules):
    api_test(tressette_v0.env(**rules), num_cycles=200)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_pettingzoo_seed(rules):
    seed_test(lambda: tressette_v0.env(**rules), num_cycles=200)


@pytest.mark.parametrize("rules", RULE_SETS[:3], ids=["default", "match", "calling_out"])
def test_pettingzoo_state(rules):
    # state_test plays unmasked random actions: each illegal one is a renuncio, as the rules say.
    env = tressette_v0.env(**rules)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tressette_v0.RenuncioWarning)
        state_test(env, num_cycles=200)
