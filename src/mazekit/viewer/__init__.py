"""The interactive terminal viewer behind ``mazekit view`` (specs/view.md).

``state`` holds what the viewer shows and what each key does, as plain code that tests can
drive without a terminal; ``screen`` paints that state with curses and owns the terminal
(raw keys, colours, resize, and restoring the terminal on every way out).
"""

from __future__ import annotations

from .state import KEYS, Setup, Viewer

__all__ = ["KEYS", "Setup", "Viewer"]
