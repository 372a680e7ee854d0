"""The streams a partner holds open for its callers: how many each caller holds (and of each
of its tasks), and whether each caller still is who it proved to be.

A stream outlives the check made when it opened. While any is open, ``OpenStreams`` looks
again every ``RECHECK_SECONDS``: it fetches the CA's revocation list and each caller's card
from the hub, and ends the streams of a caller whose certificate is now revoked, whose
registered key is no longer the one it proved, or that is no longer registered, as the hub
ends its own streams of an agent that rotates its key or leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.responses import Response

from agenthub.directory import PeerDirectory
from agenthub.errors import HubRequestError
from agenthub.peers import PeerCertificate, RevocationList
from agenthub.protocol.jsonrpc import RpcErrorCode
from agenthub.protocol.jwk import jwk_thumbprint
from agenthub.runtime import RpcFault

logger = logging.getLogger(__name__)

MAX_STREAMS_PER_CALLER = 100
MAX_STREAMS_PER_TASK = 4
"""Streams one leader may hold open at once here, and of one of its tasks (a stream stays
open until its task ends; a retry or a re-stream opens another while the old one lasts)."""
RECHECK_SECONDS = 10.0
"""How often the callers of open streams are checked again (their certificate, key, being)."""

T = TypeVar("T")


@dataclass(eq=False)
class Proof:
    """What a caller proved when its stream opened: its id, the certificate it showed (if
    any) and the thumbprint of the key it proved (None: a hub OAuth token, not an agent's
    key). ``ended`` is set when the caller no longer is who it proved to be."""

    caller_id: str
    certificate: PeerCertificate | None = None
    key_thumbprint: str | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)


class OpenStreams:
    def __init__(self, directory: PeerDirectory, revocations: RevocationList | None) -> None:
        self.directory = directory
        self.revocations = revocations
        self.counts: Counter[tuple[str, str | None]] = Counter()
        self.proofs: set[Proof] = set()
        self._watcher: asyncio.Task[None] | None = None

    def watch(self, proof: Proof) -> Callable[[], None]:
        """Check ``proof`` again while a stream counted elsewhere (an A2A one: a2a-sdk keeps
        its own) is open; the function that stops."""
        self.proofs.add(proof)
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.create_task(self._watch(), name="open-streams-recheck")
        return lambda: self.proofs.discard(proof)

    def watched(self, response: Response, proof: Proof) -> Response:
        """``response``, a stream's (a2a-sdk's answer to ``SendStreamingMessage`` or
        ``SubscribeToTask``), ending when its caller no longer is who it proved to be; any
        other answer as it is."""
        items = getattr(response, "body_iterator", None)
        if items is None:
            return response
        release = self.watch(proof)

        async def body() -> AsyncIterator[Any]:
            try:
                async for item in until_ended(items, proof.ended):
                    yield item
            finally:
                release()

        response.body_iterator = body()  # type: ignore[attr-defined]
        return response

    async def serve_watched(self, answer: Awaitable[None], proof: Proof) -> None:
        """An ASGI answer (an A2A HTTP+JSON stream), cut off when its caller no longer is
        who it proved to be: the connection closes mid-stream, as the hub's do."""
        release = self.watch(proof)
        answering = asyncio.ensure_future(answer)
        ended = asyncio.ensure_future(proof.ended.wait())
        try:
            await asyncio.wait({answering, ended}, return_when=asyncio.FIRST_COMPLETED)
            if not answering.done():
                answering.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await answering
                return
            answering.result()
        finally:
            ended.cancel()
            release()

    def hold(self, proof: Proof, task_id: str | None) -> Callable[[], None]:
        """Count a stream in, or refuse it past a limit; the function that counts it out."""
        caller_id = proof.caller_id
        limits: list[tuple[tuple[str, str | None], int, str]]
        limits = [((caller_id, None), MAX_STREAMS_PER_CALLER, "")]
        if task_id is not None:
            limits.append(((caller_id, task_id), MAX_STREAMS_PER_TASK, " of this task"))
        keys = [key for key, _, _ in limits]
        for key, limit, whose in limits:
            if self.counts[key] >= limit:
                raise RpcFault(
                    RpcErrorCode.UNSUPPORTED_OPERATION,
                    f"You hold {limit} streams{whose} open here, the most; close one first.",
                    {"limit": limit},
                )
        self.counts.update(keys)
        self.proofs.add(proof)
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.create_task(self._watch(), name="open-streams-recheck")
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.proofs.discard(proof)
                self.counts.subtract(keys)
                for key in keys:
                    if self.counts[key] <= 0:
                        del self.counts[key]

        return release

    async def _watch(self) -> None:
        while self.proofs:
            await asyncio.sleep(RECHECK_SECONDS)
            try:
                await self.recheck()
            except Exception:  # the next round tries again
                logger.exception("could not check the callers of open streams again")

    async def recheck(self) -> None:
        """End the open streams of callers that are no longer who they proved to be."""
        open_now = [proof for proof in self.proofs if not proof.ended.is_set()]
        if self.revocations is not None and any(p.certificate for p in open_now):
            try:
                await self.revocations.refresh()
            except Exception as exc:  # the list held still counts (fails closed when old)
                logger.info("could not fetch the revocation list: %s", exc)
        cards: dict[str, str | None] = {}  # caller -> its registered key's thumbprint
        for proof in open_now:
            why = None
            certificate = proof.certificate
            if certificate is not None and self.revocations is not None:
                with contextlib.suppress(Exception):  # unknown now: not ended for it
                    if await self.revocations.is_revoked(certificate.serial, certificate.issuer):
                        why = "its certificate is revoked"
            if why is None and proof.key_thumbprint is not None:
                if proof.caller_id not in cards:
                    cards[proof.caller_id] = await self._registered_key(proof.caller_id)
                registered = cards[proof.caller_id]
                if registered == "":
                    why = "it is no longer registered"
                elif registered is not None and registered != proof.key_thumbprint:
                    why = "its registered key changed"
            if why is not None:
                logger.info("ended a stream of %s: %s", proof.caller_id, why)
                proof.ended.set()

    async def _registered_key(self, caller_id: str) -> str | None:
        """The caller's registered key's thumbprint; "" when the hub has no such agent;
        None when the hub could not be asked."""
        try:
            card = await self.directory.card(caller_id, refresh=True)
        except HubRequestError as exc:
            if exc.status in (404, 410):
                return ""
            logger.info("could not look up %s again: %s", caller_id, exc)
            return None
        except Exception as exc:
            logger.info("could not look up %s again: %s", caller_id, exc)
            return None
        return jwk_thumbprint(card.public_jwk)

    async def aclose(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher


async def until_ended(items: AsyncIterator[T], ended: asyncio.Event) -> AsyncIterator[T]:
    """``items`` until they end or ``ended`` is set, whichever comes first."""
    stop = asyncio.ensure_future(ended.wait())
    try:
        while not ended.is_set():
            step = asyncio.ensure_future(anext(items))
            await asyncio.wait({step, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not step.done():
                step.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                    await step
                return
            try:
                yield step.result()
            except StopAsyncIteration:
                return
    finally:
        stop.cancel()
