"""The terminal front end: ``python -m bot play <game>`` (one person against the computer).

It shows the Telegram screens' own texts (``bot/render``, the locales' catalogues) as plain
text and reads actions from standard input; it needs no token, no database and no network.
"""
