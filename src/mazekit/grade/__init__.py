"""Grade whole A-Maze-ing submissions: run the program on the evaluation's configs, judge them.

cases (the configs), sandbox (the limited runner), isolation (namespaces, Xvfb, a terminal),
tree (copies and removals of any depth), install (--install, --setup), checks (verdicts
through rules.validate), files (the required files), grader (the orchestration and the score)
and report (text, JSON, CSV, JUnit).
specs/grade.md is the contract, including what the sandbox does not protect against.
"""

from __future__ import annotations

from ..errors import GradeError
from .cases import CASE_NAMES, CASES, Case
from .checks import Outcome
from .files import FileCheck
from .grader import DEFAULT_ENTRY, Environment, Grade, Options, Part, grade, grade_all
from .sandbox import Interaction, Limits

__all__ = [
    "CASES",
    "CASE_NAMES",
    "DEFAULT_ENTRY",
    "Case",
    "Environment",
    "FileCheck",
    "Grade",
    "GradeError",
    "Interaction",
    "Limits",
    "Options",
    "Outcome",
    "Part",
    "grade",
    "grade_all",
]
