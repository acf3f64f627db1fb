"""Grades as text for people, JSON for scripts, the table of ``grade --all`` (text or CSV),
and JUnit XML for the CI of graders."""

from __future__ import annotations

import csv
import io
import json
from xml.etree import ElementTree

from ..errors import printable
from .checks import Outcome
from .grader import Grade, Part

__all__ = ["as_csv", "as_json", "as_junit", "as_table", "as_text", "interpreter", "summary"]

_WIDTH = 7  # "TIMEOUT"
_INDENT = " " * (_WIDTH + 1)


def interpreter(grade: Grade) -> str:
    """``interpreter: <path> (Python <version>), run as <user>``: what ran the programs."""
    version = f" (Python {grade.python_version})" if grade.python_version else ""
    return f"interpreter: {printable(grade.python)}{version}, run as {printable(grade.user)}"


def _part(part: Part) -> str:
    shown = f"{part.name} {part.passed}/{part.total}"
    return shown if part.counted else f"{shown}, not counted: no generation case passed"


def summary(grade: Grade) -> str:
    """``<submission>: <p>/<n> passed, score <s>% (generation <p>/<n>, error handling <p>/<n>)``,
    the files too with --strict."""
    name = printable(grade.submission)
    parts = ", ".join(_part(part) for part in grade.parts)
    return f"{name}: {grade.passed}/{grade.total} passed, score {grade.score}%" + (
        f" ({parts})" if parts else ""
    )


def _tails(outcome: Outcome) -> list[str]:
    """The lines that show what a failed run printed, indented under its case."""
    lines = []
    for stream, text in (("stdout", outcome.stdout_tail), ("stderr", outcome.stderr_tail)):
        for number, line in enumerate(text.splitlines()):
            label = f"{stream}: " if number == 0 else " " * (len(stream) + 2)
            lines.append(f"{_INDENT}{label}{line}")
    return lines


def as_text(grade: Grade) -> str:
    """The interpreter line (and the environment line), an ``error:`` line when the
    submission could not be graded, one line per case (what a failed one printed under it),
    the required files, the ``note:`` lines, then the summary line."""
    lines = [interpreter(grade), *_environment(grade)] if grade.python else []
    if grade.error is not None:
        lines.append(f"error: {printable(grade.error)}")
    for outcome in grade.outcomes:
        reason = f": {outcome.reason}" if outcome.reason else ""
        scored = "" if outcome.scored else " (not scored)"
        lines.append(f"{outcome.verdict:<{_WIDTH}} {outcome.case}{scored}{reason}")
        lines.extend(_tails(outcome))
    if grade.files:
        scored = "scored" if grade.strict else "not scored; --strict scores them"
        lines.append(f"required files ({scored}):")
        for check in grade.files:
            lines.append(
                f"{'ok' if check.ok else 'MISSING':<{_WIDTH}} {check.name}: {check.detail}"
            )
    lines += _notes(grade)
    lines.append(summary(grade))
    return "\n".join(lines) + "\n"


def _part_document(part: Part) -> dict[str, object]:
    return {
        "passed": part.passed,
        "total": part.total,
        "percent": part.percent,
        "counted": part.counted,
    }


def _document(grade: Grade) -> dict[str, object]:
    return {
        "submission": printable(grade.submission),  # valid UTF-8 whatever the folder's name
        "error": None if grade.error is None else printable(grade.error),
        "score": grade.score,
        "generation": _part_document(grade.generation),
        "error_handling": _part_document(grade.error_handling),
        "passed": grade.passed,
        "total": grade.total,
        "strict": grade.strict,
        "python": {"path": printable(grade.python), "version": grade.python_version},
        "user": printable(grade.user),
        "environment": None
        if grade.environment is None
        else {"python": printable(grade.environment.python), "made_by": grade.environment.made_by},
        "warnings": list(grade.warnings),
        "notes": list(grade.notes),
        "cases": [
            {
                "case": o.case,
                "verdict": o.verdict,
                "reason": o.reason,
                "seconds": round(o.seconds, 3),
                "part": o.part,
                "scored": o.scored,
                "stdout_tail": o.stdout_tail,
                "stderr_tail": o.stderr_tail,
            }
            for o in grade.outcomes
        ],
        "files": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in grade.files],
    }


def as_json(grades: Grade | list[Grade]) -> str:
    """One submission as one JSON object; several as a list in the order given."""
    if isinstance(grades, Grade):
        return json.dumps(_document(grades), indent=2) + "\n"
    return json.dumps([_document(g) for g in grades], indent=2) + "\n"


_COLUMNS = (
    "score",
    "generation",
    "error_handling",
    "passed",
    "total",
    "fail",
    "crash",
    "timeout",
    "submission",
    "error",
)


def _row(grade: Grade) -> list[str]:
    scored = [o.verdict for o in grade.outcomes if o.scored]  # as passed and total count
    counts = [scored.count(v) for v in ("FAIL", "CRASH", "TIMEOUT")]
    parts = [
        str(part.percent) if part.counted and part.total else "-"
        for part in (grade.generation, grade.error_handling)
    ]
    numbers = [str(n) for n in (grade.passed, grade.total, *counts)]
    return [
        str(grade.score),
        *parts,
        *numbers,
        printable(grade.submission),
        printable(grade.error or ""),
    ]


def _notes(grade: Grade) -> list[str]:
    """The ``note:`` lines of a submission, as its own report says them."""
    return [f"note: {printable(note)}" for note in grade.notes]


def _environment(grade: Grade) -> list[str]:
    """``environment: <python> (made by --setup)``: the virtual environment the submission's
    programs ran in instead of the interpreter as is, if any."""
    found = grade.environment
    if found is None:
        return []
    return [f"environment: {printable(found.python)} (made by {found.made_by})"]


def as_table(grades: list[Grade]) -> str:
    """The summary table of ``--all``: the interpreter line(s), then one aligned row per
    submission, as given (by score), its environment and notes under it in the submission
    column."""
    rows = [list(_COLUMNS), *(_row(g) for g in grades)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS) - 2)]
    indent = " " * (sum(widths) + 2 * len(widths))  # where the submission column starts
    lines = sorted({interpreter(g) for g in grades if g.python})
    for row, grade in zip(rows, [None, *grades], strict=True):
        numbers = [cell.rjust(width) for cell, width in zip(row, widths, strict=False)]
        error = f"  {row[-1]}" if row[-1] else ""
        lines.append("  ".join([*numbers, row[-2]]) + error)
        below = [*_environment(grade), *_notes(grade)] if grade else []
        lines += [indent + line for line in below]
    return "\n".join(lines) + "\n"


def as_csv(grades: list[Grade]) -> str:
    """The same table as CSV, with a header row (and no interpreter line), and a last column
    of the submission's notes joined by ``; ``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*_COLUMNS, "notes"])
    writer.writerows([*_row(g), "; ".join(printable(n) for n in g.notes)] for g in grades)
    return buffer.getvalue()


def _failure_text(outcome: Outcome) -> str:
    """A failed case's reason, then its output tails, as the body of a JUnit failure (escaped:
    XML 1.0 cannot hold most control characters)."""
    lines = [printable(outcome.reason)]
    for stream, text in (("stdout", outcome.stdout_tail), ("stderr", outcome.stderr_tail)):
        if text:
            lines += [f"{stream}:", *(f"  {line}" for line in text.splitlines())]
    return "\n".join(lines)


def _suite(grade: Grade) -> ElementTree.Element:
    """One testsuite: a testcase per case (and per required file with --strict)."""
    name = printable(grade.submission)
    suite = ElementTree.Element("testsuite", name=name)
    failures = skipped = errors = 0
    if grade.error is not None:
        case = ElementTree.SubElement(suite, "testcase", classname=name, name="grading")
        ElementTree.SubElement(case, "error", message=printable(grade.error))
        errors += 1
    for outcome in grade.outcomes:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            classname=f"{name}.{outcome.part.replace(' ', '-')}",
            name=outcome.case,
            time=f"{outcome.seconds:.3f}",
        )
        if outcome.verdict == "SKIP" or not outcome.scored:  # reported, never a failure
            shown = _failure_text(outcome) if outcome.reason else "not scored"
            ElementTree.SubElement(case, "skipped", message=f"{outcome.verdict}: {shown}")
            skipped += 1
        elif outcome.verdict in ("FAIL", "CRASH", "TIMEOUT"):
            failure = ElementTree.SubElement(
                case, "failure", type=outcome.verdict, message=_failure_text(outcome)
            )
            failure.text = _failure_text(outcome)
            failures += 1
    if grade.strict:
        for check in grade.files:
            case = ElementTree.SubElement(
                suite, "testcase", classname=f"{name}.files", name=check.name
            )
            if not check.ok:
                ElementTree.SubElement(
                    case, "failure", type="MISSING", message=printable(check.detail)
                )
                failures += 1
    suite.set("tests", str(len(suite)))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    suite.set("time", f"{sum(o.seconds for o in grade.outcomes):.3f}")
    if grade.python:
        properties = ElementTree.Element("properties")
        for key, value in (
            ("score", str(grade.score)),
            ("interpreter", interpreter(grade).removeprefix("interpreter: ")),
            *(("environment", line.removeprefix("environment: ")) for line in _environment(grade)),
            *(("note", printable(note)) for note in grade.notes),
        ):
            ElementTree.SubElement(properties, "property", name=key, value=value)
        suite.insert(0, properties)
    return suite


def as_junit(grades: Grade | list[Grade]) -> str:
    """JUnit XML: one testsuite per submission, one testcase per case; a FAIL, CRASH or
    TIMEOUT is a failure whose message holds its reason and the program's output tails."""
    every = [grades] if isinstance(grades, Grade) else grades
    root = ElementTree.Element("testsuites", name="mazekit grade")
    for grade in every:
        root.append(_suite(grade))
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(sum(int(suite.get(key, "0")) for suite in root)))
    ElementTree.indent(root)
    body = ElementTree.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
