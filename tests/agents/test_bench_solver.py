"""benchmarks/bench_solver.py: the search subcommand with another solver core swapped in."""

import json
import sys
import types

from tests.helpers import load_script
from tressette_env.agents import solver, solver_core


def test_search_with_another_core_uses_it_and_puts_the_shipped_one_back(tmp_path, monkeypatch, capsys):
    bench = load_script("benchmarks/bench_solver.py")
    calls = []
    counting = types.ModuleType("counting_core")
    counting.__dict__.update(vars(solver_core))

    def value(*args):
        calls.append(1)
        return solver_core.value(*args)

    counting.value = value
    monkeypatch.setitem(sys.modules, "counting_core", counting)
    out = tmp_path / "timing.json"
    bench.main_search(["--deals", "1", "--opponent", "random", "--core", "counting_core", "--json", str(out)])
    assert calls  # the search solved with the core it was given
    assert solver.core is solver_core  # and the shipped core is back
    result = json.loads(out.read_text())
    assert result["core"] == "counting_core"
    assert result["decision_s"]["decisions"] > 0
    assert "| search | random | 1 |" in capsys.readouterr().out
