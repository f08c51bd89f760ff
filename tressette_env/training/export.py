"""Turn a stable-baselines3 (Maskable)PPO policy into a NumPy ``MLPPolicy`` (the policy half only)."""

from __future__ import annotations

from ..learned.mlp import MLPPolicy


def policy_from_sb3(model, info: dict | None = None, history: bool | None = None) -> MLPPolicy:
    """The actor of an SB3 ``MlpPolicy`` (hidden layers + action head) as an ``MLPPolicy``.

    ``history``: the policy reads the history observation (``MLPPolicy.observation``); None
    takes it from the model (``TeamPlayPPO.history``) or from its environments' ``history``
    attribute (every environment of the package has one), False when neither says.

    Raises:
        ValueError: the policy is not a plain MLP over the flat observation, or it is past the
            bounds every policy keeps to, so that its file can be read back (at most 16 layers,
            widths up to 4096: ``tressette_env.learned.files``).
    """
    import torch.nn as nn

    def array(tensor):
        # A copy: on CPU .numpy() shares the live parameter's memory, and a snapshot must not follow training.
        return tensor.detach().cpu().numpy().copy()

    policy = model.policy
    layers, activation = [], None
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear):
            layers.append((array(module.weight), array(module.bias)))
        elif isinstance(module, nn.Tanh):
            activation = activation or "tanh"
        elif isinstance(module, nn.ReLU):
            activation = activation or "relu"
        else:
            raise ValueError(f"cannot export a policy layer of type {type(module).__name__}: only Linear, Tanh, ReLU")
    head = policy.action_net
    layers.append((array(head.weight), array(head.bias)))
    if history is None:
        history = _history_of(model)
    return MLPPolicy(layers, activation or "tanh", dict(info or {}), "history" if history else "default")


def _history_of(model) -> bool:
    """Whether the model's observations are the history observation (its own setting, or its environments')."""
    if hasattr(model, "history"):
        return bool(model.history)
    env = model.get_env()
    if env is None:
        return False
    try:
        return bool(env.get_attr("history")[0])
    except (AttributeError, NotImplementedError):
        return False
