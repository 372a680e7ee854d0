"""What the partner's A2A side keeps in memory is bounded, as its runtime is."""

from __future__ import annotations

from a2a.helpers import new_task
from a2a.server.context import ServerCallContext
from a2a.server.tasks import InMemoryPushNotificationConfigStore
from a2a.types import TaskPushNotificationConfig, TaskState

from agenthub.a2a.server import CallerUser
from agenthub.a2a.task_store import BoundedTaskStore


async def test_ended_tasks_past_the_bound_go_with_their_push_configs() -> None:
    configs = InMemoryPushNotificationConfigStore()
    store = BoundedTaskStore(configs, max_ended=2)
    context = ServerCallContext(user=CallerUser("caller", True))
    live = new_task("live", "c", TaskState.TASK_STATE_INPUT_REQUIRED)
    await store.save(live, context)
    for i in range(3):
        push = TaskPushNotificationConfig(id="p", task_id=f"t{i}", url="http://127.0.0.1:9/")
        await configs.set_info(f"t{i}", push, context)
        await store.save(new_task(f"t{i}", "c", TaskState.TASK_STATE_COMPLETED), context)
    assert await store.get("t0", context) is None  # the oldest ended one went
    assert await configs.get_info("t0", context) == []
    for kept in ("t1", "t2", "live"):
        assert await store.get(kept, context) is not None, kept
    assert len(await configs.get_info("t2", context)) == 1
