"""Run with RUNTIME_MOCK_URL naming a port where nothing listens: the sandbox fixture fails the test naming that URL."""


def test_needs_a_sandbox(runtime_mock_sandbox):
    assert False, "never reached: the fixture fails first"
