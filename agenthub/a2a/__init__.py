"""A2A (a2a-sdk) for kit agents: a partner served to A2A callers, A2A agents called by the
leader, Agent Cards made from registry cards. Needs the kit's ``a2a`` extra
(``pip install 'agenthub[a2a]'``); only this package's modules import a2a-sdk, and only
when an agent asks for A2A."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class A2AOptions:
    """How a kit partner serves A2A callers (``Agent(a2a=A2AOptions(...))``).

    A caller proves who it is with a call token (``agenthub.signing.CallTokenAuth`` on its
    httpx client) or a client certificate from the hub's CA. ``anonymous``: serve callers
    that prove nothing too, each client address at most ``anonymous_per_second`` requests a
    second (bursts of twice that); past it 429.
    """

    anonymous: bool = False
    anonymous_per_second: float = 5.0
