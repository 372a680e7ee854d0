"""The baseline: a bare FastAPI POST endpoint that validates a message and answers it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class Body(BaseModel):
    type: str
    id: str
    sentAt: str  # noqa: N815 (the wire name)
    senderRole: str  # noqa: N815
    senderId: str  # noqa: N815
    dataItems: list[dict[str, Any]]  # noqa: N815


@app.post("/messages", status_code=201)
async def post(body: Body) -> Body:
    return body
