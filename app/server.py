"""The hub's uvicorn server: at shutdown, it ends its event streams before anything else;
once started, ``agenthub serve`` tunes the garbage collector for a long-running server.

uvicorn's graceful shutdown waits for open connections, and an event stream never ends by
itself: without this, every shutdown waited out ``timeout_graceful_shutdown`` and then
cancelled the streams, whose clients saw a connection cut mid-body. Ended first, each stream
finishes its body cleanly, and its client resumes (elsewhere) with ``Last-Event-ID``.

The collector: a fan-out of one message to 1,000 streams allocates a few thousand objects,
so with Python's default thresholds (700, 10, 10) collections ran all through it, and the
full ones walked the whole heap (the app, SQLAlchemy, every stream). What the hub holds
after start is frozen (never walked again), the youngest generation is collected every
100,000 allocations and a full collection is rarer (``GC_THRESHOLDS``): at N = 1,000 that
took deliveries/s from ~34k to ~51k and burst p99 from ~300 to ~100 ms (BENCHMARKS.md).
Reference counting still frees everything that is not in a cycle at once.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import socket
import sys

import uvicorn

logger = logging.getLogger(__name__)

STARTUP_FAILURE = 3  # uvicorn's exit status when the server did not start
GC_THRESHOLDS = (100_000, 50, 100)


class HubServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, *, tune_gc: bool = False) -> None:
        super().__init__(config)
        self.tune_gc = tune_gc

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.tune_gc and self.started:
            gc.collect()
            gc.freeze()  # what the hub holds once started is never walked by a collection again
            gc.set_threshold(*GC_THRESHOLDS)

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
    server = HubServer(config, tune_gc=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
