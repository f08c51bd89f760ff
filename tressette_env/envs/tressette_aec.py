# noqa: D212, D415
"""
# Tressette

Tressette, the Italian partnership trick-taking game, for four seats: partners
sit opposite (team 0 = `player_0` + `player_2`), the 3 is the highest card of a
suit, there are no trumps, and the leader of a trick may signal to its partner
(busso, striscio, volo). The rules are in RULES.md; every rule switch is a
keyword argument.

| Import             | `from tressette_env import tressette_v0`       |
|--------------------|------------------------------------------------|
| Actions            | Discrete                                       |
| Parallel API       | Yes: `parallel_env()`                          |
| Manual Control     | No                                             |
| Agents             | `agents= ['player_0', 'player_1', 'player_2', 'player_3']` |
| Agents             | 4                                              |
| Action Shape       | Discrete(161)                                  |
| Action Values      | [0, 160]                                       |
| Observation Shape  | (790,)                                         |
| Observation Values | [0, 1] (int8)                                  |
| State Shape        | (1040,)                                        |

### Observation Space

A dict: `"observation"`, an int8 vector of 0s and 1s holding what the agent can know (its hand
and a summary of everything public this hand, without its order; numbers are thermometers), and `"action_mask"`. Seats are
relative to the observer (0 you, 1 the next seat, 2 your partner, 3 the seat
before you); pieces by team list your team first. `tressette_env.encoders.unflatten`
splits a vector into named pieces.

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (4, 40) | 40:200 | the cards on the table in the current trick, by relative seat |
| `leader` | (4,) | 200:204 | one-hot: the relative seat that leads the current trick |
| `played` | (4, 40) | 204:364 | every card each relative seat has played this hand (the current trick included) |
| `signals` | (4, 4, 3) | 364:412 | relative seat x suit x (busso, striscio, volo): signals given this hand |
| `voids` | (4, 4) | 412:428 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `accusi` | (4, 40) | 428:588 | the cards each relative seat's declarations revealed |
| `trick_number` | (10,) | 588:598 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `declared_points` | (2, 20) | 598:638 | declaration points (your team, the other) as thermometers: entry k is 1 when more than k |
| `thirds` | (2, 35) | 638:708 | thirds of a point taken this hand (your team, the other) as thermometers |
| `to_target` | (2, 41) | 708:790 | match points each team still needs to reach `target_score` (yours, the other) as thermometers capped at 41; all 0 in `episode="hand"` |

#### Legal Actions Mask

`"action_mask"` is an int8 vector of 161 entries, 1 for each legal action of the
agent to act: follow the led suit when you can, signal only on the lead and only
truthfully. It is all zeros for every other agent.

### Action Space

| action id | meaning |
| --- | --- |
| `0..39` | play card `id` with no signal |
| `40..79` | play card `id - 40` and signal **busso** (lead only; the leader keeps another card of the suit) |
| `80..119` | play card `id - 80` and signal **striscio** (lead only; the leader keeps another card of the suit, with `striscio="no_honours"` none of them a 3, 2 or asso) |
| `120..159` | play card `id - 120` and signal **volo** (lead only; it is the leader's last card of the suit) |
| `160` | **chiamarsi fuori**: claim the match (only with `calling_out=True`, only on lead) |

Card id = suit * 10 + value - 1 (suits denari, coppe, spade, bastoni; values
1 asso .. 7, 8 fante, 9 cavallo, 10 re).

An illegal action follows `illegal_action`: `"renuncio"` (default) is the rule's
penalty, the offending team loses the hand and the opponents score 11, with a
`RenuncioWarning` naming the agent, the action and the legal actions;
`"raise"` raises `IllegalActionError` (a ValueError) and changes nothing. In
`raw_env()` a non-integer or out-of-range action is always an error, and so is a
step after every agent is done; `env()`'s wrappers answer those first
(an `ActionSpaceError`, a ValueError and an AssertionError naming the value and
the allowed ids, for an action outside the space; a logged warning for a step
after the end).

### Rewards

`episode="hand"` (default): when the hand ends every agent receives its team's
points minus the other team's (declarations and bonuses included), 0 before.
`episode="match"`: +1 to the winning team and -1 to the other when the match
ends, 0 before. Partners always receive the same reward.

When a hand ends, every agent's info holds `"hand"` (its number, from 0),
`"hand_score"`, `"card_thirds"` (last trick included) and `"accusi"` (points
scored), each `[team 0, team 1]`, plus `"match_score"` in match mode, and
`"renuncio"` (who, what, the legal actions) or `"called_out"` when that ended it.

### Arguments

`tressette_v0.env(render_mode=None, history=False, **rules)`: `render_mode` is None, `"ansi"`
(render returns the table as text, every hand shown), `"human"` (prints it) or
`"rgb_array"` (render returns a picture of the table, every hand shown: an (640, 960, 3)
uint8 array, `tressette_env.envs.picture`; needs Pillow).
`reset(seed=None, options=None)`: `options={"hands": [4 lists of 10 card ids],
"dealer": seat}` plays a chosen deal (either key alone is fine; in a match the
later hands are shuffled); any other key is a `ValueError` naming the options
(except `"options"`, the key PettingZoo's `api_test` probes `reset` with).
`render_mode` is None, `"ansi"`, `"human"` or `"rgb_array"`; another is a `ValueError`.

`history=True` gives the history observation: the vector above, then each card's trick
and place, each trick's leader and winner and each lead's signal (`tressette_env.encoders.history`,
docs/observation.md#the-history-observation).

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `target_score` | `21` | int 1..10000 | match target; 31 and 41 are common (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `accusi` | `True` | bool | declarations (napoletana, three or four 3s/2s/assi) score and are public |
| `signals` | `True` | bool | the leader may signal busso / striscio / volo (truthfully) |
| `striscio` | `"keeps_suit"` | `"keeps_suit"`, `"no_honours"` | when striscio is true: the leader keeps another card of the suit (seed 000), or keeps one and none of them is a 3, 2 or asso (seeds 002, 003) (only with `signals=True`) |
| `first_lead` | `"dealer_right"` | `"dealer_right"`, `"four_of_denari"` | who leads the first trick of a hand: the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari |
| `cappotto_bonus` | `0` | int 0..10000 | extra points to a team that makes every point of a hand |
| `calling_out` | `False` | bool | chiamarsi fuori: the leader may claim the match (only with `episode="match"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action loses the hand 11-0, or raises ValueError |

### Version History

* v0: Initial release (0.1.0)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import FamilyEnv, wrap
from .parallel import parallel_factory
from .spec import game_spec

SPEC = game_spec("tressette")
AGENTS = ("player_0", "player_1", "player_2", "player_3")
SEAT = {agent: seat for seat, agent in enumerate(AGENTS)}


def env(render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The Tressette AEC environment wrapped as PettingZoo's classic environments are."""
    return wrap(raw_env(render_mode=render_mode, **rules))


class raw_env(FamilyEnv):
    """The Tressette AEC environment without PettingZoo's wrappers (see the module docstring)."""

    spec_of_game = SPEC
    metadata = {
        "name": "tressette_v0",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }


parallel_env = parallel_factory(raw_env)
