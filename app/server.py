"""The hub's uvicorn server: at shutdown, it ends its event streams before anything else.

uvicorn's graceful shutdown waits for open connections, and an event stream never ends by
itself: without this, every shutdown waited out ``timeout_graceful_shutdown`` and then
cancelled the streams, whose clients saw a connection cut mid-body. Ended first, each stream
finishes its body cleanly, and its client resumes (elsewhere) with ``Last-Event-ID``.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sys

import uvicorn

logger = logging.getLogger(__name__)

STARTUP_FAILURE = 3  # uvicorn's exit status when the server did not start


class HubServer(uvicorn.Server):
    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        state = getattr(self.config.app, "state", None)
        watchdog = getattr(state, "send_watchdog", None)
        if watchdog is not None:
            ended = watchdog.end_all()
            if ended:
                logger.info("ended %d event streams: their clients resume elsewhere", ended)
        await super().shutdown(sockets)


def serve(config: uvicorn.Config) -> None:
    """``uvicorn.run`` for one process, with ``HubServer``."""
    config.load_app()
    server = HubServer(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
