"""A toy game of the family, defined in the test tree and registered through the catalog alone.

Due a cinque: two players, five cards each from the shuffled deck (the other thirty out of
play, unseen), five tricks of the family's card play (follow suit, the 3 the highest card of a
suit, no signals, no declarations), the last trick 3 thirds more. A hand's points are each
side's thirds rounded down; the reward the difference. Nothing in ``tressette_env`` names it:
``tests/games/test_toy_game.py`` checks that it plays in PettingZoo's api_test, the parallel
API, the Gymnasium one-learner environment and the duplicate evaluation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from tressette_env import catalog
from tressette_env.encoders.global_state import StateEncoder
from tressette_env.encoders.observation import Observation
from tressette_env.engine.actions import FAMILY_NUM_ACTIONS
from tressette_env.engine.game import check_cards, check_seat, shuffled
from tressette_env.engine.scoring import NO_DECLARATIONS
from tressette_env.engine.state import PLAYING, GameState, PublicState, Table
from tressette_env.engine.switches import RuleSwitches, switch, when
from tressette_env.engine.variant import Game

TRICKS = 5


@dataclass(frozen=True)
class ToyRules(RuleSwitches):
    """Due a cinque's rule switches."""

    game: ClassVar[Any] = None

    target_score: int = switch(5, ("int", 1), "match target", needs=when(episode="match"))
    episode: str = switch("hand", ("hand", "match"), "one deal per episode, or a match to `target_score`")
    illegal_action: str = switch(
        "renuncio", ("renuncio", "raise"), "an illegal action loses the hand 11-0, or raises ValueError"
    )


class DueACinque(Game):
    """Two players, five tricks (see the module docstring)."""

    name = "due_a_cinque"
    rules_type = ToyRules
    num_actions = FAMILY_NUM_ACTIONS

    def agents(self, rules: ToyRules) -> int:
        return 2

    def checked_deal(self, rules: ToyRules, options: dict, first: bool) -> dict:
        out = {}
        if "hands" in options:
            out["hands"] = tuple(check_cards(options["hands"], (TRICKS, TRICKS)))
        if "dealer" in options:
            out["dealer"] = check_seat(options["dealer"], "dealer", 2)
        return out

    def new_game(self, rules: ToyRules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer")
        if dealer is None:
            dealer = rng.randrange(2)
        return self._deal(rules, dealer, options.get("hands"), rng, (0, 0), 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        return self._deal(p.rules, 1 - p.dealer, options.get("hands"), rng, p.match_score, p.hand_number + 1)

    def _deal(self, rules: ToyRules, dealer: int, hands: Any, rng: random.Random, score: tuple, number: int):
        if hands is None:
            hands = tuple(shuffled(rng, (TRICKS, TRICKS)))
        first = 1 - dealer
        table = Table(seats=2, tricks=TRICKS, sides=(0, 1), controllers=(0, 1), seat_of=(0, 1))
        public = PublicState(
            rules=rules, status=PLAYING, dealer=dealer, first_leader=first, accusi=NO_DECLARATIONS,
            match_score=score, hand_number=number, result=None, winner=None, table=table, leader=first,
            tricks_done=0, thirds=(0, 0), turn=first, trick=(), played=0, signals=0, voids=0, history=(),
        )  # fmt: skip
        return GameState(public, tuple(hands), tuple(hands))

    def returns(self, p: PublicState) -> tuple[float, ...]:
        if p.rules.episode == "match":
            return tuple(1.0 if player == p.winner else -1.0 for player in range(2))
        a, b = p.result.points
        return (float(a - b), float(b - a))


TOY = DueACinque()
ToyRules.game = TOY


def observation(rules: ToyRules) -> Observation:
    """The observation of a seat: the family's pieces for two seats and five tricks."""
    return Observation(2, 2, TRICKS, 2, signals=False, accusi=False)


def state_encoder(rules: ToyRules) -> StateEncoder:
    """``env.state()``'s vector."""
    return StateEncoder(2, 2, TRICKS, 2, signals=False, accusi=False)


ENTRY = catalog.register(
    catalog.Entry(
        name="due_a_cinque",
        title="Due a cinque",
        summary="two players, five tricks (a test game)",
        rules="tests.games.toy:ToyRules",
        encoders="tests.games.toy",
        gym_id="tressette_env_tests/DueACinque-v0",
        pettingzoo_id="tressette_env_tests/due_a_cinque-v0",
    )
)
"""The toy's catalog entry: no heuristic (the generic one plays), no module of its own (``envs.generic``)."""
