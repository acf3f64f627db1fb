"""A-Maze-ing: the mazegen package does the work (installed from src/ by `make install`)."""

import sys

from mazegen import read_config, write_maze

if __name__ == "__main__":
    try:
        settings = read_config(sys.argv[1])
    except (OSError, ValueError) as error:
        sys.exit(f"Error: {error}")
    write_maze(settings)
