"""TorchRL's PettingZoo wrapper over the parallel environments (examples/torchrl_rollout.py): masked rollouts of
every game play whole hands. Runs where torchrl is installed (.ci/run's torchrl run)."""

import runpy
from pathlib import Path

import pytest

pytest.importorskip("torchrl")

from tests.games.family import MODULES  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "torchrl_rollout.py"


def rollout(*argv: str) -> dict[str, float]:
    return runpy.run_path(str(EXAMPLE))["main"](list(argv))


def test_the_four_seat_game_plays_whole_hands_with_the_masks():
    returns = rollout("--game", "tressette", "--hands", "3", "--seed", "1")
    # Masked actions: no renuncio, so each hand is forty steps (the example prints them) and partners share.
    assert returns["player_0"] == returns["player_2"] == -returns["player_1"] == -returns["player_3"]


@pytest.mark.parametrize("game", list(MODULES))
def test_every_game_rolls_out(game, capsys):
    returns = rollout("--game", game, "--hands", "2")
    assert len(returns) == len(MODULES[game].parallel_env().possible_agents)
    out = capsys.readouterr().out
    assert f"{game}: 2 hands" in out
    if game == "tressette":
        assert ", 80 steps;" in out
