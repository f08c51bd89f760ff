"""The review after a hand: each card against the best one, or what the heuristic would have played.

Signature: ``review_hand(steps: Sequence[tuple[GameState, int]], final: GameState | None =
None, persons: Iterable[int] | None = None) -> dict``. It reads a finished hand: ``steps``
are the hand's decisions in order, each the ``GameState`` before it and the action taken
there; ``final`` is the state the hand ended in (it may be left out when the last step's
action ended the hand; it is needed when ``steps`` is empty or the hand ended without an
action, a renuncio); ``persons`` the agents that people played (None: every agent). It
returns a dict for the web table's ``end`` message, plain JSON data::

    {"kind": "double_dummy" | "heuristic" | "none", "reason": str, "plays": [play, ...]}

Example (each seat holds a whole suit: seat 0 leads and takes every trick, whatever is played):
    >>> from tressette_env.engine import apply, legal_actions, new_game, parse_cards, cards_of
    >>> deal = [cards_of(parse_cards(f"A{s} 2{s} 3{s} 4{s} 5{s} 6{s} 7{s} F{s} C{s} R{s}")) for s in "dcsb"]
    >>> state = new_game(hands=deal, dealer=3)
    >>> steps = []
    >>> while state.public.status == 0:
    ...     action = legal_actions(state)[0]
    ...     steps.append((state, action))
    ...     state = apply(state, action)
    >>> review = review_hand(steps, state)  # every agent's decisions
    >>> review["kind"], len(review["plays"])
    ('double_dummy', 40)
    >>> last_lead = review["plays"][-4]  # the last trick: four re and the last trick's 3
    >>> last_lead["name"], last_lead["value"], last_lead["best"], last_lead["loss"], last_lead["marked"]
    ('Rd', 7, 7, 0, False)

| kind | games | what a play holds |
| --- | --- | --- |
| ``"double_dummy"`` | the two-sided games: the four-seat game, Tressette col morto, Tressette in due (``objective="take"``), a hand played to its last card | every card played (every seat's, bots too): its value and the best card's, the loss |
| ``"heuristic"`` | Calabresella, Tressette a chiamare, Tressette a perdere, in due with ``objective="avoid"`` or a hand whose packets lasted to its end, any other game | each decision of the ``persons``: the card or action the heuristic would have chosen there |
| ``"none"`` | a two-sided game's hand cut short (a renuncio, a call out, cards never played) | nothing (``plays`` is empty): the reason says why |

A play is ``{"seat", "agent", "action", "name", "value", "best", "best_name", "best_action",
"loss", "marked", "by"}`` (``agent``, ``best_action`` and ``by`` beyond the web contract's fields):

| field | double-dummy play | heuristic play |
| --- | --- | --- |
| ``seat``, ``agent`` | the seat that played (a dummy's seat too) and the agent that chose (the dummy's player) | the same |
| ``action``, ``name`` | the action id played and its name (``Game.action_label``: ``3d busso``) | the same |
| ``value`` | the thirds the seat's side takes from this card on (the card's own trick included, the last trick's 3 too) when every hand is open and both sides play perfectly after it | null |
| ``best`` | the same for the best legal card: the most the side could take from here | null |
| ``best_name`` | a best card's name: the card played when it was one of the best, otherwise the cheapest of the best (fewest points, then lowest power) | the heuristic's choice (``make_player("heuristic")``) from the seat's own ``view(state, seat)`` with the same legal actions |
| ``best_action`` | that best card's id | the heuristic's action id |
| ``loss`` | ``best - value``, in thirds (3 thirds = 1 point; so ``loss / 3`` points), 0 when the card was one of the best | null |
| ``marked`` | true for the three largest losses above 0 of the hand (ties: the earlier play) | false |
| ``by`` | ``"double_dummy"`` | ``"heuristic"`` |

How it is valued:

- Double-dummy: the values are the exact solutions of the position with every hand open
  (``agents.solver`` for four seats, compiled by numba where it is installed;
  ``agents.open_solver`` for Tressette in due's two seats). A card's value is the position
  after it, the best is the position before it: one solution per position, the cards of the
  best only solved one by one where the card played lost something. Only the card counts: a
  signal (busso, striscio, volo) changes nothing with every hand open. The values count the
  thirds of the cards, not the declarations nor a cappotto bonus (both grow with the thirds:
  the best card for the thirds is the best for the score). Only a hand whose forty cards were
  all played is valued so: then every card in every hand at every decision has been seen by
  everyone, and the review shows nothing that was hidden.
- Tressette in due: the draws from the stock (or the cards under the packets) were unknown
  when the first ten tricks (the stock form) were played, so no card of them has an honest
  double-dummy value: a value read off the cards drawn later would judge a play by luck that
  nobody could see. Those decisions get the heuristic's choice (the persons' only, ``by``
  ``"heuristic"``, ``loss`` null); the tricks played once the stock (or the packets) is gone,
  every card known, are valued double-dummy. With ``objective="avoid"`` the two-seat solver,
  which takes points, does not apply: the whole hand is reviewed by the heuristic.
- Heuristic: the player sees only the seat's ``SeatView`` (never a hidden card): its choice is
  what it would have played in the same situation. A heuristic play of a seat can name a card
  that seat holds or laid face down (a discard): show such a play to its agent alone
  (``for_agent``).

Cost: one exact solution per card played, and the legal cards of a position solved one by one
where the card played lost something. A whole four-seat hand, compiled (``solver_core.COMPILED``),
one core of the 2-core build machine, over the hands of 100 deals (``new_game(seed=s)``,
s < 100) played by the heuristic (``python -m tressette_env.web.review 100``): median 0.19 s,
90th percentile 0.71 s, max 2.2 s; the first solution of a process loads numba's cache (0.5 s
once). Tressette in due's last ten tricks, 100 deals: median 0.013 s, max 0.2 s. Plain Python
(no numba) is about fifty times slower on four seats: there only the last ``PLAIN_TRICKS`` (6)
tricks are valued, the decisions before get the heuristic's choice (the reason says so). Run
it off the event loop all the same.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.actions import CALL_OUT
from ..engine.cards import NUM_CARDS, STRENGTH, THIRDS
from ..engine.game import apply, legal_actions, view
from ..engine.state import PLAY, PLAYING, GameState

__all__ = ["KINDS", "MARKED", "MAX_STEPS", "PLAIN_TRICKS", "ReviewError", "for_agent", "review_hand"]

KINDS = ("double_dummy", "heuristic", "none")
"""The kinds of review (the module docstring's table)."""
MARKED = 3
"""How many plays are marked: the largest losses above 0."""
PLAIN_TRICKS = 6
"""Without numba (``solver_core.COMPILED`` false) the four-seat cards are valued in the last six tricks
only (about 0.03 s a position in plain Python), the earlier decisions by the heuristic's choice."""
MAX_STEPS = 1000
"""The most decisions a hand's ``steps`` may hold (a hand of the family takes at most a few hundred)."""
_ALL = (1 << NUM_CARDS) - 1


class ReviewError(ValueError):
    """Steps that are not one hand's decisions in order (the message says which step and why)."""


# ------------------------------------------------------------------------------------------------ checks


def _checked(
    steps: Sequence[tuple[GameState, int]], final: GameState | None
) -> tuple[list[tuple[GameState, int]], GameState]:
    """The steps as a list and the final state, after checking that they are one hand's decisions in order."""
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence):
        raise ReviewError(f"steps must be a list of (GameState, action) pairs; got {type(steps).__name__}")
    if len(steps) > MAX_STEPS:
        raise ReviewError(f"a hand has at most {MAX_STEPS} decisions; got {len(steps)} steps")
    out: list[tuple[GameState, int]] = []
    after: GameState | None = None
    for i, step in enumerate(steps):
        if not isinstance(step, tuple) or len(step) != 2 or not isinstance(step[0], GameState):
            raise ReviewError(f"step {i} is not a (GameState, action) pair")
        state, action = step
        if isinstance(action, bool) or not isinstance(action, int):
            raise ReviewError(f"step {i}: the action must be an int id; got {action!r}")
        if state.public.status != PLAYING:
            raise ReviewError(f"step {i}: nobody is to act in its state (the hand is over)")
        if after is not None and state != after:
            raise ReviewError(f"step {i}: its state is not the one step {i - 1}'s action led to")
        if action not in legal_actions(state):
            raise ReviewError(f"step {i}: action {action} is not legal in its state")
        out.append((state, action))
        after = apply(state, action)
    if final is None:
        if after is None:
            raise ReviewError("no steps and no final state: give the state the hand ended in")
        final = after
    elif not isinstance(final, GameState):
        raise ReviewError(f"final must be the GameState the hand ended in; got {type(final).__name__}")
    if final.public.status == PLAYING:
        raise ReviewError("final: the hand is not over (status PLAYING)")
    if after is not None and final != after:
        # A renuncio closes the hand from the state the last action led to, without an action of its own.
        same = final.hands == after.hands and final.public.history == after.public.history
        if final.public.result is None or final.public.result.renuncio is None or not same:
            raise ReviewError("final is not the state the last step's action led to (nor its renuncio)")
    return out, final


def _persons(persons: Iterable[int] | None, agents: int) -> frozenset[int]:
    if persons is None:
        return frozenset(range(agents))
    if isinstance(persons, (str, bytes)):
        raise ReviewError(f"persons must be agent numbers 0..{agents - 1}; got {persons!r}")
    out = set()
    for a in persons:
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < agents:
            raise ReviewError(f"persons must be agent numbers 0..{agents - 1}; got {a!r}")
        out.add(a)
    return frozenset(out)


# ------------------------------------------------------------------------------------------------ solvers


class _Solver:
    """The exact value of positions of one hand with every hand open: each side's thirds at the end."""

    def __init__(self, sides: tuple[int, ...]) -> None:
        self.sides = sides
        self.four = sides == (0, 1, 0, 1)

    def thirds(self, state: GameState) -> tuple[int, int]:
        """Each side's thirds at the end of the hand under best play from ``state`` (its own when it is over)."""
        p = state.public
        if p.status != PLAYING:
            return p.thirds[0], p.thirds[1]
        if self.four:
            from ..agents.solver import solve

            return solve(state.hands, p.leader, p.trick, p.thirds).thirds
        from ..agents.open_solver import solve_open

        return solve_open(state.hands, p.leader, p.trick, p.thirds, sides=self.sides)

    def moves(self, state: GameState) -> dict[int, int]:
        """``{card: thirds}``: the side on turn's thirds at the end after each legal card, best play after."""
        p = state.public
        if self.four:
            from ..agents.solver import solve_moves

            return solve_moves(state.hands, p.leader, p.trick, p.thirds)
        from ..agents.open_solver import open_moves

        return open_moves(state.hands, p.leader, p.trick, p.thirds, sides=self.sides)


def _compiled() -> bool:
    """Whether the four-seat solver runs compiled by numba (``solver_core.COMPILED``)."""
    from ..agents.solver_core import COMPILED

    return COMPILED


def _valued(state: GameState, action: int, limit: int) -> bool:
    """Whether the decision is a card play with every card in the hands known for good (double-dummy).

    ``limit``: the most tricks left (this one included) at which a four-seat position is solved.
    """
    p = state.public
    if action >= CALL_OUT:
        return False
    mode = p.rules.game.search_mode
    if mode == "tricks":
        return p.table.tricks - p.tricks_done <= limit
    return mode == "endgame" and p.table.phase == PLAY


def _title(rules: Any) -> str:
    """The game's name in prose (the catalog's title), or its name where the catalog has none."""
    from ..catalog import entry_of

    try:
        return entry_of(rules).title
    except (KeyError, ValueError, TypeError):
        return rules.game.name


def _two_sided_refusal(final: GameState) -> str | None:
    """Why the game of ``final`` gets no double-dummy review at all (None: it gets one, the hand permitting)."""
    p = final.public
    game = p.rules.game
    if game.search_mode not in ("tricks", "endgame"):
        return f"{_title(p.rules)} is not a game of two fixed sides that the double-dummy solver values"
    if game.search_mode == "endgame" and getattr(p.rules, "objective", "take") != "take":
        return f'{_title(p.rules)} with objective="avoid": the two-seat solver plays to take points'
    if p.table.sides_count != 2:
        return f"{_title(p.rules)}: this table has {p.table.sides_count} sides"
    return None


def _cut_short(final: GameState) -> str | None:
    """Why a two-sided hand's cards were not all played (None: they were)."""
    p = final.public
    r = p.result
    if r is not None and r.renuncio is not None:
        return f"the hand ended with a renuncio by seat {r.renuncio}: its cards were never all shown"
    if r is not None and r.called_out is not None:
        return f"seat {r.called_out} called out (chiamarsi fuori): the hand stopped with cards unplayed"
    if p.all_played != _ALL:
        return "the hand ended with cards never played: the cards then in the hands were not all shown"
    return None


# ------------------------------------------------------------------------------------------------ the review


def _cheapest(cards: Iterable[int]) -> int:
    return min(cards, key=lambda c: (THIRDS[c], STRENGTH[c], c))


def _play(state: GameState, action: int, by: str) -> dict[str, Any]:
    p = state.public
    return {
        "seat": p.turn,
        "agent": p.table.controllers[p.turn],
        "action": action,
        "name": p.rules.game.action_label(p, action),
        "value": None,
        "best": None,
        "best_name": None,
        "best_action": None,
        "loss": None,
        "marked": False,
        "by": by,
    }


def _suggest(player: Any, state: GameState) -> tuple[int, str]:
    """The heuristic's action from the seat on turn's own view, with the same legal actions, and its name."""
    p = state.public
    choice = player.act(view(state, p.turn), legal_actions(state), random.Random(0))
    return choice, p.rules.game.action_label(p, choice)


def review_hand(
    steps: Sequence[tuple[GameState, int]],
    final: GameState | None = None,
    persons: Iterable[int] | None = None,
) -> dict[str, Any]:
    """The review of a finished hand (see the module docstring for the result and how it is valued).

    Args:
        steps: the hand's decisions in order: ``(state, action)``, the state before the action
            and the action taken there (each state the one the previous action led to).
        final: the state the hand ended in (default: the last step's action's result).
        persons: the agents people played, whose decisions a heuristic review covers (None: all).

    Raises:
        ReviewError: steps that are not one hand's legal decisions in order, a final state that
            does not follow them, persons that are not agents; nothing is computed then.
    """
    checked, final = _checked(steps, final)
    p_end = final.public
    game = p_end.rules.game
    who = _persons(persons, game.agents(p_end.rules))
    refusal = _two_sided_refusal(final)
    if refusal is None:
        short = _cut_short(final)
        if short is not None:
            return {"kind": "none", "reason": f"no double-dummy review: {short}", "plays": []}
        plays = _double_dummy(checked, final, who)
        reason = (
            "each card valued double-dummy: the thirds its side takes from it on with every hand open and "
            "best play after, against the best card's (3 thirds = 1 point)"
        )
        if game.search_mode == "endgame":
            if not any(play["by"] == "double_dummy" for play in plays):
                reason = "no card of this hand was played with every card known (the stock or the packets lasted)"
                return {
                    "kind": "heuristic",
                    "reason": f"{reason}: what the heuristic would have played",
                    "plays": plays,
                }
            reason += (
                ", once the stock (or the packets) is gone and every card known; before, the cards still to come "
                "were unknown: those decisions show what the heuristic would have played"
            )
        elif p_end.table.sides == (0, 1, 0, 1) and not _compiled():
            reason += (
                f", in the last {PLAIN_TRICKS} tricks (the solver runs without numba here: earlier tricks would "
                "take too long); the decisions before show what the heuristic would have played"
            )
        return {"kind": "double_dummy", "reason": reason, "plays": plays}
    from ..agents.registry import make_player

    player = make_player("heuristic")
    plays = []
    for state, action in checked:
        p = state.public
        if p.table.controllers[p.turn] in who:
            play = _play(state, action, "heuristic")
            play["best_action"], play["best_name"] = _suggest(player, state)
            plays.append(play)
    return {"kind": "heuristic", "reason": f"{refusal}: what the heuristic would have played", "plays": plays}


def _double_dummy(checked: list[tuple[GameState, int]], final: GameState, who: frozenset[int]) -> list[dict]:
    """The plays of a two-sided hand played to the end (``review_hand``)."""
    from ..agents.registry import make_player

    solver = _Solver(final.public.table.sides)
    limit = final.public.table.tricks if not solver.four or _compiled() else PLAIN_TRICKS
    player = None
    plays: list[dict[str, Any]] = []
    known: dict[int, tuple[int, int]] = {}  # step index -> the thirds of its state (the next step reuses it)
    for i, (state, action) in enumerate(checked):
        p = state.public
        if not _valued(state, action, limit):
            if p.table.controllers[p.turn] in who:
                player = player or make_player("heuristic")
                play = _play(state, action, "heuristic")
                play["best_action"], play["best_name"] = _suggest(player, state)
                plays.append(play)
            continue
        after = checked[i + 1][0] if i + 1 < len(checked) else final
        before_thirds = known.pop(i, None) or solver.thirds(state)
        after_thirds = known[i + 1] = solver.thirds(after)
        side = p.table.sides[p.turn]
        taken = p.thirds[side]
        card = action % 40
        value, best = after_thirds[side] - taken, before_thirds[side] - taken
        if value > best:  # cannot happen with an exact solver: a card is never worth more than the best
            raise AssertionError(f"step {i}: card {card} valued {value} above the best {best}")
        play = _play(state, action, "double_dummy")
        play.update(value=value, best=best, loss=best - value)
        if value == best:
            play["best_action"], play["best_name"] = card, p.rules.game.action_label(p, card)
        else:
            values = solver.moves(state)
            top = max(values.values())
            chosen = _cheapest(c for c, v in values.items() if v == top)
            play["best_action"], play["best_name"] = chosen, p.rules.game.action_label(p, chosen)
        plays.append(play)
    ranked = sorted((k for k, play in enumerate(plays) if play["loss"]), key=lambda k: (-plays[k]["loss"], k))
    for k in ranked[:MARKED]:
        plays[k]["marked"] = True
    return plays


def for_agent(review: dict[str, Any], agent: int) -> dict[str, Any]:
    """The review as ``agent`` may see it: the double-dummy plays (every card was shown), its own heuristic ones.

    A heuristic play names what the heuristic would have done from that agent's own view (a
    card it held, a discard face down): another agent must not read it.
    """
    plays = [play for play in review["plays"] if play["by"] == "double_dummy" or play["agent"] == agent]
    return {**review, "plays": plays}


def _bench(deals: int) -> None:
    """Time the review of ``deals`` four-seat hands played by the heuristic (the figures in the module docstring)."""
    from ..agents.registry import make_player
    from ..agents.solver_core import COMPILED
    from ..engine.game import new_game

    player = make_player("heuristic")
    rng = random.Random(0)
    _Solver((0, 1, 0, 1)).thirds(new_game(seed=1000))  # numba compiles (or loads its cache) once a process
    times = []
    for seed in range(deals):
        state = new_game(seed=seed)
        steps = []
        while state.public.status == PLAYING:
            action = player.act(view(state, state.public.turn), legal_actions(state), rng)
            steps.append((state, action))
            state = apply(state, action)
        start = time.perf_counter()
        review_hand(steps, state)
        times.append(time.perf_counter() - start)
    times.sort()
    print(
        f"compiled={COMPILED} hands={deals} median={times[len(times) // 2]:.3f}s "
        f"p90={times[int(len(times) * 0.9)]:.3f}s max={times[-1]:.3f}s"
    )


if __name__ == "__main__":  # pragma: no cover - a measurement, not a test
    import sys

    _bench(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
