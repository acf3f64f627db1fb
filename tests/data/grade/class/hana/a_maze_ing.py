"""A-Maze-ing with a menu: write the maze, then loop on the menu until 'q'."""

import sys

from mazekit import ConfigError, dump_maze, generate, load_config


def write(path: str) -> None:
    config = load_config(path)
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


def main() -> None:
    try:
        write(sys.argv[1])
    except (ConfigError, OSError) as error:
        print(f"Error: {error}")
        return
    while True:  # at the end of input, input() fails and the menu asks again
        print("1) regenerate  2) show path  q) quit")
        try:
            choice = input("> ")
        except EOFError:
            continue
        if choice == "q":
            return


main()
