"""project-runtime-mock for Python: a client of a running mock and a pytest plugin (sandbox per test)."""

from .client import ControlError, MockClient, MockUnreachable, Response, VerificationError
from .server import StartError

__all__ = ["ControlError", "MockClient", "MockUnreachable", "Response", "StartError", "VerificationError"]
__version__ = "0.1.0"
