"""Grade whole A-Maze-ing submissions: run the program on the evaluation's configs, judge them.

cases (the configs), sandbox (the limited runner), isolation (namespaces, Xvfb, a terminal),
tree (copies and removals of any depth), install (--install, --setup), checks (verdicts
through rules.validate), files (the required files), grader (the orchestration) and report
(text, JSON, CSV).
specs/grade.md is the contract, including what the sandbox does not protect against.
"""

from __future__ import annotations

from .cases import CASE_NAMES, CASES, Case
from .checks import Outcome
from .files import FileCheck
from .grader import DEFAULT_ENTRY, Grade, Options, grade, grade_all
from .sandbox import GradeError, Interaction, Limits

__all__ = [
    "CASES",
    "CASE_NAMES",
    "DEFAULT_ENTRY",
    "Case",
    "FileCheck",
    "Grade",
    "GradeError",
    "Interaction",
    "Limits",
    "Options",
    "Outcome",
    "grade",
    "grade_all",
]
