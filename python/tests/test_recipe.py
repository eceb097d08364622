# Recipe (pytest): a test with a sandbox of its own, a fault and a verify. The plugin gives `runtime_mock_sandbox`;
# docs/other-languages.md shows this file, and npm test runs it with 4 xdist workers on one server.
import pytest

PROJECT = "fe1868ee-d60e-4ce6-8db0-f4a764225229"
RUN = f"/api/v3/projects/{PROJECT}/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14"


def test_cancel_is_sent_once_with_the_reason(runtime_mock_sandbox):
    # The code under test would get runtime_mock_sandbox.base_url as its API base URL; here the client sends directly.
    res = runtime_mock_sandbox.post(f"{RUN}/cancel", {"reason": "customer asked"})
    assert res.json()["status"] == "cancelled"
    runtime_mock_sandbox.verify(operation="cancelRun", body={"reason": "customer asked"}, count={"exactly": 1})


def test_a_503_then_success(runtime_mock_sandbox):
    runtime_mock_sandbox.add_fault(match={"operation": "getRun"}, status=503, times=1)
    assert runtime_mock_sandbox.get(RUN).status == 503
    assert runtime_mock_sandbox.get(RUN).json()["status"] == "waiting_approval"  # this sandbox only: others never saw the cancel
    assert [e["status"] for e in runtime_mock_sandbox.requests()] == [503, 200]


@pytest.mark.runtime_mock_sandbox(clock={"now": "2030-01-01T00:00:00Z"})
def test_a_sandbox_with_its_own_clock(runtime_mock_sandbox):
    assert runtime_mock_sandbox.clock()["now"] == "2030-01-01T00:00:00.000Z"
    assert runtime_mock_sandbox.advance_clock(60_000)["now"] == "2030-01-01T00:01:00.000Z"
