#!/usr/bin/env python3
"""Maze generator (randomised Prim) with a "42" drawn in closed cells."""

import random
import sys
from collections import deque

KEYS = {"WIDTH", "HEIGHT", "ENTRY", "EXIT", "OUTPUT_FILE", "PERFECT", "SEED"}
# my own 42: the 4 is closed at the top
LOGO = ("X.X.XXX", "X.X...X", "XXX.XXX", "..X.X..", "..X.XXX")
DIRS = [("N", 0, -1, 1, 4), ("E", 1, 0, 2, 8), ("S", 0, 1, 4, 1), ("W", -1, 0, 8, 2)]


def fail(message):
    print("Error:", message)
    sys.exit(1)


def parse(path):
    conf = {}
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        fail(f"cannot open {path}: {e.strerror}")
    for line in lines:
        if line.strip() == "" or line.startswith("#"):
            continue
        if "=" not in line:
            fail(f"bad line: {line}")
        k, v = line.split("=", 1)
        if k not in KEYS:
            fail(f"unknown key '{k}' (keys are upper case)")
        conf[k] = v.strip()
    for k in KEYS - {"SEED"}:
        if k not in conf:
            fail(f"{k} is missing")
    try:
        w, h = int(conf["WIDTH"]), int(conf["HEIGHT"])
        entry = tuple(int(n) for n in conf["ENTRY"].split(","))
        exit_ = tuple(int(n) for n in conf["EXIT"].split(","))
        seed = int(conf["SEED"]) if "SEED" in conf else None
    except ValueError:
        fail("WIDTH, HEIGHT, ENTRY, EXIT and SEED must be numbers")
    if w <= 0 or h <= 0:
        fail("the size must be positive")
    if len(entry) != 2 or len(exit_) != 2:
        fail("ENTRY and EXIT are x,y")
    if conf["PERFECT"] not in ("True", "False"):
        fail("PERFECT must be True or False")
    for cell in (entry, exit_):
        if not (0 <= cell[0] < w and 0 <= cell[1] < h):
            fail(f"{cell} is not in the maze")
    if entry == exit_:
        fail("entry and exit are the same")
    return w, h, entry, exit_, conf["OUTPUT_FILE"], seed


def logo_cells(w, h):
    if w < 9 or h < 7:
        print("Error: maze too small, no 42 drawn")
        return set()
    left, top = (w - 7) // 2, (h - 5) // 2
    return {
        (left + i, top + j) for j, row in enumerate(LOGO) for i, c in enumerate(row) if c == "X"
    }


def prim(w, h, start, blocked, rng):
    walls = [[15] * w for _ in range(h)]
    done = {start}
    frontier = []

    def add(x, y):
        for _, dx, dy, bit, back in DIRS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in blocked:
                frontier.append((x, y, nx, ny, bit, back))

    add(*start)
    while frontier:
        x, y, nx, ny, bit, back = frontier.pop(rng.randrange(len(frontier)))
        if (nx, ny) in done:
            continue
        walls[y][x] -= bit
        walls[ny][nx] -= back
        done.add((nx, ny))
        add(nx, ny)
    return walls


def shortest(walls, start, goal):
    prev = {start: None}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for letter, dx, dy, bit, _ in DIRS:
            if walls[y][x] & bit == 0 and (x + dx, y + dy) not in prev:
                prev[(x + dx, y + dy)] = (x, y, letter)
                todo.append((x + dx, y + dy))
    letters = []
    while prev[goal]:
        x, y, letter = prev[goal]
        letters.append(letter)
        goal = (x, y)
    return "".join(letters[::-1])


def main():
    if len(sys.argv) < 2:
        fail("usage: a_maze_ing.py <config>")
    w, h, entry, exit_, out, seed = parse(sys.argv[1])
    blocked = logo_cells(w, h)
    if entry in blocked or exit_ in blocked:
        fail("entry or exit inside the 42")
    walls = prim(w, h, entry, blocked, random.Random(seed))
    text = "\n".join("".join("%X" % c for c in row) for row in walls)
    text += "\n\n%d,%d\n%d,%d\n%s\n" % (*entry, *exit_, shortest(walls, entry, exit_))
    try:
        with open(out, "w") as f:
            f.write(text)
    except OSError as e:
        fail(f"{out}: {e.strerror}")


main()
