"""The AEC environments' card play on a mirror (``envs.mirror``) is the rules core's, step for step.

Two environments play the same actions, one on the mirror and one on the core alone (the
mirror turned off): after every step their states (``env.game``, hidden hands included),
every agent's observation and mask, rewards, terminations, truncations, infos and the agent to
act are equal. Under every four-seat rule switch that touches the card play, with signals,
voids, renuncios (an illegal action now and then), claims (calling out), matches over
several hands and ``max_cycles`` truncations; and so for col morto (its face-up dummies and
the seat each player is to play for), Calabresella (three and four seats, the cards handed
over face up, the face-down cards a seat knows: a private piece), a perdere, a chiamare and in
due (its stock's tricks and draws on a ``StockMirror``, its packet form on a ``PacketMirror`` from its first card, and
the tricks after its stock), under their switches.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.family import RULE_SETS as FAMILY_RULE_SETS
from tests.helpers import face_up_first
from tressette_env import (
    calabresella_v0,
    tressette_a_chiamare_v0,
    tressette_a_perdere_v0,
    tressette_col_morto_v0,
    tressette_in_due_v0,
    tressette_v0,
)
from tressette_env.engine.cards import cards_of
from tressette_env.engine.state import PLAY
from tressette_env.envs.in_due_mirror import PacketMirror, StockMirror
from tressette_env.envs.mirror import CardPlayMirror, FaceUpMirror
from tressette_env.envs.playing import RenuncioWarning
from tressette_env.games.in_due import PLAY_PACKETS, PLAY_STOCK

RULE_SETS = [
    {},
    {"signals": False},
    {"striscio": "no_honours"},
    {"accusi": False, "cappotto_bonus": 3},
    {"first_lead": "four_of_denari", "episode": "match", "target_score": 11},
    {"episode": "match", "target_score": 21, "calling_out": True},
]


COL_MORTO_RULE_SETS = [
    {},
    {"players": 2},
    {"dummy_exposed": "after_first_card"},
    {"players": 2, "dummy_exposed": "after_first_card", "episode": "match", "target_score": 11},
    {"dummy_holder": "fixed", "episode": "match", "target_score": 11},
    {"striscio": "no_honours", "first_lead": "four_of_denari", "episode": "match", "target_score": 21},
    {"signals": False, "accusi": False, "cappotto_bonus": 11},
]


CALABRESELLA_RULE_SETS = FAMILY_RULE_SETS["calabresella"]
"""Every Calabresella rule set of the family's tests: three and four players, the dealer sitting out, every contract,
the partial exchange, signals full and none, matches."""


A_PERDERE_RULE_SETS = FAMILY_RULE_SETS["tressette_a_perdere"]
"""Every a perdere rule set of the family's tests: three to eight players, teams, the monte and the dealer's discards,
both objectives, matches with elimination (a smaller table plays on the core)."""


A_CHIAMARE_RULE_SETS = FAMILY_RULE_SETS["tressette_a_chiamare"]
"""Every a chiamare rule set of the family's tests: the called card, the partner announced or shown by the card."""


IN_DUE_RULE_SETS = FAMILY_RULE_SETS["tressette_in_due"]
"""Every in due rule set of the family's tests: the stock (its draws shown or not, declarations of the drawn cards) and
the packets (chosen, with the pickups); a ``StockMirror`` plays the stock's tricks where it fits, a ``PacketMirror`` the
packet form from its first card, and a mirror the tricks after the stock."""


def _pair(rules: dict, max_cycles: int | None = None, module=tressette_v0):
    fast = module.raw_env(max_cycles=max_cycles, **rules)
    core = module.raw_env(max_cycles=max_cycles, **rules)
    core._may_mirror = False
    return fast, core


def _same(fast, core) -> None:
    assert fast.agents == core.agents
    assert fast.game == core.game
    assert fast.agent_selection == core.agent_selection
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
        assert getattr(fast, name) == getattr(core, name), name
    for agent in fast.agents:
        a, b = fast.observe(agent), core.observe(agent)
        assert np.array_equal(a["observation"], b["observation"]), agent
        assert np.array_equal(a["action_mask"], b["action_mask"]), agent


def _play_episodes(
    rules: dict,
    seed: int,
    episodes: int,
    illegal_rate: float = 0.0,
    max_cycles: int | None = None,
    module=tressette_v0,
    prefer=None,
):
    """Random play on both environments; returns how many steps the mirror took.

    ``prefer(env, legal)``, where given, narrows the legal actions the random choice is made from.
    """
    fast, core = _pair(rules, max_cycles, module)
    rng = random.Random(seed)
    mirrored = 0
    for episode in range(episodes):
        fast.reset(seed=seed + episode)
        core.reset(seed=seed + episode)
        _same(fast, core)
        while fast.agents:
            agent = fast.agent_selection
            if fast.terminations[agent] or fast.truncations[agent]:
                action = None
            else:
                legal = np.flatnonzero(fast.observe(agent)["action_mask"])
                if prefer is not None:
                    legal = prefer(fast, legal)
                wrong = rng.randrange(fast.action_space(agent).n)
                action = int(rng.choice(legal)) if rng.random() >= illegal_rate else wrong
            mirrored += fast._mirror is not None and action is not None and fast._legal >> action & 1
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RenuncioWarning)
                fast.step(action)
                core.step(action)
            _same(fast, core)
    assert core._mirror is None
    return mirrored


def _until_the_mirror(env, seed: int):
    """Random legal play from a reset until a mirror plays the hand (a deal may end first: all passed); returns it."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    while env._mirror is None:  # what comes before the card play (an auction, a discard) is the core's
        agent = env.agent_selection
        if not env.agents:
            env.reset()
        elif env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    return env._mirror


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_the_mirror_plays_as_the_core(rules):
    assert _play_episodes(rules, seed=11, episodes=6) > 100


@pytest.mark.parametrize(
    "rules", COL_MORTO_RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_col_morto_on_the_mirror_plays_as_the_core(rules):
    """The face-up dummies leave ``exposed`` card by card, and ``acting_for`` follows the turn."""
    assert _play_episodes(rules, seed=7, episodes=5, module=tressette_col_morto_v0) > 100
    env = tressette_col_morto_v0.raw_env(**rules)
    mirror = _until_the_mirror(env, 0)  # (the opening lead in the dark, after_first_card, is the core's)
    assert type(mirror) is FaceUpMirror
    assert mirror.watched == tuple(s for s in env.game.public.table.seat_of)


@pytest.mark.parametrize(
    "rules", CALABRESELLA_RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_calabresella_on_the_mirror_plays_as_the_core(rules):
    """The auction, the call and the exchange on the core; the card play on the mirror from the first card on.

    The cards handed over or returned face up leave ``exposed``, and each card played leaves the
    observer's ``face_down_known`` (``ExtraPiece.played_out``, a private piece).
    """
    assert _play_episodes(rules, seed=3, episodes=6, module=calabresella_v0) > 100
    env = calabresella_v0.raw_env(**rules)
    mirror = _until_the_mirror(env, 1)
    assert type(mirror) is FaceUpMirror
    table = env.game.public.table
    assert mirror.n == table.seats and mirror.watched == tuple(s for s in table.seat_of if s >= 0)


@pytest.mark.parametrize(
    "rules", A_PERDERE_RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_a_perdere_on_the_mirror_plays_as_the_core(rules):
    """Thirds by player (or by team), three to eight seats; with elimination, the whole table's hands on the mirror."""
    assert _play_episodes(rules, seed=5, episodes=4, module=tressette_a_perdere_v0) > 100
    env = tressette_a_perdere_v0.raw_env(**rules)
    mirror = _until_the_mirror(env, 2)
    assert mirror.n == env.game.public.table.seats == len(env.agents) == len(mirror.watched)
    assert (mirror.orders is None) == bool(rules.get("teams"))  # thirds by player: each seat's order of the sides


@pytest.mark.parametrize(
    "rules", A_CHIAMARE_RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_a_chiamare_on_the_mirror_plays_as_the_core(rules):
    """Thirds by player over five seats; ``partner`` filled again when the called card is played."""
    assert _play_episodes(rules, seed=9, episodes=12, module=tressette_a_chiamare_v0) > 100


@pytest.mark.parametrize(
    "rules", IN_DUE_RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_in_due_on_the_mirror_plays_as_the_core(rules):
    """Two seats, twenty tricks; a mirror plays the tricks after the stock, a ``StockMirror`` the stock's tricks with
    their draws where it fits, and a ``PacketMirror`` the packet form from its first card.

    Random play empties the packets before the hand's last cards in about one hand of sixteen:
    the packet form's players here play their face-up cards first, which empties them early.
    """
    packets = rules.get("deal") == "packets"
    prefer = _face_up_first if packets else None
    mirrored = _play_episodes(rules, seed=3, episodes=8, module=tressette_in_due_v0, prefer=prefer)
    assert mirrored > 10  # (random claims end many hands of the calling_out rule set early)
    if not packets:
        env = tressette_in_due_v0.raw_env(**rules)
        mirror = _until_the_mirror(env, 4)
        p = env.game.public
        stock = rules.get("follow_suit_with_stock", True) and rules.get("accusi") != "dealt_and_drawn"
        if stock:  # from the first card
            assert type(mirror) is StockMirror and p.table.phase == PLAY_STOCK and p.tricks_done == 0
            mirror = _after_the_stock(env, random.Random(4))
            p = env.game.public
        assert type(mirror) is FaceUpMirror and mirror.n == 2
        assert not p.table.phase and p.table.extra.stock == 0 and p.tricks_done >= 10


def _after_the_stock(env, rng: random.Random):
    """Random legal play until the stock is gone (the hand still being played); returns the mirror then."""
    while env.game.public.table.phase == PLAY_STOCK:
        agent = env.agent_selection
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    return env._mirror


@pytest.mark.parametrize(
    "rules",
    [{}, {"show_drawn": False}, {"show_drawn": False, "accusi": "dealt"}, {"follow_suit_with_stock": False},
     {"accusi": "dealt_and_drawn"}],
    ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default",
)  # fmt: skip
def test_in_due_s_stock_on_the_mirror_plays_as_the_core(rules):
    """The stock's draws on the mirror: the drawn cards in the hands, face up or the voids forgotten, the stock piece.

    Where the suit need not be followed while the stock lasts, or drawn cards may be declared, the core plays the
    stock (``phase_mirror`` gives no mirror); its last trick, which empties it, is the core's everywhere.
    """
    mirrored = _play_episodes(rules, seed=21, episodes=10, module=tressette_in_due_v0)
    env = tressette_in_due_v0.raw_env(**rules)
    env.reset(seed=2)
    fits = rules.get("follow_suit_with_stock", True) and rules.get("accusi") != "dealt_and_drawn"
    assert (type(env._mirror) is StockMirror) == fits
    assert mirrored >= (10 * 40 if fits else 10 * 20)  # a mirror at every card, or after the stock
    rng = random.Random(6)
    while env.game.public.table.extra.stock > 2 or not env.game.public.trick:  # to the stock's last trick's last card
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    if fits:
        assert not any(env._mirror.takes(int(a)) for a in legal)
    env.step(int(legal[0]))
    assert type(env._mirror) is FaceUpMirror and env.game.public.table.extra.stock == 0


@pytest.mark.parametrize(
    "rules",
    [{"deal": "packets"}, {"deal": "packets", "pizzichi_pickup": True},
     {"deal": "packets", "packet_deal": "choose", "pizzichi_pickup": True, "objective": "avoid"}],
    ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()),
)  # fmt: skip
@pytest.mark.parametrize("face_up_first", [False, True], ids=["random", "face_up_first"])
def test_in_due_s_packets_on_the_mirror_play_as_the_core(rules, face_up_first):
    """The packet form on a ``PacketMirror`` from its first card: a top played uncovers the next card of its packet
    (with the pickups, while it is an asso, a 2 or a 3), and the table moves to the plain card play when the last
    packet is gone; only the hand's last card is the core's."""
    prefer = _face_up_first if face_up_first else None
    mirrored = _play_episodes(rules, seed=13, episodes=10, module=tressette_in_due_v0, prefer=prefer)
    assert mirrored == 10 * 40  # a mirror at every card of every hand (the last one, which it gives the core, included)
    env = tressette_in_due_v0.raw_env(**rules)
    rng = random.Random(13)
    emptied = 0
    for seed in range(20):
        env.reset(seed=seed)
        while env.game.public.table.phase != PLAY_PACKETS:  # choosing and turning the packets: the core's
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        assert type(env._mirror) is PacketMirror
        while env.agents and env._mirror is not None and env.game.public.table.phase == PLAY_PACKETS:
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
            choices = _face_up_first(env, legal) if face_up_first else legal
            env.step(int(rng.choice(choices)))
        emptied += env._mirror is not None and env.game.public.table.phase == PLAY  # the packets gone on the mirror
    if face_up_first:  # playing the face-up cards first empties them before the hand ends
        assert emptied >= 15


def test_in_due_s_stock_on_the_mirror_keeps_each_draw_out_of_the_other_seat_s_view_unless_shown():
    """A drawn card sets its drawer's ``hand`` bit; the other seat sees it only where the draws are shown."""
    for show in (True, False):
        env = tressette_in_due_v0.raw_env(show_drawn=show)
        env.reset(seed=8)
        rng = random.Random(8)
        hand = env._encoder.slices["hand"]
        known = env._encoder.slices["opponent_hand"]
        shown = 0
        for _ in range(6):  # six tricks, two draws each
            for _ in range(2):
                env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
            assert type(env._mirror) is StockMirror
            state = env.game
            for seat, agent in enumerate(env.agents):
                obs = env.observe(agent)["observation"]
                assert np.flatnonzero(obs[hand]).tolist() == cards_of(state.hands[seat])
                seen = np.flatnonzero(obs[known]).tolist()
                assert seen == (cards_of(state.public.exposed_by(1 - seat)) if show else [])
                assert set(seen) <= set(cards_of(state.hands[1 - seat]))
                shown += len(seen)
        assert bool(shown) == show


def _face_up_first(env, legal: np.ndarray) -> list[int]:
    """``face_up_first`` for the seat on turn of ``env``."""
    p = env.game.public
    return face_up_first(p, p.turn, legal)


def _walk(env, seeds: range, rng: random.Random, around) -> None:
    """Random legal play, one deal a seed; ``around(env, action)`` runs before each step and returns what runs after it."""
    for seed in seeds:
        env.reset(seed=seed)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
            after = around(env, action)
            env.step(action)
            after()


def test_a_chiamare_on_the_mirror_shows_the_partner_when_the_called_card_is_played():
    at = tressette_a_chiamare_v0.raw_env()._encoder.slices["partner"]
    shown = []

    def around(env, action):
        mirror = env._mirror
        called = env.game.public.table.extra.called
        if mirror is None or not mirror.takes(action) or action % 40 != called or called < 0:
            return lambda: None
        before = {a: env.observe(a)["observation"][at].sum() for a in env.agents}

        def after():  # every seat knows the partner now (the partner knew itself already)
            now = {a: env.observe(a)["observation"][at].sum() for a in env.agents}
            assert all(now[a] == 1 for a in env.agents)
            shown.extend(a for a in env.agents if now[a] > before[a])

        return after

    _walk(tressette_a_chiamare_v0.raw_env(), range(30), random.Random(4), around)
    assert shown


def test_calabresella_on_the_mirror_clears_the_face_down_cards_a_seat_knows():
    """A card of the monte a seat saw, played later from a hand, leaves that seat's ``face_down_known``.

    In scegliete the first opponent sees the monte, and the second may take cards of it into his hand and play them.
    """
    at = calabresella_v0.raw_env()._encoder.slices["face_down_known"]
    cleared = []

    def around(env, action):
        if env._mirror is None or not env._mirror.takes(action):
            return lambda: None
        before = {a: env.observe(a)["observation"][at].copy() for a in env.agents}

        def after():
            card = action % 40
            for a in env.agents:
                expected = before[a].copy()
                expected[card] = 0
                assert np.array_equal(env.observe(a)["observation"][at], expected)
                if before[a][card]:
                    cleared.append(a)

        return after

    _walk(calabresella_v0.raw_env(contracts=("scegliete",)), range(60), random.Random(0), around)
    assert cleared


def test_renuncios_and_truncations_leave_the_mirror_equal_to_the_core():
    _play_episodes({"episode": "match", "target_score": 11}, seed=5, episodes=4, illegal_rate=0.05)
    _play_episodes({}, seed=3, episodes=3, max_cycles=7)
    module = tressette_col_morto_v0
    _play_episodes({"episode": "match", "target_score": 11}, seed=5, episodes=3, illegal_rate=0.05, module=module)
    _play_episodes({"players": 2}, seed=3, episodes=3, max_cycles=9, module=module)
    module = calabresella_v0
    _play_episodes({"episode": "match", "rounds": 1}, seed=5, episodes=3, illegal_rate=0.05, module=module)
    _play_episodes({"players": 4}, seed=3, episodes=3, max_cycles=9, module=module)
    module = tressette_a_chiamare_v0
    _play_episodes({"episode": "match", "rounds": 1}, seed=5, episodes=2, illegal_rate=0.05, module=module)
    _play_episodes({}, seed=3, episodes=3, max_cycles=9, module=module)
    module = tressette_a_perdere_v0
    _play_episodes(
        {"players": 5, "episode": "match", "target_score": 11}, seed=5, episodes=2, illegal_rate=0.05, module=module
    )
    _play_episodes({"teams": True}, seed=3, episodes=3, max_cycles=9, module=module)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rules=st.sampled_from(RULE_SETS))
def test_the_mirror_plays_as_the_core_from_any_seed(seed, rules):
    _play_episodes(rules, seed=seed, episodes=1, illegal_rate=0.02)


FAMILY_CASES = [
    (module, rules)
    for module, sets in (
        (tressette_col_morto_v0, COL_MORTO_RULE_SETS),
        (tressette_a_perdere_v0, A_PERDERE_RULE_SETS),
        (tressette_a_chiamare_v0, A_CHIAMARE_RULE_SETS),
        (calabresella_v0, CALABRESELLA_RULE_SETS),
        (tressette_in_due_v0, IN_DUE_RULE_SETS),
    )
    for rules in sets
]
"""Every other game on the mirror, with each of its rule sets."""


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), case=st.sampled_from(FAMILY_CASES))
def test_the_other_games_on_the_mirror_play_as_the_core_from_any_seed(seed, case):
    module, rules = case
    _play_episodes(rules, seed=seed, episodes=1, illegal_rate=0.02, module=module)


def test_the_mirror_stays_out_of_recordings_and_the_history_observation(tmp_path):
    recorded = tressette_v0.raw_env(record=tmp_path / "games.jsonl")
    history = tressette_v0.raw_env(history=True)
    plain = tressette_v0.raw_env()
    for env in (recorded, history, plain):
        env.reset(seed=0)
    assert recorded._mirror is None and history._mirror is None
    assert isinstance(plain._mirror, CardPlayMirror)


def test_the_state_read_while_the_mirror_plays_is_the_core_state_and_stays_put():
    fast, core = _pair({})
    fast.reset(seed=4)
    core.reset(seed=4)
    for _ in range(6):
        action = int(np.flatnonzero(fast.observe(fast.agent_selection)["action_mask"])[0])
        before = fast.game
        fast.step(action)
        core.step(action)
        assert fast.game == core.game and fast.game is fast.game  # built once after each card
        assert before != fast.game  # a state read before a card is not changed by it


SINGLE_CASES = [
    ({"others": "random"}, {}),
    ({"others": "random", "game": "tressette_col_morto"}, {}),
    ({"others": "heuristic", "game": "tressette_col_morto"}, {"players": 2, "dummy_exposed": "after_first_card"}),
    ({"others": "random", "game": "tressette_col_morto", "dense_reward": True}, {"dummy_holder": "fixed"}),
    ({"others": "random", "game": "calabresella"}, {}),
    ({"others": "random", "game": "tressette_a_chiamare"}, {}),
    (
        {"others": "heuristic", "game": "tressette_a_chiamare"},
        {"reveal_partner": True, "episode": "match", "rounds": 1},
    ),
    ({"others": "random", "game": "tressette_a_perdere", "dense_reward": True}, {"players": 6, "reduce": "monte"}),
    ({"others": "heuristic", "game": "tressette_a_perdere"}, {"teams": True, "episode": "match", "target_score": 11}),
    (
        {"others": "random", "game": "tressette_a_perdere"},
        {"players": 5, "episode": "match", "match_end": "elimination", "target_score": 11},
    ),
    (
        {"others": "heuristic", "game": "calabresella"},
        {"players": 4, "four_player": "dealer_sits_out", "episode": "match"},
    ),
    ({"others": "random", "game": "calabresella", "dense_reward": True}, {"exchange": "partial", "signals": "full"}),
    ({"others": "random", "game": "tressette_in_due"}, {}),
    ({"others": "heuristic", "game": "tressette_in_due", "dense_reward": True}, {"show_drawn": False}),
    (
        {"others": "random", "game": "tressette_in_due"},
        {"episode": "match", "target_score": 11, "accusi": "dealt_and_drawn"},
    ),
    ({"others": "heuristic"}, {}),
    ({"others": "random", "dense_reward": True}, {"signals": False}),
    ({"others": "random"}, {"episode": "match", "target_score": 11, "calling_out": True}),
    ({"others": "heuristic"}, {"striscio": "no_honours", "first_lead": "four_of_denari", "episode": "match"}),
]


@pytest.mark.parametrize(("options", "rules"), SINGLE_CASES, ids=lambda x: ",".join(f"{k}={v}" for k, v in x.items()))
def test_the_single_learner_environment_on_the_mirror_plays_as_on_the_core(options, rules):
    import gymnasium as gym

    options = dict(options)
    gym_id = {
        "tressette_col_morto": "tressette_env/TressetteColMorto-v0",
        "calabresella": "tressette_env/Calabresella-v0",
        "tressette_a_perdere": "tressette_env/TressetteAPerdere-v0",
        "tressette_a_chiamare": "tressette_env/TressetteAChiamare-v0",
        "tressette_in_due": "tressette_env/TressetteInDue-v0",
    }.get(options.pop("game", None))
    gym_id = gym_id or "tressette_env/Tressette-v0"
    fast = gym.make(gym_id, **options, **rules).unwrapped
    core = gym.make(gym_id, **options, **rules).unwrapped
    core._may_mirror = False
    rng = random.Random(2)
    mirrored = 0
    for episode in range(5):
        a, info_a = fast.reset(seed=episode)
        b, info_b = core.reset(seed=episode)
        assert np.array_equal(a, b) and info_a == info_b and fast.game == core.game
        while True:
            mask = fast.action_masks()
            assert np.array_equal(mask, core.action_masks())
            legal = np.flatnonzero(mask)
            action = int(rng.choice(legal)) if rng.random() > 0.03 else rng.randrange(len(mask))
            mirrored += fast._mirror is not None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RenuncioWarning)
                out_a, out_b = fast.step(action), core.step(action)
            assert np.array_equal(out_a[0], out_b[0]) and out_a[1:] == out_b[1:]
            assert fast.game == core.game
            if out_a[2]:
                break
    assert mirrored > 10 and core._mirror is None


class _FaceUpFirst:
    """A player of in due's packet form that plays its face-up cards first (so the packets empty early)."""

    name = "face_up_first"

    def act(self, view, legal, rng):
        return rng.choice(face_up_first(view.public, view.seat, legal))


@pytest.mark.parametrize(
    "rules", [{"deal": "packets"}, {"deal": "packets", "packet_deal": "choose", "pizzichi_pickup": True}]
)
def test_in_due_s_packet_form_on_the_mirror_plays_as_on_the_core_for_one_learner(rules):
    import gymnasium as gym

    fast = gym.make("tressette_env/TressetteInDue-v0", others=_FaceUpFirst(), **rules).unwrapped
    core = gym.make("tressette_env/TressetteInDue-v0", others=_FaceUpFirst(), **rules).unwrapped
    core._may_mirror = False
    rng = random.Random(4)
    mirrored = 0
    for episode in range(6):
        assert np.array_equal(fast.reset(seed=episode)[0], core.reset(seed=episode)[0])
        done = False
        while not done:
            mask = fast.action_masks()
            assert np.array_equal(mask, core.action_masks())
            legal = _face_up_first(fast, np.flatnonzero(mask))
            action = int(rng.choice(legal))
            mirrored += fast._mirror is not None
            out_a, out_b = fast.step(action), core.step(action)
            assert np.array_equal(out_a[0], out_b[0]) and out_a[1:] == out_b[1:] and fast.game == core.game
            done = out_a[2]
    assert mirrored > 10 and core._mirror is None


class _NumPyChoice:
    """A player that answers with a NumPy integer (as an argmax over a model's output does)."""

    name = "numpy"

    def act(self, view, legal, rng):
        return np.int64(legal[rng.randrange(len(legal))])


def test_a_player_answering_numpy_integers_plays_on_the_mirror_as_on_the_core():
    import gymnasium as gym

    fast = gym.make("tressette_env/Tressette-v0", others=_NumPyChoice()).unwrapped
    core = gym.make("tressette_env/Tressette-v0", others=_NumPyChoice()).unwrapped
    core._may_mirror = False
    rng = random.Random(9)
    for episode in range(3):
        assert np.array_equal(fast.reset(seed=episode)[0], core.reset(seed=episode)[0])
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(fast.action_masks())))
            out_a, out_b = fast.step(action), core.step(action)
            assert np.array_equal(out_a[0], out_b[0]) and out_a[1:] == out_b[1:] and fast.game == core.game
            done = out_a[2]


@pytest.mark.parametrize(
    "gym_id",
    [
        "tressette_env/Tressette-v0",
        "tressette_env/TressetteColMorto-v0",
        "tressette_env/Calabresella-v0",
        "tressette_env/TressetteAPerdere-v0",
        "tressette_env/TressetteAChiamare-v0",
        "tressette_env/TressetteInDue-v0",
    ],
)
def test_a_shallow_copy_of_the_single_learner_environment_plays_on_without_changing_the_original(gym_id):
    import copy

    import gymnasium as gym

    env = gym.make(gym_id, others="random").unwrapped
    core = gym.make(gym_id, others="random").unwrapped
    core._may_mirror = False
    for e in (env, core):
        e.reset(seed=5)
    for _ in range(12):  # (in due's mirror starts at the first card: its stock's on a StockMirror)
        for e in (env, core):
            e.step(int(np.flatnonzero(e.action_masks())[0]))
        if env._mirror is not None:
            break
    assert env._mirror is not None and env.game == core.game
    before, obs_before = env.game, env._observe()
    twin, core_twin = copy.copy(env), copy.copy(core)  # (each shares its original's random stream)
    for t in (twin, core_twin):
        t.step(int(np.flatnonzero(t.action_masks())[0]))
    assert twin.game != before
    assert twin.game == core_twin.game and np.array_equal(twin._observe(), core_twin._observe())
    assert env.game == before and np.array_equal(env._observe(), obs_before)
    for _ in range(8):  # the original plays on as its core twin does: nothing of the copy's play reached it
        action = int(np.flatnonzero(env.action_masks())[-1])
        out, out_core = env.step(action), core.step(action)
        assert np.array_equal(out[0], out_core[0]) and out[1:] == out_core[1:] and env.game == core.game
        if out[2]:
            break


def test_the_renuncio_warning_points_at_the_callers_step():
    import gymnasium as gym

    env = gym.make("tressette_env/Tressette-v0", others="random").unwrapped
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.warns(RenuncioWarning) as caught:
        env.step(illegal)
    assert caught[0].filename == __file__
    aec = tressette_v0.raw_env()
    aec.reset(seed=0)
    legal = aec.observe(aec.agent_selection)["action_mask"]
    with pytest.warns(RenuncioWarning) as caught:
        aec.step(int(np.flatnonzero(legal == 0)[0]))
    assert caught[0].filename.endswith("aec.py")  # FamilyEnv.step, where it pointed before the mirror


def test_a_piece_of_the_table_cannot_read_private_cards():
    from tressette_env.encoders.layout import Piece
    from tressette_env.encoders.observation import ExtraPiece, Observation

    piece = ExtraPiece(Piece("both", (1,), "a piece"), lambda p, me, hand, private: 0, private=True, of_table=True)
    with pytest.raises(ValueError, match="of_table"):
        Observation(4, 2, 10, 2, extras=(piece,))


def test_a_piece_of_the_turn_is_neither_of_the_table_nor_private():
    from tressette_env.encoders.layout import Piece
    from tressette_env.encoders.observation import ExtraPiece, Observation

    for marks in ({"of_table": True}, {"private": True}):
        piece = ExtraPiece(Piece("both", (1,), "a piece"), lambda p, me, hand, private=0: 0, of_turn=True, **marks)
        with pytest.raises(ValueError, match="of_turn=True reads only the table and the turn"):
            Observation(4, 2, 10, 2, extras=(piece,))


def test_a_piece_the_mirror_does_not_know_keeps_the_environment_on_the_core():
    from tressette_env.encoders.layout import Piece
    from tressette_env.encoders.observation import ExtraPiece, Observation
    from tressette_env.envs.mirror import keeps

    plain = ExtraPiece(Piece("tricks_left", (1,), "a piece read from the state"), lambda p, me, hand: 0)
    turn = ExtraPiece(Piece("to_play", (1,), "a piece of the turn"), lambda p, me, hand: 0, of_turn=True)
    assert not keeps(Observation(4, 2, 10, 2, extras=(plain,)))
    assert keeps(Observation(4, 2, 10, 2, extras=(turn,)))
    assert keeps(Observation(5, 2, 8, 5)) and keeps(Observation(3, 2, 12, 3))  # any seats
    assert keeps(Observation(5, 5, 8, 5))  # thirds by player
    assert keeps(Observation(4, 2, 10, 2, signals=False))  # no signals piece: nothing to patch
    private = ExtraPiece(Piece("seen", (40,), "cards"), lambda p, me, hand, private: private, private=True)
    assert not keeps(Observation(3, 2, 12, 3, extras=(private,)))  # private, and not marked played_out
    assert keeps(Observation(3, 2, 12, 3, extras=(private._replace(played_out=True),)))
    for name, shape in (("declared_points", (2, 20)), ("exposed", (4, 40)), ("to_target", (2, 41))):
        # a piece of the turn named as a common piece the mirror leaves alone or patches its own way
        clash = ExtraPiece(Piece(name, shape, "a game piece"), lambda p, me, hand: 0, of_turn=True)
        assert not keeps(Observation(4, 2, 10, 2, accusi=False, extras=(clash,)))


def test_a_played_out_piece_is_a_set_of_cards_of_neither_the_table_nor_the_turn():
    from tressette_env.encoders.layout import Piece
    from tressette_env.encoders.observation import ExtraPiece, Observation

    cards = ExtraPiece(Piece("seen", (40,), "cards"), lambda p, me, hand: 0, played_out=True)
    for wrong in (
        cards._replace(of_table=True),
        cards._replace(of_turn=True),
        cards._replace(piece=Piece("seen", (4, 40), "cards by seat")),
    ):
        with pytest.raises(ValueError, match="played_out=True is a set of cards"):
            Observation(4, 2, 10, 2, extras=(wrong,))


def test_a_piece_changed_by_some_cards_says_only_that():
    from tressette_env.encoders.layout import Piece
    from tressette_env.encoders.observation import ExtraPiece, Observation

    piece = ExtraPiece(Piece("seen", (1,), "a piece"), lambda p, me, hand: 0, changed_by=lambda table: 0)
    for wrong in (piece._replace(of_table=True), piece._replace(of_turn=True), piece._replace(played_out=True)):
        with pytest.raises(ValueError, match="changed_by names the cards whose play changes it"):
            Observation(4, 2, 10, 2, extras=(wrong,))


def test_marked_pieces_of_a_made_up_game_on_the_mirror_are_the_encoders():
    """Every mark the mirror reads, on a stand-in observation of the four-seat game, against the encoder card by card.

    A ``played_out`` piece alone (the plain mirror would leave it), two ``changed_by`` pieces naming different cards
    (each refilled after its own), one of them private (its fill given the seat's private cards), and one no card
    changes.
    """
    from tressette_env.encoders.layout import Piece
    from tressette_env.encoders.observation import ExtraPiece, Observation
    from tressette_env.engine import legal_actions, new_game
    from tressette_env.engine.cards import SUIT_MASK
    from tressette_env.envs.mirror import layout_of, mirror_of

    denari, asso_coppe, tre_spade = SUIT_MASK[0], 10, 29
    private_args = []

    def out_by(card):
        return lambda p: int(any(p.played >> (40 * s + card) & 1 for s in range(4)))

    def seen_private(p, me, hand, private):
        private_args.append(private)
        return out_by(tre_spade)(p)

    played_out = (
        ExtraPiece(Piece("denari_left", (40,), "cards"), lambda p, me, hand: denari & ~p.all_played, played_out=True),
    )
    changed_by = (
        ExtraPiece(
            Piece("asso_out", (1,), "a card"), lambda p, me, hand: out_by(asso_coppe)(p),
            changed_by=lambda table: 1 << asso_coppe,
        ),
        ExtraPiece(Piece("tre_out", (1,), "a card"), seen_private, private=True, changed_by=lambda table: 1 << tre_spade),
        ExtraPiece(Piece("seats", (1,), "a constant"), lambda p, me, hand: me & 1, changed_by=lambda table: 0),
    )  # fmt: skip
    rng = random.Random(0)
    shown = set()
    for extras in (played_out, changed_by):
        encoder = Observation(4, 2, 10, 2, extras=extras)
        layout = layout_of(encoder)
        assert layout is not None and len(layout.played_out) + len(layout.changed_by) == len(extras)
        for seed in range(30):
            game = new_game(seed=seed)
            mirror = mirror_of(game, (0, 1, 2, 3), encoder, layout)
            while mirror.takes(action := rng.choice(legal_actions(mirror.state()))):
                private_args.clear()
                mirror.play(action)
                if extras is changed_by and action % 40 in (asso_coppe, tre_spade):
                    shown.add(action % 40)
                    assert action % 40 != tre_spade or private_args  # the private fill was called again
                state = mirror.state()
                for seat in range(4):
                    assert mirror.obs[seat] == encoder.seat_bits(state, seat), (seed, seat)
    assert shown == {asso_coppe, tre_spade}


def test_a_piece_of_the_turn_is_given_the_table_and_the_turn_alone():
    """The mirror holds every hand; what it hands a game's fill must not (no card a seat cannot see)."""
    from tressette_env.encoders.layout import Piece
    from tressette_env.encoders.observation import ExtraPiece, Observation
    from tressette_env.engine import legal_actions, new_game
    from tressette_env.engine.state import PublicState
    from tressette_env.envs.mirror import FaceUpMirror, layout_of, mirror_of

    given = []

    def fill(p, me, hand):
        given.append((p, hand))
        return 1 if p.turn == me else 0

    encoder = Observation(4, 2, 10, 2, extras=(ExtraPiece(Piece("my_turn", (1,), "a piece"), fill, of_turn=True),))
    game = new_game(seed=3)
    given.clear()
    mirror = mirror_of(game, (0, 1, 2, 3), encoder, layout_of(encoder))
    assert type(mirror) is FaceUpMirror
    # Filled once a hand, for every turn and seat, from the table and the turn alone (and no cards); the encoder's
    # own fills of the watched seats' first observations are given the public state.
    by_mirror = [(p, hand) for p, hand in given if not isinstance(p, PublicState)]
    assert sorted(p.turn for p, _ in by_mirror) == sorted(list(range(4)) * 4)
    assert all(p.__slots__ == ("table", "turn") and p.table is game.public.table and not hand for p, hand in by_mirror)
    assert not any(hasattr(p, name) for p, _ in by_mirror for name in ("hands", "dealt", "played", "obs"))
    given.clear()
    at = encoder.slices["my_turn"].start
    for _ in range(6):  # a trick and a half: the turn passes on, and to the trick's winner
        mirror.play(legal_actions(mirror.state())[0])
        assert [mirror.obs[s] >> at & 1 for s in range(4)] == [int(s == mirror.turn) for s in range(4)]
    assert not given  # nothing filled again card by card
