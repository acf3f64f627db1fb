"""A-Maze-ing with the subject's MLX and its own mazegen package (shipped as wheels)."""

import sys

import mlx
from mazegen import maze_text

with open(sys.argv[1]) as lines:
    config = dict(line.strip().split("=", 1) for line in lines if "=" in line)
with open(config["OUTPUT_FILE"], "w") as output:
    output.write(maze_text())
print(f"maze written; {mlx.Mlx().mlx_init()}")
