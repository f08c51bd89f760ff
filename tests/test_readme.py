"""The README's Python snippets run as written.

A snippet that imports a package that is not installed (``sb3_contrib`` without the ``train``
extra) is skipped, naming the package; every other snippet must run.
"""

import ast
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SNIPPETS = re.findall(r"```python\n(.*?)```", README, flags=re.S)
# The pages whose snippets say what they printed: they run too.
SNIPPETS += re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "integrations.md").read_text(), flags=re.S)


def imported_packages(code: str) -> list[str]:
    """The top-level names of the modules that ``code`` imports (absolute imports only), in order of appearance."""
    names = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return list(dict.fromkeys(name.partition(".")[0] for name in names))


def test_the_readme_has_snippets():
    assert len(SNIPPETS) >= 2


def test_imported_packages():
    code = "import numpy as np\nfrom sb3_contrib import MaskablePPO\nfrom stable_baselines3.common import env_util\nfrom . import x\n"
    assert imported_packages(code) == ["numpy", "sb3_contrib", "stable_baselines3"]


@pytest.mark.parametrize("code", SNIPPETS, ids=lambda c: c.split("\n")[0][:40])
def test_snippet_runs(code, capsys):
    missing = [name for name in imported_packages(code) if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"the snippet imports {', '.join(missing)}, not installed (the train extra)")
    exec(compile(code, "README.md", "exec"), {})
    # A snippet that says what it printed ("# printed: ...") prints that.
    printed = capsys.readouterr().out.splitlines()
    claimed = re.findall(r"# printed: (.*)", code)
    assert [line for line in printed if line in claimed] == claimed, (printed, claimed)
