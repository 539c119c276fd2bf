"""Connection timeouts of the HTTP server (uvicorn's h11 protocol with a deadline on request headers).

uvicorn closes an *idle* keep-alive connection after ``timeout_keep_alive`` seconds, but any byte
received cancels that timer, and nothing bounds how long a request's line and headers take to arrive:
a client sending one byte every few seconds would hold a connection (and its memory) forever.
``timed_h11(header_timeout)`` is the h11 protocol with one more timer: from the moment the connection
opens, and again after each response, the next request's line and headers must be complete within
``header_timeout`` seconds, else the connection is closed (with ``408 Request Timeout`` when part of a
request had arrived).  The body is bounded by ``app.BodyLimit`` (``body_timeout``, 408 ``body_timeout``).

It also answers the requests it cannot parse in JSON like every other error (uvicorn writes a plain-text
"Invalid HTTP request received."): ``400 bad_length`` for a Content-Length that is not a number,
``400 headers_too_large`` for a request line and headers over ``max_header_bytes`` (16 KiB) -- whether they
came in pieces (h11 refuses to buffer more) or whole in one write (h11 accepts those, so they are measured
here) -- and ``400 bad_request`` for anything else h11 refuses; then it closes the connection.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
                   b"content-length: %d\r\n\r\n%s")
#: The largest request line + headers accepted (larger: 400 headers_too_large and the connection closed).
MAX_HEADER_BYTES = 16 * 1024


class _CheckedConnection:
    """An ``h11.Connection`` that keeps the reason of the last protocol error it raised and refuses a
    request whose line and headers are over ``limit`` bytes though they came complete."""

    def __init__(self, conn: h11.Connection, limit: int) -> None:
        self._conn, self._limit = conn, limit
        self.last_error = ""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def next_event(self) -> Any:
        try:
            event = self._conn.next_event()
        except h11.RemoteProtocolError as e:
            self.last_error = str(e)
            raise
        if isinstance(event, h11.Request):
            size = len(event.method) + len(event.target) + sum(len(k) + len(v) + 4 for k, v in event.headers)
            if size > self._limit:
                self.last_error = f"request line and headers of {size} bytes, over the limit of {self._limit}"
                raise h11.RemoteProtocolError(self.last_error)
        return event


def bad_request_reply(reason: str, limit: int = MAX_HEADER_BYTES) -> tuple[str, str]:
    """(error code, detail) of a request h11 could not parse, from h11's reason."""
    low = reason.lower()
    if "content-length" in low:
        return "bad_length", f"bad Content-Length header (a number of bytes is needed): {reason}"
    if "over the limit" in low or "buffer" in low or "too long" in low or "too large" in low:
        return "headers_too_large", f"the request line and headers must be at most {limit} bytes ({reason})"
    return "bad_request", f"the request could not be parsed as HTTP/1.1: {reason or 'malformed'}"


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol; the request line and headers must arrive within ``header_timeout`` s."""

    header_timeout: float = 10.0
    max_header_bytes: int = MAX_HEADER_BYTES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self.conn = _CheckedConnection(self.conn, self.max_header_bytes)  # type: ignore[assignment]

    def send_400_response(self, msg: str) -> None:
        """A request h11 refused, answered in JSON (``bad_request_reply``); the connection is closed."""
        code, detail = bad_request_reply(getattr(self.conn, "last_error", ""), self.max_header_bytes)
        body = json.dumps({"detail": detail, "error": code}, separators=(",", ":")).encode()
        self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
                             b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:  # no response under way: ours is the 408
            partial = bool(self.conn.trailing_data[0])
            if partial:
                body = (b'{"detail":"the request line and headers did not arrive within %g s","error":'
                        b'"header_timeout"}' % self.header_timeout)
                self.transport.write(REQUEST_TIMEOUT % (len(body), body))
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # a request's headers are complete; BodyLimit bounds its body

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request (or the rest of an unread body) has header_timeout to arrive

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()  # the WebSocket protocol takes over the connection (its first message has its own limit)
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def timed_h11(header_timeout: float, max_header_bytes: int = MAX_HEADER_BYTES) -> type[TimedH11Protocol]:
    """The protocol class to pass as ``uvicorn.Config(http=...)``."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"header_timeout": float(header_timeout),
                                                          "max_header_bytes": int(max_header_bytes)})
