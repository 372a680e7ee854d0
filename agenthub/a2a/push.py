"""A2A pushes that connect where the callback policy said they may.

a2a-sdk's ``BasePushNotificationSender`` checks a push URL, then posts to it, resolving the
name again: a name that resolved to a public address for the check and to loopback for the
post (DNS rebinding) would reach what the policy refuses. This sender posts each push to
the address ``pin_callback`` checked (the ``Host`` header and TLS name kept), as the
partner's AIP notifications do (``agenthub.notify``). The body and headers are a2a-sdk's:
the event as a ``StreamResponse``, the config's token in ``X-A2A-Notification-Token`` and its
credentials in ``Authorization``.
"""

from __future__ import annotations

import asyncio
import logging

import httpx
from a2a.server.tasks import PushNotificationConfigStore, PushNotificationSender
from a2a.server.tasks.push_notification_sender import PushNotificationEvent
from a2a.types import TaskPushNotificationConfig
from a2a.utils.proto_utils import to_stream_response
from google.protobuf.json_format import MessageToDict

from agenthub.callbacks import CallbackPolicy, pin_callback
from agenthub.errors import UnsafeCallbackError

logger = logging.getLogger(__name__)

PUSH_TIMEOUT = httpx.Timeout(10.0)
A2A_TOKEN_HEADER = "X-A2A-Notification-Token"  # noqa: S105 (a header name)


class PinnedPushSender(PushNotificationSender):
    def __init__(self, store: PushNotificationConfigStore, policy: CallbackPolicy) -> None:
        self.store = store
        self.policy = policy
        self.http = httpx.AsyncClient(timeout=PUSH_TIMEOUT)
        self.delivered = 0
        self.refused = 0

    async def aclose(self) -> None:
        await self.http.aclose()

    async def send_notification(self, task_id: str, event: PushNotificationEvent) -> None:
        """Best effort, as a2a-sdk's: a push that fails is logged, never raised."""
        try:
            configs = await self.store.get_info_for_dispatch(task_id)
        except Exception:
            logger.exception("could not read the push configs of task %s", task_id)
            return
        if configs:
            body = MessageToDict(to_stream_response(event))
            await asyncio.gather(*(self._push(config, body) for config in configs))

    async def _push(self, config: TaskPushNotificationConfig, body: dict[str, object]) -> None:
        try:
            target = await pin_callback(config.url, self.policy)
        except UnsafeCallbackError as exc:
            self.refused += 1
            logger.warning("not pushing to %s: %s", config.url, exc)
            return
        headers = {"Host": target.host_header}
        if config.token:
            headers[A2A_TOKEN_HEADER] = config.token
        if config.HasField("authentication") and config.authentication.credentials:
            auth = config.authentication
            headers["Authorization"] = f"{auth.scheme} {auth.credentials}"
        extensions = {"sni_hostname": target.sni_hostname} if target.sni_hostname else {}
        try:
            response = await self.http.post(
                target.url, json=body, headers=headers, extensions=extensions
            )
            response.raise_for_status()
        except httpx.HTTPError as exc:
            logger.info("push to %s failed: %s", config.url, exc)
            return
        self.delivered += 1
