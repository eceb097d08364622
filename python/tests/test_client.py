"""The client against a real server (the run's `runtime_mock`): each control method's answer, whole where it is stable."""

import pytest

from project_runtime_mock import ControlError, MockClient, MockUnreachable, VerificationError

P = "fe1868ee-d60e-4ce6-8db0-f4a764225229"
RUN = f"/api/v3/projects/{P}/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14"


def test_create_sandbox_binds_a_client_to_it(runtime_mock):
    sandbox = runtime_mock.create_sandbox(name="bound", seed="client-test")
    try:
        assert sorted(sandbox.sandbox) == ["base_url", "created_at", "expires_at", "id", "name", "ttl_ms"]
        assert sandbox.base_url == f"{runtime_mock.base_url}/sandboxes/{sandbox.id}"
        assert (sandbox.sandbox["name"], sandbox.sandbox["ttl_ms"]) == ("bound", 3600000)
        assert sandbox.id in [s["id"] for s in runtime_mock.sandboxes()["items"]]
        assert "demo-owner-token" not in repr(sandbox)
    finally:
        assert runtime_mock.delete_sandbox(sandbox.id) == {"deleted": True, "id": sandbox.id}
    with pytest.raises(ControlError) as err:
        sandbox.clock()
    assert err.value.status == 404
    assert err.value.body["detail"]["reason_code"] == "sandbox_not_found"


def test_clock(runtime_mock_sandbox):
    assert runtime_mock_sandbox.clock() == {"now": "2026-11-20T12:00:00.000Z", "frozen_at": "2026-11-20T12:00:00.000Z", "offset_ms": 0}
    day = runtime_mock_sandbox.advance_clock(86_400_000)
    assert day == {"now": "2026-11-21T12:00:00.000Z", "frozen_at": "2026-11-21T12:00:00.000Z", "offset_ms": 0}
    assert runtime_mock_sandbox.set_clock("2030-01-01T00:00:00Z")["now"] == "2030-01-01T00:00:00.000Z"


def test_requests_is_the_journal_as_dicts(runtime_mock_sandbox):
    assert runtime_mock_sandbox.requests() == []
    res = runtime_mock_sandbox.post(f"{RUN}/cancel", {"reason": "stop"})
    assert (res.status, res.json()["status"], res.headers["Content-Type"]) == (200, "cancelled", "application/json; charset=utf-8")
    runtime_mock_sandbox.get(RUN, headers={"Authorization": "Bearer demo-viewer-token"})
    journal = runtime_mock_sandbox.requests()
    assert [(e["id"], e["method"], e["path"], e["status"], e["operation"]) for e in journal] == [
        (1, "POST", f"{RUN}/cancel", 200, "cancelRun"),
        (2, "GET", RUN, 200, "getRun"),
    ]
    assert journal[0]["request"]["body"] == {"reason": "stop"}
    assert journal[0]["request"]["headers"]["authorization"] == "[redacted]"
    assert [e["id"] for e in runtime_mock_sandbox.requests(method="GET")] == [2]
    assert runtime_mock_sandbox.clear_requests() == 2
    assert runtime_mock_sandbox.requests() == []


def test_verify_passes_with_the_matches(runtime_mock_sandbox):
    runtime_mock_sandbox.post(f"{RUN}/cancel", {"reason": "stop"})
    assert runtime_mock_sandbox.verify(operation="cancelRun", body={"reason": "stop"}, count={"exactly": 1}) == {"matched": 1, "ids": [1]}
    assert runtime_mock_sandbox.verify({"method": "post"}) == {"matched": 1, "ids": [1]}
    assert runtime_mock_sandbox.verify_sequence({"operation": "cancelRun"}) == {"matched": 1, "ids": [1]}
    assert runtime_mock_sandbox.verify_only({"status": "2xx"}) == {"matched": 1, "ids": [1]}


def test_a_failed_verify_reads_as_the_javascript_one(runtime_mock_sandbox):
    runtime_mock_sandbox.post(f"{RUN}/cancel", {"reason": "stop"})
    with pytest.raises(VerificationError) as err:
        runtime_mock_sandbox.verify(operation="cancelRun", body={"reason": "go"}, count={"exactly": 1})
    assert isinstance(err.value, AssertionError)
    assert str(err.value) == (
        'Expected exactly 1 request matching {"operation":"cancelRun","body":{"reason":"go"}}, but 0 matched among 1 journaled request.\n'
        "Closest requests:\n"
        f'  #1 POST {RUN}/cancel -> 200: body.reason expected "go", got "stop"'
    )
    assert (err.value.expected, err.value.actual) == ({"matched": {"exactly": 1}, "id": 1, "body.reason": "go"}, {"matched": 0, "id": 1, "body.reason": "stop"})
    assert err.value.operator == "verify"
    assert err.value.body["detail"]["reason_code"] == "verification_failed"


def test_failed_sequence_and_only(runtime_mock_sandbox):
    runtime_mock_sandbox.get(RUN)
    with pytest.raises(VerificationError) as seq:
        runtime_mock_sandbox.verify_sequence({"operation": "getRun"}, {"operation": "cancelRun"})
    assert (seq.value.expected["failed_at"], seq.value.expected["pattern"]) == (1, {"operation": "cancelRun"})
    assert seq.value.actual["pattern"] == "no match in order"
    with pytest.raises(VerificationError) as only:
        runtime_mock_sandbox.verify_only({"operation": "cancelRun"})
    assert (only.value.expected, only.value.actual) == ({"unexpected": []}, {"unexpected": [f"#1 GET {RUN} -> 200"]})
    assert str(only.value) == f"Expected only requests matching the pattern, but 1 request matched none:\n  #1 GET {RUN} -> 200"


def test_add_fault(runtime_mock_sandbox):
    fault = runtime_mock_sandbox.add_fault(match={"operation": "getRun"}, status=503, times=1)
    assert (fault["status"], fault["times"]) == (503, 1)
    assert [f["id"] for f in runtime_mock_sandbox.faults()] == [fault["id"]]
    assert runtime_mock_sandbox.get(RUN).status == 503
    assert runtime_mock_sandbox.get(RUN).status == 200
    assert runtime_mock_sandbox.requests()[0]["fault"]["id"] == fault["id"]
    runtime_mock_sandbox.add_fault({"path": "/api/**"}, status=500)
    assert runtime_mock_sandbox.clear_faults() == 1


def test_snapshot_restore_reset(runtime_mock_sandbox):
    saved = runtime_mock_sandbox.snapshot("before")
    assert (saved["name"], saved["created_at"]) == ("before", "2026-11-20T12:00:00.000Z")
    runtime_mock_sandbox.post(f"{RUN}/cancel", {"reason": "stop"})
    assert [s["name"] for s in runtime_mock_sandbox.snapshots()] == ["before"]
    runtime_mock_sandbox.restore("before")
    assert runtime_mock_sandbox.get(RUN).json()["status"] == "waiting_approval"
    runtime_mock_sandbox.post(f"{RUN}/cancel", {"reason": "stop"})
    runtime_mock_sandbox.reset()
    assert runtime_mock_sandbox.requests() == []
    assert runtime_mock_sandbox.get(RUN).json()["status"] == "waiting_approval"


def test_refusals_are_control_errors(runtime_mock_sandbox):
    with pytest.raises(ControlError) as err:
        runtime_mock_sandbox.add_fault(status=503, bogus=1)
    assert err.value.status == 422
    assert err.value.body == {"detail": [{"type": "extra_forbidden", "loc": ["body", "bogus"], "msg": "Extra inputs are not permitted", "input": 1}]}
    with pytest.raises(ControlError) as missing:
        runtime_mock_sandbox.restore("never-saved")
    assert (missing.value.status, missing.value.body["detail"]["reason_code"]) == (404, "snapshot_not_found")


def test_no_server_names_the_url():
    with pytest.raises(MockUnreachable) as err:
        MockClient("http://127.0.0.1:9", timeout=2).health()
    assert err.value.url == "http://127.0.0.1:9/_mock/health"
    assert str(err.value).startswith("no mock server answered at http://127.0.0.1:9/_mock/health: ")
