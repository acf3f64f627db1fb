"""grade on a class: tests/data/grade/class, submissions written after real ones (its README).

The whole class is graded once per session (``class_grades``) and every test reads that one
run: the ranking, each submission's telling verdicts, the reports. A few cheap runs with
--case test the options (--keep, --pattern strict).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from mazekit.grade import FileCheck, Grade, Outcome
from mazekit.grade.cases import ERRORS
from mazekit.grade.checks import TAIL_CHARS, tail
from mazekit.grade.grader import NOT_EXITING, ranked
from mazekit.grade.report import as_json, as_junit, as_table, as_text
from tests.conftest import Invoke
from tests.grade_class import BROKEN, CLASS, HANA_TIMEOUT, PYTHON, SHORT, WORKING, ClassRun


@pytest.fixture
def class_grades(graded_class: ClassRun) -> dict[str, Grade]:
    """The whole class, graded once for the session (tests.grade_class)."""
    return graded_class.grades


def verdicts(grade: Grade) -> dict[str, tuple[str, str]]:
    return {o.case: (o.verdict, o.reason) for o in grade.outcomes}


def test_the_ranking_puts_every_working_submission_above_every_broken_one(
    class_grades: dict[str, Grade],
) -> None:
    """The --all table of the whole class, each graded with the options it needs (its
    README): the menus, windows, curses, --install and --setup ones as well."""
    assert sorted(class_grades) == sorted(WORKING + BROKEN)
    table = as_table(ranked(class_grades.values())).splitlines()
    header = next(n for n, row in enumerate(table) if row.split()[:1] == ["score"])
    assert all(line.startswith("interpreter: ") for line in table[:header])
    assert any(line.startswith(f"interpreter: {PYTHON} (Python ") for line in table[:header])
    assert table[header].split()[:3] == ["score", "generation", "error_handling"]
    rows = [row for row in table[header + 1 :] if row.split()[0].isdigit()]
    order = [Path(row.split()[8]).name for row in rows]
    # under its row, what a submission's own report says after its interpreter line, and its
    # notes: noor's --setup made .venv in its copy, hana's menu waits
    under = {
        Path(row.split()[8]).name: [*table, ""][n + 1].strip()
        for n, row in enumerate(table)
        if row in rows
    }
    assert under["noor"] == "environment: ./.venv/bin/python (made by --setup)"
    assert under["hana"] == "note: does not exit by itself"
    assert sorted(order[: len(WORKING)]) == sorted(WORKING)
    assert min(class_grades[name].score for name in WORKING) > 0
    assert max(class_grades[name].score for name in BROKEN) == 0
    # the best two make mazes the subject accepts: the "42" one column right, or another glyph
    assert class_grades["ada"].score == class_grades["ben"].score == 90
    mia = rows[order.index("mia")]
    assert mia.endswith("a_maze_ing.py is empty; main.py looks like the program: --entry main.py")


def test_a_program_that_does_not_exit_passes_with_one_note(
    class_grades: dict[str, Grade],
) -> None:
    """hana's menu loops at the end of its input: every maze it wrote passes, seed-twice's two
    runs as well, and the submission is told once."""
    hana = class_grades["hana"]
    waited = f"then kept running: stopped after {HANA_TIMEOUT:g} s"
    assert [(o.case, o.verdict, o.reason) for o in hana.outcomes if o.part != ERRORS] == [
        (case, "PASS", waited) for case in SHORT[:3]
    ]
    assert hana.notes == (NOT_EXITING,) == ("does not exit by itself",)
    assert as_text(hana).count("note: does not exit by itself\n") == 1
    assert hana.score == 100
    assert json.loads(as_json(hana))["notes"] == ["does not exit by itself"]


def test_a_42_centred_at_w_2_minus_3_is_the_subjects_42(class_grades: dict[str, Grade]) -> None:
    ada = verdicts(class_grades["ada"])
    for case in ("perfect-20x15", "smallest-42", "perfect-50x40", "seed-twice"):
        assert ada[case] == ("PASS", "")
    # ada refuses an entry on its own "42" (x0 = 7), not on mazekit's (x0 = 6)
    assert ada["entry-on-42"] == ("PASS", "")


def test_another_glyph_passes_with_a_note(class_grades: dict[str, Grade]) -> None:
    ben = verdicts(class_grades["ben"])
    note = 'the "42" is another glyph: 20 closed cells from (6,5)'
    assert ben["perfect-20x15"] == ("PASS", note)
    assert ben["own-config"] == ("PASS", 'the "42" is another glyph: 20 closed cells from (9,6)')
    assert ben["entry-on-42"] == ("PASS", "")


def test_lowercase_keys_are_reported_but_not_scored(class_grades: dict[str, Grade]) -> None:
    ben = class_grades["ben"]
    (lowercase,) = [o for o in ben.outcomes if o.case == "lowercase-keys"]
    assert (lowercase.verdict, lowercase.scored) == ("FAIL", False)
    assert lowercase.stdout_tail == "Error: unknown key 'width' (keys are upper case)"
    assert (ben.generation.passed, ben.generation.total) == (6, 7)
    assert "FAIL    lowercase-keys (not scored): wrote no output file maze.txt\n" in as_text(ben)


def test_an_own_config_with_seed_left_blank_still_runs(class_grades: dict[str, Grade]) -> None:
    assert verdicts(class_grades["ada"])["own-config"] == (
        "PASS",
        "config.txt: SEED must be an integer, got '': an optional key, judged on the mandatory ones",
    )


def test_the_report_shows_what_a_failed_run_printed(class_grades: dict[str, Grade]) -> None:
    cleo = class_grades["cleo"]
    assert verdicts(cleo)["seed-twice"] == ("PASS", "")
    assert verdicts(cleo)["own-config"] == ("PASS", "")
    text = as_text(cleo)
    assert (
        "FAIL    perfect-20x15: wrote no output file maze.txt\n"
        "        stderr: Error: SEED is required\n"
        "FAIL    smallest-42: wrote no output file maze.txt\n"
    ) in text
    case = json.loads(as_json(cleo))["cases"][1]
    assert (case["case"], case["stdout_tail"], case["stderr_tail"]) == (
        "perfect-20x15",
        "",
        "Error: SEED is required",
    )
    crash = next(o for o in class_grades["eve"].outcomes if o.verdict == "CRASH")
    assert crash.reason == "IndexError: tuple index out of range"
    assert crash.stderr_tail.splitlines()[-1] == crash.reason
    assert len(crash.stderr_tail.splitlines()) == 5


def test_a_program_that_ignores_its_argument(class_grades: dict[str, Grade]) -> None:
    dan = verdicts(class_grades["dan"])
    assert dan["own-config"] == ("PASS", "")
    assert dan["perfect-20x15"] == ("FAIL", "wrote no output file maze.txt")
    assert dan["missing-key"] == ("FAIL", "wrote a maze to output_maze.txt all the same")


def test_error_handling_counts_only_after_generation_works(
    class_grades: dict[str, Grade],
) -> None:
    gus = class_grades["gus"]
    assert gus.error_handling.passed == gus.error_handling.total == 12
    assert (gus.generation.passed, gus.error_handling.counted, gus.score) == (0, False, 0)
    assert verdicts(gus)["entry-on-42"] == (
        "SKIP",
        'no output of a good config of its size draws a "42" to put the entry on',
    )
    assert as_text(gus).endswith(
        "gus: 12/19 passed, score 0% (generation 0/7, error handling 12/12, not counted: "
        "no generation case passed)\n"
    )
    assert verdicts(class_grades["eve"])["perfect-20x15"] == (
        "FAIL",
        "maze.txt:17:1: format: entry must be two non-negative integers x,y, got '(0, 0)': "
        "write 0,0 (and 1 more violation)",
    )
    assert verdicts(class_grades["finn"])["perfect-20x15"] == (
        "FAIL",
        "maze.txt:19:1: format: missing the path line",
    )


def test_junit_has_a_testsuite_per_submission_and_a_testcase_per_case(
    class_grades: dict[str, Grade],
) -> None:
    grades = [class_grades[name] for name in ("cleo", "gus")]
    root = ElementTree.fromstring(as_junit(grades))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [Path(s.get("name", "")).name for s in suites] == ["cleo", "gus"]
    cleo = suites[0]
    assert len(cleo.findall("testcase")) == 21 == int(cleo.get("tests", "0"))
    assert (cleo.get("failures"), cleo.get("skipped")) == ("5", "1")  # lowercase: not scored
    lowercase = cleo.find("testcase[@name='lowercase-keys']/skipped")
    assert lowercase is not None
    assert lowercase.get("message") == (
        "FAIL: wrote no output file maze.txt\nstderr:\n  Error: SEED is required"
    )
    failure = cleo.find("testcase[@name='perfect-20x15']/failure")
    assert failure is not None
    assert failure.get("type") == "FAIL"
    assert failure.get("message") == (
        "wrote no output file maze.txt\nstderr:\n  Error: SEED is required"
    )
    skipped = suites[1].find("testcase[@name='entry-on-42']/skipped")
    assert skipped is not None


def test_keep_leaves_the_copy_of_one_case_to_rerun_by_hand(invoke: Invoke, tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    args = ["grade", "--python", PYTHON, "--case", "bad-perfect", "--keep", str(kept)]
    result = invoke([*args, str(CLASS / "ada")])
    assert result.exit_code == 0
    rerun = f"cd {kept} && {PYTHON} a_maze_ing.py grade-bad-perfect.txt"
    assert result.stderr.endswith(f"kept the copy in {kept}; rerun it with: {rerun}\n")
    assert (kept / "grade-bad-perfect.txt").read_text().splitlines()[-1] == "PERFECT=maybe"
    assert (kept / "mazegen" / "generator.py").is_file()
    again = subprocess.run(rerun, shell=True, capture_output=True, text=True, check=False)
    assert (again.returncode, again.stderr) == (1, "Error: PERFECT must be True or False\n")


@pytest.mark.parametrize(
    ("args", "keep", "message"),
    [
        (
            ["--case", "bad-perfect", "--case", "bad-entry"],
            "new",
            "--keep needs exactly one --case",
        ),
        (["--case", "bad-perfect", "--all"], "new", "--keep needs exactly one --case"),
        (["--case", "bad-perfect"], ".", "--keep {keep}: already exists"),
        (["--case", "bad-perfect"], "no/new", "--keep {keep}: no such folder to make it in"),
    ],
)
def test_keep_needs_one_case_and_a_new_folder(
    invoke: Invoke, tmp_path: Path, args: list[str], keep: str, message: str
) -> None:
    target = str(tmp_path / keep)
    result = invoke(["grade", *args, "--keep", target, str(CLASS / "ada")])
    assert result.exit_code == 2
    expected = message.format(keep=target)
    if expected.startswith("--keep needs"):
        expected += ", without --all"
    assert result.stderr.splitlines()[-1] == f"Error: {expected}"
    assert result.stdout == ""


def test_pattern_strict_judges_by_mazekits_place(invoke: Invoke) -> None:
    args = ["grade", "--python", PYTHON, "--pattern", "strict", "--case", "perfect-20x15"]
    result = invoke([*args, str(CLASS / "ada")])
    assert result.exit_code == 1
    assert 'FAIL    perfect-20x15: maze.txt:6:7: pattern: cell (6,5) of the "42"' in result.stdout


# --- the score, the tails, the own config: no class run needed -------------------------------


def outcomes(generation: int, of: int, errors: int, of_errors: int) -> tuple[Outcome, ...]:
    """Cases passed and failed, so many of each part."""
    made = [Outcome(f"g{i}", "PASS" if i < generation else "FAIL") for i in range(of)]
    made += [
        Outcome(f"e{i}", "PASS" if i < errors else "FAIL", part=ERRORS) for i in range(of_errors)
    ]
    return tuple(made)


@pytest.mark.parametrize(
    ("counts", "score", "counted"),
    [
        ((7, 7, 13, 13), 100, True),
        ((7, 7, 0, 13), 66, True),  # every maze, no error handled: 2/3
        ((1, 7, 13, 13), 42, True),  # (2 x 14.28 + 100) / 3
        ((0, 7, 13, 13), 0, False),  # prints an error for everything: no maze, no score
        ((0, 0, 5, 10), 50, True),  # --case picked only broken configs: they count alone
    ],
)
def test_the_score_weighs_generation_twice_and_gates_error_handling(
    counts: tuple[int, int, int, int], score: int, counted: bool
) -> None:
    grade = Grade("s", outcomes(*counts))
    assert (grade.score, grade.error_handling.counted) == (score, counted)
    assert (grade.passed, grade.total) == (counts[0] + counts[2], counts[1] + counts[3])


def test_strict_makes_the_files_a_third_part_and_unscored_cases_count_for_nothing() -> None:
    files = (FileCheck("Makefile", True, ""), FileCheck("LICENSE", False, ""))
    extra = (Outcome("lowercase-keys", "FAIL", scored=False), Outcome("entry-on-42", "SKIP"))
    grade = Grade("s", outcomes(1, 1, 0, 1) + extra, files, strict=True)
    assert grade.score == (2 * 100 + 0 + 50) // 4
    assert (grade.passed, grade.total) == (2, 4)  # neither lowercase-keys nor the SKIP is an item
    assert as_text(grade).endswith(
        "s: 2/4 passed, score 62% (generation 1/1, error handling 0/1, files 1/2)\n"
    )


def test_a_tail_is_the_last_five_lines_and_500_characters_at_most() -> None:
    assert tail("one\n\ntwo\n") == "one\ntwo"
    assert tail("".join(f"line {n}\n" for n in range(9))) == "\n".join(
        f"line {n}" for n in range(4, 9)
    )
    long = tail("x" * 2000 + "\x07\n")  # a control character: escaped
    assert len(long) == TAIL_CHARS and long.startswith("...") and long.endswith("x\\x07")
    assert tail("\x1b[31mred\x1b[0m\n") == "red"  # a terminal's escape sequence: left out


def test_an_own_config_missing_a_mandatory_key_still_fails(invoke: Invoke, tmp_path: Path) -> None:
    folder = tmp_path / "s"
    shutil.copytree(CLASS / "ada", folder)
    (folder / "config.txt").write_text("WIDTH=20\nHEIGHT=15\nENTRY=0,0\nEXIT=19,14\nSEED=\n")
    result = invoke(["grade", "--python", PYTHON, "--case", "own-config", str(folder)])
    assert "FAIL    own-config: config.txt: missing mandatory keys OUTPUT_FILE, PERFECT\n" in (
        result.stdout
    )


def test_junit_of_one_submission_from_the_command_line(invoke: Invoke) -> None:
    args = ["grade", "--python", PYTHON, "--format", "junit", "--case", "imperfect"]
    result = invoke([*args, str(CLASS / "ben")])
    assert result.exit_code == 1
    suite = ElementTree.fromstring(result.stdout).find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    failure = suite.find("testcase[@name='imperfect']/failure")
    assert failure is not None and "dead-ends: real dead end" in failure.get("message", "")


def test_a_copy_that_cannot_be_kept_is_an_error_of_the_run(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder appeared between the check of --keep and the end of the case."""
    monkeypatch.setattr("mazekit.cli.grade._check_keep", lambda *args: None)
    args = ["grade", "--python", PYTHON, "--case", "bad-perfect", "--keep", str(tmp_path)]
    result = invoke([*args, str(CLASS / "gus")])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == f"Error: {tmp_path}: cannot keep the copy: File exists"


def test_junit_names_a_submission_that_could_not_be_graded() -> None:
    root = ElementTree.fromstring(as_junit([Grade("a", error="no entry script a_maze_ing.py")]))
    assert (root.get("tests"), root.get("errors")) == ("1", "1")
    error = root.find("testsuite/testcase[@name='grading']/error")
    assert error is not None and error.get("message") == "no entry script a_maze_ing.py"


def test_a_named_pipe_in_the_copy_cannot_be_kept(invoke: Invoke, tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "a_maze_ing.py").write_text("import os\nos.mkfifo('pipe')\nprint('Error: no')\n")
    kept = tmp_path / "kept"
    args = ["grade", "--python", PYTHON, "--case", "bad-perfect", "--keep", str(kept)]
    result = invoke([*args, str(folder)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (
        f"Error: {kept}: cannot keep the copy: pipe: `pipe` is a named pipe"
    )


@pytest.mark.parametrize(("name", "line"), [("ada", "PASS    entry-on-42\n"), ("gus", "SKIP    ")])
def test_entry_on_42_alone_first_runs_a_good_config_for_its_42(
    invoke: Invoke, name: str, line: str
) -> None:
    """ada refuses an entry on its own "42" at (7,5): a PASS shows the entry was put there."""
    result = invoke(["grade", "--python", PYTHON, "--case", "entry-on-42", str(CLASS / name)])
    cases = [row for row in result.stdout.splitlines(keepends=True) if "entry-on-42" in row]
    assert len(cases) == 1 and cases[0].startswith(line)
    assert "perfect-20x15" not in result.stdout
    assert result.exit_code == 0


def test_junit_is_well_formed_whatever_a_program_named() -> None:
    """A control character in an OUTPUT_FILE a student chose would make XML 1.0 unreadable."""
    failed = Outcome("own-config", "FAIL", "wrote no output file a\x0bb")
    root = ElementTree.fromstring(as_junit(Grade("s\x01", (failed,))))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and failure.get("message") == "wrote no output file a\\x0bb"
    assert root.find("testsuite").get("name") == "s\\x01"  # type: ignore[union-attr]
