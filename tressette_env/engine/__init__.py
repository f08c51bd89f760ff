"""The rules of the Tressette family, pure and fast, with no RL dependency (standard library only).

The core plays the cards of every game (``game``, ``tricks``, ``state``); each game is a
``Game`` (``variant``): the four-seat game here (``classic``), the others in
``tressette_env.games``. Import what you need from here::

    from tressette_env.engine import Rules, new_game, legal_actions, apply, view
"""

from .actions import (
    BUSSO,
    CALL_OUT,
    NO_SIGNAL,
    NUM_ACTIONS,
    STRISCIO,
    VOLO,
    action_to_string,
    actions_of,
    card_of,
    signal_of,
)
from .cards import (
    STRENGTH,
    SUIT_MASK,
    SUITS,
    THIRDS,
    card_code,
    card_id,
    card_name,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
    suit_of,
)
from .classic import TRESSETTE
from .game import (
    GameOverError,
    IllegalActionError,
    apply,
    check_deal,
    current_agent,
    current_seat,
    is_over,
    legal_actions,
    legal_actions_mask,
    legal_mask_for,
    new_game,
    next_hand,
    renuncio,
    view,
)
from .render import render_state, render_view
from .rules import SWITCHES, Rules, make_rules
from .scoring import Accuso, Declarations, HandScore, declare, find_accusi, score_hand, thirds_to_points
from .state import GAME_OVER, HAND_OVER, PLAY, PLAYING, GameState, PublicState, SeatView, Table, rotate_seats
from .tricks import follow_suit, trick_thirds, trick_winner, winning_position
from .variant import Game

__all__ = [name for name in dir() if not name.startswith("_")]
