"""docs/protocol.md: its message examples are what the code sends, and its commands run."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tressette_env.engine import PLAYING, apply, legal_actions, new_game, view
from tressette_env.protocol.view import act_message, end_message

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "protocol.md"
TRESSETTE = str(Path(sys.executable).with_name("tressette"))
CUT = ["... every field of the public record ..."]


def examples() -> tuple[dict, dict]:
    """The page's two examples: seed 0, first legal actions, the fifth card a lead with striscio; its end for seat 1."""
    state = new_game(seed=0)
    for _ in range(4):
        state = apply(state, legal_actions(state)[0])
    state = apply(state, legal_actions(state)[-1])
    act = act_message(view(state, state.public.turn), legal_actions(state))
    act["state"]["v"] = CUT
    while state.public.status == PLAYING:
        state = apply(state, legal_actions(state)[0])
    end = end_message(view(state, 1))
    end["state"]["v"] = CUT
    end["tricks"] = end["tricks"][:2] + ["... eight more ..."]
    return act, end


def compact(message: dict) -> str:
    """A message as the page shows it: a field a line."""
    return "{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in message.items()) + "\n}"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_the_message_examples_are_what_the_code_sends():
    shown = [json.loads(block) for block in blocks("json")]
    for message in examples():
        assert message in shown, f"docs/protocol.md should show:\n{compact(message)}"


def commands() -> list[list[str]]:
    """The page's ``tressette`` commands that run here as written (no model server, no bot file of the reader's)."""
    found = []
    for block in blocks("bash"):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["tressette"] and "my_bot.py" not in line and "llm" not in line:
                found.append(words)
    return found


def test_the_page_has_commands_to_run():
    assert [w[:2] for w in commands()] == [["tressette", "eval"], ["tressette", "bot"]]


@pytest.mark.parametrize("words", commands(), ids=lambda w: " ".join(w[:2]))
def test_each_command_of_the_page_runs(words, tmp_path):
    if any("node " in w for w in words) and shutil.which("node") is None:
        pytest.skip("needs node")
    if words[1] == "eval":
        argv = [*words[1:], "--deals", "2", "--workers", "1", "--no-progress"]
        done = subprocess.run([TRESSETTE, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "2 boards per pair" in done.stdout
    else:
        state = new_game(seed=0)
        act = act_message(view(state, state.public.turn), legal_actions(state))
        lines = json.dumps(act) + "\n" + json.dumps(end_message(view(state, 0)) | {"type": "end"}) + "\n"
        done = subprocess.run([TRESSETTE, *words[1:]], cwd=ROOT, input=lines, capture_output=True, text=True,
                              timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(answers) == 1 and answers[0]["action"] in legal_actions(state)
