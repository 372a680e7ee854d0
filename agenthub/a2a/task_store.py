"""a2a-sdk's in-memory task store, bounded as the partner's runtime is: past
``MAX_ENDED_TASKS`` ended tasks, the oldest go, with their push configs."""

from __future__ import annotations

from collections import OrderedDict

from a2a.server.context import ServerCallContext
from a2a.server.tasks import InMemoryTaskStore, PushNotificationConfigStore
from a2a.types import Task, TaskState

MAX_ENDED_TASKS = 1_000
"""Ended A2A tasks kept for ``GetTask`` and ``ListTasks``, the newest (live ones are the
runtime's, bounded by its ``MAX_TASKS``)."""
ENDED = frozenset(
    {
        TaskState.TASK_STATE_COMPLETED,
        TaskState.TASK_STATE_CANCELED,
        TaskState.TASK_STATE_FAILED,
        TaskState.TASK_STATE_REJECTED,
    }
)


class BoundedTaskStore(InMemoryTaskStore):
    def __init__(
        self, configs: PushNotificationConfigStore, max_ended: int = MAX_ENDED_TASKS
    ) -> None:
        super().__init__()
        self.configs = configs
        self.max_ended = max_ended
        self._ended: OrderedDict[tuple[str, str], ServerCallContext] = OrderedDict()

    async def save(self, task: Task, context: ServerCallContext) -> None:
        await super().save(task, context)
        if task.status.state in ENDED:
            self._ended[(context.user.user_name, task.id)] = context
            while len(self._ended) > self.max_ended:
                (_, task_id), owner = self._ended.popitem(last=False)
                await self.delete(task_id, owner)
                if await self.configs.get_info(task_id, owner):
                    await self.configs.delete_info(task_id, owner)
