"""A verification that fails, to show how pytest reports it (the npm test reads the report)."""

RUN = "/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14"


def test_cancelled_with_the_wrong_reason(runtime_mock_sandbox):
    runtime_mock_sandbox.post(f"{RUN}/cancel", {"reason": "stop"})
    runtime_mock_sandbox.verify(operation="cancelRun", body={"reason": "go"}, count={"exactly": 1})
