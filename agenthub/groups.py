"""The kit's side of groups: form a team, take part in it, and follow its stream.

Use it through ``HubClient.groups``::

    group = await hub.groups.create(session_id, "report team", invite=[writer_id])
    await hub.groups.post(group.id, "Who takes the pricing section?", mentions="all")
    async for event in hub.groups.events(group.id):
        ...
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

import httpx

from agenthub.errors import NotRegisteredError
from agenthub.events import EventStream, StreamingHub
from agenthub.lanes import Backoff, problem_of, transient
from agenthub.paths import segment
from agenthub.protocol.data import TextDataItem
from agenthub.protocol.groups import (
    GroupTreeNode,
    GroupView,
    MemberView,
    TriggerView,
)
from agenthub.protocol.messages import (
    AnyMessage,
    Message,
    Product,
    TaskCommand,
    TaskCommandType,
    TaskResult,
    TaskState,
    TaskStatus,
    any_message_adapter,
)


class GroupsHub(StreamingHub, Protocol):
    """What the group calls need of their hub client (``agenthub.hub.HubClient`` is one):
    what a group's stream needs, and requests."""

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response: ...


POST_BACKOFF = Backoff(0.1, 1.6, attempts=5)


def _at(group_id: str, rest: str = "") -> str:
    """The path of a group's route: ``/v1/groups/{id}`` and what follows it."""
    return f"/v1/groups/{segment(group_id)}{rest}"


class Groups:
    def __init__(self, hub: GroupsHub) -> None:
        self.hub = hub

    def _me(self) -> str:
        if self.hub.agent_id is None:
            raise NotRegisteredError("register the agent first")
        return self.hub.agent_id

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.hub.raise_or_json(await self.hub.request(method, path, **kwargs))

    # -- forming the team ------------------------------------------------------------------

    async def create(
        self,
        session_id: str,
        name: str,
        *,
        goal: str | None = None,
        join_policy: Literal["invite", "apply", "open"] = "invite",
        invite: Iterable[str] = (),
        parent_group_id: str | None = None,
        speaking_policy: Literal["free", "turns"] = "free",
        turn_timeout_seconds: float | None = None,
    ) -> GroupView:
        body: dict[str, Any] = {
            "sessionId": session_id,
            "name": name,
            "joinPolicy": join_policy,
            "inviteIds": list(invite),
            "speakingPolicy": speaking_policy,
        }
        if turn_timeout_seconds is not None:
            body["turnTimeoutSeconds"] = turn_timeout_seconds
        if goal is not None:
            body["goal"] = goal
        if parent_group_id is not None:
            body["parentGroupId"] = parent_group_id
        return GroupView.model_validate(await self._call("POST", "/v1/groups", json=body))

    async def get(self, group_id: str) -> GroupView:
        return GroupView.model_validate(await self._call("GET", _at(group_id)))

    async def set_state(self, group_id: str, state: str) -> GroupView:
        body = {"conversationState": state}
        return GroupView.model_validate(await self._call("PATCH", _at(group_id), json=body))

    async def set_speaking(
        self,
        group_id: str,
        policy: Literal["free", "turns"],
        *,
        turn_timeout_seconds: float | None = None,
    ) -> GroupView:
        """Owner or admin: the speaking policy (``turns``: only the named next speakers, and
        the owner, post until one of them has or the turn times out)."""
        body: dict[str, Any] = {"speakingPolicy": policy}
        if turn_timeout_seconds is not None:
            body["turnTimeoutSeconds"] = turn_timeout_seconds
        return GroupView.model_validate(await self._call("PATCH", _at(group_id), json=body))

    async def subgroups(self, group_id: str, *, whole_tree: bool = False) -> list[GroupTreeNode]:
        params = {"depth": "all" if whole_tree else "1"}
        page = await self._call("GET", _at(group_id, "/subgroups"), params=params)
        return [GroupTreeNode.model_validate(item) for item in page["items"]]

    async def members(self, group_id: str) -> list[MemberView]:
        page = await self._call("GET", _at(group_id, "/members"))
        return [MemberView.model_validate(item) for item in page["items"]]

    async def _member_action(self, path: str, **kwargs: Any) -> MemberView:
        return MemberView.model_validate(await self._call("POST", path, **kwargs))

    async def invite(self, group_id: str, agent_id: str) -> MemberView:
        return await self._member_action(_at(group_id, "/invitations"), json={"agentId": agent_id})

    async def accept(self, group_id: str) -> MemberView:
        return await self._member_action(
            _at(group_id, f"/invitations/{segment(self._me())}/accept")
        )

    async def decline(self, group_id: str) -> MemberView:
        return await self._member_action(
            _at(group_id, f"/invitations/{segment(self._me())}/decline")
        )

    async def apply(self, group_id: str, note: str | None = None) -> MemberView:
        """Apply to an ``apply`` group, or join an ``open`` one at once."""
        body = {"note": note} if note is not None else {}
        return await self._member_action(_at(group_id, "/applications"), json=body)

    join = apply

    async def approve(self, group_id: str, agent_id: str) -> MemberView:
        return await self._member_action(
            _at(group_id, f"/applications/{segment(agent_id)}/approve")
        )

    async def reject(self, group_id: str, agent_id: str) -> MemberView:
        return await self._member_action(_at(group_id, f"/applications/{segment(agent_id)}/reject"))

    async def mute(self, group_id: str, agent_id: str) -> MemberView:
        return await self._member_action(_at(group_id, f"/members/{segment(agent_id)}/mute"))

    async def unmute(self, group_id: str, agent_id: str) -> MemberView:
        return await self._member_action(_at(group_id, f"/members/{segment(agent_id)}/unmute"))

    async def remove(self, group_id: str, agent_id: str) -> MemberView:
        return MemberView.model_validate(
            await self._call("DELETE", _at(group_id, f"/members/{segment(agent_id)}"))
        )

    async def leave(self, group_id: str) -> MemberView:
        return await self.remove(group_id, self._me())

    async def add_trigger(
        self, group_id: str, task_ids: Iterable[str], *, timeout_seconds: float | None = None
    ) -> TriggerView:
        body: dict[str, Any] = {"taskIds": list(task_ids)}
        if timeout_seconds is not None:
            body["timeoutSeconds"] = timeout_seconds
        return TriggerView.model_validate(
            await self._call("POST", _at(group_id, "/triggers"), json=body)
        )

    # -- talking ---------------------------------------------------------------------------

    async def post(
        self,
        group_id: str,
        text: str,
        *,
        mentions: Literal["all"] | list[str] | None = None,
        role: Literal["leader", "partner"] = "partner",
        message_id: str | None = None,
        next_speaker: list[str] | None = None,
    ) -> dict[str, Any]:
        """Post a text message; the hub's stored copy (with its ``seq``) comes back.
        ``next_speaker``: the members who should speak next (IoA), who alone may under the
        group's ``turns`` policy."""
        message = Message(
            id=message_id or f"msg-{uuid.uuid4().hex}",
            sent_at=datetime.now(UTC),
            sender_role=role,
            sender_id=self._me(),
            group_id=group_id,
            mentions=mentions,
            next_speaker=next_speaker or None,
            data_items=[TextDataItem(text=text)],
        )
        return await self.send(group_id, message)

    async def send(self, group_id: str, message: AnyMessage) -> dict[str, Any]:
        """Post any message (task messages move tasks); retried with the same id when the
        hub is briefly unreachable, which the hub answers idempotently."""
        body = any_message_adapter.dump_python(message, mode="json", by_alias=True)
        retry = POST_BACKOFF.start()
        while True:
            try:
                response = await self.hub.request("POST", _at(group_id, "/messages"), json=body)
            except httpx.TransportError:
                if not await retry.pause():
                    raise
                continue
            if not transient(response.status_code, problem_of(response)) or not await retry.pause():
                result: dict[str, Any] = self.hub.raise_or_json(response)
                return result

    # -- tasks in a group ------------------------------------------------------------------

    def _command(self, group_id: str, command: str, task_id: str, **extra: Any) -> TaskCommand:
        return TaskCommand(
            id=f"cmd-{uuid.uuid4().hex}",
            sent_at=datetime.now(UTC),
            sender_role="leader",
            sender_id=self._me(),
            group_id=group_id,
            command=TaskCommandType(command),
            task_id=task_id,
            **extra,
        )

    async def assign(
        self,
        group_id: str,
        partner_id: str,
        text: str,
        *,
        task_id: str | None = None,
        parent_task_id: str | None = None,
        next_speaker: list[str] | None = None,
    ) -> str:
        """Start a task for a member, in the group (its inbox gets the command); its id."""
        task_id = task_id or f"task-{uuid.uuid4().hex}"
        start = self._command(
            group_id,
            TaskCommandType.START,
            task_id,
            partner_id=partner_id,
            parent_task_id=parent_task_id,
            next_speaker=next_speaker or None,
            data_items=[TextDataItem(text=text)],
        )
        await self.send(group_id, start)
        return task_id

    async def command(self, group_id: str, task_id: str, command: str) -> dict[str, Any]:
        """A leader's command on a group task: ``complete``, ``cancel``, ``continue``…"""
        return await self.send(group_id, self._command(group_id, command, task_id))

    async def report(
        self, group_id: str, task_id: str, state: str, *, text: str | None = None
    ) -> dict[str, Any]:
        """A partner's move on a group task; ``text`` becomes its product (or its reason)."""
        now = datetime.now(UTC)
        final = state == TaskState.AWAITING_COMPLETION
        items = [TextDataItem(text=text)] if text is not None else None
        return await self.send(
            group_id,
            TaskResult(
                id=f"res-{uuid.uuid4().hex}",
                sent_at=now,
                sender_role="partner",
                sender_id=self._me(),
                group_id=group_id,
                task_id=task_id,
                status=TaskStatus(
                    state=TaskState(state),
                    state_changed_at=now,
                    data_items=None if final else items,
                ),
                products=[Product(id="result", data_items=items)] if final and items else None,
            ),
        )

    async def history(self, group_id: str, *, after: int = 0, limit: int = 50) -> dict[str, Any]:
        page: dict[str, Any] = await self._call(
            "GET",
            _at(group_id, "/messages"),
            params={"after": after, "limit": limit},
        )
        return page

    def events(self, group_id: str, *, after: int = 0) -> EventStream:
        """The group's stream from ``after``; resumes by itself after a dropped connection."""
        return EventStream(self.hub, _at(group_id, "/events"), after=after)
