"""``python -m mazekit``: the same entry point as the ``mazekit`` command."""

from mazekit.cli import main

if __name__ == "__main__":
    main()
