"""What a press on a hand message means, per game family (the callback data itself is
parsed in bot/callbacks.py)."""
