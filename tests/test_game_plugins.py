"""A game in a package of its own reaches the ``tressette`` command through an entry point (``catalog.load_plugins``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def installed(tmp_path: Path, points: str) -> dict:
    """An environment in which a distribution ``toyplugin`` declares ``points`` in group ``tressette_env.games``."""
    info = tmp_path / "toyplugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toyplugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[tressette_env.games]\n{points}\n")
    path = os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path}


def tressette(env: dict, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tressette_env.cli", *argv], env=env, input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)  # fmt: skip


def test_an_installed_game_plays_in_tressette_eval_and_answers_through_tressette_bot(tmp_path):
    env = installed(tmp_path, "due_a_cinque = tests.games.toy")
    done = tressette(env, "eval", "heuristic", "random", "--game", "due_a_cinque", "--deals", "2", "--workers", "1",
                     "--no-progress", "--json", str(tmp_path / "r.json"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "r.json").read_text())["rules"]["game"] == "due_a_cinque"
    script = (
        "import json, tests.games.toy\n"
        "from tressette_env.engine import legal_actions, new_game, view\n"
        "from tressette_env.protocol.view import act_message\n"
        "state = new_game(tests.games.toy.ToyRules(), seed=1)\n"
        "print(json.dumps(act_message(view(state, state.public.turn), legal_actions(state))))\n"
    )
    message = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=ROOT,
                             check=True).stdout  # fmt: skip
    answered = tressette(env, "bot", "heuristic", stdin=message)
    assert answered.returncode == 0, answered.stderr
    legal = [item["id"] for item in json.loads(message)["legal"]]
    assert json.loads(answered.stdout)["action"] in legal


def test_without_the_entry_point_the_game_is_unknown_and_a_broken_plugin_is_named_not_fatal(tmp_path):
    env = installed(tmp_path, "broken = no_such_module_anywhere")
    done = tressette(env, "eval", "heuristic", "random", "--game", "due_a_cinque", "--deals", "2")
    assert done.returncode == 2 and "invalid choice: 'due_a_cinque'" in done.stderr
    assert "the game plugin 'broken' (no_such_module_anywhere) was not loaded: ModuleNotFoundError" in done.stderr
    done = tressette(env, "eval", "heuristic", "random", "--deals", "2", "--workers", "1", "--no-progress")
    assert done.returncode == 0, done.stderr
