"""BenchMARL over the parallel environments as a custom task (examples/benchmarl_mappo.py): tiny runs of MAPPO
on every game, and of BenchMARL's other algorithms for discrete actions, train and evaluate with the action masks
and never play an illegal action. Runs where benchmarl is installed (it is no extra of ours)."""

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("benchmarl")

from tests.games.family import MODULES  # noqa: E402
from tressette_env.engine.game import IllegalActionError  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "benchmarl_mappo.py"


@pytest.fixture(scope="module")
def recipe():
    # Imported as a module, not run with runpy: BenchMARL pickles the task, so its class must be importable.
    spec = importlib.util.spec_from_file_location("benchmarl_mappo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmarl_mappo"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["benchmarl_mappo"]


def test_the_four_seat_game_trains_and_evaluates_with_the_masks(recipe, capsys):
    counts = recipe.main(["--game", "tressette", "--frames", "1000", "--batch", "500"])
    # Two environments of 500 frames each, forty steps a hand: no renuncio cut a hand short.
    assert counts == {"frames": 1000, "hands": 24, "illegal": 0, "eval_hands": 4, "eval_illegal": 0}
    assert "tressette, mappo: 1000 frames, 24 hands, 0 illegal actions" in capsys.readouterr().out


@pytest.mark.parametrize("game", [game for game in MODULES if game != "tressette"])
def test_every_game_trains_with_the_masks(recipe, game):
    counts = recipe.main(["--game", game, "--frames", "400", "--batch", "400"])
    assert counts["frames"] == 400 and counts["hands"] > 0 and counts["eval_hands"] == 2
    assert counts["illegal"] == counts["eval_illegal"] == 0


@pytest.mark.parametrize("algorithm", ["ippo", "masac", "isac", "iql", "vdn", "qmix"])
def test_every_discrete_algorithm_respects_the_masks(recipe, algorithm):
    counts = recipe.main(["--algorithm", algorithm, "--frames", "400", "--batch", "400"])
    assert counts == {"frames": 400, "hands": 10, "illegal": 0, "eval_hands": 2, "eval_illegal": 0}


def test_without_the_mask_spec_an_illegal_action_stops_the_run(recipe, monkeypatch):
    # The control: with no action_mask_spec BenchMARL samples an unmasked Categorical, and the recipe's
    # illegal_action="raise" turns the first illegal action into an error.
    monkeypatch.setattr(recipe.TressetteClass, "action_mask_spec", lambda self, env: None)
    with pytest.raises(IllegalActionError):
        recipe.main(["--game", "tressette", "--frames", "200", "--batch", "200"])
