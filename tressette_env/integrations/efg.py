"""A small game written out whole, as Gambit's extensive form (EFG), for OpenSpiel's exact C++ solvers.

OpenSpiel's Python CFR and NashConv walk a Python game's tree through Python states on every
iteration: on Tressette mini's two-player eight-card deck (``games.mini``), one CFR+ iteration
took 15 s of CPU and one NashConv 48 s. Walked once here and loaded with
``pyspiel.load_efg_game``, the same tree is a C++ game: ``pyspiel.CFRPlusSolver`` and
``pyspiel.nash_conv`` run on it in milliseconds to seconds (``benchmarks/nashconv.py``).

| function | what it gives |
| --- | --- |
| ``write(game)`` | an ``EFGTree``: the EFG text of any sequential, terminal-reward OpenSpiel game small enough to walk, and each decision node's information set |
| ``tree.load()`` | the tree as a C++ OpenSpiel game |
| ``tree.policy(choose)`` | a ``pyspiel.TabularPolicy`` of the C++ game from a function of one information set's representative state (``choose(state, player)`` gives ``{action: probability}``) |
| ``player_policy(spec)`` | such a function for a player of the package (``"heuristic"``, ``"random"``, a model file): what it plays from the seat's view (a learned policy's probabilities with ``probabilities=True``) |

An information set is the game's information state string (``state.information_state_string``),
numbered per player in the order met; its actions are the state's legal actions in increasing
order, named by ``action_to_string`` (the C++ game numbers the names in the order they first
appear, and a policy is carried over by name). Chance probabilities are written as fractions:
exactly for a uniform draw's 1/n, otherwise the nearest with a denominator up to 10^9.

Example:
    >>> import pyspiel
    >>> import tressette_env.games.mini  # registers tressette_mini
    >>> from tressette_env.integrations import openspiel
    >>> _ = openspiel.register_all()
    >>> tree = write(pyspiel.load_game("python_tressette_mini", {"ranks": 2}))
    >>> tree.infosets, round(pyspiel.nash_conv(tree.load(), tree.policy(uniform)), 6) >= 0
    (50, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pyspiel

__all__ = ["EFGTree", "player_policy", "uniform", "write"]

MAX_NODES = 500_000
"""A tree with more nodes than this is refused when the walk reaches it (``write(game, max_nodes=...)`` for more).

Each node costs its line of text and, in a game's full deal, nearly one information set with its
state's clone: about 0.75 ms of CPU and 5 KB on Tressette in due (20,000 nodes: 16 s, 156 MB
resident), 0.33 ms on the mini game (100,009 nodes: 33 s). At 5,000,000, the bound before, a
walk of a real game ran out of memory (some 24 GB) long before it was refused."""


@dataclass
class EFGTree:
    """A game written out whole (see ``write``)."""

    text: str
    nodes: int
    players: int
    keys: dict[tuple[int, str], int] = field(repr=False)
    """(player, information state string) -> the information set's number (from 1)."""
    states: dict[tuple[int, int], Any] = field(repr=False)
    """(player, number) -> one state of the information set (a clone), to ask a policy."""
    action_ids: dict[str, int] = field(repr=False)
    """A player action's name -> the C++ game's action id (numbered by first appearance, as its parser does)."""

    @property
    def infosets(self) -> int:
        """How many information sets the players have, together."""
        return len(self.keys)

    def load(self) -> pyspiel.Game:
        """The tree as a C++ OpenSpiel game (``pyspiel.load_efg_game``)."""
        return pyspiel.load_efg_game(self.text)

    def key(self, player: int, number: int) -> str:
        """The C++ game's information state string of ``player``'s information set ``number``."""
        return f"{player}-{player}-{number}-i{number}"

    def policy(self, choose: Callable[[Any, int], dict[int, float]]) -> pyspiel.TabularPolicy:
        """The C++ game's policy that plays, at each information set, what ``choose`` gives at its state.

        ``choose(state, player)`` returns ``{action: probability}`` over the state's legal actions
        (the package's action ids); they are carried to the C++ game's action indexes.
        """
        table = {}
        for (player, number), state in self.states.items():
            legal = sorted(state.legal_actions(player))
            chosen = choose(state, player)
            unknown = set(chosen) - set(legal)
            if unknown:
                raise ValueError(f"the policy chose {sorted(unknown)}, not legal here (legal: {legal})")
            table[self.key(player, number)] = [
                (self.action_ids[state.action_to_string(player, a)], float(chosen.get(a, 0.0))) for a in legal
            ]
        return pyspiel.TabularPolicy(table)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(game: pyspiel.Game, max_nodes: int = MAX_NODES) -> EFGTree:
    """Walk ``game``'s whole tree once and write it as EFG text (see the module docstring).

    Raises:
        ValueError: the game is not sequential with terminal rewards, or its tree has more than
            ``max_nodes`` nodes.
    """
    kind = game.get_type()
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL or (
        kind.reward_model != pyspiel.GameType.RewardModel.TERMINAL
    ):
        raise ValueError(f"{game} is not a sequential game with terminal rewards; EFG cannot hold it")
    players = game.num_players()
    keys: dict[tuple[int, str], int] = {}
    states: dict[tuple[int, int], Any] = {}
    numbers = [0] * players
    lines: list[str] = []
    counts = {"chance": 0, "terminal": 0, "nodes": 0}
    action_ids: dict[str, int] = {}

    def visit(state: Any, depth: int) -> None:
        counts["nodes"] += 1
        if counts["nodes"] > max_nodes:
            raise ValueError(f"{game}'s tree has more than {max_nodes} nodes: too large to write out")
        pad = "  " * depth
        if state.is_terminal():
            counts["terminal"] += 1
            payoffs = " ".join(repr(float(r)) for r in state.returns())
            lines.append(f'{pad}t "" {counts["terminal"]} "" {{ {payoffs} }}')
            return
        if state.is_chance_node():
            counts["chance"] += 1
            outcomes = state.chance_outcomes()
            parts = " ".join(f"{_quoted(str(a))} {Fraction(p).limit_denominator(10**9)}" for a, p in outcomes)
            lines.append(f'{pad}c "" {counts["chance"]} "" {{ {parts} }} 0')
            for action, _ in outcomes:
                visit(state.child(action), depth + 1)
            return
        player = state.current_player()
        info = state.information_state_string(player)
        number = keys.get((player, info))
        if number is None:
            numbers[player] += 1
            number = keys[(player, info)] = numbers[player]
            states[(player, number)] = state.clone()
        legal = sorted(state.legal_actions(player))
        named = [state.action_to_string(player, a) for a in legal]
        for name in named:
            action_ids.setdefault(name, len(action_ids))
        names = " ".join(map(_quoted, named))
        lines.append(f'{pad}p "" {player + 1} {number} "i{number}" {{ {names} }} 0')
        for action in legal:
            visit(state.child(action), depth + 1)

    visit(game.new_initial_state(), 0)
    names = " ".join(f'"Player {p + 1}"' for p in range(players))
    header = f"EFG 2 R {_quoted(str(game))} {{ {names} }}\n"
    return EFGTree(header + "\n".join(lines) + "\n", counts["nodes"], players, keys, states, action_ids)


def uniform(state: Any, player: int) -> dict[int, float]:
    """Every legal action alike."""
    legal = state.legal_actions(player)
    return {a: 1.0 / len(legal) for a in legal}


def player_policy(spec: str, seed: int = 0, probabilities: bool = False) -> Callable[[Any, int], dict[int, float]]:
    """What the package's player ``spec`` plays at a state of a Python game of ``integrations.openspiel``.

    The player sees only the seat's view (``engine.game.view``), as in ``tressette eval``; a player
    that draws at random (sampling players) draws with a generator seeded by ``seed`` and the
    information set, so the policy is one fixed choice per information set. ``probabilities=True``
    asks a learned policy (a model file, ``ppo``) for its probabilities instead of its most likely
    action; ``"random"`` is the uniform policy.
    """
    from ..agents.registry import make_player
    from ..engine.game import legal_actions, view

    if spec == "random":
        return uniform
    made = make_player(spec)
    if probabilities and not hasattr(made, "probabilities"):
        raise ValueError(f"the player {spec!r} gives no probabilities (learned policies do): leave probabilities False")

    def choose(state: Any, player: int) -> dict[int, float]:
        gs = state.game_state
        seen = view(gs, gs.public.turn)
        legal = sorted(legal_actions(gs))
        if probabilities:
            return {int(a): float(p) for a, p in zip(legal, made.probabilities(seen, legal), strict=True)}
        rng = random.Random(f"{seed}:{state.information_state_string(player)}")
        return {int(made.act(seen, legal, rng)): 1.0}

    return choose
