# noqa: D212, D415
"""
# Calabresella

Calabresella (Terziglio), FAMILY.md section 4: three players (or four), an auction (chiamo <
solo < solissimo, and the raised solissimo forms), a called card handed over face up, a
four-card monte taken and four cards discarded face down, then one player against the other
two, who pool their tricks. The soloist wins with at least 6 of the 11 points; the stakes
are per contract, doubled on cappotto. The rules and the decisions taken where the sources
leave a point open are in docs/games/calabresella.md.

| Import             | `from tressette_env import calabresella_v0`          |
|--------------------|------------------------------------------------------|
| Actions            | Discrete                                             |
| Parallel API       | Yes: `parallel_env()`                                |
| Manual Control     | No                                                   |
| Agents             | `agents= ['player_0', 'player_1', 'player_2']` (`players=4`: four) |
| Action Shape       | Discrete(255)                                        |
| Action Values      | [0, 254]                                             |
| Observation Shape  | (859,) with three players                           |
| Observation Values | [0, 1] (int8)                                        |

### Observation Space

A dict: `"observation"` (int8 0s and 1s) and `"action_mask"`. Seats are relative (0 you,
then the next seats in play order); side 0 is the soloist's. With three players:

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hand` | (40,) | 0:40 | 1 for each card id in your hand |
| `trick` | (3, 40) | 40:160 | the cards on the table in the current trick, by relative seat |
| `leader` | (3,) | 160:163 | one-hot: the relative seat that leads the current trick |
| `played` | (3, 40) | 163:283 | every card each relative seat has played this hand (the current trick included) |
| `signals` | (3, 4, 3) | 283:319 | relative seat x suit x (busso, striscio, volo): signals given this hand |
| `voids` | (3, 4) | 319:331 | relative seat x suit: the seat failed to follow that suit, so it has none left |
| `exposed` | (3, 40) | 331:451 | the cards lying face up in each relative seat's hand |
| `trick_number` | (12,) | 451:463 | one-hot: which trick of the hand is being played (all 0 once the hand is over) |
| `thirds` | (2, 35) | 463:533 | thirds of a point taken this hand (yours, the other's) as thermometers |
| `to_target` | (3, 41) | 533:656 | match points each player still needs to reach `target_score` (yours first) as thermometers capped at 41; all 0 in `episode="hand"` |
| `phase` | (7,) | 656:663 | one-hot: the phase before the play (auction, call, return, take, discard, split, choose); all 0 in the card play |
| `bids` | (3, 6) | 663:681 | relative seat x (pass, chiamo, solo, solissimo, dividete, scegliete): its bid |
| `contract` | (5,) | 681:686 | one-hot: the contract won (chiamo ... scegliete) |
| `soloist` | (3,) | 686:689 | one-hot: the soloist's relative seat |
| `called` | (40,) | 689:729 | the called card (chiamo) |
| `called_from` | (4,) | 729:733 | one-hot: the relative seat that handed the called card over; last: it lay in the monte |
| `monte_shown` | (40,) | 733:773 | the monte's cards, turned up for all (chiamo) |
| `returned` | (40,) | 773:813 | the card the soloist returned face up to the giver |
| `face_down_known` | (40,) | 813:853 | the face-down cards you know: your discards, the monte as you saw it |
| `face_down` | (5,) | 853:858 | cards face down for the side that takes the last trick, as a thermometer |
| `solo_only` | (1,) | 858:859 | the hands were dealt again after all passed: solo or higher only |

#### Legal Actions Mask

255 entries, 1 for each legal action of the agent to act. The auction: `241` pass, `242`
chiamo, `243` solo, `244` solissimo, `245` dividete, `246` scegliete; the call: `161 + c`
names card `c`; the return and the discards: `201 + c` parts with card `c`; with
`exchange="partial"` (and in scegliete) `161 + c` takes card `c` from the monte and `241`
stops; the play: cards `0..39`, with busso (`40..79`) or striscio (`80..119`) when leading
from the second trick.

### Rewards

When the hand ends each player receives his stake: each opponent pays the soloist the
contract's multiplier (1 chiamo, 2 solo, 3 solissimo, 6 dividete, 12 scegliete), doubled on
cappotto, or receives it when the soloist loses; zero-sum. A void hand (every player passed)
pays 0. `episode="match"`: each player's total. The infos when a hand ends hold `"stakes"`,
`"contract"`, `"soloist"`, `"hand_score"` (points by side, the soloist's first),
`"card_thirds"` and `"match_score"` in a match.

| result (three players) | stakes (soloist, the others) |
| --- | --- |
| chiamo won, 18 thirds to the soloist | +2, -1, -1 |
| solo lost on cappotto (2 thirds to the soloist) | -8, +4, +4 |
| a renuncio by an opponent in solissimo | +12, -6, -6 |

### Arguments

`calabresella_v0.env(render_mode=None, history=False, **rules)`; `reset(seed=None, options={"hands": [3
lists of 12, by seat], "monte": [4 ids], "dealer": seat})`.

`history=True` gives the history observation: the vector above, then each card's trick
and place, each trick's leader and winner and each lead's signal (`tressette_env.encoders.history`,
docs/observation.md#the-history-observation).

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `3` | `3`, `4` | players at the table |
| `four_player` | `"all_play"` | `"all_play"`, `"dealer_sits_out"` | with four players: ten cards each and no monte, or the dealer sits out (scored as one more opponent) (only with `players=4`) |
| `auction` | `"ascending"` | `"ascending"`, `"first_taker"` | one speaking turn each, every bid above the standing one; or the first player who bids takes the contract |
| `contracts` | `None` | None or some of `"chiamo"`, `"solo"`, `"solissimo"`, `"dividete"`, `"scegliete"`, in that order | the contracts allowed (None: chiamo, solo, solissimo; chiamo and solo with four_player="all_play") |
| `call_rule` | `"any"` | `"any"`, `"highest_missing"` | the caller names any card he lacks, or one of the highest rank of which he lacks a card (a 3, else a 2, else an asso...) (only with chiamo among the `contracts`) |
| `show_monte_on_call` | `True` | bool | the monte is turned up for all when the caller of chiamo takes it (only with a monte (`players=3`, or `four_player="dealer_sits_out"`) and chiamo among the `contracts`) |
| `exchange` | `"full"` | `"full"`, `"partial"` | the soloist takes the whole monte and discards 4, or takes up to 4 of its cards and discards as many (only with a monte (`players=3`, or `four_player="dealer_sits_out"`) and chiamo or solo among the `contracts`) |
| `solissimo_peek` | `False` | bool | the solissimo player may look at the monte (not use it) (only with solissimo among the `contracts`) |
| `first_lead` | `"seed"` | `"seed"`, `"forehand"`, `"soloist"` | the forehand after chiamo and the soloist after the other contracts; or always the forehand; or always the soloist (`"soloist"` only with chiamo among the `contracts`; `"forehand"` only with solo or a higher contract among the `contracts`) |
| `multipliers` | `None` | None or a dict from `"chiamo"`, `"solo"`, `"solissimo"`, `"dividete"`, `"scegliete"` to ints 1..10000 | what each opponent pays per contract before a cappotto doubles it (None: 1, 2, 3, 6, 12; those given replace the defaults) (only with `scoring="stake"` and every contract it names among those that may be bid (`contracts`)) |
| `scoring` | `"stake"` | `"stake"`, `"difference"` | the stake table, or the difference of the sides' thirds (doubled when one side takes all 35) |
| `cappotto_rule` | `"zero_points"` | `"zero_points"`, `"zero_thirds"`, `"all_tricks"` | the losing side has no whole point, or no third, or no trick: the stake doubles |
| `all_pass` | `"void"` | `"void"`, `"solo_only_redeal"` | when every player passes: the hand is void; or the hands are dealt again around the monte and only solo or higher may be bid (only with solo or a higher contract among the `contracts`) |
| `signals` | `"seed"` | `"seed"`, `"full"`, `"none"` | busso and liscio from the second trick; or the four-seat game's three signs from the first; or none |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match |
| `match_end` | `"rounds"` | `"rounds"`, `"target"` | a match is `rounds` deals by every player, or ends when a player reaches `target_score` (only with `episode="match"`) |
| `rounds` | `1` | int 1..10000 | deals by each player in a match of rounds (only with `episode="match"` and `match_end="rounds"`) |
| `target_score` | `21` | int 1..10000 | the match target (only with `episode="match"` and `match_end="target"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action is a renuncio: the offender's side loses the contract as on cappotto (in the auction, before any contract, the offender pays each other player 2); or it raises ValueError |

### Version History

* v0: Initial release (0.2.0)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import FamilyEnv, wrap
from .parallel import parallel_factory
from .spec import game_spec

SPEC = game_spec("calabresella")


def env(render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The Calabresella AEC environment wrapped as PettingZoo's classic environments are."""
    return wrap(raw_env(render_mode=render_mode, **rules))


class raw_env(FamilyEnv):
    """The Calabresella AEC environment without PettingZoo's wrappers (see the module docstring)."""

    spec_of_game = SPEC
    metadata = {
        "name": "calabresella_v0",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }


parallel_env = parallel_factory(raw_env)
