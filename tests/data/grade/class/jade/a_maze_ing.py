"""A-Maze-ing in the terminal: write the maze file, then draw it with curses."""

import curses
import sys

from mazekit import ConfigError, dump_maze, generate, load_config


def draw(screen: "curses.window") -> None:
    screen.addstr(0, 0, "maze written: press any key")
    screen.refresh()
    screen.timeout(200)
    screen.getch()


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
curses.wrapper(draw)
