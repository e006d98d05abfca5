"""Копилка's screens."""
