"""Grades as text for people, JSON for scripts, and the CSV table of ``grade --all``."""

from __future__ import annotations

import csv
import io
import json

from ..errors import printable
from .grader import Grade

__all__ = ["as_csv", "as_json", "as_table", "as_text", "summary"]

_WIDTH = 7  # "TIMEOUT"


def summary(grade: Grade) -> str:
    """``<submission>: <p>/<n> passed, score <s>%`` (files counted only with --strict)."""
    name = printable(grade.submission)
    return f"{name}: {grade.passed}/{grade.total} passed, score {grade.score}%"


def as_text(grade: Grade) -> str:
    """One line per case, the required files, then the summary line."""
    lines = [] if grade.error is None else [f"error: {printable(grade.error)}"]
    for outcome in grade.outcomes:
        reason = f": {outcome.reason}" if outcome.reason else ""
        lines.append(f"{outcome.verdict:<{_WIDTH}} {outcome.case}{reason}")
    if grade.files:
        scored = "scored" if grade.strict else "not scored; --strict scores them"
        lines.append(f"required files ({scored}):")
        for check in grade.files:
            lines.append(
                f"{'ok' if check.ok else 'MISSING':<{_WIDTH}} {check.name}: {check.detail}"
            )
    lines += [f"note: {note}" for note in grade.notes]
    lines.append(summary(grade))
    return "\n".join(lines) + "\n"


def _document(grade: Grade) -> dict[str, object]:
    return {
        "submission": printable(grade.submission),  # valid UTF-8 whatever the folder's name
        "error": None if grade.error is None else printable(grade.error),
        "score": grade.score,
        "passed": grade.passed,
        "total": grade.total,
        "strict": grade.strict,
        "warnings": list(grade.warnings),
        "notes": list(grade.notes),
        "cases": [
            {
                "case": o.case,
                "verdict": o.verdict,
                "reason": o.reason,
                "seconds": round(o.seconds, 3),
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


_COLUMNS = ("score", "passed", "total", "fail", "crash", "timeout", "submission", "error")


def _row(grade: Grade) -> list[str]:
    counts = [grade.count(v) for v in ("FAIL", "CRASH", "TIMEOUT")]
    numbers = [grade.score, grade.passed, grade.total, *counts]
    return [*(str(n) for n in numbers), printable(grade.submission), printable(grade.error or "")]


def as_table(grades: list[Grade]) -> str:
    """The summary table of ``--all``: one aligned row per submission, as given (by score)."""
    rows = [list(_COLUMNS), *(_row(g) for g in grades)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS) - 2)]
    lines = []
    for row in rows:
        numbers = [cell.rjust(width) for cell, width in zip(row, widths, strict=False)]
        error = f"  {row[-1]}" if row[-1] else ""
        lines.append("  ".join([*numbers, row[-2]]) + error)
    return "\n".join(lines) + "\n"


def as_csv(grades: list[Grade]) -> str:
    """The same table as CSV, with a header row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_COLUMNS)
    writer.writerows(_row(g) for g in grades)
    return buffer.getvalue()
