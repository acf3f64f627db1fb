"""A-Maze-ing: the program (a_maze_ing.py was left empty)."""

import sys

from mazekit import ConfigError, dump_maze, generate, load_config

if __name__ == "__main__":
    try:
        config = load_config(sys.argv[1])
    except ConfigError as error:
        sys.exit(f"Error: {error}")
    with open(config.output_file, "w") as output:
        output.write(dump_maze(generate(config.width, config.height, seed=config.seed)))
