# noqa: D212, D415
"""
# Tressette col morto

The four-seat game of Tressette (RULES.md) played by three players or two (FAMILY.md
section 2): a seat without a player is a dummy (il morto), its hand face up, played by its
partner in its turn. With three players the dealer plays his hand and the dummy opposite
him against the other two in partnership (the partnerships change every hand); with two,
each player has a dummy opposite him, and with the dummies shown at the deal each player
sees thirty cards and knows the other ten. The rules and the decisions taken where the
sources leave a point open are in docs/games/col_morto.md.

| Import             | `from tressette_env import tressette_col_morto_v0` |
|--------------------|----------------------------------------------------|
| Actions            | Discrete                                           |
| Parallel API       | Yes: `parallel_env()`                              |
| Manual Control     | No                                                 |
| Agents             | `agents= ['player_0', 'player_1', 'player_2']` (`players=2`: two) |
| Agents             | 3 (or 2)                                           |
| Action Shape       | Discrete(255)                                      |
| Action Values      | [0, 254]                                           |
| Observation Shape  | (999,) (`players=2`, a fixed holder's match: (958,)) |
| Observation Values | [0, 1] (int8)                                      |
| State Shape        | (1081,) (`players=2`, a fixed holder's match: (1040,)) |

Agents are the live players. The agent that holds a dummy is the agent to act in the
dummy's turn (`env.agent_selection`): it plays the dummy's cards, and its observation says
so (`acting_for`).

### Observation Space

A dict: `"observation"` (int8 0s and 1s) and `"action_mask"`. Seats are relative to the
agent's own seat (0 you, 1 the next seat, 2 your partner or your dummy, 3 the seat before
you); the dummies' cards are in `exposed`; match scores are by player, yours first, then
the next players in play order (with `dummy_holder="fixed"` by side, yours first: the
layout of `players=2`, `to_target` by side). With `players=3`:

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (4, 40) | 40:200 | the cards on the table in the current trick, by relative seat |
| `leader` | (4,) | 200:204 | one-hot: the relative seat that leads the current trick |
| `played` | (4, 40) | 204:364 | every card each relative seat has played this hand (the current trick included) |
| `signals` | (4, 4, 3) | 364:412 | relative seat x suit x (busso, striscio, volo): signals given this hand |
| `voids` | (4, 4) | 412:428 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `accusi` | (4, 40) | 428:588 | the cards each relative seat's declarations revealed |
| `exposed` | (4, 40) | 588:748 | the cards lying face up in each relative seat's hand |
| `trick_number` | (10,) | 748:758 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `declared_points` | (2, 20) | 758:798 | declaration points (yours, the other's) as thermometers: entry k is 1 when more than k |
| `thirds` | (2, 35) | 798:868 | thirds of a point taken this hand (yours, the other's) as thermometers |
| `to_target` | (3, 41) | 868:991 | match points each player still needs to reach `target_score` (yours first) as thermometers capped at 41; all 0 in `episode="hand"` |
| `dummies` | (4,) | 991:995 | the relative seats that are dummies (their hands are face up) |
| `acting_for` | (4,) | 995:999 | one-hot: the relative seat you are to play now, yours or your dummy's (0 when not your turn) |

With `players=2` the `to_target` piece has two rows (yours, the other player's).

#### Legal Actions Mask

`"action_mask"` has 255 entries, 1 for each legal action of the seat the agent is to play
(its own or its dummy's), all zeros for the other agents.

### Action Space

The family's action table; col morto uses `0..159` (a card, with a signal when leading):
only a leader whose partner is a live player may signal (with two players nobody signals).

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

An illegal action follows `illegal_action` as in `tressette_v0` (a renuncio: the side loses
the hand 11-0).

### Rewards

`episode="hand"`: when the hand ends each player receives his side's points minus the
other side's (the dealer once, for the side of his own hand and his dummy); 0 before.
`episode="match"`: +1 to the winner, -1/(players - 1) to each other player (zero-sum).
Match scores are individual: after each hand every player adds his side's points; the
first to the target wins, several there: the highest, an exact tie for the highest plays
on. With `dummy_holder="fixed"` the holder plays the match against the pair: the scores
are by side (the holder's first); +1 to the winning side and -1 to the other, each shared
by its players (the holder +1 or -1, each of the pair +0.5 or -0.5). The infos when a hand
ends hold `"hand"`, `"hand_score"`, `"card_thirds"`, `"accusi"` (each `[side 0, side 1]`,
side 0 = seats 0 and 2), `"sides"` (the players of each side),
`"match_score"` (by player; by side with a fixed holder) in a match, and `"renuncio"`
when that ended it.

### Arguments

`tressette_col_morto_v0.env(render_mode=None, history=False, **rules)`; `reset(seed=None,
options={"hands": [4 lists of 10 card ids, by seat], "dealer": player})`.

`history=True` gives the history observation: the vector above, then each card's trick
and place, each trick's leader and winner and each lead's signal (`tressette_env.encoders.history`,
docs/observation.md#the-history-observation).

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `3` | `3`, `2` | live players (one or two dummies) |
| `dummy_exposed` | `"deal"` | `"deal"`, `"after_first_card"` | when the dummy's hand becomes public |
| `dummy_holder` | `"dealer"` | `"dealer"`, `"fixed"` | who plays with the dummy when three play (only with `players=3`) |
| `signals` | `True` | bool | a leader whose partner is a live player may signal busso / striscio / volo (truthfully) (only with `players=3`) |
| `striscio` | `"keeps_suit"` | `"keeps_suit"`, `"no_honours"` | when striscio is true (as RULES.md) (only with `players=3` and `signals=True`) |
| `accusi` | `True` | bool | declarations score and are public; a dummy's count for its side |
| `first_lead` | `"dealer_right"` | `"dealer_right"`, `"four_of_denari"` | the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari |
| `target_score` | `21` | int 1..10000 | match target (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `cappotto_bonus` | `0` | int 0..10000 | extra points to the side that makes every point of a hand |
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

SPEC = game_spec("tressette_col_morto")


def env(render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The col morto AEC environment wrapped as PettingZoo's classic environments are."""
    return wrap(raw_env(render_mode=render_mode, **rules))


class raw_env(FamilyEnv):
    """The col morto AEC environment without PettingZoo's wrappers (see the module docstring)."""

    spec_of_game = SPEC
    metadata = {
        "name": "tressette_col_morto_v0",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }


parallel_env = parallel_factory(raw_env)
