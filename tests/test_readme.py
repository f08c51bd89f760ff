"""The Python snippets of the README and of every page under docs/ run as written.

A snippet that imports a package that is not installed (``sb3_contrib`` without the ``train``
extra), or imports a module of ours that needs one, is skipped, naming the package; every other
snippet must run. A snippet shown on two pages (the README's quickstart and its docs page) runs
once.
"""

import ast
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
"""The pages whose snippets run: the README and the documentation site's pages."""
SNIPPETS = list(
    dict.fromkeys(code for page in PAGES for code in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S))
)


EXTRA_OF = {
    "sb3_contrib": "the train extra",
    "stable_baselines3": "the train extra",
    "torch": "torch, installed first as the README says",
    "pyspiel": "the openspiel extra",
    "open_spiel": "the openspiel extra",
    "ray": "the rllib extra",
    "numba": "the fast extra",
    "starlette": "the web extra",
    "uvicorn": "the web extra",
    "websockets": "the web extra",
    "rich": "the train extra",
    "tensorboard": "the train extra",
    "matplotlib": "the eval or train extra",
    "tqdm": "the eval or train extra",
}
"""Where a package a snippet needs comes from (a skip names it); others: a package of one example alone."""


def where_from(names: list[str]) -> str:
    """``names`` and where each comes from, for a skip's reason."""
    return ", ".join(f"{name} ({EXTRA_OF.get(name, 'not one of the extras')})" for name in names)


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
    assert len(re.findall(r"```python\n(.*?)```", README, flags=re.S)) >= 2


def test_the_moved_snippets_run_from_their_pages():
    # The pages that took the README's long sections keep their snippets, and those run here.
    for name in (
        "api.md",
        "batched.md",
        "training.md",
        "integrations/pettingzoo.md",
        "integrations/gymnasium-vector.md",
    ):
        page = (ROOT / "docs" / name).read_text()
        found = re.findall(r"```python\n(.*?)```", page, flags=re.S)
        assert found and all(code in SNIPPETS for code in found), name


def test_imported_packages():
    code = "import numpy as np\nfrom sb3_contrib import MaskablePPO\nfrom stable_baselines3.common import env_util\nfrom . import x\n"
    assert imported_packages(code) == ["numpy", "sb3_contrib", "stable_baselines3"]


@pytest.mark.parametrize("code", SNIPPETS, ids=lambda c: c.split("\n")[0][:40])
def test_snippet_runs(code, capsys):
    missing = [name for name in imported_packages(code) if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"the snippet imports {where_from(missing)}: not installed")
    try:
        exec(compile(code, "README.md", "exec"), {})
    except ModuleNotFoundError as error:  # a package of the snippet needs one that is not installed
        top = (error.name or "").partition(".")[0]
        if not top or importlib.util.find_spec(top) is not None:
            raise
        pytest.skip(f"the snippet needs {where_from([top])} through the package it imports: not installed")
    # A snippet that says what it printed ("# printed: ...") prints that.
    printed = capsys.readouterr().out.splitlines()
    claimed = re.findall(r"# printed: (.*)", code)
    assert [line for line in printed if line in claimed] == claimed, (printed, claimed)


def test_every_quickstart_says_what_it_prints():
    # issue 31: the first quickstart did not say what it prints, and the stable-baselines3 one printed nothing.
    snippets = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert "# printed: " in snippets[0]
    sb3 = next(code for code in snippets if "MaskablePPO" in code)
    assert "print(" in sb3 and "printed" in sb3


def test_the_getting_started_page_opens_the_site_with_the_readmes_two_commands():
    page = (ROOT / "docs" / "getting-started.md").read_text()
    nav = (ROOT / "mkdocs.yml").read_text().split("nav:", 1)[1]
    assert nav.strip().splitlines()[0].strip() == "- Getting started: getting-started.md"
    commands = re.findall(r"^python3 -m venv .*$", README, flags=re.M)
    assert len(commands) == 2 and all(command in page for command in commands)
    for api in ("PettingZoo AEC", "PettingZoo parallel", "Gymnasium, one learner", "Gymnasium's vector API"):
        assert f"### {api}" in page


def test_the_two_commands_times_say_the_machine_and_the_cpu_time():
    block = README.split("## Two commands", 1)[1].split("## Quickstart", 1)[0]
    main_job, tests = block.split("# The tests", 1)
    assert "idle 2-core" in main_job and "CPU time" in main_job
    assert "CPU time" in tests.split("\n\n")[0]
