"""A-Maze-ing drawn in a window: write the maze file, then show it (X11 through ctypes)."""

import ctypes
import sys

from mazekit import ConfigError, dump_maze, generate, load_config


def show() -> None:
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XCreateSimpleWindow.argtypes = (
        [ctypes.c_void_p, ctypes.c_ulong]
        + [ctypes.c_int] * 4
        + [ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
    )
    x11.XCreateSimpleWindow.restype = ctypes.c_ulong
    x11.XMapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(None)
    if not display:
        raise RuntimeError("mlx_init: cannot open display")
    window = x11.XCreateSimpleWindow(
        display, x11.XDefaultRootWindow(display), 0, 0, 400, 300, 1, 0, 0xFFFFFF
    )
    x11.XMapWindow(display, window)
    x11.XSync(display, 0)
    print(f"window {window} opened")
    x11.XCloseDisplay(display)


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
show()
