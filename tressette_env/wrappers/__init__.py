"""Gymnasium environments built on the game: one learning seat, the others played by given players."""

from .single_seat import SingleSeatEnv

__all__ = ["SingleSeatEnv"]
