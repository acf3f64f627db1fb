"""A-Maze-ing that asks first: 1 writes the maze, 2 quits."""

import sys

from mazekit import ConfigError, dump_maze, generate, load_config

print("1) generate the maze")
print("2) quit")
if input("choice: ").strip() == "1":
    try:
        config = load_config(sys.argv[1])
        maze = generate(
            config.width,
            config.height,
            entry=config.entry,
            exit=config.exit,
            perfect=config.perfect,
            seed=config.seed,
        )
        with open(config.output_file, "w") as output:
            output.write(dump_maze(maze))
    except (ConfigError, OSError) as error:
        sys.exit(f"Error: {error}")
