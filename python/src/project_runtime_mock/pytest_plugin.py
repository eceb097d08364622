"""pytest plugin: `runtime_mock`, one server for the run (xdist workers share it); `runtime_mock_sandbox`, one per test.

`runtime_mock` is the server at RUNTIME_MOCK_URL, or one started for the run and stopped after it; each test's
`runtime_mock_sandbox` is a fresh sandbox of it, deleted after the test.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

from . import server
from .client import ControlError, MockClient, MockUnreachable

#: Where the server's record lives; the xdist controller hands it to each worker (their shared temp directory).
_STATE_KEY = "runtime_mock_state_dir"
_ENV_URL = "RUNTIME_MOCK_URL"
_ENV_CONTROL_TOKEN = "RUNTIME_MOCK_CONTROL_TOKEN"

# name: (help, default); each is an ini setting and a command-line option `--runtime-mock-<name with dashes>`.
_SETTINGS: Dict[str, "tuple[str, str]"] = {
    "start": ("how to start a server when RUNTIME_MOCK_URL is not set: auto (the CLI on PATH, else npx), cli, npx or container", "auto"),
    "args": ("extra arguments for the started server, e.g. '--fixtures tests/fixture.json' (split as a shell would)", ""),
    "image": ("the container image of start mode container", "project-runtime-mock"),
    "engine": ("the container engine's command of start mode container, e.g. 'podman --runtime runc' (default: docker, else podman)", ""),
    "start_timeout": ("seconds to wait for a started server to listen", "60"),
    "token": ("the bearer token the clients send on v3 requests that give none", "demo-owner-token"),
    "control_token": ("the server's control token (X-Mock-Control-Token); or RUNTIME_MOCK_CONTROL_TOKEN", ""),
}

class _Coordinator:
    """This process's view of the run's one server: the shared state directory, and whether this process owns it."""

    def __init__(self, state_dir: Path, owner: bool) -> None:
        self.shared = server.SharedServer(state_dir)
        self.owner = owner


#: This process's coordinator, in the config's stash (pytest 7 or later).
_COORDINATOR = pytest.StashKey[_Coordinator]()


class _XdistController:
    """Registered on the xdist controller only: hands every worker the run's state directory."""

    def __init__(self, state_dir: str) -> None:
        self.state_dir = state_dir

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[_STATE_KEY] = self.state_dir


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("runtime-mock", "project-runtime-mock")
    for name, (help_text, default) in _SETTINGS.items():
        parser.addini(f"runtime_mock_{name}", help_text, default=default)
        group.addoption(f"--runtime-mock-{name.replace('_', '-')}", dest=f"runtime_mock_{name}", default=None, help=help_text)


def _setting(config: pytest.Config, name: str) -> str:
    given = config.getoption(f"runtime_mock_{name}")
    return str(given if given is not None else config.getini(f"runtime_mock_{name}"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "runtime_mock_sandbox(**body): create this test's sandbox with this body (fixtures, seed, clock, simulation, ...)")
    mode = _setting(config, "start")
    if mode not in server.START_MODES:
        raise pytest.UsageError(f"runtime_mock_start: {mode!r} is not one of {', '.join(server.START_MODES)}")
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and _STATE_KEY in workerinput:
        coordinator = _Coordinator(Path(workerinput[_STATE_KEY]), owner=False)
    else:
        state_dir = tempfile.mkdtemp(prefix="runtime-mock-")
        coordinator = _Coordinator(Path(state_dir), owner=True)
        if config.pluginmanager.hasplugin("xdist"):
            config.pluginmanager.register(_XdistController(state_dir), "runtime-mock-xdist-controller")
    config.stash[_COORDINATOR] = coordinator


def pytest_unconfigure(config: pytest.Config) -> None:
    coordinator = config.stash.get(_COORDINATOR, None)
    if coordinator is not None and coordinator.owner:
        try:
            coordinator.shared.stop()
        finally:
            shutil.rmtree(coordinator.shared.state_dir, ignore_errors=True)


def _start(config: pytest.Config, log: Path) -> Dict[str, object]:
    args: List[str] = shlex.split(_setting(config, "args"))
    timeout = float(_setting(config, "start_timeout"))
    mode = _setting(config, "start")
    if mode == "container":
        engine = server.container_engine(_setting(config, "engine") or None)
        return server.start_container(engine, _setting(config, "image"), args, timeout)
    return server.start_process(server.command(mode, args), log, timeout, cwd=str(config.rootpath))


@pytest.fixture(scope="session")
def runtime_mock(pytestconfig: pytest.Config) -> MockClient:
    """The run's mock server (its default mock): RUNTIME_MOCK_URL when set, else one started for the run, shared by
    every xdist worker and stopped when the run ends."""
    url: Optional[str] = os.environ.get(_ENV_URL) or None
    failed = ""
    if url is None:
        try:
            url = pytestconfig.stash[_COORDINATOR].shared.ensure(lambda log: _start(pytestconfig, log))
        except server.StartError as err:
            failed = f"runtime_mock: could not start a mock server (start mode {_setting(pytestconfig, 'start')}): {err}"
    if url is None:
        pytest.fail(failed, pytrace=False)
    control_token = os.environ.get(_ENV_CONTROL_TOKEN) or _setting(pytestconfig, "control_token") or None
    return MockClient(url, token=_setting(pytestconfig, "token") or None, control_token=control_token)


@pytest.fixture
def runtime_mock_sandbox(runtime_mock: MockClient, request: pytest.FixtureRequest) -> Iterator[MockClient]:
    """A fresh sandbox of the run's server for this test (its own state, clock, faults, journal), deleted after it."""
    marker = request.node.get_closest_marker("runtime_mock_sandbox")
    body: Dict[str, Any] = {"name": request.node.nodeid[-200:], **(marker.kwargs if marker else {})}
    sandbox: Optional[MockClient] = None
    try:
        sandbox = runtime_mock.create_sandbox(**body)
    except MockUnreachable as err:
        failed = (
            f"runtime_mock_sandbox: no mock server answered at {runtime_mock.base_url} ({err.reason}); "
            f"start one (npx project-runtime-mock) or set {_ENV_URL} to a running one"
        )
    except ControlError as err:
        failed = f"runtime_mock_sandbox: the mock at {runtime_mock.base_url} refused a sandbox: {err}"
    if sandbox is None:  # failed outside the except: the report shows the message, not a chain of tracebacks
        pytest.fail(failed, pytrace=False)
    yield sandbox
    try:
        runtime_mock.delete_sandbox(str(sandbox.id))
    except (ControlError, MockUnreachable):
        pass  # already gone: expired, deleted by the test, or the server stopped
