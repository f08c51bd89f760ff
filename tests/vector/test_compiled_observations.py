"""The batched engines' compiled observations (``vector._compiled``) are their NumPy ones, byte for byte.

Where numba is installed, ``observe`` of col morto, in due, a chiamare and Calabresella runs a
compiled kernel; the engines' own tests (``test_col_morto.py``, ``test_in_due_batch.py``,
``test_a_chiamare_batch.py``, ``test_calabresella_batch.py``) pin whichever path the process
takes to the scalar encoders. Here the two paths are compared with each other on the
same states: every rule set of ``tests/games/family.py`` (and col morto's of its own tests),
every player's view, chosen deals, partial steps, renuncios and finished deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from tressette_env import catalog
from tressette_env.vector import _compiled, _family

from ..games.family import RULE_SETS
from .test_col_morto import RULE_SETS as COL_MORTO_RULE_SETS

if not _compiled.COMPILED:
    pytest.skip("numba is not installed (or TRESSETTE_NUMBA=0): observe runs NumPy only", allow_module_level=True)

KERNELS = {
    "tressette_col_morto": "_col_morto_words",
    "tressette_in_due": "_in_due_words",
    "tressette_a_chiamare": "_a_chiamare_words",
    "calabresella": "_calabresella_words",
}
"""Each game whose batched observation has a compiled kernel -> the kernel's module in ``tressette_env.vector``."""

KERNEL_MODULES = {module: _family.compiled_kernel(module) for module in KERNELS.values()}
"""Each kernel's module, imported before any test sets ``_family._KERNELS``."""

CASES = [(game, rules) for game in KERNELS for rules in RULE_SETS[game]] + [
    ("tressette_col_morto", rules) for rules in COL_MORTO_RULE_SETS if rules not in RULE_SETS["tressette_col_morto"]
]


def both(monkeypatch, batch, module: str, observers, deals=None) -> tuple[np.ndarray, np.ndarray]:
    """The observation by the compiled kernel and by the NumPy code."""
    monkeypatch.setitem(_family._KERNELS, module, KERNEL_MODULES[module])
    fast = batch.observe(observers, deals)
    monkeypatch.setitem(_family._KERNELS, module, None)
    slow = batch.observe(observers, deals)
    return fast, slow


@pytest.mark.parametrize(("game", "rules"), CASES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(CASES)])
def test_compiled_observation_is_the_numpy_one(monkeypatch, game, rules):
    module = KERNELS[game]
    assert KERNEL_MODULES[module] is not None
    batch = catalog.entry(game).batch_type()(24, seed=len(rules), **rules)
    rng = np.random.default_rng(7)
    seen = 0
    for step in range(160):
        actions = batch.sample_actions(rng)
        wrong = rng.random(batch.n) < 0.01  # a renuncio now and then ends a hand early
        actions[wrong] = rng.integers(0, batch.num_actions, int(wrong.sum()))
        active = rng.random(batch.n) < 0.7 if step % 3 == 0 else None
        batch.step(actions, active=active, autoreset=step % 50 != 49)
        if (batch.turn >= 0).all():
            fast, slow = both(monkeypatch, batch, module, None)
            assert np.array_equal(fast, slow), f"step {step}: the player on turn"
            seen += 1
        for player in range(batch.num_agents):
            fast, slow = both(monkeypatch, batch, module, player)
            assert np.array_equal(fast, slow), f"step {step}: player {player}"
        chosen = rng.choice(batch.n, 5, replace=False)
        players = rng.integers(0, batch.num_agents, 5)
        fast, slow = both(monkeypatch, batch, module, players, chosen)
        assert np.array_equal(fast, slow), f"step {step}: deals {chosen.tolist()}"
        if not (batch.turn >= 0).all():
            batch.reset(deals=batch.turn < 0)
    assert seen > 100


@pytest.mark.parametrize("game", sorted(KERNELS))
def test_observe_runs_the_kernel(monkeypatch, game):
    """With numba, ``observe`` calls the kernel's ``packed`` (a stand-in that counts the calls shows it)."""
    kernel = KERNEL_MODULES[KERNELS[game]]
    calls = []

    class Counting:
        COMPILED = True

        @staticmethod
        def packed(*args):
            calls.append(len(args[1]))
            return kernel.packed(*args)

    batch = catalog.entry(game).batch_type()(3, seed=0)
    monkeypatch.setitem(_family._KERNELS, KERNELS[game], Counting)
    batch.observe()
    assert calls == [3]
