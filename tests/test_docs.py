"""The docs are tested: README examples print what README says, and every command is documented."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from mazekit.cli import COMMANDS, cli
from tests.conftest import Invoke
from tests.terminal import Terminal

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _console_blocks() -> list[list[tuple[str, str]]]:
    """Each console block as its (command, shown output) steps, in order."""
    blocks = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
        steps: list[tuple[str, str]] = []
        for line in block.splitlines(keepends=True):
            if line.startswith("$ "):
                steps.append((line[2:].rstrip("\n"), ""))
            elif steps:
                steps[-1] = (steps[-1][0], steps[-1][1] + line)
        blocks.append(steps)
    return blocks


BLOCKS = _console_blocks()


def test_readme_has_a_console_example_per_command() -> None:
    commands = {
        command.split()[1]
        for steps in BLOCKS
        for command, _ in steps
        if command.startswith("mazekit ")
    }
    assert set(COMMANDS) <= commands


def _stages(command: str, folder: Path) -> list[Result] | None:
    """``command`` run in this process when it is ``mazekit`` stages chained by ``|`` (the first
    perhaps ``cat FILE``, the last perhaps sent ``> FILE``): each stage's result, in order. None
    for anything else (other programs, other redirections, lists): a real shell runs those.
    The cwd must be ``folder``: the stages name their files relative to it."""
    command, _, target = command.partition(" > ")
    if any(sign in command for sign in (">", "<", ";", "&")):
        return None  # redirections and lists: the shell's business
    if target and any(sign in target.strip() for sign in (">", "<", ";", "&", "|", " ")):
        return None
    data: bytes | None = None
    results: list[Result] = []
    for stage in command.split(" | "):
        words = shlex.split(stage, comments=True)
        if words[:1] == ["cat"] and len(words) == 2 and not results:
            data = (folder / words[1]).read_bytes()
            continue
        if words[:1] != ["mazekit"]:
            return None
        result = CliRunner().invoke(cli, words[1:], input=data, prog_name="mazekit")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        results.append(result)
        data = result.stdout_bytes
    if not results:
        return None  # cat alone
    if target:
        (folder / target.strip()).write_bytes(data or b"")
    return results


def _in_process(command: str, folder: Path) -> str | None:
    """What ``command`` prints (stdout then stderr) when _stages can run it; None otherwise, or
    for a command printing on both streams (their interleaving is a terminal's business)."""
    if ">" in command.replace(" 2>&1", ""):
        return None
    results = _stages(command.replace(" 2>&1", ""), folder)
    if results is None:
        return None
    errors = ""
    for result in results:
        errors += result.stderr
        if errors and result.stdout_bytes:
            return None
    return results[-1].stdout_bytes.decode() + errors


def _run(command: str, folder: Path) -> tuple[int, str]:
    """``command``'s exit status (bash's pipefail: the last stage that failed) and everything
    it wrote on stderr: run in this process by _stages where it can (no interpreter start per
    stage), else by bash. The cwd must be ``folder``."""
    results = _stages(command, folder)
    if results is None:
        shell = _run_shell(command, folder)
        return shell.returncode, shell.stderr
    codes = [result.exit_code for result in results]
    return next((code for code in reversed(codes) if code), 0), "".join(
        result.stderr for result in results
    )


@pytest.mark.parametrize("steps", BLOCKS, ids=[b[0][0] if b else "empty" for b in BLOCKS])
def test_readme_console_blocks_print_what_readme_shows(
    steps: list[tuple[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run each ``$ command`` in a folder holding only a copy of samples/, as a fresh clone
    has it; output (stdout and stderr) must match. Every file an example reads is shipped.
    Plain mazekit pipelines run in-process (fast); anything else in bash."""
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("NO_COLOR", None)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.chdir(tmp_path)
    for command, shown in steps:
        printed = _in_process(command, tmp_path)
        if printed is None:
            printed = subprocess.run(
                ["bash", "-c", command],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                cwd=tmp_path,
                env=env,
                timeout=120,
            ).stdout
        assert printed == shown, command


SH_LINES = [
    line
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.DOTALL)
    for line in block.splitlines()
    if line.startswith("mazekit ")
]


def _run_shell(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run by bash (pipefail) in ``folder``, with this venv's mazekit on PATH."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=120,
    )


@pytest.fixture(scope="session")
def made_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone's folder after `make run`, made once a session (a test works in its own copy):
    samples/, config.txt, the maze.txt its config makes, a board.txt, a.txt and b.txt, a class
    in subs/ (a/ and b/, each with its config and maze), and a 1000 x 1000 big.txt."""
    folder = tmp_path_factory.mktemp("clone")
    shutil.copytree(ROOT / "samples", folder / "samples")
    shutil.copy(ROOT / "samples" / "config.txt", folder / "config.txt")
    shutil.copy(ROOT / "samples" / "valid-30x20-board.txt", folder / "board.txt")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        for command in (
            "mazekit generate config.txt",
            "mazekit generate --width 1000 --height 1000 -o big.txt",
        ):
            assert _run(command, folder) == (0, ""), command
    shutil.copy(folder / "maze.txt", folder / "a.txt")
    shutil.copy(folder / "board.txt", folder / "b.txt")
    for name, maze in (("a", "maze.txt"), ("b", "board.txt")):
        (folder / "subs" / name).mkdir(parents=True)
        shutil.copy(folder / "config.txt", folder / "subs" / name)
        shutil.copy(folder / maze, folder / "subs" / name / "maze.txt")
    return folder


@pytest.fixture
def clone(made_clone: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own copy of made_clone, as the cwd."""
    folder = tmp_path / "clone"
    shutil.copytree(made_clone, folder)
    monkeypatch.chdir(folder)
    return folder


def test_readme_sh_examples_run(clone: Path) -> None:
    """The ``sh`` blocks show no output, but each mazekit line runs without a word on stderr,
    in the clone's folder after `make run` (which leaves maze.txt) and with a big.txt."""
    assert len(SH_LINES) >= 6
    for command in SH_LINES:
        assert _run(command, clone) == (0, ""), command


def _help_examples(name: str) -> list[str]:
    """The command lines under Examples: in ``mazekit NAME --help``, their comments cut."""
    text = CliRunner().invoke(cli, [name, "--help"], prog_name="mazekit").stdout
    lines = text.split("\n  Examples:\n", 1)[1].splitlines()
    return [re.split(r"\s{2,}", line.strip())[0] for line in lines if line.startswith("    maz")]


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"view", "grade"}))
def test_help_examples_run(name: str, clone: Path) -> None:
    """Each example of a command's help runs in the clone's folder after `make run` (maze.txt,
    config.txt), with a board.txt and a class in subs/: it may find a maze invalid or a run
    not as expected (exit 1), never fail to run (an Error: line). Not view (it needs a
    terminal) nor grade (a student's folder under ~): their examples name options only."""
    examples = [e for e in _help_examples(name) if "| display" not in e]  # ImageMagick's
    assert examples
    for command in examples:
        code, errors = _run(command, clone)
        assert code in (0, 1) and "Error" not in errors, (command, code, errors)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help_with_an_example_and_a_readme_section(
    invoke: Invoke, name: str
) -> None:
    result = invoke([name, "--help"])
    assert result.exit_code == 0
    assert f"mazekit {name}" in result.stdout.split("Examples:")[-1]
    assert f"### {name}\n" in README
    assert re.search(rf"### {name}\n\n\S", README), f"README section for {name} is empty"


# The project states the facts of its source documents in its own words: a spec, a docstring
# or a comment that sends the reader to one of them ("as seed 004 decides", "shared/seeds/...")
# points at a text the repository does not hold.
_SOURCE_DOCUMENT = re.compile(r"\bseeds? 0\d\d\b|shared/seeds|\bthe seed re-?floods", re.IGNORECASE)


def test_specs_and_code_do_not_point_at_the_source_documents() -> None:
    files = [ROOT / "README.md", *sorted((ROOT / "specs").glob("*.md"))]
    files += sorted(p for p in (ROOT / "src").rglob("*") if p.suffix in (".py", ".c", ".h", ".js"))
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _SOURCE_DOCUMENT.search(line)
    ]
    assert found == []


def test_readme_table_lists_every_command_once() -> None:
    """The table at the top links each command to its section."""
    table = README.split("| command | what it does |", 1)[1].split("\n\n", 1)[0]
    listed = re.findall(r"^\| \[(\S+)\]\(#(\S+)\) \|", table, flags=re.MULTILINE)
    assert sorted(name for name, _ in listed) == sorted(COMMANDS)
    assert all(name == anchor for name, anchor in listed)


def test_group_help_lists_every_command(invoke: Invoke) -> None:
    """The Commands section names each registered command once, with its summary."""
    result = invoke(["--help"])
    section = result.stdout.split("\nCommands:\n", 1)[1]
    listed = [line.split()[0] for line in section.splitlines() if line.startswith("  ")]
    assert listed == sorted(COMMANDS)
    for line in section.splitlines():
        assert len(line.split(maxsplit=1)) == 2, f"no summary: {line!r}"


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("valdate", " (Did you mean 'validate'?)"),
        ("stat", " (Did you mean 'stats'?)"),
        ("xyzzy", ""),
    ],
)
def test_a_mistyped_command_gets_the_close_ones(invoke: Invoke, typed: str, hint: str) -> None:
    """As click does for a mistyped option (specs/errors.md, "Exit codes")."""
    result = invoke([typed, "x.txt"])
    assert result.exit_code == 2
    assert result.stderr.endswith(f"\nError: No such command '{typed}'.{hint}\n")


def test_mazekit_alone_prints_its_help_on_stderr(invoke: Invoke) -> None:
    result = invoke([])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("Usage: ") and "[OPTIONS] COMMAND [ARGS]..." in result.stderr
    assert "\nCommands:\n" in result.stderr


def test_group_help_summaries_are_whole_in_an_80_column_terminal() -> None:
    """click cuts a summary that does not fit with "...": each command's short_help fits."""
    result = CliRunner().invoke(cli, ["--help"], terminal_width=80, prog_name="mazekit")
    section = result.stdout.split("\nCommands:\n", 1)[1]
    for line in section.splitlines():
        assert line.endswith(".") and not line.endswith("..."), line


@pytest.mark.parametrize(
    ("picture", "options"),
    [
        ("maze.png", []),
        ("maze.svg", []),
        ("maze-dark-dead-ends.png", ["--theme", "dark", "--dead-ends"]),
        ("board-pacman.png", None),
        ("heat-betweenness.png", ["--heat", "betweenness", "--no-path"]),
    ],
)
def test_readme_pictures_are_what_mazekit_draws_today(
    invoke: Invoke, tmp_path: Path, picture: str, options: list[str] | None
) -> None:
    """docs/ holds what `make docs` makes now: a drawing change must come with new pictures."""
    sample = str(ROOT / "samples" / "valid-20x15-perfect.txt")
    target = tmp_path / picture
    if options is None:  # the board: pacmanize, then the pacman theme
        board = invoke(["pacmanize", sample]).stdout
        args = ["render", "--theme", "pacman", "--cell", "24", "--wall", "4", "-o", str(target)]
        result = invoke(args, input=board)
    else:
        result = invoke(["render", sample, "-o", str(target), *options])
    assert result.exit_code == 0, result.stderr
    expected = ROOT / "docs" / picture
    if picture.endswith(".png"):  # by decoded pixels: another Pillow may compress otherwise
        from PIL import Image

        with Image.open(target) as made, Image.open(expected) as shown:
            assert made.size == shown.size
            assert made.convert("RGBA").tobytes() == shown.convert("RGBA").tobytes()
    else:
        assert target.read_bytes() == expected.read_bytes()


def test_docs_board_page_is_what_mazekit_writes_today(invoke: Invoke) -> None:
    """docs/board.html, which README links, is the page `make docs` writes now: a change of
    the page (its script, style or tables) must come with the page made anew."""
    makefile = (ROOT / "Makefile").read_text()
    options = re.search(r"^PAGE_MAZE := (.*)$", makefile, flags=re.MULTILINE)
    assert options is not None
    maze = invoke(["generate", *options.group(1).split(), "-o", "-"])
    assert maze.exit_code == 0, maze.stderr
    page = invoke(["render", "--format", "html"], input=maze.stdout)
    assert page.exit_code == 0, page.stderr
    assert page.stdout == (ROOT / "docs" / "board.html").read_text()


def test_readme_says_how_make_docs_draws_its_pictures() -> None:
    """A command README quotes for a file under docs/ is the one `make docs` runs, so a reader
    who copies it gets that picture (the GIF's command once lacked the chasers' places)."""
    makefile = (ROOT / "Makefile").read_text()
    values = dict(re.findall(r"^(\w+) := (.*)$", makefile, flags=re.MULTILINE))
    recipe = makefile.split("\ndocs: ", 1)[1].split("\n\n", 1)[0]
    for name, value in values.items():
        recipe = recipe.replace(f"$({name})/", "").replace(f"$({name})", value)
    quoted = [c for c in re.findall(r"`(mazekit [^`]*)`", README) if " -o docs/" in c]
    assert {c.rsplit(" -o docs/", 1)[1].split()[0] for c in quoted} >= {
        "board-pacman.png",
        "heat-betweenness.png",
        "chase.gif",
    }
    for command in quoted:
        assert f"\t{command}\n" in recipe, command


def test_make_run_recipe_works_in_a_fresh_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commands of `make run` (minus the venv set-up), as the Makefile spells them: the
    venv's mazekit runs in this process (_run), the rest in bash."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nrun: ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert len(recipe) >= 5
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    bin_dir = str(Path(sys.executable).parent)
    for line in recipe:
        command = line.strip().lstrip("@").replace("$(BIN)/mazekit ", "mazekit ")
        code, errors = _run(command.replace("$(BIN)", bin_dir), tmp_path)
        assert code == 0, (command, errors)
    for made in ("maze.txt", "maze.png", "board.png"):
        assert (tmp_path / made).stat().st_size > 0


SEED_DEFAULTS = {
    "generate": "[SEED of CONFIG, else drawn at random",
    "view": "[SEED of CONFIG, else drawn at random",
    "pacmanize": "[default: 0]",
    "stats": "With --graph: random seed of the sampled sources.  [default: 0]",
}


def _option_help(name: str, option: str) -> str | None:
    """The help text ``mazekit NAME --help`` shows for OPTION, unwrapped; None without one."""
    # the group's context as mazekit makes it: click caches a command's help option with the
    # names of the first context that asks, so a bare click.Context(cli) (--help only) would
    # take -h away from every later `mazekit NAME -h` in this worker
    parent = click.Context(cli, info_name="mazekit", **cli.context_settings)
    command = cli.get_command(parent, name)
    assert command is not None
    context = click.Context(command, info_name=name, parent=parent)
    for param in command.get_params(context):
        if isinstance(param, click.Option) and option in param.opts:
            record = param.get_help_record(context)
            return record[1] if record else None
    return None


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_seed_help_says_what_a_run_without_seed_uses(name: str) -> None:
    """The default differs (a drawn seed, a config's SEED, 0): each command's help names its
    own, and stats says its seed needs --graph (a usage error otherwise)."""
    text = _option_help(name, "--seed")
    assert (text is not None) == (name in SEED_DEFAULTS)
    if text is not None:
        assert SEED_DEFAULTS[name] in text


def test_force_help_says_everything_force_allows() -> None:
    """edit's --force also unlocks border walls and the "42" (specs/edit.md): its option help
    says so, not only the epilog; every other command's --force only replaces a read-only file."""
    helps = {name: _option_help(name, "--force") for name in COMMANDS}
    forcing = {name: text for name, text in helps.items() if text is not None}
    assert set(forcing) == set(COMMANDS) - {"stats", "validate"}  # the commands that write files
    for name, text in forcing.items():
        assert "read-only output file" in text, name
        assert ("border walls" in text and '"42"' in text) == (name == "edit"), name


def test_every_reader_specs_format_calls_lenient_is(invoke: Invoke) -> None:
    """specs/format.md names the commands whose reader takes CRLF line ends (and the rest of
    its list): every command that reads a maze but validate, each of which does."""
    spec = (ROOT / "specs" / "format.md").read_text()
    sentence = spec.split("## What the pipeline readers tolerate", 1)[1].split("are lenient")[0]
    named = set(re.findall(r"`(\w+)`", sentence)) - {"validate"}
    assert named == set(COMMANDS) - {"validate", "generate", "grade"}
    crlf = ROOT / "samples" / "invalid-format-crlf-line-ends.txt"
    for name in sorted(named - {"view"}):
        result = invoke([name, str(crlf)])
        assert result.exit_code == 0, (name, result.stderr)
    view = Terminal(["view", str(crlf)], columns=80, rows=36)  # it needs a terminal
    try:
        view.shows("20x15  from a file")
        view.press("q")
        assert view.ending()[0] == 0
    finally:
        view.close()


def test_help_texts_say_what_each_choice_does() -> None:
    """--charset names which choice draws what, in render and view alike; --color says that
    NO_COLOR wins over always (specs/render.md); --samples gives the exact limit it sits above."""
    from mazekit.graph import EXACT_LIMIT

    for name in ("render", "view"):
        text = _option_help(name, "--charset") or ""
        assert "ascii +--+ and |" in text and "unicode box drawing" in text, name
    assert "NO_COLOR is set, even with always" in (_option_help("render", "--color") or "")
    render = CliRunner().invoke(cli, ["render", "--help"]).stdout
    assert "A COLOR is #RGB, #RRGGBB or a name" in render  # for the eight --*-color options
    assert f"{EXACT_LIMIT:,} reachable cells" in (_option_help("stats", "--samples") or "")


def test_readme_names_only_what_the_api_has() -> None:
    """Every ``mazekit.NAME`` README mentions is public; the Maze they take has its reader."""
    import mazekit

    named = set(re.findall(r"\bmazekit\.(\w+)", README))
    assert {"read_maze", "write_maze", "validate"} <= named
    assert named <= set(mazekit.__all__)


def test_make_docs_without_chromium_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """make docs' screenshot step names the Debian package, never Playwright's 'playwright
    install' (a browser download): it stops with exit 1 and writes nothing."""
    from tests import browser

    monkeypatch.setattr(browser, "chromium_path", lambda: None)
    shot = tmp_path / "board-page.png"
    assert browser.main([str(ROOT / "docs" / "board.html"), str(shot)]) == 1
    assert "apt-get install chromium" in capsys.readouterr().err
    assert not shot.exists()


def _anchors(markdown: str) -> set[str]:
    """The #anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces
    to hyphens."""
    headings = re.findall(r"^#{1,6} (.*)$", markdown, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_readme_links_lead_somewhere() -> None:
    """Every relative link and picture of README names a file of the clone, and every #anchor
    a heading of its page (a renamed section or spec leaves none dangling)."""
    links = re.findall(r"\]\(([^)\s]+)\)", README) + re.findall(r'src="([^"]+)"', README)
    assert len(links) > 30
    for link in links:
        if link.startswith(("http://", "https://")):
            continue  # not the clone's to check
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else ROOT / "README.md"
        assert target.is_file(), link
        if anchor:
            assert anchor in _anchors(target.read_text()), link


def test_readme_format_in_brief_shows_the_example_of_specs_format(invoke: Invoke) -> None:
    """README's example file is specs/format.md's, byte for byte, and a valid maze: the path
    goes where the prose of both says (east along the top row, back west along the bottom)."""
    brief = README.split("## The format in brief\n", 1)[1].split("\n## ", 1)[0]
    spec = (ROOT / "specs" / "format.md").read_text()
    shown = brief.split("\n```\n", 1)[1].split("```\n", 1)[0]
    assert shown == spec.split("\n```\n", 1)[1].split("```\n", 1)[0]
    assert "](specs/format.md)" in brief
    assert invoke(["validate", "--perfect", "--strict-format", "-"], input=shown).exit_code == 0


def test_pacmanize_help_says_which_path_lines_it_refuses(invoke: Invoke) -> None:
    """A wrong path is replaced, a malformed one refused (specs/pacman.md): the help said
    "but for its path line", which promised the second would pass too."""
    help_text = " ".join(invoke(["pacmanize", "--help"]).stdout.split())
    assert "but for a wrong path" in help_text
    assert "a path line with a letter other than N, E, S, W is refused" in help_text
    text = (ROOT / "samples" / "valid-9x7-smallest-42.txt").read_text()
    assert invoke(["pacmanize"], input=text.rsplit("\n", 2)[0] + "\nSSX\n").exit_code == 1
    assert invoke(["pacmanize", str(ROOT / "samples" / "invalid-path-detour.txt")]).exit_code == 0


def test_stats_help_says_it_reads_student_footers(invoke: Invoke) -> None:
    """A reviewer with a file ending `(0, 0)` learns from --help that stats reads it, and the
    help's words hold: the file is measured with a note, exit 0."""
    help_text = " ".join(invoke(["stats", "--help"]).stdout.split())
    assert "Entry: 0,0) is read with a note on stderr" in help_text
    assert "the corner cells stand for them" in help_text
    text = (ROOT / "samples" / "valid-9x7-smallest-42.txt").read_text()
    student = text.replace("\n0,0\n8,6\n", "\nEntry: 0,0\n(8, 6)\n")
    result = invoke(["stats", "-"], input=student)
    assert result.exit_code == 0 and "entry written as 'Entry: 0,0': read as 0,0" in result.stderr
