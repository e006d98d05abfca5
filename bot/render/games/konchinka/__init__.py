"""Кончинка's screens."""
