"""The rules engine needs only the standard library: no numpy, gymnasium or pettingzoo."""

import subprocess
import sys

CODE = """
import sys
for name in ("numpy", "gymnasium", "pettingzoo", "torch"):
    sys.modules[name] = None  # any import of these now fails
import random
from tressette_env.engine import Rules, apply, legal_actions, new_game, PLAYING, render_state
state = new_game(Rules(episode="match"), seed=0)
while state.public.status == PLAYING:
    state = apply(state, random.Random(0).choice(legal_actions(state)))
print(render_state(state).splitlines()[0])
"""


def test_engine_imports_without_rl_libraries():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("hand 1")
