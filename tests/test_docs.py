"""The published tables (README, docstrings) are the ones the code generates."""

import importlib.util
from pathlib import Path

import pytest

from tressette_env.encoders import STATE_LAYOUT, layout_table, table_of
from tressette_env.engine.actions import action_table
from tressette_env.engine.rules import rules_table

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("sync_tables", ROOT / "scripts" / "sync_tables.py")
sync_tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sync_tables)

DOCUMENTED = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "tressette_env").rglob("*.py")),
]


@pytest.mark.parametrize("path", DOCUMENTED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_published_table_matches_the_code(path):
    text = path.read_text()
    assert sync_tables.sync(text) == text, f"a table in {path.name} drifted: run python scripts/sync_tables.py"


@pytest.mark.parametrize(
    "table", [rules_table(), action_table(), layout_table()], ids=["rule switches", "actions", "observation"]
)
def test_the_readme_and_the_env_docstring_show_each_table(table):
    from tressette_env.envs import tressette_aec

    assert table in (ROOT / "README.md").read_text()
    assert table in tressette_aec.__doc__


def test_the_state_table_is_in_its_module():
    from tressette_env.encoders import global_state

    assert table_of(STATE_LAYOUT) in global_state.__doc__
