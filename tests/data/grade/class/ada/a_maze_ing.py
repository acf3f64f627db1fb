"""A-Maze-ing: read the config, build the maze, write it."""

import sys

from mazegen import MazeGenerator
from mazegen.config import ConfigError, read_config


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: python3 a_maze_ing.py config.txt", file=sys.stderr)
        return 1
    try:
        settings = read_config(sys.argv[1])
    except (ConfigError, OSError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    generator = MazeGenerator(
        settings["WIDTH"],
        settings["HEIGHT"],
        settings["ENTRY"],
        settings["EXIT"],
        seed=settings.get("SEED"),
    )
    if not generator.has_pattern:
        print("Warning: maze too small to draw the 42 pattern", file=sys.stderr)
    try:
        with open(settings["OUTPUT_FILE"], "w") as output:
            output.write(generator.to_text())
    except OSError as error:
        print(f"Error: cannot write {settings['OUTPUT_FILE']}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"Maze written to {settings['OUTPUT_FILE']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
