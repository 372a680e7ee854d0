"""The soak's stream holder: a process of kit ``EventStream`` readers on one group, as agents
read it (a stream the hub ends at its token's expiry is opened again with a fresh token, and
resumes from its last seq).

Reads one JSON line on stdin: ``{"hub", "group", "members": [{"id", "key"}], "per_member"}``
(``key``: the member's private key, PEM); prints ``ready`` once every stream is open, then
answers one command a line:

- ``count <minute>``: one JSON line ``{"deliveries": n, "streams": s}``, the message events
  marked ``@<minute>:`` that the streams got between them;
- ``quit``.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import Counter
from typing import Any

import orjson

from agenthub import AgentKey, HubClient

MARK = re.compile(r"@(\d+):")


async def hold(
    hub: str, group: str, member: dict[str, Any], per_member: int, got: Counter[int]
) -> list[tuple[asyncio.Task[None], asyncio.Event]]:
    """``per_member`` streams of one member, from ``member["after"]`` (one event before the
    group's last: each stream's first event says it is open)."""
    kit = HubClient(hub, key=AgentKey.from_pem(member["key"].encode()), agent_id=member["id"])

    async def read(opened: asyncio.Event) -> None:
        async for event in kit.groups.events(group, after=member["after"]):
            opened.set()
            if event.kind != "message":
                continue
            items = event.data.get("dataItems") or [{}]
            found = MARK.search(str(items[0].get("text", "")))
            if found:
                got[int(found.group(1))] += 1

    held = []
    for _ in range(per_member):
        opened = asyncio.Event()
        held.append((asyncio.create_task(read(opened)), opened))
    return held


async def main() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    spec = orjson.loads(await reader.readline())
    got: Counter[int] = Counter()
    held = []
    for member in spec["members"]:
        held += await hold(spec["hub"], spec["group"], member, spec["per_member"], got)
    tasks = [task for task, _ in held]
    await asyncio.gather(*(opened.wait() for _, opened in held))
    print("ready", flush=True)
    while True:
        line = (await reader.readline()).decode().split()
        if not line or line[0] == "quit":
            break
        if line[0] == "count":
            answer = {"deliveries": got[int(line[1])], "streams": len(tasks)}
            print(orjson.dumps(answer).decode(), flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main())
