"""A plain A2A client in a hub group: a2a-sdk, httpx and PyJWT, no agenthub code.

    AGENTHUB_URL=http://127.0.0.1:8000 AGENTHUB_TOKEN=change-me \\
        python examples/a2a_group_client.py GROUP_ID [--after SEQ] [--count N]

It registers an agent of its own (a P-256 key; the registration token is needed for that),
asks the hub's OAuth token endpoint for a bearer token for the group (client credentials,
private_key_jwt, ``resource`` = the group's A2A URL), reads the group's Agent Card,
subscribes to the group's conversation from ``--after`` (the ``Last-Event-ID`` service
parameter; without it, from now), posts one message, and prints each other member's post
with its sender and seq until it has printed ``--count`` of them. The group must be open
(it joins by subscribing) or have it as a member. The protocol is
docs/reference/a2a-group-extension.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import uuid
from typing import Any

import httpx
import jwt
from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, ClientFactory
from a2a.client.auth import AuthInterceptor, CredentialService
from a2a.types import Message, Part, Role, SendMessageRequest, SubscribeToTaskRequest
from cryptography.hazmat.primitives.asymmetric import ec
from google.protobuf.json_format import MessageToDict

HUB = os.environ.get("AGENTHUB_URL", "http://127.0.0.1:8000").rstrip("/")
REGISTRATION_TOKEN = os.environ.get("AGENTHUB_TOKEN", "change-me")
EXTENSION = "https://agenthub.dev/a2a/ext/group/v1"


def b64(number: int) -> str:
    return jwt.utils.base64url_encode(number.to_bytes(32, "big")).decode()


class Refused(Exception):
    """The hub refused a request: its text is the hub's own words (problem+json ``detail``,
    or OAuth's ``error_description``)."""


def refused(answer: httpx.Response) -> None:
    if answer.is_success:
        return
    try:
        body = answer.json()
    except ValueError:
        body = {}
    words = body.get("detail") or body.get("error_description") if isinstance(body, dict) else None
    raise Refused(words or f"the hub answered {answer.status_code} to {answer.request.url}")


async def register(http: httpx.AsyncClient, key: ec.EllipticCurvePrivateKey) -> str:
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "EC", "crv": "P-256", "x": b64(numbers.x), "y": b64(numbers.y)}
    card = {"name": "a2a-client", "description": "a plain a2a-sdk client", "publicJwk": jwk}
    answer = await http.post(
        f"{HUB}/v1/agents", json=card, headers={"Authorization": f"Bearer {REGISTRATION_TOKEN}"}
    )
    refused(answer)
    agent_id: str = answer.json()["id"]
    return agent_id


async def bearer_token(
    http: httpx.AsyncClient, key: ec.EllipticCurvePrivateKey, agent_id: str, resource: str
) -> str:
    """OAuth 2.0 client credentials with private_key_jwt (RFC 7523)."""
    metadata = (await http.get(f"{HUB}/.well-known/oauth-authorization-server")).json()
    token_url = metadata["token_endpoint"]
    now = int(time.time())
    claims = {"iss": agent_id, "sub": agent_id, "aud": token_url, "iat": now, "exp": now + 60}
    assertion = jwt.encode({**claims, "jti": uuid.uuid4().hex}, key, algorithm="ES256")
    answer = await http.post(
        token_url,
        data={
            "grant_type": "client_credentials",
            "resource": resource,
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": assertion,
        },
    )
    refused(answer)
    token: str = answer.json()["access_token"]
    return token


class Bearer(CredentialService):
    def __init__(self, token: str) -> None:
        self.token = token

    async def get_credentials(self, security_scheme_name: str, context: Any) -> str | None:
        return self.token


async def main(group_id: str, after: int | None, count: int) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    async with httpx.AsyncClient(timeout=30) as http:
        agent_id = await register(http, key)
        url = f"{HUB}/v1/groups/{group_id}/a2a"
        token = await bearer_token(http, key, agent_id, url)
        card = await A2ACardResolver(http, HUB).get_agent_card(
            f"/v1/groups/{group_id}/agent-card.json",
            http_kwargs={"headers": {"Authorization": f"Bearer {token}"}},
        )
        print(f"joined {card.name!r} as {agent_id}", flush=True)
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=True)).create(
            card, interceptors=[AuthInterceptor(Bearer(token))]
        )
        parameters = {"A2A-Extensions": EXTENSION}
        if after is not None:
            parameters["Last-Event-ID"] = str(after)
        events: Any = client.subscribe(  # an async generator: aclose() ends the stream
            SubscribeToTaskRequest(id=group_id),
            context=ClientCallContext(service_parameters=parameters),
        )
        opening = await anext(events)  # the group's task: where the stream starts
        print(f"from seq {int(MessageToDict(opening.task.metadata)[EXTENSION]['seq'])}", flush=True)
        hello = Message(
            role=Role.ROLE_USER, message_id=uuid.uuid4().hex, parts=[Part(text="hello, group")]
        )
        posting: Any = client.send_message(SendMessageRequest(message=hello))
        posted = await anext(posting)  # the post's task; the rest is the conversation again
        await posting.aclose()
        print(
            f"posted seq {int(MessageToDict(posted.task.metadata)[EXTENSION]['seq'])}", flush=True
        )
        printed = 0
        async for event in events:
            status = event.status_update.status
            if not status.HasField("message"):
                continue  # a membership, state or floor event
            fields = MessageToDict(status.message.metadata)[EXTENSION]
            said = "".join(part.text for part in status.message.parts)
            print(f"{int(fields['seq'])} {fields['source'].get('name')}: {said}", flush=True)
            printed += 1
            if printed == count:
                break
        await events.aclose()
        await client.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("group_id")
    parser.add_argument("--after", type=int, help="the last seq seen (resume after it)")
    parser.add_argument("--count", type=int, default=1, help="posts to print before leaving")
    options = parser.parse_args()
    try:
        asyncio.run(main(options.group_id, options.after, options.count))
    except Refused as exc:  # a wrong token, a group it may not join: one line, not a traceback
        raise SystemExit(f"a2a_group_client: {exc}") from None
