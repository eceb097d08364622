"""Starting and stopping a mock server: the CLI on PATH, npx, or a container image; one per state directory, shared."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence

from .client import MockClient

#: How a server is started: `auto` is the CLI when `project-runtime-mock` is on PATH, else npx.
START_MODES = ("auto", "cli", "npx", "container")
#: What every started server gets before the user's own arguments: a free port, state in memory.
BASE_ARGS = ["--port", "0", "--memory"]
LISTENING = re.compile(r"listening on (http://\S+)")


#: Starts a server, its output in the given log file, and returns its record (kind, base_url, pid or container).
StartFn = Callable[[Path], Dict[str, object]]


class StartError(RuntimeError):
    """The server could not be started: the command tried and what it printed."""


def command(mode: str, args: Sequence[str]) -> List[str]:
    """The command line of a CLI or npx start (`auto` resolved)."""
    if mode not in START_MODES or mode == "container":
        raise ValueError(f"not a process start mode: {mode!r} (one of cli, npx, auto)")
    cli = shutil.which("project-runtime-mock")
    if mode == "cli" or (mode == "auto" and cli):
        if not cli:
            raise StartError("start mode cli: no project-runtime-mock on PATH (npm install --save-dev project-runtime-mock, or mode npx)")
        return [cli, *BASE_ARGS, *args]
    npx = shutil.which("npx")
    if not npx:
        raise StartError("start mode npx: no npx on PATH (install Node.js 20 or later)")
    # --no: never download (the package must be installed in the project); `--`: the rest is the server's, not npm's.
    return [npx, "--no", "--", "project-runtime-mock", *BASE_ARGS, *args]


def start_process(cmd: Sequence[str], log: Path, timeout_s: float, cwd: Optional[str] = None) -> Dict[str, object]:
    """Starts `cmd` with its output in `log` (no pipe: it outlives the process that started it) and waits for its URL."""
    with open(log, "wb") as out:
        # A process group of its own: npx runs the server as its child, and stop() signals them both.
        proc = subprocess.Popen(list(cmd), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, start_new_session=True)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        found = LISTENING.search(text)
        if found:
            return {"kind": "process", "pid": proc.pid, "base_url": found.group(1)}
        if proc.poll() is not None:
            raise StartError(f"{' '.join(cmd)} exited with {proc.returncode} before listening:\n{text[:2000]}")
        time.sleep(0.05)
    proc.kill()
    raise StartError(f"{' '.join(cmd)} did not print 'listening on' in {timeout_s:g} s:\n{log.read_text(errors='replace')[-2000:]}")


def container_engine(preferred: Optional[str]) -> List[str]:
    """The engine's command line: `preferred` as a shell would split it (`podman --runtime runc`), else docker or podman."""
    engine = shlex.split(preferred) if preferred else [e for e in ("docker", "podman") if shutil.which(e)][:1]
    if not engine or not shutil.which(engine[0]):
        raise StartError(f"start mode container: no container engine on PATH ({preferred or 'docker or podman'})")
    return engine


def start_container(engine: Sequence[str], image: str, args: Sequence[str], timeout_s: float) -> Dict[str, object]:
    """Runs `image` detached (state in memory, removed when stopped) with its port 4010 published on a free loopback
    port, and waits until it answers `/_mock/health`."""
    run = [*engine, "run", "-d", "--rm", "-p", "127.0.0.1::4010", image, "--memory", *args]
    done = subprocess.run(run, capture_output=True, text=True, timeout=timeout_s)
    if done.returncode != 0:
        raise StartError(f"{' '.join(run)} failed ({done.returncode}): {done.stderr.strip()}")
    container = done.stdout.strip().splitlines()[-1]
    record: Dict[str, object] = {"kind": "container", "engine": list(engine), "container": container}
    try:
        port = subprocess.run([*engine, "port", container, "4010"], capture_output=True, text=True, timeout=30).stdout
        host_port = port.strip().splitlines()[0].rsplit(":", 1)[1]
        record["base_url"] = f"http://127.0.0.1:{host_port}"
        wait_healthy(str(record["base_url"]), timeout_s)
        return record
    except Exception:
        stop(record)
        raise


def wait_healthy(base_url: str, timeout_s: float) -> None:
    client = MockClient(base_url, timeout=2)
    deadline = time.monotonic() + timeout_s
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            client.health()
            return
        except Exception as err:  # starting: refused, reset, or not ready yet
            last = str(err)
            time.sleep(0.1)
    raise StartError(f"{base_url} was not healthy in {timeout_s:g} s: {last}")


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop(record: Dict[str, object], grace_s: float = 5.0) -> None:
    """Stops what `record` says was started: SIGTERM to its process group (the CLI finishes its writes and exits),
    then SIGKILL to what is left after `grace_s`."""
    if record.get("kind") == "container":
        engine = [str(part) for part in record["engine"]]  # type: ignore[attr-defined]
        subprocess.run([*engine, "stop", "-t", str(int(grace_s)), str(record["container"])], capture_output=True)
        return
    pgid = int(record["pid"])  # type: ignore[call-overload]
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        try:  # the leader is our own child when this process started it: reap it
            os.waitpid(pgid, os.WNOHANG)
        except ChildProcessError:
            pass
        if not _group_alive(pgid):
            return
        time.sleep(0.05)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` across processes (pytest-xdist workers on one machine)."""
    with open(path, "a+b") as handle:
        if sys.platform == "win32":  # pragma: no cover - POSIX here
            import msvcrt

            handle.seek(0)
            while True:
                try:
                    msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:
                    time.sleep(0.05)
            try:
                yield
            finally:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class SharedServer:
    """One server for every process that shares `state_dir`: the first to need it starts it (under a file lock) and
    writes down its URL; the others read it. A failed start is written down too, so each process fails at once with
    the same message instead of trying again. `stop()` belongs to whoever made the directory."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.record_path = state_dir / "server.json"

    def ensure(self, start: StartFn) -> str:
        with locked(self.state_dir / "server.lock"):
            record = self.read()
            if record is None:
                try:
                    record = start(self.state_dir / "server.log")
                except (StartError, OSError, subprocess.SubprocessError, ValueError) as err:
                    record = {"error": str(err)}
                self.record_path.write_text(json.dumps(record))
        if "error" in record:
            raise StartError(str(record["error"]))
        return str(record["base_url"])

    def read(self) -> Optional[Dict[str, object]]:
        try:
            return dict(json.loads(self.record_path.read_text()))
        except FileNotFoundError:
            return None

    def stop(self) -> None:
        record = self.read()
        if record and "error" not in record:
            stop(record)

