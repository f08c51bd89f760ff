"""A rule player that plays like a good club player, after the seeds' advice.

It counts cards (it knows which card is now the master of each suit, the "carta
tre"), reads and gives truthful signals, and follows these rules in order. The
sources are the strategy parts of the seeds: 000 "Suggerimenti e strategie",
003 "Dicas e estrategias", 004 "Consejos".

On lead:
1. Call out when the claim is true (``calling_out``).
2. Return the suit of a partner's busso: lead the highest card of it.
3. Lead a master card (a 3, a 2, a figure whose betters are out): it takes for sure.
   Before the last two tricks, never a master that is the only card of its suit (kept as an entry).
4. Lead a master asso: its point is safe now.
5. Return the suit the partner opened.
6. Otherwise lead low from the longest suit, never an unguarded asso.
Signals on the lead: volo with the last card of a suit; busso from a suit where
it holds an honour but not the master (partner: take and return); striscio from
a long suit without honours.

Following suit, when an opponent is ahead:
7. Partner sure to take: give it points (the asso first, then a figure).
8. Partner asked with busso: play the highest card of the suit.
9. Last to play: take with the cheapest winning card, sparing the asso.
10. Points on the table: take for sure with the cheapest card nobody after can beat.
11. Third hand high: with one opponent still to play, the best card.
12. Second hand low, unless there are points to take (or the last tricks): then the best card.
13. Partner ahead but not safe, with points on the table: cover with a sure card.
14. Otherwise play the cheapest card (no points, lowest).
Void in the led suit:
15. Partner sure to take: give it an asso, from the suit with fewest guards, else a figure.
    Never an asso that is already master (it takes its own point later): another asso, else a figure.
16. Otherwise throw a worthless card (4-7), from a suit without an asso to guard.
It fights for the last trick: from the ninth trick on it plays for every trick it can win.

Example:
    >>> import random
    >>> from tressette_env.engine import action_to_string, new_game, legal_actions, view
    >>> state = new_game(seed=0)
    >>> print(state.hands[state.public.turn] >> 12 & 1)  # the seat on lead holds the 3 di coppe
    1
    >>> action_to_string(HeuristicPlayer().act(view(state, state.public.turn), legal_actions(state), random.Random(0)))
    '3c'
"""

from __future__ import annotations

import random

from ..engine.actions import BUSSO, CALL_OUT, STRISCIO, VOLO
from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of
from ..engine.classic import TRESSETTE
from ..engine.scoring import team_points
from ..engine.state import SeatView
from ..engine.tricks import winning_position

# Cards of each suit from the strongest to the weakest (3, 2, asso, re, ... 4).
_BY_STRENGTH = tuple(tuple(sorted(range(10 * s, 10 * s + 10), key=lambda c: -STRENGTH[c])) for s in range(4))
_ASSI = tuple(10 * s for s in range(4))
_HONOURS = tuple((1 << (10 * s)) | (1 << (10 * s + 1)) | (1 << (10 * s + 2)) for s in range(4))  # asso, 2, 3
_LISCI = sum(0b1111 << (10 * s + 3) for s in range(4))  # the 4, 5, 6 and 7: worth nothing
_FULL = (1 << 40) - 1


def _weakest(cards: list[int]) -> int:
    """The card that costs least to give away: fewest points, then lowest power."""
    return min(cards, key=lambda c: (THIRDS[c], STRENGTH[c]))


class HeuristicPlayer:
    """The rule player described in the module docstring (deterministic: ``rng`` breaks no ties)."""

    name = "heuristic"

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """The four-seat game's rules (``play``); in another game of the family, that game's heuristic."""
        game = view.public.rules.game
        if game is TRESSETTE:
            return self.play(view, legal, rng)
        return family_heuristic(game.name).act(view, legal, rng)

    def play(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """The rules of the module docstring, for a seat of the four-seat game (or one that plays like it)."""
        if len(legal) == 1:
            return legal[0]
        p = view.public
        me, hand = view.seat, view.hand
        partner = (me + 2) % 4
        unplayed = _FULL & ~p.all_played
        # Cards that another seat may hold: not mine, not played.
        others = unplayed & ~hand
        if not p.trick:
            return self._lead(view, legal, partner, others, unplayed)
        led = p.trick[0] // 10
        mine = hand & SUIT_MASK[led]
        winner_pos = winning_position(p.trick)
        winner_seat = (p.leader + winner_pos) % 4
        winning_card = p.trick[winner_pos]
        to_play_after_me = 3 - len(p.trick)
        partner_sure = winner_seat == partner and self._nobody_after_can_beat(view, winning_card, others)
        late = p.tricks_done >= 8
        trick_points = sum(THIRDS[c] for c in p.trick)
        if mine:
            cards = cards_of(mine)
            beaters = [c for c in cards if STRENGTH[c] > STRENGTH[winning_card]]
            # 7. Partner sure to take: give it points, the asso first, then a figure (keep the 3 and 2).
            if partner_sure:
                return max(cards, key=lambda c: (THIRDS[c] * (c % 10 not in (1, 2)), -STRENGTH[c]))
            # 8. Partner asked with busso: take with the best card and (later) return the suit.
            if winner_seat == partner and p.leader == partner and p.signals_by(partner, led)[0] and beaters:
                return max(cards, key=lambda c: STRENGTH[c])
            if beaters and winner_seat != partner:
                # 9. Last to play: take with the cheapest winner, sparing the asso (the lead is worth having).
                if to_play_after_me == 0:
                    return min(beaters, key=lambda c: (c % 10 == 0, STRENGTH[c]))
                sure = [c for c in beaters if self._nobody_after_can_beat(view, c, others)]
                # 10. Points on the table: take for sure with the cheapest card nobody after me can beat.
                if sure and trick_points:
                    return min(sure, key=lambda c: STRENGTH[c])
                # 11. Third hand high: one opponent left to play, so my best card has the best chance.
                # 12. Second hand: only with points on the table, and then with the best card.
                if to_play_after_me == 1 or trick_points or late:
                    return max(beaters, key=lambda c: STRENGTH[c])
            if beaters and trick_points and winner_seat == partner:
                # 13. Partner ahead but not safe: cover with a card nobody after me can beat.
                sure = [c for c in beaters if self._nobody_after_can_beat(view, c, others)]
                if sure:
                    return min(sure, key=lambda c: STRENGTH[c])
            # 14. Otherwise the cheapest card: no points, lowest power.
            return _weakest(cards)
        # Void in the led suit: any card may go.
        cards = cards_of(hand)
        if partner_sure:
            # 15. Give the partner an asso, from the suit with the fewest guards; else a figure.
            assi = [a for a in _ASSI if hand >> a & 1 and _master(a // 10, unplayed) != a]
            if assi:
                return min(assi, key=lambda a: (hand & SUIT_MASK[a // 10]).bit_count())
            figures = [c for c in cards if c % 10 >= 7]
            if figures:
                return min(figures, key=lambda c: STRENGTH[c])
        # 16. Throw a worthless card, from a suit without an asso to guard (the shortest first).
        lisci = [c for c in cards if _LISCI >> c & 1]
        if lisci:
            return min(
                lisci,
                key=lambda c: (hand >> _ASSI[c // 10] & 1, (hand & SUIT_MASK[c // 10]).bit_count(), STRENGTH[c]),
            )
        return min(cards, key=lambda c: (THIRDS[c], c % 10 in (1, 2), STRENGTH[c]))

    def _lead(self, view: SeatView, legal: list[int], partner: int, others: int, unplayed: int) -> int:
        p = view.public
        hand = view.hand
        # 1. Call out when the claim is already true.
        if CALL_OUT in legal and _claim_is_true(view):
            return CALL_OUT
        suits = [s for s in range(4) if hand & SUIT_MASK[s]]
        card = None
        # 2. Return the suit of a partner's busso: lead the highest card of it.
        for suit in _partner_busso_suits(view, partner):
            if hand & SUIT_MASK[suit]:
                card = max(cards_of(hand & SUIT_MASK[suit]), key=lambda c: STRENGTH[c])
                break
        # 3. Lead a master card (a 3, a 2, or a figure whose betters are out) while the suit still has
        #    cards out: it takes for sure, and the 3s and 2s draw out the assi. Until the last tricks
        #    keep a lone master: it is the entry to win the lead back when needed.
        if card is None:
            masters = [m for m in (_master(s, unplayed) for s in suits) if hand >> m & 1]
            takers = [m for m in masters if m % 10 != 0 and others & SUIT_MASK[m // 10]]
            if p.tricks_done < 8:
                takers = [m for m in takers if (hand & SUIT_MASK[m // 10]).bit_count() >= 2]
            if takers:
                card = max(takers, key=lambda m: (others & _HONOURS[m // 10]).bit_count())
        # 4. Lead a master asso: its point is safe now.
        if card is None:
            assi = [m for m in masters if m % 10 == 0 and others & SUIT_MASK[m // 10]]
            if assi:
                card = assi[0]
        # 5. Return the suit the partner opened.
        if card is None:
            for suit in _opened_by(view, partner):
                if hand & SUIT_MASK[suit]:
                    card = _low_lead(hand & SUIT_MASK[suit], unplayed)
                    break
        # 6. Otherwise lead low from the longest suit, never an unguarded asso.
        if card is None:
            safe = [s for s in suits if not _lone_asso(hand, s, unplayed)] or suits
            suit = max(safe, key=lambda s: ((hand & SUIT_MASK[s]).bit_count(), -s))
            card = _low_lead(hand & SUIT_MASK[suit], unplayed)
        return _with_signal(view, card, legal, unplayed)

    @staticmethod
    def _nobody_after_can_beat(view: SeatView, card: int, others: int) -> bool:
        """Whether no seat still to play in this trick can hold a higher card of the led suit."""
        p = view.public
        suit = card // 10
        higher = [c for c in cards_of(others & SUIT_MASK[suit]) if STRENGTH[c] > STRENGTH[card]]
        if not higher:
            return True
        me = view.seat
        after = [(me + k) % 4 for k in range(1, 4 - len(p.trick))]
        partner_known = p.revealed_by((me + 2) % 4)
        for seat in after:
            if p.is_void(seat, suit) or seat == (me + 2) % 4:
                continue
            if any(not partner_known >> c & 1 for c in higher):
                return False
        return True


def _master(suit: int, unplayed: int) -> int:
    """The highest unplayed card of ``suit`` (the "carta tre"), or -1."""
    for card in _BY_STRENGTH[suit]:
        if unplayed >> card & 1:
            return card
    return -1


def _lone_asso(hand: int, suit: int, unplayed: int) -> bool:
    """Holding the asso of ``suit`` while a 3 or 2 of it is still out and unguarded by our own 3/2."""
    asso = 10 * suit
    if not hand >> asso & 1 or _master(suit, unplayed) == asso:
        return False
    return not hand & ((1 << (asso + 1)) | (1 << (asso + 2)))


def _low_lead(cards: int, unplayed: int) -> int:
    """A low card of a suit to lead: a liscio if any, else the weakest that is not an asso."""
    options = cards_of(cards)
    lisci = [c for c in options if _LISCI >> c & 1]
    if lisci:
        return min(lisci, key=lambda c: STRENGTH[c])
    not_assi = [c for c in options if c % 10 != 0] or options
    return min(not_assi, key=lambda c: (THIRDS[c], STRENGTH[c]))


def _with_signal(view: SeatView, card: int, legal: list[int], unplayed: int) -> int:
    """The lead of ``card`` with the signal a club player would give (always a true one)."""
    hand = view.hand
    suit = card // 10
    rest = hand & SUIT_MASK[suit] & ~(1 << card)
    signal = 0
    if not rest:
        signal = VOLO  # my last card of the suit
    elif rest & _HONOURS[suit] and not hand >> _master(suit, unplayed) & 1:
        signal = BUSSO  # I keep an honour but not the master: partner, take and return
    elif rest.bit_count() >= 2 and not hand & _HONOURS[suit]:
        signal = STRISCIO  # a long suit without honours
    action = card + 40 * signal
    return action if action in legal else card


def club_signal(view: SeatView, card: int, legal: list[int]) -> int:
    """The heuristic's signalling convention as a ``signal_policy`` for other players (e.g. ``SearchPlayer``)."""
    if view.public.trick:
        return card  # only the leader signals
    return _with_signal(view, card, legal, _FULL & ~view.public.all_played)


def _partner_busso_suits(view: SeatView, partner: int) -> list[int]:
    """Suits the partner led with busso that I have not led back since."""
    out = []
    for leader, _, actions in view.public.tricks():
        if not actions:
            continue
        suit = actions[0] % 40 // 10
        if leader == partner and actions[0] // 40 == BUSSO and suit not in out:
            out.append(suit)
        elif leader == view.seat and suit in out:
            out.remove(suit)
    return out


def _opened_by(view: SeatView, seat: int) -> list[int]:
    """Suits ``seat`` led this hand, most recent first."""
    out = []
    for leader, cards, _ in reversed(view.public.tricks()):
        if leader == seat and cards and cards[0] // 10 not in out:
            out.append(cards[0] // 10)
    return out


def _claim_is_true(view: SeatView) -> bool:
    """Whether calling out now wins: the match score plus this hand's points reach the target."""
    p = view.public
    team = view.seat % 2
    points = team_points(p.thirds[team], p.accusi.points[team])
    return p.match_score[team] + points >= p.rules.target_score


def family_heuristic(game: str):
    """The heuristic player of a game other than the four-seat one: its catalog entry's (made once), or the generic one."""
    from ..catalog import entry

    return entry(game).heuristic_player()
