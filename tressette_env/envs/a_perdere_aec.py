# noqa: D212, D415
"""
# Tressette a perdere

Tressette a perdere, also Traversone or Ciapanò (FAMILY.md section 3): three to eight
players, each for himself, the same cards and tricks as Tressette but every point taken is
a charge and the fewest points win; no declarations, no signals; a player who leaves every
other with no point makes cappotto and turns the hand around. The rules and the decisions
taken where the sources leave a point open are in docs/games/a_perdere.md.

| Import             | `from tressette_env import tressette_a_perdere_v0`   |
|--------------------|------------------------------------------------------|
| Actions            | Discrete                                             |
| Parallel API       | Yes: `parallel_env()`                                |
| Manual Control     | No                                                   |
| Agents             | `agents= ['player_0', ..., 'player_{n-1}']` (`players=n`, 3 to 8, default 4) |
| Action Shape       | Discrete(255)                                        |
| Action Values      | [0, 254]                                             |
| Observation Shape  | (783,) with four players (it depends on `players`, `teams`, `asso_bastoni_value` and an elimination match) |
| Observation Values | [0, 1] (int8)                                        |

### Observation Space

A dict: `"observation"` (int8 0s and 1s) and `"action_mask"`. Seats are relative (0 you,
then the players in play order); every player is a side of his own. With four players:

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (4, 40) | 40:200 | the cards on the table in the current trick, by relative seat |
| `leader` | (4,) | 200:204 | one-hot: the relative seat that leads the current trick |
| `played` | (4, 40) | 204:364 | every card each relative seat has played this hand (the current trick included) |
| `voids` | (4, 4) | 364:380 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `trick_number` | (10,) | 380:390 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `thirds` | (4, 35) | 390:530 | thirds of a point taken this hand (yours first) as thermometers |
| `to_target` | (4, 41) | 530:694 | match points each player still needs to reach `target_score` (yours first) as thermometers capped at 41; all 0 in `episode="hand"` |
| `removed` | (40,) | 694:734 | the cards removed from the deck this hand (announced) |
| `set_aside` | (5,) | 734:739 | cards face down for the last trick's winner (monte or discards), as a thermometer |
| `face_down_known` | (40,) | 739:779 | the face-down cards you know: your own discards as the dealer |
| `out` | (4,) | 779:783 | the players out of the match, by player relative to you |

`tressette_env.encoders.a_perdere.observation(rules).table()` gives the table of any rule set.

#### Legal Actions Mask

255 entries, 1 for each legal action of the agent to act, zeros for the others. The cards
are ids `0..39` (play a card, following suit when able); with `reduce="dealer_discard"` the
dealer first discards `GIVE + card` (`201..240`) as many times as there are cards left over;
with `teams=True` the leader may signal (`40..159`).

### Rewards

`episode="hand"`: when the hand ends each player receives minus his charge (his points with
`objective="take"`; with `teams=True` his team's); the charges add up to the hand's total
(11, or 10 + the asso di bastoni's value) except on a cappotto. `episode="match"`: the
standing, `1 - 2 * rank / (players - 1)` (the winner +1, the last -1; ties share). The infos
when a hand ends hold `"hand"`, `"hand_score"` (the charges by side), `"charges"` (by player),
`"card_thirds"`, `"removed"` (the removed card ids), `"match_score"` in a match and `"out"`
in an elimination match.

| result | `hand_score` / `charges` | reward (`avoid`) |
| --- | --- | --- |
| a hand, thirds 10, 7, 2, 16, the last trick to player 3 | 3, 2, 0, 6 | -3, -2, 0, -6 |
| cappotto by player 3 (thirds 0, 2, 1, 32) | 11, 11, 11, 0 | -11, -11, -11, 0 |
| a renuncio by player 1 | 0, 11, 0, 0 | 0, -11, 0, 0 |

### Arguments

`tressette_a_perdere_v0.env(render_mode=None, history=False, **rules)`; `reset(seed=None,
options={"hands": [one list per player, by seat], "monte": [card ids], "dealer": seat})`: the
cards not in the hands (nor the monte) are the removed ones, announced.

`history=True` gives the history observation: the vector above, then each card's trick
and place, each trick's leader and winner and each lead's signal (`tressette_env.encoders.history`,
docs/observation.md#the-history-observation).

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `4` | int 3..8 | players |
| `reduce` | `"remove"` | `"remove"`, `"dealer_discard"`, `"monte"` | the cards that do not divide evenly: removed and announced, or dealt to the dealer who discards as many face down, or left face down as a monte (discards and monte go to the last trick's winner) (only with cards left over: `players=3`, `6` or `7`, or a match with `match_end="elimination"`) |
| `last_trick` | `"remainder"` | `"remainder"`, `"plus_one"` | the last trick's winner is charged the hand's total minus the others' charges, or each is rounded down separately |
| `cappotto` | `"others_charged"` | `"others_charged"`, `"wins_match"`, `"none"` | a player who leaves every other with 0 points: charged 0 and the others the hand's total; or he also wins the match at once; or no special rule (`"none"` only with `objective="avoid"`) |
| `asso_bastoni_value` | `1` | `1`, `11`, `18` | points of the asso di bastoni (11: "Girellone"); the hand's total is 10 + this |
| `zero_point_charge` | `None` | int 0..10000 or None | (seed 000's ambiguous rule, literal reading) a player with 0 points is charged this many (only with `objective="avoid"`) |
| `match_end` | `"target"` | `"target"`, `"elimination"`, `"hands"` | a match ends when someone reaches the target (the lowest total wins), or players reaching it drop out (the last one left wins), or after `hands` hands (only with `episode="match"`) |
| `target_score` | `21` | int 1..10000 | the match target (only with `episode="match"` and `match_end="target"` or `"elimination"`) |
| `hands` | `5` | int 1..10000 | hands of a match (only with `episode="match"` and `match_end="hands"`) |
| `teams` | `False` | bool | 2 v 2 a perdere (four players; partners opposite, signals allowed; the first team to the target loses) |
| `objective` | `"avoid"` | `"avoid"`, `"take"` | avoid points (this game), or take them (a cutthroat tressette) |
| `first_lead` | `"dealer_right"` | `"dealer_right"`, `"four_of_denari"` | the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action charges the offender the hand's total (the others 0), or raises ValueError |

### Version History

* v0: Initial release (0.2.0)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import FamilyEnv, wrap
from .parallel import parallel_factory
from .spec import game_spec

SPEC = game_spec("tressette_a_perdere")


def env(render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The a perdere AEC environment wrapped as PettingZoo's classic environments are."""
    return wrap(raw_env(render_mode=render_mode, **rules))


class raw_env(FamilyEnv):
    """The a perdere AEC environment without PettingZoo's wrappers (see the module docstring)."""

    spec_of_game = SPEC
    metadata = {
        "name": "tressette_a_perdere_v0",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }


parallel_env = parallel_factory(raw_env)
