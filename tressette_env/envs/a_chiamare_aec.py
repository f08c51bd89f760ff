# noqa: D212, D415
"""
# Tressette a chiamare

Tressette a chiamare (FAMILY.md section 5): five players, eight cards each; an auction (pass,
chiamo, sola); after a chiamo the caller names a card he does not hold, and its holder is his
partner in secret: two against three, the partner known only to himself until the called card
is played. A sola plays alone against four. The rules and the decisions taken where the sources
leave a point open are in docs/games/a_chiamare.md.

| Import             | `from tressette_env import tressette_a_chiamare_v0`  |
|--------------------|------------------------------------------------------|
| Actions            | Discrete                                             |
| Parallel API       | Yes: `parallel_env()`                                |
| Manual Control     | No                                                   |
| Agents             | `agents= ['player_0', ..., 'player_4']`              |
| Action Shape       | Discrete(255)                                        |
| Action Values      | [0, 254]                                             |
| Observation Shape  | (985,)                                              |
| Observation Values | [0, 1] (int8)                                        |

### Observation Space

A dict: `"observation"` (int8 0s and 1s) and `"action_mask"`. Seats are relative (0 you,
then the next seats in play order); the thirds are by seat, yours first:

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (5, 40) | 40:240 | the cards on the table in the current trick, by relative seat |
| `leader` | (5,) | 240:245 | one-hot: the relative seat that leads the current trick |
| `played` | (5, 40) | 245:445 | every card each relative seat has played this hand (the current trick included) |
| `signals` | (5, 4, 3) | 445:505 | relative seat x suit x (busso, striscio, volo): signals given this hand |
| `voids` | (5, 4) | 505:525 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `trick_number` | (8,) | 525:533 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `thirds` | (5, 35) | 533:708 | thirds of a point taken this hand (yours first) as thermometers |
| `to_target` | (5, 41) | 708:913 | match points each player still needs to reach `target_score` (yours first) as thermometers capped at 41; all 0 in `episode="hand"` |
| `phase` | (2,) | 913:915 | one-hot: the phase before the play (auction, call); all 0 in the card play |
| `bids` | (5, 3) | 915:930 | relative seat x (pass, chiamo, sola): its bid |
| `contract` | (2,) | 930:932 | one-hot: the contract won (chiamo, sola) |
| `declarer` | (5,) | 932:937 | one-hot: the caller's or the soloist's relative seat |
| `called` | (40,) | 937:977 | the called card |
| `role` | (3,) | 977:980 | one-hot: what you know you are: the declarer, the partner, an opponent |
| `partner` | (5,) | 980:985 | one-hot: the partner's relative seat, once you know it (you; or the card was played) |

#### Legal Actions Mask

255 entries, 1 for each legal action of the agent to act. The auction: `241` pass, `242`
chiamo, `243` sola; the call: `161 + c` names card `c`; the play: cards `0..39`, with busso
(`40..79`) or striscio (`80..119`) when leading from the second trick.

### Rewards

When the hand ends each player receives his stake: after a chiamo each opponent pays 1
(doubled on cappotto), the caller receiving 2 of the 3 units and the partner 1, or the other
way round when the call fails; after a sola each of the four opponents pays 2 (4 on cappotto).
Zero-sum; a void hand (every player passed) pays 0. `episode="match"`: each player's total.
The infos when a hand ends hold `"stakes"`, `"contract"`, `"declarer"`, `"hand_score"` and
`"card_thirds"` (the declarer's side, the others) and `"match_score"` in a match.

| result | stakes (caller, partner, each opponent) |
| --- | --- |
| chiamo won | +2, +1, -1 |
| chiamo won on cappotto | +4, +2, -2 |
| chiamo lost (the calling side 17 thirds) | -2, -1, +1 |
| sola won / lost | +8 / -8 for the soloist, -2 / +2 each opponent |

### Arguments

`tressette_a_chiamare_v0.env(render_mode=None, history=False, **rules)`; `reset(seed=None, options={"hands": [5
lists of 8, by seat], "dealer": seat})`.

`history=True` gives the history observation: the vector above, then each card's trick
and place, each trick's leader and winner and each lead's signal (`tressette_env.encoders.history`,
docs/observation.md#the-history-observation).

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `5` | `5` | players (the four-player calling forms are Calabresella's `players=4`) |
| `auction` | `"ascending"` | `"ascending"`, `"first_taker"` | one speaking turn each, every bid above the standing one; or the first player who bids takes the contract |
| `call_rule` | `"any"` | `"any"`, `"highest_missing"` | the caller names any card he lacks, or one of the highest rank of which he lacks a card (a 3, else a 2...) |
| `allow_self_call` | `False` | bool | the caller may name a card of his own: he then plays alone, scored as a sola, and nobody knows it |
| `reveal_partner` | `False` | bool | the partner is announced when the card is called (Quadriglio's open partner), instead of secret |
| `first_lead` | `"seed"` | `"seed"`, `"forehand"`, `"declarer"` | the forehand after chiamo and the soloist after sola; or always the forehand; or always the declarer |
| `multipliers` | `None` | None or a dict from `"chiamo"`, `"sola"` to ints 1..10000 | what each opponent pays per contract before a cappotto doubles it (None: chiamo 1, sola 2) |
| `cappotto_rule` | `"zero_points"` | `"zero_points"`, `"zero_thirds"`, `"all_tricks"` | the losing side has no whole point, or no third, or no trick: the stake doubles |
| `signals` | `"seed"` | `"seed"`, `"full"`, `"none"` | busso and liscio from the second trick; or the four-seat game's three signs from the first; or none |
| `all_pass` | `"void"` | `"void"` | when every player passes the hand is void |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match |
| `match_end` | `"rounds"` | `"rounds"`, `"target"` | a match is `rounds` deals by every player, or ends when a player reaches `target_score` (only with `episode="match"`) |
| `rounds` | `1` | int 1..10000 | deals by each player in a match of rounds (only with `episode="match"` and `match_end="rounds"`) |
| `target_score` | `21` | int 1..10000 | the match target (only with `episode="match"` and `match_end="target"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action is a renuncio: the offender's side loses the contract as on cappotto (before a card is called, the offender pays each other player 2); or it raises ValueError |

### Version History

* v0: Initial release (0.2.0)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import FamilyEnv, wrap
from .parallel import parallel_factory
from .spec import game_spec

SPEC = game_spec("tressette_a_chiamare")


def env(render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The a chiamare AEC environment wrapped as PettingZoo's classic environments are."""
    return wrap(raw_env(render_mode=render_mode, **rules))


class raw_env(FamilyEnv):
    """The a chiamare AEC environment without PettingZoo's wrappers (see the module docstring)."""

    spec_of_game = SPEC
    metadata = {
        "name": "tressette_a_chiamare_v0",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }


parallel_env = parallel_factory(raw_env)
