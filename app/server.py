"""The hub's uvicorn server: at shutdown, it ends its event streams before anything else;
once started, ``agenthub serve`` tunes the garbage collector for a long-running server.

uvicorn's graceful shutdown waits for open connections, and an event stream never ends by
itself: without this, every shutdown waited out ``timeout_graceful_shutdown`` and then
cancelled the streams, whose clients saw a connection cut mid-body. Ended first, each stream
finishes its body cleanly, and its client resumes (elsewhere) with ``Last-Event-ID``.

The collector: a fan-out of one message to 1,000 streams allocates a few thousand objects,
so collections ran all through it, and the older generations' walked everything the hub had
made at start (its app, routes, models, SQLAlchemy's caches). Frozen once the hub has
started (``gc.freeze``), that is never walked again: at N = 1,000, deliveries/s rose by ~15 %
and the burst's p99 halved (BENCHMARKS.md). The thresholds stay Python's: raising them too
gained no more here and slowed ingest.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import socket
import sys

import uvicorn

from app.logs import ACCESS_LOGGER
from app.streams.sse import SendWatchdog

logger = logging.getLogger(__name__)

STARTUP_FAILURE = 3  # uvicorn's exit status when the server did not start


class HubServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, *, freeze_at_start: bool = False) -> None:
        super().__init__(config)
        self.freeze_at_start = freeze_at_start

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        watchdog = self._watchdog()
        if watchdog is not None:
            watchdog.server_ends_streams = True  # shutdown() ends them
        if self.freeze_at_start and self.started:
            gc.collect()
            gc.freeze()  # what the hub holds once started is never walked by a collection again

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        watchdog = self._watchdog()
        if watchdog is not None:
            ended = watchdog.end_all()
            if ended:
                logger.info("ended %d event streams: their clients resume elsewhere", ended)
        await super().shutdown(sockets)

    def _watchdog(self) -> SendWatchdog | None:
        """The hub's stream watchdog, when the app served is a hub (it has one once started)."""
        watchdog = getattr(getattr(self.config.app, "state", None), "send_watchdog", None)
        return watchdog if isinstance(watchdog, SendWatchdog) else None


def serve(config: uvicorn.Config) -> None:
    """``uvicorn.run`` for one process, with ``HubServer``. ``access_log=False`` (``serve
    --no-access-log``) quiets the hub's access log too (uvicorn's own is never written)."""
    if not config.access_log:
        logging.getLogger(ACCESS_LOGGER).setLevel(logging.WARNING)
    config.load_app()
    server = HubServer(config, freeze_at_start=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
