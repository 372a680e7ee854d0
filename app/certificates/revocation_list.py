"""The CA's revocation list, served from memory: signed again only when a revocation (on any
replica) or the approach of its ``nextUpdate`` asks for it.

Every GET asks the store one cheap question, how many certificates are revoked and when the
last one was (an index range of the revoked ones, no rows read). Requests that arrive while
that question is out wait for the next one, asked once the current one is answered: so a
GET sees every revocation committed before it arrived, and however many GETs come at once, a
replica holds at most one store connection for them. The list itself (every revoked,
unexpired serial, signed by the CA) is read and signed only when that answer changed, one
request doing it for all.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from cryptography.hazmat.primitives import serialization
from sqlalchemy import func
from sqlmodel import col, select

from app.auth.ca import HubCA
from app.certificates.models import Certificate
from app.db import SessionFactory
from app.models.types import utcnow

Version = tuple[int, datetime | None]
"""How many certificates were ever revoked (and not yet purged), and the last revocation."""


@dataclass(frozen=True)
class SignedList:
    pem: bytes
    etag: str  # a strong validator: the list's bytes
    this_update: datetime
    next_update: datetime
    version: Version

    def serves(self, version: Version) -> bool:
        """Signed at the store's ``version``, with less than half of its life spent (later,
        a new one is signed)."""
        half_life = self.this_update + (self.next_update - self.this_update) / 2
        return self.version == version and utcnow() < half_life


class RevocationLists:
    """One replica's signed list and the questions that keep it current."""

    def __init__(self, factory: SessionFactory, ca: HubCA, *, seconds: int) -> None:
        self.factory = factory
        self.ca = ca
        self.seconds = seconds
        self._current: SignedList | None = None
        self._signing = asyncio.Lock()
        self._next: asyncio.Future[Version] | None = None  # the question not asked yet
        self._asking: asyncio.Task[None] | None = None
        self.signed = 0  # lists signed by this replica
        self.entries = 0  # certificates the last one names

    async def current(self) -> SignedList:
        version = await self._version()
        signed = self._current
        if signed is not None and signed.serves(version):
            return signed
        async with self._signing:  # one request signs for all that wait here
            signed = self._current
            if signed is None or not signed.serves(version):
                signed = self._current = await self._sign(version)
            return signed

    async def _version(self) -> Version:
        """The store's answer to a question asked after this call began."""
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
            if self._asking is None or self._asking.done():
                self._asking = asyncio.create_task(self._ask(), name="agenthub-crl-version")
        return await asyncio.shield(self._next)

    async def _ask(self) -> None:
        while self._next is not None:
            waiting, self._next = self._next, None
            try:
                async with self.factory() as db:
                    row = (
                        await db.exec(
                            select(
                                func.count(col(Certificate.revoked_at)),
                                func.max(col(Certificate.revoked_at)),
                            )
                        )
                    ).one()
            except Exception as exc:  # each waiter meets the store's failure (a 503)
                waiting.set_exception(exc)
                waiting.exception()  # retrieved: a waiter that went away leaves no warning
                continue
            waiting.set_result((int(row[0]), row[1]))

    async def _sign(self, version: Version) -> SignedList:
        now = utcnow()
        async with self.factory() as db:
            rows = await db.exec(
                select(Certificate.serial, Certificate.revoked_at).where(
                    col(Certificate.revoked_at).is_not(None), col(Certificate.not_after) > now
                )
            )
            revoked = [(int(serial, 16), when) for serial, when in rows if when is not None]
        this_update = now.replace(microsecond=0)  # as the CRL and Last-Modified hold it
        next_update = this_update + timedelta(seconds=self.seconds)
        crl = self.ca.revocation_list(
            revoked,
            now=this_update,
            next_update=next_update,
            number=int(now.timestamp() * 1000),
        )
        pem = crl.public_bytes(serialization.Encoding.PEM)
        self.signed += 1
        self.entries = len(revoked)
        etag = '"' + hashlib.sha256(pem).hexdigest()[:32] + '"'
        return SignedList(pem, etag, this_update, next_update, version)
