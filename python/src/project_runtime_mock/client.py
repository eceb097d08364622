"""HTTP client of a running mock: its v3 API (raw requests) and its /_mock control surface, standard library only."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

Json = Any

#: The header a server started with a control token wants on every /_mock request.
CONTROL_TOKEN_HEADER = "X-Mock-Control-Token"


class MockUnreachable(ConnectionError):
    """No server answered at `url` (refused, unknown host, timed out)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"no mock server answered at {url}: {reason}")
        self.url = url
        self.reason = reason


class ControlError(Exception):
    """The mock refused a control call: its status and its error body (management envelope or validation items)."""

    def __init__(self, status: int, body: Json, what: str) -> None:
        super().__init__(f"{what} answered {status}: {json.dumps(body)}")
        self.status = status
        self.body = body


def _sides(misses: Optional[List[Dict[str, Json]]]) -> Tuple[Dict[str, Json], Dict[str, Json]]:
    """The differing fields of the closest near miss, side by side (what a diff should show)."""
    expected: Dict[str, Json] = {}
    actual: Dict[str, Json] = {}
    if misses:
        closest = misses[0]
        expected["id"] = actual["id"] = closest["id"]
        for d in closest["differences"]:
            expected[d["field"]] = d.get("expected")
            actual[d["field"]] = d.get("actual")
    return expected, actual


class VerificationError(AssertionError):
    """A failed verification (the 417 answer), as the JavaScript clients throw it.

    Its message is the server's: what was expected, what was found, and the closest requests with why each missed.
    `expected` and `actual` are small dicts: the count (or order) asked for against what was found, and the
    closest near miss's differing fields; `body` is the whole answer.
    """

    def __init__(self, body: Dict[str, Json], operator: str) -> None:
        super().__init__(body["detail"]["message"])
        self.body = body
        self.operator = operator
        if "unexpected" in body:
            self.expected: Dict[str, Json] = {"unexpected": []}
            self.actual: Dict[str, Json] = {
                "unexpected": [f"#{e['id']} {e['method']} {e['path']} -> {e['status']}" for e in body["unexpected"]]
            }
        else:
            e, a = _sides(body.get("near_misses"))
            if "failed_at" in body:
                self.expected = {"failed_at": body["failed_at"], "pattern": body.get("expected"), **e}
                self.actual = {"failed_at": body["failed_at"], "pattern": "no match in order", **a}
            else:
                self.expected = {"matched": body.get("expected"), **e}
                self.actual = {"matched": body.get("matched"), **a}


@dataclass
class Response:
    """One HTTP answer, whatever its status."""

    status: int
    headers: Dict[str, str]
    text: str

    def json(self) -> Json:
        return json.loads(self.text) if self.text else None


def _pattern(request: Optional[Mapping[str, Json]], fields: Mapping[str, Json]) -> Dict[str, Json]:
    return {**(request or {}), **fields}


@dataclass
class MockClient:
    """A mock (the default one, or a sandbox) at `base_url`.

    `request`/`get`/`post`/... send any request and return the answer as it is; the control methods send one /_mock
    request each and raise ControlError when the mock refuses it (a test's setup should fail loudly).
    """

    base_url: str
    #: The bearer token `request` sends when the call gives no Authorization header (None: none).
    token: Optional[str] = field(default=None, repr=False)
    #: Sent as X-Mock-Control-Token on /_mock requests when set.
    control_token: Optional[str] = field(default=None, repr=False)
    timeout: float = 30.0
    #: What the create answered, for a client bound to a sandbox (None for the default mock).
    sandbox: Optional[Dict[str, Json]] = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")

    @property
    def id(self) -> Optional[str]:
        """The sandbox's id (None for the default mock)."""
        return None if self.sandbox is None else self.sandbox["id"]

    # -- any request ---------------------------------------------------------------------------------------------
    def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Json = None,
        query: Optional[Mapping[str, Json]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Response:
        """Sends `method path` (relative to base_url) and returns the answer, whatever its status."""
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None}, doseq=True)
        sent: Dict[str, str] = {"Accept": "application/json"}
        if self.token and not any(k.lower() == "authorization" for k in (headers or {})):
            sent["Authorization"] = f"Bearer {self.token}"
        if self.control_token and path.startswith("/_mock"):
            sent[CONTROL_TOKEN_HEADER] = self.control_token
        data = None
        if json_body is not None:
            data = json.dumps(json_body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        req = urllib.request.Request(url, data=data, method=method.upper(), headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return Response(res.status, dict(res.headers.items()), res.read().decode())
        except urllib.error.HTTPError as err:
            return Response(err.code, dict(err.headers.items()), err.read().decode())
        except (urllib.error.URLError, socket.timeout, ConnectionError) as err:
            reason = getattr(err, "reason", err)
            raise MockUnreachable(url, str(reason)) from err

    def get(self, path: str, **kw: Any) -> Response:
        return self.request("GET", path, **kw)

    def post(self, path: str, json_body: Json = None, **kw: Any) -> Response:
        return self.request("POST", path, json_body=json_body, **kw)

    def put(self, path: str, json_body: Json = None, **kw: Any) -> Response:
        return self.request("PUT", path, json_body=json_body, **kw)

    def delete(self, path: str, json_body: Json = None, **kw: Any) -> Response:
        return self.request("DELETE", path, json_body=json_body, **kw)

    def _control(self, method: str, path: str, body: Json = None, query: Optional[Mapping[str, Json]] = None) -> Json:
        res = self.request(method, path, json_body=body, query=query)
        if res.status >= 400:
            raise ControlError(res.status, _parsed(res), f"{method} {path}")
        return res.json()

    def _verified(self, path: str, operator: str, body: Json) -> Json:
        __tracebackhide__ = True  # pytest shows the failure at the test's line, not in here
        res = self.request("POST", path, json_body=body)
        if res.status == 417:
            raise VerificationError(res.json(), operator)
        if res.status >= 400:
            raise ControlError(res.status, _parsed(res), f"POST {path}")
        return res.json()

    # -- the control surface ---------------------------------------------------------------------------------------
    def health(self) -> Json:
        return self._control("GET", "/_mock/health")

    def reset(self) -> Json:
        """Back to the fixtures it started from; also clears the journal, the faults and the coverage report."""
        return self._control("POST", "/_mock/reset")

    def clock(self) -> Json:
        return self._control("GET", "/_mock/clock")

    def set_clock(self, now: str) -> Json:
        """Freezes the mock clock at `now` (ISO 8601)."""
        return self._control("POST", "/_mock/clock", {"now": now})

    def advance_clock(self, ms: int) -> Json:
        """Moves the mock clock by `ms` (negative goes back); what is due on the way happens."""
        return self._control("POST", "/_mock/clock", {"advance_ms": ms})

    def requests(self, **query: Json) -> List[Dict[str, Json]]:
        """The journal, oldest first (filters: method, path, status, ... as GET /_mock/requests takes them)."""
        return list(self._control("GET", "/_mock/requests", query=query)["items"])

    def clear_requests(self) -> int:
        return int(self._control("DELETE", "/_mock/requests")["cleared"])

    def verify(
        self, request: Optional[Mapping[str, Json]] = None, *, count: Optional[Mapping[str, int]] = None, **pattern: Json
    ) -> Json:
        """Asserts the journal holds requests matching the pattern (`count` times; at least once); VerificationError otherwise.

        The pattern is a dict, keywords, or both: `verify(operation="cancelRun", body={"reason": "stop"}, count={"exactly": 1})`.
        """
        __tracebackhide__ = True
        body: Dict[str, Json] = {"request": _pattern(request, pattern)}
        if count is not None:
            body["count"] = dict(count)
        return self._verified("/_mock/verify", "verify", body)

    def verify_sequence(self, *patterns: Mapping[str, Json]) -> Json:
        """Asserts requests matching these patterns happened in this order (others possibly between them)."""
        __tracebackhide__ = True
        return self._verified("/_mock/verify/sequence", "verify_sequence", {"requests": [dict(p) for p in patterns]})

    def verify_only(self, *patterns: Mapping[str, Json]) -> Json:
        """Asserts every journaled request matches at least one of these patterns."""
        __tracebackhide__ = True
        return self._verified("/_mock/verify/only", "verify_only", {"requests": [dict(p) for p in patterns]})

    def add_fault(self, spec: Optional[Mapping[str, Json]] = None, **fields: Json) -> Json:
        """Adds a fault (POST /_mock/faults): `add_fault(match={"operation": "getRun"}, status=503, times=1)`."""
        return self._control("POST", "/_mock/faults", _pattern(spec, fields))

    def faults(self) -> List[Dict[str, Json]]:
        return list(self._control("GET", "/_mock/faults")["items"])

    def clear_faults(self) -> int:
        return int(self._control("DELETE", "/_mock/faults")["cleared"])

    def snapshot(self, name: str) -> Json:
        """Saves the stored state, the clock and the simulation queue under `name` (a held name is replaced)."""
        return self._control("POST", "/_mock/snapshots", {"name": name})

    def snapshots(self) -> List[Dict[str, Json]]:
        return list(self._control("GET", "/_mock/snapshots")["items"])

    def restore(self, name: str) -> Json:
        """Puts a named snapshot back (the journal, faults and coverage stay as they are)."""
        return self._control("POST", f"/_mock/snapshots/{urllib.parse.quote(name, safe='')}/restore")

    def state(self) -> Json:
        return self._control("GET", "/_mock/state")

    # -- sandboxes (at the default mock) ---------------------------------------------------------------------------
    def create_sandbox(self, **body: Json) -> "MockClient":
        """Creates a sandbox (name, fixtures, snapshot, seed, clock, simulation, ttl_ms) and returns a client bound to it."""
        info = self._control("POST", "/_mock/sandboxes", body)
        return MockClient(info["base_url"], self.token, self.control_token, self.timeout, info)

    def sandboxes(self, **query: Json) -> Json:
        return self._control("GET", "/_mock/sandboxes", query=query)

    def delete_sandbox(self, sandbox_id: str) -> Json:
        return self._control("DELETE", f"/_mock/sandboxes/{urllib.parse.quote(sandbox_id, safe='')}")


def _parsed(res: Response) -> Json:
    try:
        return res.json()
    except ValueError:
        return res.text
