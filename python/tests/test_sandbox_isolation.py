"""Tests that would collide if they shared a mock: each cancels, denies, expires, faults or resets the same demo records,
and each first checks that its sandbox is untouched. Run with -n 4, they prove every test gets its own sandbox of one server."""

import json
import os
from pathlib import Path

import pytest

P = "fe1868ee-d60e-4ce6-8db0-f4a764225229"
RUN = f"/api/v3/projects/{P}/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14"
APPROVAL = f"/api/v3/projects/{P}/approvals/apr_r3fund49"


@pytest.fixture
def sandbox(runtime_mock, runtime_mock_sandbox):
    """The sandbox, checked untouched: an empty journal, the run waiting for the refund's pending approval."""
    assert runtime_mock_sandbox.requests() == []
    assert runtime_mock_sandbox.clock()["now"] == "2026-11-20T12:00:00.000Z"
    assert runtime_mock_sandbox.get(RUN).json()["status"] == "waiting_approval"
    assert runtime_mock_sandbox.get(APPROVAL).json()["status"] == "pending"
    runtime_mock_sandbox.clear_requests()
    record = os.environ.get("RUNTIME_MOCK_RECORD")
    if record:  # the npm test reads these: which worker ran the test, on which server, in which sandbox
        line = {"worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "server": runtime_mock.base_url, "sandbox": runtime_mock_sandbox.id}
        with open(Path(record) / f"{runtime_mock_sandbox.id}.json", "w") as out:
            json.dump(line, out)
    return runtime_mock_sandbox


@pytest.mark.parametrize("i", range(5))
def test_cancel_the_waiting_run(sandbox, i):
    res = sandbox.post(f"{RUN}/cancel", {"reason": f"cancel {i}"})
    assert (res.status, res.json()["status"]) == (200, "cancelled")
    sandbox.verify(operation="cancelRun", body={"reason": f"cancel {i}"}, count={"exactly": 1})
    sandbox.verify_only({"operation": "cancelRun"})


@pytest.mark.parametrize("i", range(5))
def test_deny_the_refund(sandbox, i):
    # A cancel elsewhere would have cancelled this approval (409 approval_not_pending), a clock move expired it.
    res = sandbox.post(f"{APPROVAL}/deny", {"reason": f"deny {i}"})
    assert res.status == 200, res.text
    assert res.json()["approval"]["status"] == "denied"
    sandbox.verify_only({"operation": "denyApproval", "status": 200})


@pytest.mark.parametrize("i", range(5))
def test_a_day_later_the_refund_has_expired(sandbox, i):
    assert sandbox.advance_clock(25 * 60 * 60 * 1000)["now"] == "2026-11-21T13:00:00.000Z"
    assert sandbox.get(APPROVAL).json()["status"] == "expired"


@pytest.mark.parametrize("i", range(5))
def test_a_fault_breaks_only_this_sandbox(sandbox, i):
    sandbox.add_fault(match={"operation": "getRun"}, status=503)
    assert sandbox.get(RUN).status == 503
    sandbox.verify(operation="getRun", status=503, count={"exactly": 1})


@pytest.mark.parametrize("i", range(5))
def test_snapshot_and_reset(sandbox, i):
    sandbox.snapshot("before")
    assert sandbox.post(f"{RUN}/cancel", {"reason": "x"}).status == 200
    sandbox.restore("before")
    assert sandbox.get(RUN).json()["status"] == "waiting_approval"
    sandbox.post(f"{RUN}/cancel", {"reason": "y"})
    sandbox.reset()
    assert sandbox.requests() == []
    assert sandbox.get(RUN).json()["status"] == "waiting_approval"
