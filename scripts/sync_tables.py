"""Rewrite the generated tables (actions, observation, state, rule switches) wherever they appear.

The tables are made from the code (``action_table``, ``layout_table``, ``rules_table``,
``table_of(STATE_LAYOUT)``); ``tests/test_docs.py`` fails when a copy drifts, and this
script mends every copy: ``python scripts/sync_tables.py``.
"""

from __future__ import annotations

from pathlib import Path

from tressette_env.encoders import STATE_LAYOUT, layout_table, observation_of, table_of
from tressette_env.encoders import a_chiamare as a_chiamare_obs
from tressette_env.encoders import a_perdere as a_perdere_obs
from tressette_env.encoders import calabresella as calabresella_obs
from tressette_env.encoders import col_morto as col_morto_obs
from tressette_env.encoders import in_due as in_due_obs
from tressette_env.engine.actions import action_table, family_action_table
from tressette_env.engine.rules import Rules, rules_table
from tressette_env.games import a_chiamare, a_perdere, calabresella, col_morto, in_due

ROOT = Path(__file__).resolve().parent.parent


def _tables() -> list[str]:
    """Every generated table: rule switches, actions, observations and states of every game."""
    three, two = col_morto.ColMortoRules(), col_morto.ColMortoRules(players=2)
    perdere = [a_perdere.APerdereRules(players=n) for n in range(3, 9)] + [
        a_perdere.APerdereRules(teams=True),
        a_perdere.APerdereRules(players=5, match_end="elimination", episode="match"),
    ]
    calabresella_forms = [
        calabresella.CalabresellaRules(),
        calabresella.CalabresellaRules(players=4),
        calabresella.CalabresellaRules(players=4, four_player="dealer_sits_out"),
    ]
    forms = [
        ("Tressette", Rules()),
        ("Tressette, `signals=False`", Rules(signals=False)),
        ("Tressette in due (stock)", in_due.InDueRules()),
        ("Tressette in due (packets)", in_due.InDueRules(deal="packets")),
        ("col morto, three players", three),
        ("col morto, two players", two),
        *((f"a perdere, {r.players} players", r) for r in perdere[:6]),
        ("a perdere, teams", perdere[6]),
        ("a perdere, 5 players, elimination", perdere[7]),
        ("Calabresella, three players", calabresella_forms[0]),
        ("Calabresella, four players", calabresella_forms[1]),
        ("Calabresella, four players, the dealer sits out", calabresella_forms[2]),
        ("Tressette a chiamare", a_chiamare.AChiamareRules()),
    ]
    sizes = ["| game | observation entries | with `history=True` |", "| --- | ---: | ---: |"]
    sizes += [f"| {name} | {observation_of(r).size} | {observation_of(r, history=True).size} |" for name, r in forms]
    return [
        "\n".join(sizes),
        observation_of(Rules(), history=True).history_table(),
        rules_table(),
        in_due.rules_table(),
        col_morto.rules_table(),
        action_table(),
        family_action_table(),
        layout_table(),
        table_of(STATE_LAYOUT),
        in_due_obs.OBSERVATION.table(),
        table_of(in_due_obs.STATE.layout),
        col_morto_obs.observation(three).table(),
        col_morto_obs.observation(two).table(),
        table_of(col_morto_obs.state_encoder(three).layout),
        table_of(col_morto_obs.state_encoder(two).layout),
        a_perdere.rules_table(),
        *(a_perdere_obs.observation(r).table() for r in perdere),
        *(table_of(a_perdere_obs.state_encoder(r).layout) for r in perdere),
        calabresella.rules_table(),
        *(calabresella_obs.observation(r).table() for r in calabresella_forms),
        *(table_of(calabresella_obs.state_encoder(r).layout) for r in calabresella_forms),
        a_chiamare.rules_table(),
        a_chiamare_obs.observation(a_chiamare.AChiamareRules()).table(),
        table_of(a_chiamare_obs.state_encoder(a_chiamare.AChiamareRules()).layout),
    ]


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
