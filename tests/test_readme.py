"""The README's Python snippets run as written."""

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
SNIPPETS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_the_readme_has_snippets():
    assert len(SNIPPETS) >= 2


@pytest.mark.parametrize("code", SNIPPETS, ids=lambda c: c.split("\n")[0][:40])
def test_snippet_runs(code, capsys):
    exec(compile(code, "README.md", "exec"), {})
