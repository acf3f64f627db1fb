"""``mazekit generate`` on the command line: every option, every message, exit codes, files."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazekit.generators import ALGORITHMS
from mazekit.rules import validate
from mazekit.textformat import parse
from tests.conftest import Invoke

CONFIG = """\
# the subject's example
WIDTH=20
HEIGHT=15
ENTRY=0,0
EXIT=19,14
OUTPUT_FILE={output}
PERFECT=True
SEED=42
"""
TOO_SMALL = 'Error: maze too small for the "42" pattern\n'
ALGORITHM_LIST = "backtracker, prim, kruskal, wilson, hunt-and-kill, flood"
LONG = "1" * 5000  # more digits than int() converts, and than any setting accepts
CUT = "1" * 40 + "..."  # how a message quotes it


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in a temporary folder, so that OUTPUT_FILE=maze.txt lands there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write_config(folder: Path, text: str | None = None, **changes: str) -> Path:
    """A config file in ``folder``: the subject's example, with some lines replaced or added."""
    lines = (text if text is not None else CONFIG.format(output="maze.txt")).splitlines()
    for key, value in changes.items():
        lines = [line for line in lines if not line.upper().startswith(f"{key}=")]
        if value is not None:
            lines.append(f"{key}={value}")
    path = folder / "config.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


# --- working runs -----------------------------------------------------------------------------


def test_no_arguments_prints_a_20x15_perfect_maze(invoke: Invoke) -> None:
    result = invoke(["generate"])
    assert result.exit_code == 0
    assert result.stderr == ""
    maze = parse(result.stdout)
    assert (maze.width, maze.height, maze.entry, maze.exit) == (20, 15, (0, 0), (19, 14))
    assert validate(result.stdout_bytes, perfect=True).valid


def test_config_writes_its_output_file(invoke: Invoke, workdir: Path) -> None:
    write_config(workdir)
    result = invoke(["generate", "config.txt"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""
    text = (workdir / "maze.txt").read_text()
    assert validate(workdir / "maze.txt", perfect=True).valid  # a path, as graders pass it
    again = invoke(["generate", "config.txt", "-o", "-"])
    assert again.stdout == text  # SEED=42 in the config: the same maze


def test_config_tolerates_spaces_and_leading_zeros(invoke: Invoke, workdir: Path) -> None:
    write_config(workdir)
    expected = invoke(["generate", "config.txt", "-o", "-"]).stdout
    spaced = CONFIG.format(output="maze.txt").replace("=", " =\t ").replace("0,0", " 0 , 0 ")
    write_config(workdir, spaced.replace("20", "0020").replace("SEED =\t 42", "seed = 042 "))
    result = invoke(["generate", "config.txt", "-o", "-"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == expected


def test_output_file_dash_writes_to_stdout(invoke: Invoke, workdir: Path) -> None:
    write_config(workdir, OUTPUT_FILE="-")
    result = invoke(["generate", "config.txt"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == invoke(["generate", "--seed", "42"]).stdout
    assert sorted(p.name for p in workdir.iterdir()) == ["config.txt"]


def test_config_keys_are_case_insensitive(invoke: Invoke, workdir: Path) -> None:
    write_config(workdir, CONFIG.format(output="maze.txt").lower().replace("true", "True"))
    result = invoke(["generate", "config.txt", "-o", "-"])
    assert result.exit_code == 0, result.stderr
    assert parse(result.stdout).width == 20


def test_options_override_the_config(invoke: Invoke, workdir: Path) -> None:
    write_config(workdir)
    result = invoke(
        [
            "generate", "config.txt", "-o", "other.txt", "--width", "12", "--height", "9",
            "--entry", "1,1", "--exit", "10,7", "--imperfect", "--seed", "3",
            "--algorithm", "prim", "--max-dead-ends", "0",
        ]
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert not (workdir / "maze.txt").exists()
    maze = parse((workdir / "other.txt").read_text())
    assert (maze.width, maze.height, maze.entry, maze.exit) == (12, 9, (1, 1), (10, 7))
    assert validate(maze).valid
    assert not validate(maze, perfect=True).valid  # --imperfect beat PERFECT=True


def test_width_height_entry_exit(invoke: Invoke) -> None:
    result = invoke(
        ["generate", "--width", "30", "--height", "11", "--entry", "29,0", "--exit", "0,10"]
    )
    maze = parse(result.stdout)
    assert (maze.width, maze.height, maze.entry, maze.exit) == (30, 11, (29, 0), (0, 10))
    assert validate(maze, perfect=True).valid


def test_default_exit_follows_the_size(invoke: Invoke) -> None:
    maze = parse(invoke(["generate", "--width", "10", "--height", "8"]).stdout)
    assert maze.exit == (9, 7)


def test_seed_gives_the_same_bytes(invoke: Invoke) -> None:
    first = invoke(["generate", "--seed", "7"]).stdout
    assert invoke(["generate", "--seed", "7"]).stdout == first
    assert invoke(["generate", "--seed", "8"]).stdout != first
    assert invoke(["generate", "--seed", "-7"]).stdout != first


def test_verbose_prints_the_seed_that_remakes_the_maze(invoke: Invoke) -> None:
    result = invoke(["generate", "-v"])
    assert result.exit_code == 0
    assert result.stderr.startswith("seed: ") and result.stderr.endswith("\n")
    seed = int(result.stderr.removeprefix("seed: "))
    assert invoke(["generate", "--seed", str(seed)]).stdout == result.stdout
    assert invoke(["generate", "--verbose", "--seed", "5"]).stderr == "seed: 5\n"


def test_config_seed_is_printed_by_verbose(invoke: Invoke, workdir: Path) -> None:
    write_config(workdir)
    assert invoke(["generate", "config.txt", "-v"]).stderr == "seed: 42\n"


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_every_algorithm(invoke: Invoke, algorithm: str) -> None:
    perfect = algorithm != "flood"
    args = ["generate", "--algorithm", algorithm, "--seed", "1"]
    result = invoke(args if perfect else [*args, "--imperfect"])
    assert result.exit_code == 0, result.stderr
    assert validate(result.stdout_bytes, perfect=perfect).valid


def test_algorithm_names_ignore_case(invoke: Invoke, workdir: Path) -> None:
    by_option = invoke(["generate", "--algorithm", "Hunt-And-Kill", "--seed", "2"]).stdout
    write_config(workdir, ALGORITHM="WILSON")
    by_config = invoke(["generate", "config.txt", "-o", "-", "--seed", "2"])
    assert by_config.exit_code == 0
    assert by_option == invoke(["generate", "--algorithm", "hunt-and-kill", "--seed", "2"]).stdout
    assert by_config.stdout == invoke(["generate", "--algorithm", "wilson", "--seed", "2"]).stdout


def test_perfect_and_imperfect(invoke: Invoke) -> None:
    perfect = invoke(["generate", "--seed", "4", "--perfect"]).stdout
    assert perfect == invoke(["generate", "--seed", "4"]).stdout
    board = invoke(["generate", "--seed", "4", "--imperfect"]).stdout_bytes
    assert validate(board).valid
    assert [v.rule for v in validate(board, perfect=True).violations] == ["perfect"]


def test_max_dead_ends(invoke: Invoke, workdir: Path) -> None:
    from mazekit.analysis import dead_ends

    for limit in ("0", "3"):
        result = invoke(["generate", "--imperfect", "--seed", "1", "--max-dead-ends", limit])
        assert len(dead_ends(parse(result.stdout)).real) <= int(limit)
    write_config(workdir, PERFECT="False", MAX_DEAD_ENDS="0")
    result = invoke(["generate", "config.txt", "-o", "-"])
    assert dead_ends(parse(result.stdout)).real == ()


def test_output_dash_is_stdout_and_a_path_is_a_file(invoke: Invoke, workdir: Path) -> None:
    to_stdout = invoke(["generate", "--seed", "1", "-o", "-"])
    assert to_stdout.stdout
    to_file = invoke(["generate", "--seed", "1", "--output", "out.txt"])
    assert to_file.stdout == ""
    assert (workdir / "out.txt").read_text() == to_stdout.stdout


def test_too_small_for_the_42_warns_and_succeeds(invoke: Invoke) -> None:
    for size in (["--width", "8"], ["--height", "6"]):
        result = invoke(["generate", "--seed", "1", *size])
        assert result.exit_code == 0
        assert result.stderr == TOO_SMALL
        assert validate(result.stdout_bytes, perfect=True).valid
    assert invoke(["generate", "--width", "9", "--height", "7"]).stderr == ""


def test_help_has_examples(invoke: Invoke) -> None:
    result = invoke(["generate", "--help"])
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and "mazekit generate config.txt" in result.stdout
    for option in ("--width", "--entry", "--imperfect", "--seed", "--algorithm", "-o, --output"):
        assert option in result.stdout
    # option values are read by mazekit (exit 1 when bad), but help still shows their kind
    for shown in (
        "--width N",
        "at least 1 [20]",
        "--height N",
        "--entry X,Y",
        "[0,0]",
        "--exit X,Y",
        "[W-1,H-1]",
        "--seed N",
        "--algorithm [backtracker|prim|kruskal|wilson|hunt-and-kill|flood]",
        "--max-dead-ends N",
    ):
        assert shown in result.stdout


# --- errors ----------------------------------------------------------------------------------


def _assert_error(invoke: Invoke, args: list[str], message: str, workdir: Path) -> None:
    """Exit 1, the exact message on stderr, nothing on stdout, maze.txt left as it was."""
    (workdir / "maze.txt").write_text("old maze\n")
    result = invoke(args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"Error: {message}\n"
    assert (workdir / "maze.txt").read_text() == "old maze\n"
    assert sorted(p.name for p in workdir.iterdir() if p.name.startswith(".maze")) == []


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"WIDTH": "0"}, "WIDTH must be a positive integer, got '0'"),
        ({"HEIGHT": "x"}, "HEIGHT must be a positive integer, got 'x'"),
        (
            {"WIDTH": "5000", "HEIGHT": "5000"},
            "WIDTH=5000 and HEIGHT=5000 make 25,000,000 cells, over the limit of 16,000,000",
        ),
        ({"ENTRY": "1;2"}, "ENTRY must be two integers x,y, got '1;2'"),
        ({"EXIT": "3"}, "EXIT must be two integers x,y, got '3'"),
        ({"ENTRY": "25,3"}, "ENTRY=25,3 is outside the 20x15 maze"),
        ({"EXIT": "-1,3"}, "EXIT=-1,3 is outside the 20x15 maze"),
        ({"ENTRY": "19,14"}, "ENTRY=19,14 and EXIT=19,14 are the same cell"),
        ({"ENTRY": "6,5"}, 'ENTRY=6,5 lies on the "42" pattern'),
        ({"EXIT": "12,9"}, 'EXIT=12,9 lies on the "42" pattern'),
        ({"PERFECT": "yes"}, "PERFECT must be True or False, got 'yes'"),
        ({"SEED": "1.5"}, "SEED must be an integer, got '1.5'"),
        ({"MAX_DEAD_ENDS": "-1"}, "MAX_DEAD_ENDS must be a non-negative integer, got '-1'"),
        (
            {"ALGORITHM": "dfs"},
            f"ALGORITHM must be one of {ALGORITHM_LIST}, got 'dfs'",
        ),
        (
            {"ALGORITHM": "flood"},
            "ALGORITHM=flood leaves loops, so it cannot make a perfect maze",
        ),
        (
            {"WIDTH": "2", "HEIGHT": "2", "EXIT": "1,1", "PERFECT": "False"},
            "PERFECT=False needs 2 loops, which a 2x2 maze cannot hold "
            "(use at least 2x3 or 3x2 cells)",
        ),
        # numbers are ASCII digits only (a leading minus for SEED, ENTRY and EXIT)
        ({"WIDTH": "+20"}, "WIDTH must be a positive integer, got '+20'"),
        ({"WIDTH": "1_000"}, "WIDTH must be a positive integer, got '1_000'"),
        ({"WIDTH": "\uff12\uff10"}, "WIDTH must be a positive integer, got '\uff12\uff10'"),
        ({"HEIGHT": "1 5"}, "HEIGHT must be a positive integer, got '1 5'"),
        ({"HEIGHT": "15.0"}, "HEIGHT must be a positive integer, got '15.0'"),
        ({"ENTRY": "+1,0"}, "ENTRY must be two integers x,y, got '+1,0'"),
        ({"ENTRY": "\u0661,0"}, "ENTRY must be two integers x,y, got '\u0661,0'"),
        ({"SEED": "+5"}, "SEED must be an integer, got '+5'"),
        ({"SEED": "1_000"}, "SEED must be an integer, got '1_000'"),
        ({"SEED": "--5"}, "SEED must be an integer, got '--5'"),
        ({"MAX_DEAD_ENDS": "+1"}, "MAX_DEAD_ENDS must be a non-negative integer, got '+1'"),
        # values too long for any setting, and long values quoted cut to 40 characters
        ({"WIDTH": LONG}, f"WIDTH must be at most 16,000,000 (the cell limit), got '{CUT}'"),
        (
            {"HEIGHT": "16000001"},
            "HEIGHT must be at most 16,000,000 (the cell limit), got '16000001'",
        ),
        ({"SEED": LONG}, f"SEED must be an integer of at most 40 digits, got '{CUT}'"),
        ({"SEED": "-" + LONG}, f"SEED must be an integer of at most 40 digits, got '-{CUT[1:]}'"),
        ({"ENTRY": f"{LONG},0"}, f"ENTRY={CUT} is outside every maze"),
        ({"EXIT": f"3,{LONG}"}, f"EXIT=3,{'1' * 38}... is outside every maze"),
        (
            {"MAX_DEAD_ENDS": LONG},
            f"MAX_DEAD_ENDS must be at most 16,000,000 (the cell limit), got '{CUT}'",
        ),
        ({"PERFECT": "y" * 41}, f"PERFECT must be True or False, got '{'y' * 40}...'"),
        (
            {"ALGORITHM": "a" * 41},
            f"ALGORITHM must be one of {ALGORITHM_LIST}, got '{'a' * 40}...'",
        ),
        ({"ALGORITHM": ""}, f"ALGORITHM must be one of {ALGORITHM_LIST}, got ''"),
        ({"OUTPUT_FILE": ""}, "OUTPUT_FILE must not be empty"),
        ({"OUTPUT_FILE": None}, "missing mandatory key OUTPUT_FILE"),
        ({"WIDTH": None, "PERFECT": None}, "missing mandatory keys WIDTH, PERFECT"),
    ],
)
def test_config_errors(
    invoke: Invoke, workdir: Path, changes: dict[str, str | None], message: str
) -> None:
    write_config(workdir, **changes)  # type: ignore[arg-type]
    _assert_error(invoke, ["generate", "config.txt"], f"config.txt: {message}", workdir)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("WIDTH=20\nHEIGHT 15\n", "line 2: expected KEY=VALUE, got 'HEIGHT 15'"),
        (
            "WIDTH=20\nCOLOUR=red\n",
            "line 2: unknown key 'COLOUR' (known keys: WIDTH, HEIGHT, ENTRY, EXIT, "
            "OUTPUT_FILE, PERFECT, SEED, ALGORITHM, MAX_DEAD_ENDS)",
        ),
        ("WIDTH=20\n# c\nwidth=30\n", "line 3: duplicate key WIDTH (first set on line 1)"),
    ],
)
def test_config_syntax_errors(invoke: Invoke, workdir: Path, text: str, message: str) -> None:
    (workdir / "config.txt").write_text(text)
    _assert_error(invoke, ["generate", "config.txt"], f"config.txt: {message}", workdir)


def test_unreadable_config(invoke: Invoke, workdir: Path) -> None:
    message = "missing.txt: cannot read: No such file or directory"
    _assert_error(invoke, ["generate", "missing.txt"], message, workdir)
    (workdir / "folder").mkdir()
    message = "folder: cannot read: Is a directory"
    _assert_error(invoke, ["generate", "folder"], message, workdir)
    (workdir / "binary.txt").write_bytes(b"\xff\xfe\x00")
    message = "binary.txt: cannot read: not UTF-8 text"
    _assert_error(invoke, ["generate", "binary.txt"], message, workdir)


def test_a_config_from_stdin(invoke: Invoke, workdir: Path) -> None:
    """CONFIG ``-`` is stdin, as a maze FILE ``-`` is (and as ``mazekit view`` reads a config):
    it was looked up as a file named ``-``, "cannot read: No such file or directory"."""
    config = "WIDTH=9\nHEIGHT=7\nENTRY=0,0\nEXIT=8,6\nOUTPUT_FILE=maze.txt\nPERFECT=True\nSEED=4\n"
    result = invoke(["generate", "-"], input=config)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert (workdir / "maze.txt").read_text() == invoke(
        ["generate", "--width", "9", "--height", "7", "--seed", "4"]
    ).stdout
    result = invoke(["generate", "-", "-o", "-"], input=config.replace("WIDTH=9", "WIDTH=0"))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: <stdin>: WIDTH must be a positive integer, got '0'\n"


def test_a_config_over_64_mib_is_refused_before_it_is_read_whole(
    invoke: Invoke, workdir: Path
) -> None:
    """The limit of a maze file holds for a config file too: `generate /dev/zero` read until
    the memory ran out (a MemoryError, an internal error, or the OOM killer)."""
    with open(workdir / "huge.txt", "wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)  # sparse: no disk used
    message = "huge.txt: input is larger than 64 MiB"
    _assert_error(invoke, ["generate", "huge.txt"], message, workdir)
    result = invoke(["validate", "--config", "huge.txt", "maze.txt"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"Error: {message}\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--entry", "6,5"], '--entry=6,5 lies on the "42" pattern'),
        (["--exit", "10,7"], '--exit=10,7 lies on the "42" pattern'),
        (["--entry", "20,0"], "--entry=20,0 is outside the 20x15 maze"),
        (["--width", "10", "--exit", "10,3"], "--exit=10,3 is outside the 10x15 maze"),
        (["--entry", "3,3", "--exit", "3,3"], "--entry=3,3 and --exit=3,3 are the same cell"),
        (["--entry", "19,14"], "--entry=19,14 and the default exit 19,14 are the same cell"),
        (
            ["--width", "1", "--height", "1"],
            "the default entry 0,0 and the default exit 0,0 are the same cell",
        ),
        (
            ["--width", "4001", "--height", "4000"],
            "--width=4001 and --height=4000 make 16,004,000 cells, over the limit of 16,000,000",
        ),
        (
            ["--algorithm", "flood"],
            "--algorithm=flood leaves loops, so it cannot make a perfect maze",
        ),
        (
            ["--imperfect", "--width", "5", "--height", "1"],
            "--imperfect needs 2 loops, which a 5x1 maze cannot hold "
            "(use at least 2x3 or 3x2 cells)",
        ),
        (["-o", "maze.txt", "--entry", "6,5"], '--entry=6,5 lies on the "42" pattern'),
    ],
)
def test_option_errors(invoke: Invoke, workdir: Path, args: list[str], message: str) -> None:
    _assert_error(invoke, ["generate", *args], message, workdir)


def test_errors_name_the_config_or_the_option_the_value_came_from(
    invoke: Invoke, workdir: Path
) -> None:
    write_config(workdir, ENTRY="6,5")
    args = ["generate", "config.txt", "--entry", "1,1", "--exit", "6,5"]
    _assert_error(invoke, args, '--exit=6,5 lies on the "42" pattern', workdir)
    write_config(workdir, EXIT="15,3")
    args = ["generate", "config.txt", "--width", "10"]
    _assert_error(invoke, args, "config.txt: EXIT=15,3 is outside the 10x15 maze", workdir)
    write_config(workdir)
    args = ["generate", "config.txt", "--algorithm", "flood"]
    message = "--algorithm=flood leaves loops, so it cannot make a perfect maze"
    _assert_error(invoke, args, message, workdir)


def test_an_unwritable_output_is_an_error(invoke: Invoke, workdir: Path) -> None:
    result = invoke(["generate", "-o", "no/such/dir/maze.txt"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "Error: no/such/dir/maze.txt: cannot write: No such file or directory\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--width", "0"], "--width must be a positive integer, got '0'"),
        (["--width", "abc"], "--width must be a positive integer, got 'abc'"),
        (["--height", "-3"], "--height must be a positive integer, got '-3'"),
        (["--width", "+20"], "--width must be a positive integer, got '+20'"),
        (["--width", "1_000"], "--width must be a positive integer, got '1_000'"),
        (["--width", "\uff12\uff10"], "--width must be a positive integer, got '\uff12\uff10'"),
        (["--width", "2 0"], "--width must be a positive integer, got '2 0'"),
        (
            ["--width", "16000001"],
            "--width must be at most 16,000,000 (the cell limit), got '16000001'",
        ),
        (["--height", LONG], f"--height must be at most 16,000,000 (the cell limit), got '{CUT}'"),
        (["--width", "x" * 41], f"--width must be a positive integer, got '{'x' * 40}...'"),
        (["--entry", "abc"], "--entry must be two integers x,y, got 'abc'"),
        (["--exit", "1,2,3"], "--exit must be two integers x,y, got '1,2,3'"),
        (["--entry", "+1,0"], "--entry must be two integers x,y, got '+1,0'"),
        (["--entry", f"{LONG},0"], f"--entry={CUT} is outside every maze"),
        (["--entry", f"0,-{LONG}"], f"--entry=0,-{'1' * 37}... is outside every maze"),
        (["--seed", "x"], "--seed must be an integer, got 'x'"),
        (["--seed", "1.5"], "--seed must be an integer, got '1.5'"),
        (["--seed", "+5"], "--seed must be an integer, got '+5'"),
        (["--seed", "1" * 41], f"--seed must be an integer of at most 40 digits, got '{CUT}'"),
        (["--seed", LONG], f"--seed must be an integer of at most 40 digits, got '{CUT}'"),
        (["--algorithm", "nope"], f"--algorithm must be one of {ALGORITHM_LIST}, got 'nope'"),
        (["--algorithm", ""], f"--algorithm must be one of {ALGORITHM_LIST}, got ''"),
        (["--max-dead-ends", "-1"], "--max-dead-ends must be a non-negative integer, got '-1'"),
        (["--max-dead-ends", "two"], "--max-dead-ends must be a non-negative integer, got 'two'"),
        (
            ["--max-dead-ends", LONG],
            f"--max-dead-ends must be at most 16,000,000 (the cell limit), got '{CUT}'",
        ),
        # the first bad option as given on the command line (click reads them in that order)
        (["--seed", "x", "--width", "0"], "--seed must be an integer, got 'x'"),
    ],
)
def test_bad_option_values_name_the_option(
    invoke: Invoke, workdir: Path, args: list[str], message: str
) -> None:
    _assert_usage_error(invoke, ["generate", "-o", "maze.txt", *args], message, workdir)


def _assert_usage_error(invoke: Invoke, args: list[str], message: str, workdir: Path) -> None:
    """Exit 2 (a malformed option value is a usage error), the config reader's words last on
    stderr, nothing on stdout, maze.txt left as it was."""
    (workdir / "maze.txt").write_text("old maze\n")
    result = invoke(args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.endswith(f"\nError: {message}\n")
    assert result.stderr.startswith("Usage: ")
    assert (workdir / "maze.txt").read_text() == "old maze\n"


def test_a_bad_option_is_reported_before_a_bad_config(invoke: Invoke, workdir: Path) -> None:
    write_config(workdir, WIDTH="0")
    message = "--width must be a positive integer, got 'x'"
    _assert_usage_error(invoke, ["generate", "config.txt", "--width", "x"], message, workdir)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "No such option '--bogus'."),
        (["--width"], "Option '--width' requires an argument."),
        (["--seed"], "Option '--seed' requires an argument."),
    ],
)
def test_unknown_options_and_missing_values_are_usage_errors(
    invoke: Invoke, workdir: Path, args: list[str], message: str
) -> None:
    result = invoke(["generate", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"Error: {message}" in result.stderr


def test_good_option_values_in_every_spelling(invoke: Invoke) -> None:
    plain = invoke(["generate", "--width", "12", "--entry", "1,2", "--seed", "-3"]).stdout
    padded = ["--width", " 0012", "--entry", " 1 , 002 ", "--seed", "-0003 "]
    assert invoke(["generate", *padded]).stdout == plain
    assert parse(plain).entry == (1, 2)
    assert invoke(["generate", "--seed", "1" * 40]).exit_code == 0


def test_the_readme_example_is_real(invoke: Invoke) -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("### generate", 1)[1].split("\n### ", 1)[0]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    command, _, output = block.partition("\n")
    args = command.removeprefix("$ mazekit ").split()
    root = Path(__file__).resolve().parent.parent
    args = [str(root / a) if a.startswith("samples/") else a for a in args]
    assert invoke(args).stdout == output
