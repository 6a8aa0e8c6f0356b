"""``python -m autodidact``."""

from autodidact.cli import main

main()
