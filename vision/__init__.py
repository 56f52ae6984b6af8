"""Seeing the board: synthetic renders, localisation, checkers, dice and cube."""
