"""A language model taking part in groups: a member that accepts every invitation and, when a
post names it the next speaker (IoA's ``next_speaker``), posts the model's answer."""

from __future__ import annotations

import asyncio
import logging

import httpx

from agenthub.errors import HubRequestError, KitError
from agenthub.hub import HubClient
from agenthub.lanes import Backoff, transient
from agenthub.llm import ChatModel, LLMCallError

logger = logging.getLogger(__name__)

JOIN_BACKOFF = Backoff(0.1, 5.0, deadline=120.0)
"""How long a member keeps trying to join a group it is invited to while the hub is busy or
away (a 5xx, a 429, no answer): a refusal that will not go away ends it at once."""


async def take_part_in_groups(hub: HubClient, model: ChatModel) -> None:
    """Accept every group invitation in ``hub``'s inbox and, in each group joined, answer
    each post that names this agent a next speaker with the model's reply to its text.

    Runs until cancelled. A refused accept or post (a concluded group, another member's
    floor) is logged and passed over, one the hub may take later (busy, away) is tried again;
    a model that cannot answer says so in the group. The
    inbox is read from its start, so a restarted agent joins the groups still inviting it;
    the groups it had joined before it does not follow again.
    """
    following: set[asyncio.Task[None]] = set()
    try:
        async for event in hub.inbox():
            data = event.data
            if event.kind != "member" or data.get("agentId") != hub.agent_id:
                continue
            group_id = data.get("groupId")
            if data.get("state") != "invited" or not isinstance(group_id, str):
                continue
            task = asyncio.create_task(_take_part(hub, model, group_id))
            following.add(task)
            task.add_done_callback(following.discard)
    finally:
        for task in following:
            task.cancel()


async def _take_part(hub: HubClient, model: ChatModel, group_id: str) -> None:
    after = await _join(hub, group_id)
    if after is not None:
        await _speak_when_named(hub, model, group_id, after)


async def _join(hub: HubClient, group_id: str) -> int | None:
    """Accept the invitation to ``group_id``: the seq to follow the group from (it can be
    named only once active: what is older is not for it to answer), or ``None`` when it is not
    joined (withdrawn, or the group is over). A failure that may go away by itself is tried
    again; an accept whose answer was lost, then refused as already made, is a join."""
    retry = JOIN_BACKOFF.start()
    after: int | None = None
    unanswered = False  # an accept went out and its answer was lost: it may have landed
    while True:
        accepting = False
        try:
            if after is None:
                after = (await hub.groups.get(group_id)).last_seq
            accepting = True
            await hub.groups.accept(group_id)
            return after
        except HubRequestError as exc:
            if unanswered and exc.code == "wrong-member-state":
                return after  # the accept tried before did land
            if not transient(exc.status, exc.problem) or not await retry.pause():
                logger.info("group %s: not joined (%s)", group_id, exc)
                return None
        except (KitError, httpx.HTTPError) as exc:
            if not isinstance(exc, httpx.TransportError) or not await retry.pause():
                logger.info("group %s: not joined (%s)", group_id, exc)
                return None
        unanswered = unanswered or accepting


async def _speak_when_named(hub: HubClient, model: ChatModel, group_id: str, after: int) -> None:
    """The group's stream ends when the group concludes or this member leaves it."""
    async for event in hub.groups.events(group_id, after=after):
        data = event.data
        named = data.get("nextSpeaker") or []
        if data.get("type") != "message" or hub.agent_id not in named:
            continue
        if data.get("senderId") == hub.agent_id:
            continue
        asked = " ".join(
            item.get("text", "") for item in data.get("dataItems") or [] if isinstance(item, dict)
        )
        try:
            reply = await model.chat(asked)
        except LLMCallError as exc:
            reply = f"(no answer: {model.redact(str(exc))})"
        try:
            await hub.groups.post(group_id, reply)
        except (KitError, httpx.HTTPError) as exc:
            logger.info("group %s: post refused (%s)", group_id, exc)
