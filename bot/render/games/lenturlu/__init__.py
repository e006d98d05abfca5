"""Лентюрлю's screens."""
