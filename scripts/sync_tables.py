"""Rewrite the generated tables (actions, observation, state, rule switches) wherever they appear.

The tables are made from the code (``action_table``, ``layout_table``, ``rules_table``,
``table_of(STATE_LAYOUT)``); ``tests/test_docs.py`` fails when a copy drifts, and this
script mends every copy: ``python scripts/sync_tables.py``.
"""

from __future__ import annotations

from pathlib import Path

from tressette_env import catalog
from tressette_env.encoders import STATE_LAYOUT, layout_table, observation_of, table_of
from tressette_env.engine.actions import action_table, family_action_table
from tressette_env.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def size_label(entry: catalog.Entry, label: str) -> str:
    """A form's name in the table of observation sizes: ``Calabresella, four players``."""
    return f"{entry.title}, {label}" if label else entry.title


def _tables() -> list[str]:
    """Every generated table: the actions and the four-seat layouts, then each package game's switches and forms."""
    games = [(entry, entry.form_rules()) for entry in map(catalog.entry, catalog.PACKAGE_GAMES)]
    sizes = ["| game | observation entries | with `history=True` |", "| --- | ---: | ---: |"]
    sizes += [
        f"| {size_label(entry, label)} | {observation_of(r).size} | {observation_of(r, history=True).size} |"
        for entry, forms in games
        for label, r in forms
    ]
    tables = [
        "\n".join(sizes),
        observation_of(Rules(), history=True).history_table(),
        action_table(),
        family_action_table(),
        layout_table(),
        table_of(STATE_LAYOUT),
    ]
    for entry, forms in games:
        tables.append(entry.rules_type().table())
        tables += [entry.observation(r).table() for _, r in forms]
        tables += [table_of(entry.state_encoder(r).layout) for _, r in forms]
    return tables


TABLES: dict[str, list[str]] = {}
for _table in _tables():
    TABLES.setdefault(_table.split("\n")[0], []).append(_table)


def _keys(rows: list[str]) -> list[str]:
    """The first two cells of each row below a table's header: what tells tables with one header apart
    (the pieces and their shapes, the switches and their defaults, the action ids and what they do)."""
    return ["|".join(cell.strip() for cell in row.split("|")[1:3]) for row in rows[2:]]


def sync(text: str) -> str:
    """``text`` with every copy of a generated table replaced by the table the code makes now.

    A copy is matched to the generated table whose rows start with the same cells (the pieces,
    switches or action ids), or, when none does, whose first and last rows do (a table that
    gained or lost rows), or whose rows begin with the copy's (a table that gained rows at its end).
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        header = lines[i]
        if header in TABLES:
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            keys = _keys(lines[i:j])
            candidates = TABLES[header]
            same = [t for t in candidates if _keys(t.split("\n")) == keys]
            if not same and keys:
                same = [
                    t
                    for t in candidates
                    if _keys(t.split("\n"))[:1] == keys[:1] and _keys(t.split("\n"))[-1:] == keys[-1:]
                ]
            if not same and keys:  # a table that gained rows at its end (the family's action table)
                same = [t for t in candidates if _keys(t.split("\n"))[: len(keys)] == keys]
            if len(same) >= 1:
                out.extend(same[0].split("\n"))
            else:
                out.extend(lines[i:j])
            i = j
        else:
            out.append(header)
            i += 1
    return "\n".join(out)


def main() -> None:
    paths = [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "tressette_env").rglob("*.py")),
    ]
    for path in paths:
        if not path.exists():
            continue
        text = path.read_text()
        new = sync(text)
        if new != text:
            path.write_text(new)
            print(f"updated {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
