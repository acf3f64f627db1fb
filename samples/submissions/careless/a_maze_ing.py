"""A careless A-Maze-ing program, for trying `mazekit grade`: it trusts its config and its seed."""

import sys

from mazekit import dump_maze, generate

values = dict(line.strip().split("=", 1) for line in open(sys.argv[1]) if line.strip())
width, height = int(values["WIDTH"]), int(values["HEIGHT"])
entry = tuple(int(v) for v in values["ENTRY"].split(","))
exit_ = tuple(int(v) for v in values["EXIT"].split(","))
maze = generate(width, height, entry=entry, exit=exit_, perfect=values["PERFECT"] == "True")
with open(values["OUTPUT_FILE"], "w") as handle:
    handle.write(dump_maze(maze))
