"""Run a submission's program in a throw-away copy, with limits against runaway programs.

The copy lives in a temporary folder; the program runs there with no stdin, a clean
environment, its own process group, resource limits set by a tiny wrapper just before exec,
and stdout/stderr captured to files whose size the limits bound. Under root it runs as the
user ``nobody``. This stops a careless program, not a hostile one (specs/grade.md).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import GradeError

__all__ = [
    "CAPTURE_BYTES",
    "PROBE_SECONDS",
    "Limits",
    "Run",
    "Sandbox",
    "abandon_all",
    "cpu_seconds",
    "default_identity",
    "stop_all",
]

MIB = 1024 * 1024
# stdout and stderr are kept up to this many bytes at the start and as many at the end.
CAPTURE_BYTES = 64 * 1024
# The check that the interpreter starts gets this long, or --timeout when that is longer: a
# --timeout shorter than a start-up on a loaded machine limits the program, not this check.
PROBE_SECONDS = 10.0

# Sets the four limits given as arguments, then becomes the program: run as
# ``PYTHON -I -S -c WRAPPER cpu as fsize nproc PROGRAM ARGS...`` with the submission's own
# interpreter (the one the runner's user can surely start). A wrapper rather than
# preexec_fn, which is unsafe when grade runs submissions in threads (-j).
WRAPPER = """\
import os, resource, sys
cpu, memory, size, nproc = (int(v) for v in sys.argv[1:5])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
try:
    os.execvp(sys.argv[5], sys.argv[5:])
except OSError as error:
    sys.stderr.write(f"mazekit grade: cannot run {sys.argv[5]}: {error.strerror}\\n")
    sys.exit(127)
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


@dataclass(frozen=True)
class Run:
    """What one run did: exit status (negative: killed by that signal), output, time."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float


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
    is removed (``_remove``), where a copy still being filled cannot come back (``_copy_tree``).
    """
    global _abandoned
    with _OPEN_LOCK:
        _abandoned = True
        boxes = list(_OPEN)
    for box in boxes:
        with contextlib.suppress(Exception):  # a signal handler must not raise
            box.stop()
        with contextlib.suppress(Exception):
            _remove(box.root)


def _remove(root: Path) -> None:
    """Remove ``root`` and all in it, even while other threads are writing into it.

    A thread that makes a file between rmtree's listing of a folder and its removal would
    leave that folder behind. Renamed first, the copy is out of reach of every path the
    threads hold; only a program already killed, finishing a last write, can add to it, and
    a few more rounds take that too.
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
        shutil.rmtree(moved, ignore_errors=True)
        if not os.path.lexists(moved):
            return
        _open_up(moved)
        time.sleep(0.005)


def _open_up(root: Path) -> None:
    """Give the owner back every right on the folders under ``root``: a program may leave one
    read-only (``chmod 555 out``), and then rmtree cannot remove what is in it, unless grade
    runs as root. The copy is the grader's (or nobody's, whom root needs no rights of)."""
    with contextlib.suppress(OSError):
        os.chmod(root, 0o700)
    for base, dirs, _ in os.walk(root):  # top-down: a folder is opened before it is listed
        for name in dirs:
            path = os.path.join(base, name)
            if not os.path.islink(path):
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o700)


class _CopyFailed(Exception):
    """One file or folder of the submission could not be copied, and why."""

    def __init__(self, source: str, why: str) -> None:
        super().__init__(source, why)
        self.source, self.why = source, why


def _copy_tree(source: str, target: str) -> None:
    """Copy the folder ``source`` to ``target`` as ``shutil.copytree(symlinks=True)`` does,
    leaving out ``.git``, but never making a missing parent folder: copytree's makedirs would
    make a copy that Ctrl-C has just removed come back, with no one left to remove it.

    OSError when ``source`` cannot be listed or ``target`` made; _CopyFailed for any other
    file or folder, the first that fails.
    """
    with os.scandir(source) as listing:
        entries = [entry for entry in listing if entry.name != ".git"]
    os.mkdir(target)
    for entry in entries:
        copy = os.path.join(target, entry.name)
        try:
            if entry.is_symlink():
                os.symlink(os.readlink(entry.path), copy)
                shutil.copystat(entry.path, copy, follow_symlinks=False)
            elif entry.is_dir():
                _copy_tree(entry.path, copy)
            else:
                shutil.copy2(entry.path, copy)
        except _CopyFailed:
            raise
        except OSError as error:  # a named pipe, say (copy2 refuses to block on one)
            raise _CopyFailed(entry.path, str(error)) from None
    try:
        shutil.copystat(source, target)
    except OSError as error:
        raise _CopyFailed(source, str(error)) from None


def default_identity() -> tuple[int, int] | None:
    """(uid, gid) to run as: ``nobody`` when grading as root, else None (stay as we are)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


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


class Sandbox:
    """A temporary copy of a submission where its program runs; ``close`` removes it all."""

    def __init__(
        self,
        submission: Path,
        python: str,
        limits: Limits,
        identity: tuple[int, int] | Literal["auto"] | None = "auto",
    ) -> None:
        self.python = python
        self.limits = limits
        self.identity = default_identity() if identity == "auto" else identity
        self.warnings: list[str] = []
        self._running: subprocess.Popen[bytes] | None = None
        self._stopped = False
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
        self.work = self.root / "submission"
        self.home = self.root / "home"
        self._capture = self.root / "capture"
        try:
            self._copy()
        except GradeError:
            self.close()
            raise
        self.home.mkdir()
        self._capture.mkdir(mode=0o700)
        if self.identity is not None:
            os.chmod(self.root, 0o711)  # nobody may pass through, not list
            self._give_all(self.home)

    def _copy(self) -> None:
        """Copy the submission to ``work``, handed to the runner; GradeError names what failed."""
        submission = self.submission
        try:
            _copy_tree(os.fspath(submission), os.fspath(self.work))
        except _CopyFailed as failed:  # name the file that failed
            where = os.path.relpath(failed.source, submission)
            raise GradeError(f"cannot copy {where}: {failed.why}", str(submission)) from None
        except OSError as error:
            raise GradeError(f"cannot copy: {error.strerror or error}", str(submission)) from None
        self._give_all(self.work)

    def _give_all(self, folder: Path) -> None:
        """Hand ``folder`` and all in it to the runner (only when grading as root)."""
        if self.identity is None:
            return
        self._give(folder)
        for base, dirs, files in os.walk(folder):
            for name in dirs + files:
                self._give(Path(base, name))

    def renew(self) -> None:
        """Make the copy anew from the submission: a run removed what the next one needs (its
        entry script), and each case judges the program as shipped, not what a run left."""
        if os.path.lexists(self.work):  # a grader that is not root: the run may remove it all
            damaged = self.root / f"damaged-{os.urandom(4).hex()}"
            os.rename(self.work, damaged)
            _remove(damaged)
        self._copy()

    def start(self) -> None:
        """Check that the interpreter runs here, within PROBE_SECONDS or the run's time limit
        if longer; as root, fall back from nobody to root.

        RLIMIT_NPROC never binds root, so running as root (when nobody cannot start the
        interpreter, e.g. one under /root) leaves a warning that the process limit is off.
        """
        wall = max(PROBE_SECONDS, self.limits.timeout)
        probe = self.run([self.python, "-c", "pass"], timeout=wall)
        if probe.returncode != 0 and not probe.timed_out and self.identity is not None:
            # only a refusal falls back to root: a slow start is no reason to drop the limit
            self.identity = None
            self.warnings.append(
                f"the user nobody cannot run {self.python}, so the program runs as root, "
                "where the process limit (RLIMIT_NPROC) does not hold"
            )
            probe = self.run([self.python, "-c", "pass"], timeout=wall)
        if probe.timed_out:
            self.close()
            raise GradeError(f"cannot run {self.python}: no exit after {wall:g} s", "--python")
        if probe.returncode != 0:
            lines = probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"]
            self.close()
            raise GradeError(f"cannot run {self.python}: {lines[-1]}", "--python")

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
        out of the copy: that is not the copy's to remove)."""
        path = self.work / name
        if not self.inside(name) or path == self.work:
            return
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                path.unlink()

    def _nproc(self) -> int:
        uid = self.identity[0] if self.identity is not None else os.getuid()
        return _tasks_of(uid) + self.limits.processes

    def run(self, argv: list[str], timeout: float | None = None) -> Run:
        """Run ``argv`` (never through a shell) in the copy; kill its group when done."""
        if self._stopped:
            return Run(-signal.SIGKILL, "", "", True, 0.0)
        limits = self.limits
        wall = limits.timeout if timeout is None else timeout
        cpu = cpu_seconds(wall)
        wrapper = [self.python, "-I", "-S", "-c", WRAPPER]
        sizes = [str(cpu), str(limits.address_space), str(limits.file_size), str(self._nproc())]
        env = {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
        }
        out, err = self._capture / "stdout", self._capture / "stderr"
        uid, gid = self.identity if self.identity is not None else (None, None)
        start = time.monotonic()
        with open(out, "wb") as stdout, open(err, "wb") as stderr:
            try:
                process = subprocess.Popen(  # an argument list, never a shell
                    [*wrapper, *sizes, *argv],
                    cwd=self.work,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=stdout,
                    stderr=stderr,
                    start_new_session=True,  # its own group (and no terminal); 3.10 too
                    close_fds=True,
                    user=uid,
                    group=gid,
                    extra_groups=None if uid is None else [],
                )
            except OSError as error:  # the interpreter cannot start (as this user)
                return Run(127, "", f"{error.strerror or error}\n", False, 0.0)
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
        """Remove the temporary folder and everything the program left in it.

        Listed until it is gone: a Ctrl-C during the removal finds it and finishes the job."""
        _remove(self.root)
        with _OPEN_LOCK:
            _OPEN.discard(self)
