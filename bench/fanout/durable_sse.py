"""Baseline: the bare sse-starlette broadcaster made durable, the least a broadcaster that
keeps what it is sent must do. No auth, no validation, no group rules.

``POST /publish`` stores its body in SQLite (WAL, ``synchronous=NORMAL``, as the hub's
store; the statement run on the event loop's thread, as the hub runs its writer's),
commits, puts it on every subscriber's queue and answers ``201`` with the body, as a store
answers what it stored; ``GET /stream`` is ``bare_sse``'s. Its gap to ``bare_sse`` is what
durability costs on this stack (FastAPI, sqlite3, uvicorn) before any work of the hub's own.
"""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from pathlib import Path

from fastapi import FastAPI, Request, Response

from bench.fanout.bare_sse import queues, stream

app = FastAPI()
where = tempfile.mkdtemp(prefix="durable-sse-")
atexit.register(shutil.rmtree, where, True)
store = sqlite3.connect(Path(where) / "durable.db", isolation_level=None)
store.execute("PRAGMA journal_mode=WAL")
store.execute("PRAGMA synchronous=NORMAL")
store.execute("CREATE TABLE message (seq INTEGER PRIMARY KEY, body BLOB NOT NULL)")


app.get("/stream")(stream)  # bare_sse's subscribers, fed by the post below


@app.post("/publish", status_code=201)
async def publish(request: Request) -> Response:
    body = await request.body()
    store.execute("BEGIN IMMEDIATE")
    store.execute("INSERT INTO message (body) VALUES (?)", (body,))
    store.execute("COMMIT")
    data = body.decode()
    for queue in queues:
        queue.put_nowait(data)
    return Response(body, status_code=201, media_type="application/json")
