"""The terminal front end: ``python -m bot play <game>`` (one person against the computer).

It shows the Telegram screens' own texts (``bot/render``, the locales' catalogues) as plain
text, their tap instructions said for a keyboard (``hints``), and reads moves from standard
input as a person types them (``words``: the line's parts; ``moves``: which legal action they
name; ``session``: the turns; ``play``: the command line). It needs no token, no database and
no network. aiogram is still imported (``bot/render`` builds its keyboards as aiogram types;
they are not shown here), which is most of the start-up time; nothing of it talks to Telegram.
"""
