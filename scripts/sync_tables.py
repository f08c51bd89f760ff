"""Rewrite the generated tables (actions, observation, state, rule switches) wherever they appear.

The tables are made from the code (``action_table``, ``layout_table``, ``rules_table``,
``table_of(STATE_LAYOUT)``); ``tests/test_docs.py`` fails when a copy drifts, and this
script mends every copy: ``python scripts/sync_tables.py``.
"""

from __future__ import annotations

from pathlib import Path

from tressette_env.encoders import STATE_LAYOUT, layout_table, table_of
from tressette_env.engine.actions import action_table
from tressette_env.engine.rules import rules_table

ROOT = Path(__file__).resolve().parent.parent

# Header line -> the generated table. The observation and state tables share a header;
# they are told apart by their first row.
TABLES = {
    "| switch | default | allowed | meaning |": [rules_table()],
    "| action id | meaning |": [action_table()],
    "| piece | shape | slice | meaning |": [layout_table(), table_of(STATE_LAYOUT)],
}


def sync(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        header = lines[i]
        if header in TABLES:
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            first_row = lines[i + 2] if i + 2 < j else ""
            for table in TABLES[header]:
                if table.split("\n")[2].split("|")[1] == first_row.split("|")[1]:
                    out.extend(table.split("\n"))
                    break
            else:
                out.extend(lines[i:j])
            i = j
        else:
            out.append(header)
            i += 1
    return "\n".join(out)


def main() -> None:
    paths = [ROOT / "README.md", *sorted((ROOT / "tressette_env").rglob("*.py"))]
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
