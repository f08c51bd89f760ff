"""Digests of the four-seat game's behaviour, to pin it byte for byte across refactors.

``digests()`` plays seeded episodes under several rule sets through the engine, the AEC
environment (observations, masks, rewards, terminations, infos, ``state()``) and the
single-seat environment, and hashes everything they return. ``tests/data/classic_golden.json``
holds the digests of the code before the family core (``python -m tests.golden_classic``
writes them); ``tests/test_classic_golden.py`` compares.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np

RULE_SETS = {
    "default": {},
    "plain": {"accusi": False, "signals": False},
    "match": {"episode": "match", "target_score": 21, "first_lead": "four_of_denari", "cappotto_bonus": 11},
    "calling_out": {"episode": "match", "target_score": 11, "calling_out": True},
    "narrow": {"striscio": "no_honours"},
}
SEEDS = range(12)
GOLDEN = Path(__file__).resolve().parent / "data" / "classic_golden.json"


def _h(*parts) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.tobytes() if isinstance(part, np.ndarray) else repr(part).encode())
    return digest.hexdigest()


def engine_digest(rules: dict, seed: int) -> str:
    from tressette_env.engine import HAND_OVER, PLAYING, Rules, apply, legal_actions, new_game, next_hand

    rng = random.Random(seed)
    state = new_game(Rules(**rules), seed)
    parts = []
    for _ in range(60):
        while state.public.status == PLAYING:
            legal = legal_actions(state)
            parts.append(legal)
            state = apply(state, legal[rng.randrange(len(legal))])
        p = state.public
        parts.append((p.result, p.match_score, p.winner, p.history, state.dealt, p.accusi.by_seat))
        if p.status != HAND_OVER:
            break
        state = next_hand(state, seed=rng.randrange(2**32))
    return _h(*parts)


def aec_digest(rules: dict, seed: int) -> str:
    from tressette_env import tressette_v0

    env = tressette_v0.env(**rules)
    env.reset(seed=seed)
    rng = random.Random(seed)
    parts = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        parts += [agent, obs["observation"], obs["action_mask"], reward, term, trunc, sorted(info.items())]
        parts.append(env.state())
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return _h(*parts)


def single_seat_digest(rules: dict, seed: int) -> str:
    from tressette_env.wrappers import SingleSeatEnv

    env = SingleSeatEnv(partner="random", opponents="heuristic", **rules)
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    parts = [obs, sorted(info.items())]
    for _ in range(300):
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
        parts += [obs, reward, term, trunc, sorted(info.items())]
        if term:
            break
    return _h(*parts)


def digests() -> dict:
    out = {}
    for name, rules in RULE_SETS.items():
        for seed in SEEDS:
            out[f"{name}/{seed}"] = {
                "engine": engine_digest(rules, seed),
                "aec": aec_digest(rules, seed),
                "single_seat": single_seat_digest(rules, seed),
            }
    return out


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
