"""Warm start: teach a fresh MaskablePPO policy to play like a teacher (behaviour cloning).

PPO from scratch learns card play slowly on a small machine. Cloning the heuristic first
gives the learner the teacher's level in about a minute (masked cross-entropy on the
teacher's choices); the value head is fitted to the returns of the same games, so PPO's
first updates start from a sensible critic. PPO then improves on the teacher.

The games are single hands of any game of the family (of two sides), played by the teacher
as every agent (``vs_random`` of them with random players on the other side instead, for a
wider spread of positions). Only decisions with more than one legal action are kept. For
the four-seat game the data are those of the four-seat-only version this replaced, bit for
bit, wherever its rule set was the one trained on (``tests/training/test_imitation.py``).
Note that Tressette in due's heuristic solves the endgame exactly, so its teacher games
cost far more per decision than the other games'.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from ..agents.random_player import RandomPlayer
from ..agents.registry import make_player
from ..encoders.family import observation_of
from ..engine.game import apply, legal_actions, new_game, view
from ..engine.state import PLAYING
from ..engine.switches import make_effective


def one_hand(rules: Any) -> Any:
    """The rules with one hand per episode (``episode="hand"``).

    The switches that only a match reads (``target_score``, ``calling_out``, ``match_end``...) go
    back to their defaults, since a single hand refuses them (``engine.switches.InertSwitchError``).
    """
    if not rules.is_match:
        return rules
    switches = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
    return make_effective(type(rules), **{**switches, "episode": "hand"})


def teacher_games(
    teacher: str,
    decisions: int,
    rules: Any,
    seed: int,
    vs_random: float = 0.25,
    reward_scale: float = 1 / 11,
    history: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Observations (int8), masks (bool), the teacher's actions, and value targets of its decisions.

    The games are single hands of ``rules``' game (any game of the family of two sides) under
    its switches (``one_hand(rules)``). Each seat is played by the agent that controls it
    (a live player plays its dummy), from that agent's own seat: the observation is that
    seat's, as ``SingleAgentEnv`` gives it. A value target is what the dense reward still
    pays from that decision: the acting agent's return of the hand (its side's points minus
    the other side's) minus its side's thirds lead so far (in points), times ``reward_scale``.
    ``history``: the observations are the history observation.
    """
    rng = random.Random(seed)
    player = make_player(teacher)
    hand_rules = one_hand(rules)
    encoder = observation_of(hand_rules, history)
    size = encoder.size
    observations = np.zeros((decisions, size), dtype=np.int8)
    masks = np.zeros((decisions, hand_rules.game.num_actions), dtype=bool)
    actions = np.zeros(decisions, dtype=np.int64)
    targets = np.zeros(decisions, dtype=np.float32)
    n = 0
    while n < decisions:
        state = new_game(hand_rules, rng)
        table = state.public.table
        agents = len(table.seat_of)
        players = [player] * agents
        teacher_side = None
        if rng.random() < vs_random:  # the teacher's side against random players
            teacher_side = rng.randrange(table.sides_count)
            players = [
                player if table.sides[table.seat_of[a]] == teacher_side else RandomPlayer() for a in range(agents)
            ]
        start = n
        recorded_agents, leads = [], []
        while state.public.status == PLAYING:
            p = state.public
            seat = p.turn
            table = p.table
            agent = table.controllers[seat]
            own = table.seat_of[agent]
            legal = legal_actions(state)
            seen = view(state, own)
            action = players[agent].act(seen, legal, rng)
            side = table.sides[seat]
            if len(legal) > 1 and n < decisions and (teacher_side is None or side == teacher_side):
                observations[n] = encoder.encode(seen)
                masks[n, legal] = True
                actions[n] = action
                recorded_agents.append(agent)
                leads.append(p.rules.game.lead(p, seat))
                n += 1
            state = apply(state, action)
        returns = state.public.rules.game.returns(state.public)
        for i, (agent, lead) in enumerate(zip(recorded_agents, leads, strict=True)):
            # + 0.0: a zero target is +0.0 (a return of -0.0 minus no lead would be -0.0)
            targets[start + i] = (returns[agent] - lead + 0.0) * reward_scale
    return observations, masks, actions, targets


def imitate(
    model,
    teacher: str,
    decisions: int,
    epochs: int,
    rules: Any,
    seed: int,
    reward_scale: float,
    history: bool = False,
) -> dict:
    """Fit ``model``'s policy to the teacher's choices and its value to their returns; return the fit figures.

    ``rules`` picks the game (``teacher_games``): ``model`` must take that game's observation
    (the history observation with ``history``) and actions.
    """
    import torch
    import torch.nn.functional as F

    observations, masks, actions, targets = teacher_games(
        teacher, decisions, rules, seed, reward_scale=reward_scale, history=history
    )
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    generator = torch.Generator().manual_seed(seed)
    held_out = decisions // 20
    train_n = decisions - held_out
    masks_t = torch.as_tensor(masks)
    actions_t = torch.as_tensor(actions)
    targets_t = torch.as_tensor(targets)

    def forward(index):
        obs = torch.as_tensor(observations[index.numpy()], dtype=torch.float32)
        features = policy.extract_features(obs, policy.pi_features_extractor)
        latent_pi, latent_vf = policy.mlp_extractor(features)
        logits = policy.action_net(latent_pi).masked_fill(~masks_t[index], -1e9)
        return logits, policy.value_net(latent_vf).squeeze(-1)

    for _ in range(epochs):
        order = torch.randperm(train_n, generator=generator)
        for start in range(0, train_n, 1024):
            index = order[start : start + 1024]
            logits, values = forward(index)
            loss = F.cross_entropy(logits, actions_t[index]) + F.mse_loss(values, targets_t[index])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        index = torch.arange(train_n, decisions)
        logits, values = forward(index)
        accuracy = (logits.argmax(1) == actions_t[index]).float().mean().item()
        value_error = F.mse_loss(values, targets_t[index]).item()
    return {
        "teacher": teacher,
        "decisions": decisions,
        "epochs": epochs,
        "agreement": accuracy,
        "value_mse": value_error,
    }
