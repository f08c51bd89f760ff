# noqa: D212, D415
"""
# Tressette in due

Tressette for two players (FAMILY.md section 1): ten cards each and a stock of twenty,
drawn after each trick (the winner first, the drawn cards shown), or (``deal="packets"``)
two hands of ten and two face-up packets each; twenty tricks, the 3 the highest card of a
suit, no trumps, no partner and so no signals. When the stock is empty each player knows
the other's cards: the last ten tricks are a perfect-information endgame. The rules and
the decisions taken where the sources leave a point open are in docs/games/in_due.md.

| Import             | `from tressette_env import tressette_in_due_v0` |
|--------------------|-------------------------------------------------|
| Actions            | Discrete                                        |
| Parallel API       | Yes: `parallel_env()`                           |
| Manual Control     | No                                              |
| Agents             | `agents= ['player_0', 'player_1']`              |
| Agents             | 2                                               |
| Action Shape       | Discrete(255)                                   |
| Action Values      | [0, 254]                                        |
| Observation Shape  | (830,)                                          |
| Observation Values | [0, 1] (int8)                                   |
| State Shape        | (2116,)                                         |

### Observation Space

A dict: `"observation"`, an int8 vector of 0s and 1s holding what the agent can know, and
`"action_mask"`. Seats are relative (0 you, 1 your opponent). The layout is the same under
every switch (the pieces a form does not use stay 0):

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (2, 40) | 40:120 | the cards on the table in the current trick, by relative seat |
| `leader` | (2,) | 120:122 | one-hot: the relative seat that leads the current trick |
| `played` | (2, 40) | 122:202 | every card each relative seat has played this hand (the current trick included) |
| `voids` | (2, 4) | 202:210 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `accusi` | (2, 40) | 210:290 | the cards each relative seat's declarations revealed |
| `exposed` | (2, 40) | 290:370 | the cards lying face up in each relative seat's hand |
| `trick_number` | (20,) | 370:390 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `declared_points` | (2, 20) | 390:430 | declaration points (yours, the other's) as thermometers: entry k is 1 when more than k |
| `thirds` | (2, 35) | 430:500 | thirds of a point taken this hand (yours, the other's) as thermometers |
| `to_target` | (2, 41) | 500:582 | match points each player still needs to reach `target_score` (yours, the other) as thermometers capped at 41; all 0 in `episode="hand"` |
| `stock` | (20,) | 582:602 | cards left in the stock, as a thermometer |
| `opponent_hand` | (40,) | 602:642 | the opponent's cards you know: face up, and all of them once the stock is empty |
| `phase` | (4,) | 642:646 | one-hot: select packets, turn packets up, play with a stock, play with packets (0 after) |
| `own_packets` | (4, 40) | 646:806 | while turning packets up: the bottom card of each of your four packets |
| `turned` | (4,) | 806:810 | while turning packets up: the packets you have turned face up |
| `packet_sizes` | (2, 2, 5) | 810:830 | cards left in each relative seat's two face-up packets, as thermometers |

With `show_drawn=True` (the default) the drawn cards are in `exposed`; a void is a suit of
which the seat holds no hidden card (with `show_drawn=False` a draw clears the drawer's voids).

#### Legal Actions Mask

`"action_mask"` has 255 entries, 1 for each legal action of the agent to act, all zeros
for the other agent.

### Action Space

The family's action table (ids mean the same in every game); Tressette in due uses
`0..39` (play a card), `160` (chiamarsi fuori, with `calling_out=True`), and in the packet
form `161..200` (turn up the packet of a bottom card) and `247..254` (choose a packet blind):

| action id | meaning |
| --- | --- |
| `0..39` | play card `id` with no signal |
| `40..79` | play card `id - 40` and signal **busso** (lead only; the leader keeps another card of the suit) |
| `80..119` | play card `id - 80` and signal **striscio** (lead only; the leader keeps another card of the suit, with `striscio="no_honours"` none of them a 3, 2 or asso) |
| `120..159` | play card `id - 120` and signal **volo** (lead only; it is the leader's last card of the suit) |
| `160` | **chiamarsi fuori**: claim the match (only with `calling_out=True`, only on lead) |
| `161..200` | call card `id - 161` (a card the caller lacks; its holder gives it, or becomes a partner); in an exchange, take card `id - 161` from the monte; in Tressette in due's packet form, turn up the packet whose bottom card is `id - 161` |
| `201..240` | part with card `id - 201` in an exchange: return it face up to the giver, or discard it face down (the phase says which) |
| `241` | pass (the auction) |
| `242` | bid **chiamo** (call a card) |
| `243` | bid **solo** (sóla: play alone) |
| `244` | bid **solissimo** (alone, the monte untouched) |
| `245` | bid **solissimo dividete** |
| `246` | bid **solissimo scegliete** |
| `247..254` | choose packet `id - 247` (Tressette in due's packet form) |
| `255` | **wait**: the one legal action of an agent not on turn, in `parallel_env()` only |

In the packet form (`deal="packets"`) each player first turns two of his four packets face
up (`247 + k` turns up his k-th packet, the packets numbered by their bottom cards, lowest
card id first; with `packet_deal="choose"` the non-dealer first picks four of the eight
packets blind, `247 + k` for packet k). An illegal action follows `illegal_action` as in
`tressette_v0`.

### Rewards

`episode="hand"`: when the hand ends each player receives his points minus the
opponent's (the other way round with `objective="avoid"`), 0 before; the two rewards are
opposite. `episode="match"`: +1 to the winner, -1 to the other. The infos when a hand ends
hold `"hand"`, `"hand_score"`, `"card_thirds"`, `"accusi"` (each `[player_0, player_1]`),
`"match_score"` in a match, and `"renuncio"` or `"called_out"` when that ended it.

### Arguments

`tressette_in_due_v0.env(render_mode=None, history=False, **rules)`; `reset(seed=None, options=None)`
with `options={"hands": [[10 ids], [10 ids]], "stock": [20 ids, the next drawn first],
"dealer": seat}` (stock form; any of them alone is fine, the rest is shuffled) or
`{"packets": [8 lists of 5 ids, bottom card first], "dealer": seat}` (packet form).

`history=True` gives the history observation: the vector above, then each card's trick
and place, each trick's leader and winner and each lead's signal (`tressette_env.encoders.history`,
docs/observation.md#the-history-observation).

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `deal` | `"stock"` | `"stock"`, `"packets"` | metà mazzo (ten cards and a stock of twenty) or pizzichino (packets of five) |
| `follow_suit_with_stock` | `True` | bool | the follower must follow suit while cards remain in the stock (only with `deal="stock"`) |
| `show_drawn` | `True` | bool | each drawn card is shown to the opponent (only with `deal="stock"`) |
| `accusi` | `"none"` | `"none"`, `"dealt"`, `"dealt_and_drawn"` | declarations: none, from the ten dealt cards, or also whenever a draw completes a new combination (only with `deal="stock"`) |
| `objective` | `"take"` | `"take"`, `"avoid"` | take points, or avoid them: the hand's points count against the taker and the first to the target loses |
| `packet_deal` | `"dealt"` | `"dealt"`, `"choose"` | each player is dealt four packets, or the non-dealer picks four of the eight blind (only with `deal="packets"`) |
| `pizzichi_pickup` | `False` | bool | a face-up top that is an asso, 2 or 3 goes into its owner's hand, uncovering the next card (only with `deal="packets"`) |
| `target_score` | `21` | int 1..10000 | match target (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `cappotto_bonus` | `0` | int 0..10000 | extra points to the player who makes every point of a hand |
| `calling_out` | `False` | bool | chiamarsi fuori: the leader may claim the match (not with `objective="avoid"`) (only with `episode="match"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action loses the hand 11-0, or raises ValueError |

### Version History

* v0: Initial release (0.2.0)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import FamilyEnv, wrap
from .parallel import parallel_factory
from .spec import game_spec

SPEC = game_spec("tressette_in_due")


def env(render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The Tressette in due AEC environment wrapped as PettingZoo's classic environments are."""
    return wrap(raw_env(render_mode=render_mode, **rules))


class raw_env(FamilyEnv):
    """The Tressette in due AEC environment without PettingZoo's wrappers (see the module docstring)."""

    spec_of_game = SPEC
    metadata = {
        "name": "tressette_in_due_v0",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }


parallel_env = parallel_factory(raw_env)
