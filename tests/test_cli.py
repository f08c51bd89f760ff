"""The ``tressette`` command line."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tressette_env.cli import main


def test_eval_prints_the_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "out.json"
    status = main(["eval", "heuristic", "random", "--deals", "40", "--seed", "0", "--json", str(out), "--no-progress"])
    assert status == 0
    printed = capsys.readouterr().out
    assert "| heuristic | random | 40 |" in printed
    result = json.loads(out.read_text())
    assert result["players"] == ["heuristic", "random"] and result["deals"] == 40
    low, high = result["ci95"]
    assert low <= result["mean_points_diff"] <= high and low > 0


def test_round_robin_with_rules_and_a_png(tmp_path, capsys):
    png = tmp_path / "rr.png"
    status = main(
        [
            "eval", "random", "heuristic", "random:", "--deals", "6", "--rule", "episode=match",
            "--rule", "target_score=11", "--png", str(png), "--json", str(tmp_path / "rr.json"), "--no-progress",
        ]
    )  # fmt: skip
    assert status == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pairs = json.loads((tmp_path / "rr.json").read_text())["pairs"]
    assert len(pairs) == 3 and all(p["match_win_rate"] is not None for p in pairs)
    assert "A's match wins" in capsys.readouterr().out


def test_bad_players_and_rules_are_named(capsys):
    assert main(["eval", "heuristic", "grandmaster", "--deals", "4"]) == 2
    assert "unknown player 'grandmaster'" in capsys.readouterr().err
    assert main(["eval", "heuristic", "random", "--rule", "accusi=maybe", "--deals", "4"]) == 2
    assert "accusi='maybe'" in capsys.readouterr().err
    assert main(["eval", "heuristic", "--deals", "4"]) == 2


def test_the_console_script_is_installed():
    script = shutil.which("tressette") or str(Path(sys.executable).with_name("tressette"))
    out = subprocess.run([script, "eval", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "Play every deal twice" in out.stdout
