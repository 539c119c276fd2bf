"""Connection timeouts of the HTTP server (uvicorn's h11 protocol with a deadline on request headers).

uvicorn closes an *idle* keep-alive connection after ``timeout_keep_alive`` seconds, but any byte
received cancels that timer, and nothing bounds how long a request's line and headers take to arrive:
a client sending one byte every few seconds would hold a connection (and its memory) forever.
``timed_h11(header_timeout)`` is the h11 protocol with one more timer: from the moment the connection
opens, and again after each response, the next request's line and headers must be complete within
``header_timeout`` seconds, else the connection is closed (with ``408 Request Timeout`` when part of a
request had arrived).  The body is bounded by ``app.BodyLimit`` (``body_timeout``, 408 ``body_timeout``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
                   b"content-length: %d\r\n\r\n%s")


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol; the request line and headers must arrive within ``header_timeout`` s."""

    header_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

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


def timed_h11(header_timeout: float) -> type[TimedH11Protocol]:
    """The protocol class to pass as ``uvicorn.Config(http=...)``."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"header_timeout": float(header_timeout)})
