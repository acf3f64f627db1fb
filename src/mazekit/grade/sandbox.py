"""Run a submission's program in a throw-away copy, with limits against runaway programs.

The copy lives in a private folder made for it; the program runs there with stdin from
/dev/null (or --stdin's text, or a terminal), a clean environment, its own process group,
resource limits set by a tiny wrapper just before exec, and stdout/stderr captured to files
whose size the limits bound. Under root it runs as the user ``nobody``, and where bubblewrap
works, in namespaces of its own (isolation.py). specs/grade.md says what this stops.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pwd
import re
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from ..errors import GradeError, printable
from .isolation import TERM, Terminal, Xvfb, bwrap, in_private_folder, namespaces_work
from .tree import CopyFailed, TooDeep, copy_tree, remove_tree, walk

__all__ = [
    "CAPTURE_BYTES",
    "DISTRIBUTION_PYTHON",
    "PROBE_SECONDS",
    "TAIL_CHARS",
    "TAIL_LINES",
    "Interaction",
    "Limits",
    "Run",
    "Sandbox",
    "abandon_all",
    "cpu_seconds",
    "default_identity",
    "stop_all",
    "tail",
]

MIB = 1024 * 1024
# stdout and stderr are kept up to this many bytes at the start and as many at the end.
CAPTURE_BYTES = 64 * 1024
# The check that the interpreter starts gets this long, or --timeout when that is longer: a
# --timeout shorter than a start-up on a loaded machine limits the program, not this check.
PROBE_SECONDS = 10.0
# The interpreter tried when the user nobody cannot run the one asked for (under /root).
DISTRIBUTION_PYTHON = "/usr/bin/python3"
# Left alone between cases: Python's byte-code caches, made by every run that imports a module
# of the submission (its verdict never depends on them; removing them costs a recompile).
BYTECODE = "__pycache__"
# What a report shows of a run's stdout and stderr: its last lines, so many at most.
TAIL_LINES = 5
TAIL_CHARS = 500

# Sets the four limits given as arguments, becomes the runner (uid and gid, -1 to stay),
# then becomes the program: ``PYTHON -I -S -c WRAPPER cpu as fsize nproc uid gid status
# PROGRAM ARGS...``, PYTHON the grader's own interpreter (it runs as the grader, inside the
# namespaces when there are some). In the namespaces, bwrap reports a program killed by
# signal N as exit 128+N, like one that exits so: there the wrapper waits for the program
# and writes N to the file descriptor ``status`` (-1: plain exec). A wrapper rather than
# preexec_fn, which is unsafe when grade runs submissions in threads (-j).
WRAPPER = """\
import os, resource, sys, warnings  # all imported before the runner drops root
cpu, memory, size, nproc, uid, gid, status = (int(v) for v in sys.argv[1:8])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
if uid >= 0:
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
os.environ.pop("PWD", None)  # set by bwrap: the environment stays the one grade gives
child = os.fork() if status >= 0 else 0
if child == 0:
    try:
        os.execvp(sys.argv[8], sys.argv[8:])
    except OSError as error:
        sys.stderr.write(f"mazekit grade: cannot run {sys.argv[8]}: {error.strerror}\\n")
        os._exit(127)
while True:
    try:
        code = os.waitpid(child, 0)[1]
        break
    except InterruptedError:
        pass
if os.WIFSIGNALED(code):
    os.write(status, str(os.WTERMSIG(code)).encode())
    os._exit(128 + os.WTERMSIG(code))
os._exit(os.waitstatus_to_exitcode(code))
"""


@dataclass(frozen=True)
class Limits:
    """The resource limits of one run; specs/grade.md quotes these defaults."""

    timeout: float = 20.0  # wall clock, seconds; then the process group is killed
    address_space: int = 2048 * MIB  # RLIMIT_AS
    file_size: int = 32 * MIB  # RLIMIT_FSIZE: any one file written, stdout and stderr too
    processes: int = 64  # RLIMIT_NPROC: processes and threads beyond those the user has


def cpu_seconds(wall: float) -> int:
    """RLIMIT_CPU for a run of ``wall`` seconds: rounded down, plus two (SIGKILL one later)."""
    return int(wall) + 2


# A terminal's escape sequences (ECMA-48): CSI (colours, cursor moves, `ESC [ ? 1049 h`), OSC
# (a window title) ended by BEL or ST, a character set's choice (`ESC ( B`), and the short ones
# (`ESC =`, `ESC 7`). A curses or coloured program's tail is its text without them.
_TERMINAL_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[()*+][ -~]|\x1b[ -~]"
)


def tail(text: str) -> str:
    """The last TAIL_LINES non-blank lines of ``text``, at most TAIL_CHARS characters (cut at
    the front, marked ``...``), a terminal's escape sequences removed and every other control
    character escaped: what a reader needs to see why."""
    text = _TERMINAL_ESCAPES.sub("", text)
    lines = [printable(line.rstrip()) for line in text.splitlines() if line.strip()]
    shown = "\n".join(lines[-TAIL_LINES:])
    if len(shown) > TAIL_CHARS:
        shown = "..." + shown[-(TAIL_CHARS - 3) :]
    return shown


@dataclass(frozen=True)
class Run:
    """What one run did: exit status (negative: killed by that signal), output, time.

    ``stdout`` and ``stderr`` are the captured streams (their start and end when long);
    ``stdout_tail`` and ``stderr_tail`` their last lines, as a report shows them.
    """

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float

    @property
    def stdout_tail(self) -> str:
        return tail(self.stdout)

    @property
    def stderr_tail(self) -> str:
        return tail(self.stderr)


@dataclass(frozen=True)
class Interaction:
    """What a run's program meets: ``stdin`` typed at it (None: /dev/null), a terminal
    (``tty``), a virtual display (``display="xvfb"``), and namespaces (None: when they
    work)."""

    stdin: bytes | None = None
    tty: bool = False
    display: str | None = None
    namespaces: bool | None = None


_OPEN: set[Sandbox] = set()
# Held to list a copy and make its folder, and by Ctrl-C's handler to stop that for good.
# Re-entrant: the handler runs on the main thread, which may hold it already (and then never
# resumes the interrupted code).
_OPEN_LOCK = threading.RLock()
_abandoned = False  # set by abandon_all: no copy is made after it


def stop_all() -> None:
    """Kill every running program and refuse new runs, in every open sandbox.

    Ctrl-C reaches only the main thread, and the programs sit in process groups of their
    own: with -j, this is how the other threads' runs end at once.
    """
    with _OPEN_LOCK:
        boxes = list(_OPEN)
    for box in boxes:
        box.stop()


def abandon_all() -> None:
    """Ctrl-C's last act (mazekit.__main__): kill every running program, remove every copy.

    Called from a signal handler that then ends the process. The -j threads go on meanwhile:
    the lock waits out one making a copy's folder and then stops any other from making one
    (``--all -j`` makes copies in threads), and each copy is moved out of their way before it
    is removed (``_remove``), where a copy still being filled cannot come back (``tree.copy_tree``).
    """
    global _abandoned
    with _OPEN_LOCK:
        _abandoned = True
        boxes = list(_OPEN)
    for box in boxes:
        with contextlib.suppress(Exception):  # a signal handler must not raise
            box.stop()
        with contextlib.suppress(Exception):
            if box._xvfb is not None:
                box._xvfb.stop()
        with contextlib.suppress(Exception):
            _remove(box.root)


def _remove(root: Path) -> None:
    """Remove ``root`` and all in it, even while other threads are writing into it.

    A thread that makes a file between the listing of a folder and its removal would leave
    that folder behind. Renamed first, the copy is out of reach of every path the threads
    hold; only a program already killed, finishing a last write, can add to it, and a few
    more rounds take that too. remove_tree goes any depth without recursion.
    """
    moved = root.with_name(root.name + ".removing")
    try:
        os.rename(root, moved)
    except FileNotFoundError:  # not made yet, removed already, or moved by a removal that a
        if not os.path.lexists(moved):  # second Ctrl-C interrupted: then finish that one
            return
    except OSError:  # cannot be moved (a folder left by an earlier ".removing"?): remove in place
        moved = root
    for _ in range(20):
        remove_tree(moved)
        if not os.path.lexists(moved):
            return
        time.sleep(0.005)


def default_identity() -> tuple[int, int] | None:
    """(uid, gid) to run as: ``nobody`` when grading as root, else None (stay as we are)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def user_name(uid: int) -> str:
    """The login of ``uid``, or the number when it has none."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _tasks_of(uid: int) -> int:
    """How many processes and threads ``uid`` has now (what RLIMIT_NPROC counts)."""
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry.name}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
            if int(fields["Uid"].split()[0]) == uid:
                count += int(fields["Threads"])
    return count


def kill_group(pgid: int) -> None:
    """SIGKILL every process of a process group that is still there."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _excerpt(path: Path) -> str:
    """The captured stream: whole when short, else its start and end around a cut mark."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        if size <= 2 * CAPTURE_BYTES:
            data = handle.read()
        else:
            head = handle.read(CAPTURE_BYTES)
            handle.seek(size - CAPTURE_BYTES)
            cut = f"\n[... {size - 2 * CAPTURE_BYTES} bytes cut ...]\n".encode()
            data = head + cut + handle.read()
    return data.decode("utf-8", errors="replace")


def _hidden(path: str) -> bool:
    """Whether the namespaces hide ``path`` behind an empty private folder (/tmp...)."""
    return in_private_folder(os.path.realpath(path))


def _interpreter_folders(python: str) -> list[str]:
    """The folders an interpreter needs, when the namespaces would hide them: its prefix
    (the folder above ``bin``), as named and as its links resolve."""
    folders = []
    for path in (os.path.abspath(python), os.path.realpath(python)):
        prefix = os.path.dirname(os.path.dirname(path))
        if _hidden(prefix) and prefix not in folders:
            folders.append(prefix)
    return folders


# What a step with the network (--install, --setup) takes from the grader's environment:
# the proxy and the package installers' settings (an offline index, say).
_NETWORK_ENV = ("http_proxy", "https_proxy", "no_proxy", "all_proxy")


def _network_environment() -> dict[str, str]:
    return {
        key: value
        for key, value in os.environ.items()
        if key.startswith(("PIP_", "UV_")) or key.lower() in _NETWORK_ENV
    }


class Sandbox:
    """A private copy of a submission where its program runs; ``close`` removes it all.

    ``root`` (the grader's, not listable by the runner) holds the captured streams and the
    runner's own folder, named at random and open to the runner only, with the copy
    (``work``) and an empty HOME: a program that lists the temporary folder finds no way to
    another run's copy.
    """

    def __init__(
        self,
        submission: Path,
        python: str,
        limits: Limits,
        identity: tuple[int, int] | Literal["auto"] | None = "auto",
        interaction: Interaction = Interaction(),
    ) -> None:
        self.python = python
        self.python_version = ""
        self.limits = limits
        self.identity = default_identity() if identity == "auto" else identity
        self.interaction = interaction
        wanted = interaction.namespaces
        self.namespaces = namespaces_work() if wanted is None else wanted
        self.warnings: list[str] = []
        self.path: list[str] = []  # folders put first on PATH (a virtual environment's bin)
        self.env: dict[str, str] = {}  # more environment (VIRTUAL_ENV)
        self.readable: list[str] = []  # folders the namespaces show read-only (a venv)
        self.search: list[str] = []  # the interpreter's hidden module folders (start())
        self.after_copy: Callable[[], None] | None = None  # run after renew (--setup)
        self._running: subprocess.Popen[bytes] | None = None
        self._stopped = False
        self._xvfb: Xvfb | None = None
        self._shipped: dict[str, tuple[int, int, int]] | None = None  # fresh(): the copy's files
        self._recorded = False  # whether fresh() has recorded them
        # named and listed before it is made, so that Ctrl-C at any moment finds it (a name
        # not yet made is nothing to remove); 64 random bits, as private as mkdtemp's
        self.root = Path(tempfile.gettempdir(), "mazekit-grade-" + os.urandom(8).hex())
        with _OPEN_LOCK:  # after Ctrl-C's handler has taken it, no copy is made
            if _abandoned:
                raise GradeError("cannot copy: interrupted", str(submission))
            _OPEN.add(self)
            try:
                self.root.mkdir(mode=0o700)
            except OSError as error:  # a full disk, say
                _OPEN.discard(self)
                message = f"cannot copy: {error.strerror or error}"
                raise GradeError(message, str(submission)) from None
        self.submission = submission
        self.private = self.root / os.urandom(8).hex()
        self.work = self.private / "submission"
        self.home = self.private / "home"
        self._capture = self.root / "capture"
        try:
            self.private.mkdir(mode=0o700)
            self._give(self.private)
            self._copy()
            self.home.mkdir()
            self._capture.mkdir(mode=0o700)
        except GradeError:
            self.close()
            raise
        except OSError as error:
            self.close()
            raise GradeError(f"cannot copy: {error.strerror or error}", str(submission)) from None
        if self.identity is not None:
            os.chmod(self.root, 0o711)  # nobody may pass through, not list
            self._give(self.home)

    @property
    def user(self) -> str:
        """The login the programs run as."""
        return user_name(self.identity[0] if self.identity is not None else os.geteuid())

    def _copy(self) -> None:
        """Copy the submission to ``work``, handed to the runner; GradeError names what failed."""
        submission = self.submission
        try:
            copy_tree(os.fspath(submission), os.fspath(self.work), frozenset({".git"}))
        except CopyFailed as failed:  # name the file that failed
            where = os.path.relpath(failed.source, submission)
            parts = Path(where).parts
            if len(parts) > 4:  # a folder thousands of levels deep has a path to match
                where = os.path.join(*parts[:3], "...")
            raise GradeError(f"cannot copy {where}: {failed.why}", str(submission)) from None
        except OSError as error:
            raise GradeError(f"cannot copy: {error.strerror or error}", str(submission)) from None
        self._give_all(self.work)

    def _give_all(self, folder: Path) -> None:
        """Hand ``folder`` and all in it to the runner (only when grading as root)."""
        if self.identity is None:
            return
        self._give(folder)
        for base, dirs, files in walk(folder):
            for name in dirs + files:
                self._give(Path(base, name))

    def shown(self, text: str) -> str:
        """``text`` with grade's folders left out of paths: the copy's paths relative to the
        submission (``File "a_maze_ing.py"``, the copy itself ``.``), HOME's under ``~``
        (``~/.amaze``), not a temporary folder's random names."""
        text = text.replace(f"{self.work}{os.sep}", "").replace(str(self.work), ".")
        return text.replace(str(self.home), "~")

    def renew(self) -> None:
        """Make the copy anew from the submission: a run removed what the next one needs (its
        entry script), and each case judges the program as shipped, not what a run left."""
        if os.path.lexists(self.work):  # a grader that is not root: the run may remove it all
            damaged = self.root / f"damaged-{os.urandom(4).hex()}"
            os.rename(self.work, damaged)
            _remove(damaged)
        self._copy()
        if self.after_copy is not None:
            self.after_copy()

    def _listing(self) -> dict[str, tuple[int, int, int]] | None:
        """The copy's entries (``__pycache__`` folders left out): path -> (type, size, mtime);
        a folder by its type only (what is added inside changes its time). None when the
        copy cannot be listed whole (a folder too deep)."""
        found: dict[str, tuple[int, int, int]] = {}
        try:
            for base, folders, files in walk(self.work):
                folders[:] = [name for name in folders if name != BYTECODE]
                for name in folders + files:
                    path = os.path.join(base, name)
                    with contextlib.suppress(OSError):
                        status = os.lstat(path)
                        kind = stat.S_IFMT(status.st_mode)
                        key = os.path.relpath(path, self.work)
                        if kind == stat.S_IFDIR:
                            found[key] = (kind, 0, 0)
                        else:
                            found[key] = (kind, status.st_size, status.st_mtime_ns)
        except TooDeep:
            return None
        return found

    def fresh(self, grader_names: frozenset[str] = frozenset()) -> None:
        """Before a case: an empty HOME, and the copy as shipped (after --setup), whatever an
        earlier case's runs left (a state file, ``~/.amaze``): cases are isolated from each
        other, so no verdict depends on their order or on -j.

        What the runs added is removed; a shipped file changed or removed makes the copy
        anew (``renew``). ``grader_names``: root entries that grade itself writes and
        removes (``maze.txt``), not compared. The first call records the copy as shipped.
        """
        remove_tree(self.home)
        self.home.mkdir(exist_ok=True)  # a HOME the runner may not empty is left, not fatal
        self._give(self.home)
        now = self._listing()
        if not self._recorded:
            self._recorded, self._shipped = True, now
            return
        shipped = self._shipped
        if shipped is None:  # shipped too deep to list whole: left as the runs leave it
            return
        if now is not None:
            mine = {k: v for k, v in now.items() if k.split(os.sep)[0] not in grader_names}
            kept = {k: v for k, v in shipped.items() if k.split(os.sep)[0] not in grader_names}
            added = mine.keys() - kept.keys()
            if all(mine.get(key) == value for key, value in kept.items()):
                for key in sorted(added):  # a folder first, then (already gone) what was in it
                    if os.path.dirname(key) not in added:
                        remove_tree(self.work / key)
                return
        self.renew()
        self._shipped = self._listing()

    def _probe(self, python: str, wall: float) -> Run:
        return self.run([python, "-c", _VERSION], timeout=wall)

    def start(self) -> None:
        """Check that the interpreter runs here, within PROBE_SECONDS or the run's time limit
        if longer, and learn its version.

        Under root the programs never run as root: when nobody cannot start the interpreter
        (one under /root, say), the distribution's python3 is tried instead, with a warning.
        """
        wall = max(PROBE_SECONDS, self.limits.timeout)
        probe = self._probe(self.python, wall)
        refused = probe.returncode != 0 and not probe.timed_out
        if refused and self.identity is not None and _runs_for_grader(self.python, wall):
            # only a refusal tries another: a slow start is no reason to change interpreters
            other = DISTRIBUTION_PYTHON
            if os.path.realpath(other) != os.path.realpath(self.python) and os.access(
                other, os.X_OK
            ):
                second = self._probe(other, wall)
                if second.returncode == 0:
                    self.warnings.append(
                        f"the user {self.user} cannot run {self.python}, so the programs "
                        f"run with {other}"
                    )
                    self.python, probe = other, second
            if probe.returncode != 0:
                lines = probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"]
                self.close()
                raise GradeError(
                    f"the user {self.user} cannot run {self.python}: {lines[-1]}", "--python"
                )
        if probe.timed_out:
            self.close()
            raise GradeError(f"cannot run {self.python}: no exit after {wall:g} s", "--python")
        if probe.returncode != 0:
            lines = probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"]
            self.close()
            raise GradeError(f"cannot run {self.python}: {lines[-1]}", "--python")
        self.python_version = probe.stdout.strip()
        if self.namespaces:  # its packages may lie where the namespaces hide (/tmp/...)
            self.search = _search_folders(self.python, wall)

    def _give(self, path: Path) -> None:
        """Hand ``path`` to the user the program runs as (only when grading as root)."""
        if self.identity is not None:
            os.chown(path, *self.identity, follow_symlinks=False)

    def write(self, name: str, data: bytes) -> Path:
        """Put a new file into the copy (a config, a previous output), owned by the runner.

        Whatever had the name goes first, and the file is made anew (O_EXCL): a symbolic link
        left there by the submission or an earlier run is never written through.
        """
        path = self.work / name
        self.remove(name)
        with open(path, "xb") as handle:
            handle.write(data)
        self._give(path)
        return path

    def set_aside(self, name: str) -> Path | None:
        """Move what the copy holds at ``name`` out of the program's reach, and return where
        to (None when there is nothing, or a folder: left where it is). A file the submission
        ships at its own OUTPUT_FILE must not count as written by the run, yet the other cases
        may need it (``OUTPUT_FILE=a_maze_ing.py``): ``put_back`` restores it."""
        path = self.work / name
        if not self.inside(name) or not os.path.lexists(path):
            return None
        if path.is_dir() and not path.is_symlink():
            return None
        aside = self.root / "set-aside"
        os.rename(path, aside)
        return aside

    def put_back(self, name: str, aside: Path | None) -> None:
        """Undo ``set_aside``: whatever the run left at ``name`` gives way to the original."""
        if aside is None:
            return
        self.remove(name)
        with contextlib.suppress(OSError):  # its folder is gone: the copy is no longer whole
            os.rename(aside, self.work / name)

    def make_folder(self, name: str) -> Path:
        """Make a folder in the copy, owned by the runner."""
        path = self.work / name
        path.mkdir(exist_ok=True)
        self._give(path)
        return path

    def inside(self, name: str) -> bool:
        """Whether the folder that holds ``name`` lies in the copy, every symbolic link on the
        way followed: a link the submission ships (``out -> /etc``) or its program makes
        leads wherever the grader may write, and grade runs as root."""
        try:
            path = self.work / name  # "." is the copy itself
            folder = (path if path == self.work else path.parent).resolve()
            return folder.is_relative_to(self.work.resolve())
        except (OSError, RuntimeError):  # a link loop
            return False

    def remove(self, name: str) -> None:
        """Remove a file or folder of the copy, if there (never one reached through a link
        out of the copy: that is not the copy's to remove), however deep."""
        path = self.work / name
        if not self.inside(name) or path == self.work:
            return
        remove_tree(path)

    def _nproc(self) -> int:
        uid = self.identity[0] if self.identity is not None else os.getuid()
        return _tasks_of(uid) + self.limits.processes

    def _display(self) -> Xvfb:
        """The copy's Xvfb, started on first use; GradeError when it cannot start."""
        if self._xvfb is None:
            self._xvfb = Xvfb(self._capture / "xvfb.log")
        try:
            self._xvfb.start()
        except OSError as error:
            raise GradeError(f"cannot start Xvfb: {error}", "--display") from None
        return self._xvfb

    def _command(
        self, argv: list[str], wall: float, network: bool, status: int
    ) -> tuple[list[str], dict[str, str]]:
        """The argument list that runs ``argv`` under the limits (and namespaces), and its
        environment."""
        limits = self.limits
        uid, gid = self.identity if self.identity is not None else (-1, -1)
        sizes = [cpu_seconds(wall), limits.address_space, limits.file_size, self._nproc()]
        sizes += [uid, gid, status]
        wrapper = sys.executable or self.python
        command = [wrapper, "-I", "-S", "-c", WRAPPER, *(str(n) for n in sizes), *argv]
        env = {
            # the interpreter's own folder first: `python3` in a Makefile is the one grading
            "PATH": os.pathsep.join(
                [*self.path, os.path.dirname(self.python), os.environ.get("PATH", os.defpath)]
            ),
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            **self.env,
        }
        if self.interaction.tty:
            env["TERM"] = TERM
        if network:
            env.update(_network_environment())
        sockets = []
        if self.interaction.display == "xvfb":
            display = self._display()
            env["DISPLAY"] = display.display
            sockets.append(display.socket)
        if self.namespaces:
            readable = [
                *self.readable,
                *self.search,
                sys.prefix,
                sys.base_prefix,
                *_interpreter_folders(self.python),
            ]
            readable = [p for p in dict.fromkeys(readable) if _hidden(p) and os.path.isdir(p)]
            writable = [str(self.private), *sockets]
            command = bwrap(command, str(self.work), writable, readable, network)
        return command, env

    def run(self, argv: list[str], timeout: float | None = None, network: bool = False) -> Run:
        """Run ``argv`` (never through a shell) in the copy; kill all it started when done.

        ``network``: only for --install and --setup, the one step that may fetch packages.
        """
        if self._stopped:
            return Run(-signal.SIGKILL, "", "", True, 0.0)
        wall = self.limits.timeout if timeout is None else timeout
        read, write = os.pipe() if self.namespaces else (-1, -1)
        try:
            command, env = self._command(argv, wall, network, write)
            run = self._start(command, env, wall, write)
        finally:
            if write >= 0:
                os.close(write)
        if read < 0:
            return run
        with os.fdopen(read, "rb") as status:
            killer = status.read().strip()
        if killer.isdigit() and run.returncode == 128 + int(killer):
            run = dataclasses.replace(run, returncode=-int(killer))
        return run

    def _start(self, command: list[str], env: dict[str, str], wall: float, status: int) -> Run:
        """Start ``command``, wait for it (killing its group at ``wall``), and read what it
        wrote."""
        out, err = self._capture / "stdout", self._capture / "stderr"
        typed = self.interaction.stdin
        terminal = None
        start = time.monotonic()
        with contextlib.ExitStack() as stack:
            stderr = stack.enter_context(open(err, "wb"))
            stdin: int | IO[bytes]
            stdout: int | IO[bytes]
            if self.interaction.tty:
                terminal = Terminal(out, self.limits.file_size, typed or b"")
                stack.callback(terminal.close)
                stdin = stdout = terminal.slave
            else:
                stdout = stack.enter_context(open(out, "wb"))
                stdin = subprocess.DEVNULL
                if typed is not None:
                    (self._capture / "stdin").write_bytes(typed)
                    stdin = stack.enter_context(open(self._capture / "stdin", "rb"))
            try:
                process = subprocess.Popen(  # an argument list, never a shell
                    command,
                    cwd=self.work,
                    env=env,
                    stdin=stdin,
                    stdout=stdout,
                    stderr=stderr,
                    start_new_session=True,  # its own group (and no terminal); 3.10 too
                    close_fds=True,
                    pass_fds=(status,) if status >= 0 else (),
                )
            except OSError as error:  # the interpreter cannot start
                return Run(127, "", f"{error.strerror or error}\n", False, 0.0)
            if terminal is not None:
                terminal.started()
            self._running = process
            # a timer kills the group at the limit; a blocking wait needs no polling
            expired = threading.Event()
            if self._stopped:  # stop() came between the check above and Popen
                expired.set()
                kill_group(process.pid)

            def kill() -> None:
                expired.set()
                kill_group(process.pid)

            timer = threading.Timer(wall, kill)
            timer.start()
            try:
                process.wait()
            finally:
                timer.cancel()
                kill_group(process.pid)  # any children the program left behind
                self._running = None
        timed_out = expired.is_set() and process.returncode == -signal.SIGKILL
        seconds = time.monotonic() - start
        return Run(process.returncode, _excerpt(out), _excerpt(err), timed_out, seconds)

    def stop(self) -> None:
        """Kill the running program, if any; later runs end at once as timed out."""
        self._stopped = True
        running = self._running
        if running is not None:
            kill_group(running.pid)

    def close(self) -> None:
        """Remove the temporary folder and everything the program left in it, and end the
        copy's display.

        Listed until it is gone: a Ctrl-C during the removal finds it and finishes the job."""
        if self._xvfb is not None:
            self._xvfb.stop()
        _remove(self.root)
        with _OPEN_LOCK:
            _OPEN.discard(self)


_VERSION = "import sys; print('%d.%d.%d' % sys.version_info[:3])"


def _as_grader(python: str, code: str, wall: float) -> str | None:
    """What ``python -c code`` prints when the grader itself runs it, outside the sandbox;
    None when it cannot start, fails or takes longer than ``wall`` seconds."""
    try:
        done = subprocess.run(
            [python, "-c", code],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=wall,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else None


def _search_folders(python: str, wall: float) -> list[str]:
    """The folders of ``python``'s module search path that the namespaces would hide (a
    virtual environment's packages under /tmp, a .pth file's folder), asked of the
    interpreter as the grader starts it; none when it does not answer."""
    printed = _as_grader(python, "import sys; print('\\n'.join(p for p in sys.path if p))", wall)
    folders = [] if printed is None else printed.splitlines()
    return [f for f in folders if os.path.isdir(f) and _hidden(f)]


def _runs_for_grader(python: str, wall: float) -> bool:
    """Whether the grader itself can start ``python``: when only the runner cannot, another
    interpreter is worth trying; when no one can, the error is the interpreter's."""
    return _as_grader(python, "pass", wall) is not None
