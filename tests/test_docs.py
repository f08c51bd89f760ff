"""The published tables (README, docs pages, docstrings) are the ones the code generates; the pages link to pages that exist."""

import importlib.util
import re
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
def test_the_observation_page_and_the_env_docstring_show_each_table(table):
    from tressette_env.envs import tressette_aec

    assert table in (ROOT / "docs" / "observation.md").read_text()
    assert table in tressette_aec.__doc__


def test_the_state_table_is_in_its_module():
    from tressette_env.encoders import global_state

    assert table_of(STATE_LAYOUT) in global_state.__doc__


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as MkDocs (and GitHub, for these headings) make them."""
    anchors = set()
    for heading in re.findall(r"^#+ (.*)$", page.read_text(), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).strip().replace(" ", "-")
        anchors.add(slug)
    return anchors


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_its_heading(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # links in code blocks are not links
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name} links to {target}, which does not exist"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{page.name} links to {target}: no such heading"


def test_the_docs_site_lists_every_page():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in sorted((ROOT / "docs").rglob("*.md")):
        assert str(page.relative_to(ROOT / "docs")) in nav, f"{page} is not in mkdocs.yml's nav"


def test_every_game_of_the_catalog_has_its_page_and_its_row_in_the_package_docstring():
    """The catalog's ``docs``, ``title`` and ``summary`` are what the site and ``tressette_env``'s table show."""
    import tressette_env
    from tressette_env import catalog

    nav = (ROOT / "mkdocs.yml").read_text()
    rows = [line for line in tressette_env.__doc__.splitlines() if line.startswith("| ")]
    for name in catalog.PACKAGE_GAMES:
        entry = catalog.entry(name)
        assert (ROOT / entry.docs).is_file() and entry.docs.removeprefix("docs/") in nav, entry.docs
        (row,) = [r for r in rows if f"``{entry.env_name}``" in r]
        assert row.startswith(f"| {entry.title}") and entry.summary in row and f"``{entry.gym_id}``" in row, row


def _table_after(text: str, header: str) -> str:
    start = text.index(header)
    end = text.find("\n\n", start)
    return text[start : end if end != -1 else len(text)]


@pytest.mark.parametrize(
    "page, header",
    [
        ("evaluation.md", "| player A | player B | boards | A - B points per hand | 95% CI |"),
        (
            "benchmarks.md",
            "| loop (random legal choice timed, one core) | counts | per CPU second | vs hearts | env() / raw_env |",
        ),
    ],
    ids=["strength", "speed"],
)
def test_the_readmes_headline_tables_are_the_docs_pages(page, header):
    # The README shows the headline figures; the full pages hold the same table, not a drifted copy.
    readme = (ROOT / "README.md").read_text()
    assert _table_after(readme, header) == _table_after((ROOT / "docs" / page).read_text(), header)
