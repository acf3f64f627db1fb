"""The output of ``mazekit validate``: text, JSON, JSON Lines and CSV, and the run's tally.

batch.py says which files a run checks and checks them; this module turns each Report into
the bytes of specs/validate.md, the way grade/report.py serves grade. It returns text and
never prints: cli/validate.py writes what it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .batch import Job
from .rules import RULE_IDS, RULES, Report

__all__ = ["CSV_HEADER", "FORMATS", "SCHEMA_VERSION", "Output", "Tally", "document"]

FORMATS = ("text", "json", "jsonl", "csv")
SCHEMA_VERSION = 1
CSV_HEADER = ("file", "line", "column", "rule", "cell", "message")
_SUMMARY = {rule.id: rule.summary for rule in RULES}


def text_lines(report: Report, quiet: bool) -> list[str]:
    """The text block of one checked file (an unreadable one prints on stderr instead)."""
    name = report.source
    if report.valid:
        return [] if quiet else [f"{name}: ok"]
    lines = [f"{name}: hint: {hint}" for hint in report.hints]
    for rule in report.rules_broken():
        for v in report.violations:
            if v.rule == rule:
                lines.append(f"{name}:{v.line}:{v.column}: {v.rule}: {v.message}")
        if rule in report.omitted:
            lines.append(f"{name}: +{report.omitted[rule]} more {rule} violations")
    counts = ", ".join(f"{rule} {count}" for rule, count in report.counts.items())
    total = report.count()
    lines.append(f"{name}: {total} violation{'s' if total != 1 else ''} ({counts})")
    return lines


def csv_rows(report: Report) -> list[list[object]]:
    """One CSV row per violation; a file that could not be checked gives one row, its error."""
    if report.error is not None:
        return [[report.source, "", "", "", "", report.error]]
    return [
        [
            report.source,
            v.line,
            v.column,
            v.rule,
            "" if v.cell is None else f"{v.cell[0]},{v.cell[1]}",
            v.message,
        ]
        for v in report.violations
    ]


def csv_text(rows: Sequence[Sequence[object]]) -> str:
    """Rows as RFC 4180 CSV: CRLF line ends, fields quoted when they need it."""
    import csv
    import io

    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


class Tally:
    """What the closing lines, the JSON totals and the exit status need from every file."""

    def __init__(self) -> None:
        """Nothing counted yet."""
        self.files = 0
        self.valid = 0
        self.not_found = 0
        self.run_error: str | None = None
        self.by_rule: dict[str, int] = {}

    def add(self, job: Job, report: Report) -> None:
        """Count one checked Job; the first path that matched nothing is the run's error."""
        self.files += 1
        self.valid += report.valid
        if job.missing is not None:
            self.not_found += 1
            if self.run_error is None:
                self.run_error = f"{report.source}: {report.error}"
        for rule, count in report.counts.items():
            self.by_rule[rule] = self.by_rule.get(rule, 0) + count

    @property
    def invalid(self) -> int:
        """Files checked or unreadable that are not valid (paths matching nothing apart)."""
        return self.files - self.valid - self.not_found

    def totals(self) -> dict[str, Any]:
        """The ``totals`` object of the JSON document."""
        violations = {rule: self.by_rule[rule] for rule in RULE_IDS if rule in self.by_rule}
        return {
            "files": self.files,
            "valid": self.valid,
            "invalid": self.files - self.valid,
            "violations": violations,
        }

    def summary(self) -> str:
        """The closing ``<n> files: ...`` line."""
        line = f"{self.files} files: {self.valid} ok, {self.invalid} invalid"
        return line + (f", {self.not_found} not found" if self.not_found else "")

    def statistics(self) -> list[str]:
        """``--statistics``: violations per rule over every file, most frequent first."""
        order = sorted(self.by_rule, key=lambda rule: (-self.by_rule[rule], RULE_IDS.index(rule)))
        width = max((len(str(count)) for count in self.by_rule.values()), default=1)
        return [f"{self.by_rule[rule]:>{width}}  {rule:<12}  {_SUMMARY[rule]}" for rule in order]


def document(error: str | None, entries: list[dict[str, Any]], tally: Tally) -> str:
    """The one JSON document of ``--format json`` (specs/validate.md, validate.schema.json)."""
    import json  # only the machine formats need it

    found = {
        "schema_version": SCHEMA_VERSION,
        "valid": error is None and tally.valid == tally.files,
        "error": error,
        "files": entries,
        "totals": tally.totals(),
    }
    return json.dumps(found, indent=2)


class Output:
    """One run's output in one format: what to print before, for each file, and after."""

    def __init__(self, output_format: str, statistics: bool, quiet: bool) -> None:
        """An empty run in ``output_format`` (one of FORMATS)."""
        self.format = output_format
        self.statistics = statistics
        self.quiet = quiet
        self.tally = Tally()
        self.entries: list[dict[str, Any]] = []  # the JSON document's files, kept to the end

    def start(self) -> str:
        """What comes before the first file: the CSV header."""
        return csv_text([CSV_HEADER]) if self.format == "csv" else ""

    def add(self, job: Job, report: Report) -> tuple[str, str]:
        """Count one file; its text for stdout and for stderr (each may be empty)."""
        self.tally.add(job, report)
        err = "" if report.error is None else f"Error: {report.source}: {report.error}\n"
        if self.format == "json":
            self.entries.append(report.to_dict())
            return "", err
        if self.format == "jsonl":
            import json  # only the machine formats need it

            return json.dumps(report.to_dict()) + "\n", err
        if self.format == "csv":
            return csv_text(csv_rows(report)), err
        if self.statistics or report.error is not None:
            return "", err
        return "".join(f"{line}\n" for line in text_lines(report, self.quiet)), err

    def end(self) -> str:
        """What comes after the last file: the document, or the closing lines."""
        if self.format == "json":
            return document(self.tally.run_error, self.entries, self.tally) + "\n"
        lines: list[str] = []
        if self.format == "text":
            if self.statistics:
                lines += self.tally.statistics()
            if (self.tally.files > 1 or self.statistics) and not self.quiet:
                lines.append(self.tally.summary())
        return "".join(f"{line}\n" for line in lines)

    def broken(self, error: Exception) -> str:
        """After an internal error: the JSON document still comes, with what was checked."""
        if self.format != "json":
            return ""
        message = f"internal error: {type(error).__name__}: {error}"
        return document(message, self.entries, self.tally) + "\n"
