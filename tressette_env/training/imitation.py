"""Warm start: teach a fresh MaskablePPO policy to play like a teacher (behaviour cloning).

PPO from scratch learns card play slowly on a small machine. Cloning the heuristic first
gives the learner the teacher's level in about a minute (masked cross-entropy on the
teacher's choices); the value head is fitted to the returns of the same games, so PPO's
first updates start from a sensible critic. PPO then improves on the teacher.

The games are played by the teacher in every seat (``vs_random`` of them with random
opponents instead, for a wider spread of positions). Only decisions with more than one
legal action are kept.
"""

from __future__ import annotations

import random

import numpy as np

from ..agents.random_player import RandomPlayer
from ..agents.registry import make_player
from ..encoders.observation import SIZE, encode_bits, unpack
from ..engine.actions import NUM_ACTIONS
from ..engine.game import apply, legal_actions, new_game, view
from ..engine.rules import Rules
from ..engine.state import PLAYING


def teacher_games(
    teacher: str, decisions: int, rules: Rules, seed: int, vs_random: float = 0.25, reward_scale: float = 1 / 11
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Observations (int8), masks (bool), the teacher's actions, and value targets of its decisions.

    A value target is what the dense reward still pays from that decision: the team's final
    points difference minus its thirds lead so far (in points), times ``reward_scale``.
    """
    rng = random.Random(seed)
    player = make_player(teacher)
    observations = np.zeros((decisions, SIZE), dtype=np.int8)
    masks = np.zeros((decisions, NUM_ACTIONS), dtype=bool)
    actions = np.zeros(decisions, dtype=np.int64)
    targets = np.zeros(decisions, dtype=np.float32)
    n = 0
    while n < decisions:
        state = new_game(Rules(accusi=rules.accusi, signals=rules.signals, first_lead=rules.first_lead), rng)
        players = [player] * 4
        teacher_team = None
        if rng.random() < vs_random:
            teacher_team = rng.randrange(2)
            players = [player if seat % 2 == teacher_team else RandomPlayer() for seat in range(4)]
        start = n
        recorded_teams, leads = [], []
        while state.public.status == PLAYING:
            seat = state.public.turn
            seat_view = view(state, seat)
            legal = legal_actions(state)
            action = players[seat].act(seat_view, legal, rng)
            if len(legal) > 1 and n < decisions and (teacher_team is None or seat % 2 == teacher_team):
                observations[n] = unpack(encode_bits(seat_view), SIZE)
                masks[n, legal] = True
                actions[n] = action
                thirds = state.public.thirds
                recorded_teams.append(seat % 2)
                leads.append((thirds[seat % 2] - thirds[1 - seat % 2]) / 3)
                n += 1
            state = apply(state, action)
        points = state.public.result.points
        for i, (team, lead) in enumerate(zip(recorded_teams, leads, strict=True)):
            targets[start + i] = (points[team] - points[1 - team] - lead) * reward_scale
    return observations, masks, actions, targets


def imitate(model, teacher: str, decisions: int, epochs: int, rules: Rules, seed: int, reward_scale: float) -> dict:
    """Fit ``model``'s policy to the teacher's choices and its value to their returns; return the fit figures."""
    import torch
    import torch.nn.functional as F

    observations, masks, actions, targets = teacher_games(teacher, decisions, rules, seed, reward_scale=reward_scale)
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
