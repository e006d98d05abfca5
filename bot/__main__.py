"""``python -m bot``: start the bot (the bot itself lands with issue #3)."""

from __future__ import annotations

import sys


def main() -> int:
    sys.stderr.write("the bot is not built yet (issue #3); the engine works: python -m engine\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
