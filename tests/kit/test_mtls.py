"""Mutual TLS between agents with certificates from the hub's CA (ACPs AIA), on loopback."""

from __future__ import annotations

import asyncio
import json
import ssl
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from acps_sdk.aic import AICValidator, validate_aic_format
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from agenthub import Agent, AgentKey
from agenthub.peers import PeerCertificateError, RevocationList
from agenthub.protocol.aic import aic_host
from agenthub.protocol.jsonrpc import RpcErrorCode
from agenthub.signing import mint_call_token
from app.auth.ca import HubCA, load_or_create_ca, read_ca
from tests.support import LOOPBACK
from tests.support.kit import AskHandler, EchoHandler, LiveHub, MakeLiveAgent
from tests.support.waiting import PATIENCE_SECONDS, eventually


async def test_a_kit_leader_calls_a_kit_partner_over_mutual_tls(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    leader = await make_live_agent("leader", https=True)
    partner = await make_live_agent("echo", EchoHandler(), https=True)
    assert (partner.public_url or "").startswith("https://")
    for agent in (leader, partner):
        assert validate_aic_format(agent.agent_id) == (True, None)
        assert AICValidator(salt=b"").validate(agent.agent_id)
    session = await leader.leader.open_session([partner.agent_id])
    started = await leader.leader.start(partner.agent_id, session_id=session.id, text="hi")
    assert started["status"]["state"] == "awaiting-completion"


# -- refusals ------------------------------------------------------------------------------


def _context(
    ca_pem: bytes, certificate_pem: bytes | None, key_pem: bytes | None, folder: Path
) -> ssl.SSLContext:
    """A TLS client holding ``certificate_pem`` (or none) and trusting ``ca_pem``."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(cadata=ca_pem.decode())
    if certificate_pem is not None and key_pem is not None:
        (folder / "c.pem").write_bytes(certificate_pem)
        (folder / "k.pem").write_bytes(key_pem)
        context.load_cert_chain(folder / "c.pem", folder / "k.pem")
    return context


async def _rpc(
    context: ssl.SSLContext, url: str, caller: Agent, callee: Agent, *, token: bool
) -> httpx.Response:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc", "params": {"command": {}}})
    headers = {"Content-Type": "application/json"}
    if token:
        call = mint_call_token(
            caller.key,
            caller_id=caller.agent_id,
            callee_id=callee.agent_id,
            method="POST",
            url=url,
            body=body.encode(),
        )
        headers["Authorization"] = f"Bearer {call.token}"
    async with httpx.AsyncClient(timeout=LOOPBACK, verify=context) as http:
        # TLS checks the partner's AIC (the hub does not certify a loopback address)
        aic = {"sni_hostname": aic_host(callee.agent_id)}
        return await http.post(url, content=body, headers=headers, extensions=aic)


def _leaf(ca: HubCA, key: AgentKey, aic: str, *, days: float) -> bytes:
    now = datetime.now(UTC)
    leaf = ca.issue(
        load_pem_private_key(key.private_pem(), None).public_key(),  # type: ignore[arg-type]
        aic=aic,
        host="127.0.0.1",
        serial=x509.random_serial_number(),
        not_before=now - timedelta(days=2),
        not_after=now + timedelta(days=days),
    )
    return leaf.public_bytes(serialization.Encoding.PEM)


async def test_a_partner_refuses_every_certificate_that_does_not_prove_its_caller(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    leader = await make_live_agent("leader", serve=False)
    other = await make_live_agent("other", serve=False)
    partner = await make_live_agent("echo", EchoHandler(), https=True)
    url = partner.public_url or ""
    await leader.tls.ensure()
    ca_pem = leader.tls.ca_pem or b""
    key_pem = leader.key.private_pem()

    # the caller's own certificate, without a call token: accepted (the answer is the
    # partner's JSON-RPC refusal of an empty command, not an authentication failure)
    good = _context(ca_pem, leader.tls.certificate_pem, key_pem, tmp_path)
    answer = await _rpc(good, url, leader, partner, token=False)
    assert answer.status_code == 200 and answer.json()["error"]["code"] == -32602

    # no certificate at all: the handshake fails
    with pytest.raises(httpx.TransportError):
        await _rpc(_context(ca_pem, None, None, tmp_path), url, leader, partner, token=True)

    # a certificate from a CA the partner does not trust, for the same agent and key
    stranger = load_or_create_ca(tmp_path / "s-key.pem", tmp_path / "s-ca.pem", issuer="stranger")
    untrusted = _leaf(stranger, leader.key, leader.agent_id, days=1)
    with pytest.raises(httpx.TransportError):
        await _rpc(
            _context(ca_pem, untrusted, key_pem, tmp_path), url, leader, partner, token=False
        )

    # an expired one from the hub's own CA
    hub_ca = read_ca(*live_hub.settings.ca_paths)
    expired = _leaf(hub_ca, leader.key, leader.agent_id, days=-1)
    with pytest.raises(httpx.TransportError):
        await _rpc(_context(ca_pem, expired, key_pem, tmp_path), url, leader, partner, token=False)

    # the leader's certificate with another agent's call token
    answer = await _rpc(good, url, other, partner, token=True)
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == RpcErrorCode.ACCESS_TOKEN_INVALID
    assert "certificate" in answer.json()["error"]["message"]

    # a certificate of the hub's CA for a key the registry does not hold for that agent
    wrong_key = AgentKey.generate()
    forged = _leaf(hub_ca, wrong_key, leader.agent_id, days=1)
    answer = await _rpc(
        _context(ca_pem, forged, wrong_key.private_pem(), tmp_path),
        url,
        leader,
        partner,
        token=False,
    )
    assert answer.status_code == 401 and "key" in answer.json()["error"]["message"]

    # revoked: the partner's next look at the revocation list finds it
    serial = format(leader.tls.certificate.serial_number, "x")  # type: ignore[union-attr]
    revoked = await leader.hub.request(
        "DELETE", f"/v1/agents/{leader.agent_id}/certificates/{serial}"
    )
    assert revoked.status_code == 204
    await partner.tls.revocations.refresh()  # what its nextUpdate brings within a minute
    answer = await _rpc(good, url, leader, partner, token=False)
    assert answer.status_code == 401 and "revoked" in answer.json()["error"]["message"]


async def _open_stream(
    http: httpx.AsyncClient, leader: Agent, partner: Agent, task_id: str, *, token: bool
) -> httpx.Response:
    """A ``stream`` of a new task at ``partner`` (its handler awaits input: the stream stays
    open), authenticated by the client's certificate or by a call token."""
    session = await leader.leader.open_session([partner.agent_id])
    command = leader.leader.command(
        "start", session_id=session.id, partner_id=partner.agent_id, task_id=task_id, text="go"
    ).to_wire()
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "stream", "params": {"message": command}}
    )
    url = partner.public_url or ""
    headers = {"Content-Type": "application/json"}
    if token:
        call = mint_call_token(
            leader.key,
            caller_id=leader.agent_id,
            callee_id=partner.agent_id,
            method="POST",
            url=url,
            body=body.encode(),
        )
        headers["Authorization"] = f"Bearer {call.token}"
    request = http.build_request(
        "POST",
        url,
        content=body,
        headers=headers,
        extensions={"sni_hostname": aic_host(partner.agent_id)},
    )
    response = await http.send(request, stream=True)
    assert response.status_code == 200, await response.aread()
    return response


async def _ends(response: httpx.Response) -> list[str]:
    """The rest of the stream's lines, once it ends (the test's timeout if it never does)."""
    lines = [line async for line in response.aiter_lines()]
    await response.aclose()
    return lines


async def test_a_partner_ends_the_open_streams_of_a_revoked_or_departed_caller(
    live_hub: LiveHub,
    make_live_agent: MakeLiveAgent,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("agenthub.open_streams.RECHECK_SECONDS", 0.2)  # a test's patience
    leader = await make_live_agent("leader", serve=False)
    bystander = await make_live_agent("bystander", serve=False)
    partner = await make_live_agent("asker", AskHandler(), https=True)
    await leader.tls.ensure()
    await bystander.tls.ensure()
    (tmp_path / "l").mkdir()
    (tmp_path / "b").mkdir()
    ca_pem = leader.tls.ca_pem or b""
    mine = _context(ca_pem, leader.tls.certificate_pem, leader.key.private_pem(), tmp_path / "l")
    theirs = _context(
        ca_pem, bystander.tls.certificate_pem, bystander.key.private_pem(), tmp_path / "b"
    )
    async with (
        httpx.AsyncClient(timeout=LOOPBACK, verify=mine) as as_leader,
        httpx.AsyncClient(timeout=LOOPBACK, verify=theirs) as as_bystander,
    ):
        certified = await _open_stream(as_leader, leader, partner, "t-cert", token=False)
        other = await _open_stream(as_bystander, bystander, partner, "t-other", token=False)
        # the leader's certificate is revoked at the hub: its stream ends, the other's not
        serial = format(leader.tls.certificate.serial_number, "x")  # type: ignore[union-attr]
        await leader.hub.revoke_certificate(serial)
        async with asyncio.timeout(PATIENCE_SECONDS):
            await _ends(certified)
        assert not other.is_closed
        assert partner.endpoint.open_streams.counts[(bystander.agent_id, None)] == 1
        # the bystander leaves the hub: its stream (a call token's, this time) ends too
        tokened = await _open_stream(as_bystander, bystander, partner, "t-token", token=True)
        await bystander.hub.deregister()
        async with asyncio.timeout(PATIENCE_SECONDS):
            await _ends(other)
            await _ends(tokened)
    await eventually(lambda: not partner.endpoint.open_streams.counts, "every stream let go")


async def test_a_leader_refuses_a_partner_whose_certificate_is_another_agents(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent
) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler(), https=True)
    impostor = await make_live_agent("impostor", EchoHandler(), https=True)
    session = await leader.leader.open_session([partner.agent_id])
    leader.leader.endpoints[partner.agent_id] = impostor.public_url or ""
    # the handshake asks for the partner's own name: the impostor's certificate fails it,
    # before a byte of the command is sent
    with pytest.raises(httpx.ConnectError, match="Hostname mismatch"):
        await leader.leader.start(partner.agent_id, session_id=session.id, text="hi")
    assert impostor.endpoint.runtime is not None and not impostor.endpoint.runtime.tasks


async def test_a_rotated_key_gets_a_new_certificate_and_the_old_one_stops_working(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    leader = await make_live_agent("leader")
    partner = await make_live_agent("echo", EchoHandler(), https=True)
    session = await leader.leader.open_session([partner.agent_id])
    await leader.leader.start(partner.agent_id, session_id=session.id, text="one")
    old, old_pem = leader.tls.certificate, leader.tls.certificate_pem
    old_key = leader.key
    new_key = AgentKey.generate()
    await leader.hub.rotate_key(new_key)
    leader.key = new_key
    assert not leader.tls.fresh
    await leader.leader.start(partner.agent_id, session_id=session.id, text="two")
    assert leader.tls.certificate is not None and old is not None
    assert leader.tls.certificate.serial_number != old.serial_number
    # the old certificate is refused now (the partner asks the registry again)
    partner.directory.forget(leader.agent_id)
    stale = _context(leader.tls.ca_pem or b"", old_pem, old_key.private_pem(), tmp_path)
    answer = await _rpc(stale, partner.public_url or "", leader, partner, token=False)
    assert answer.status_code == 401, answer.text
    assert (
        "revoked" in answer.json()["error"]["message"] or "key" in answer.json()["error"]["message"]
    )


async def test_the_revocation_list_fails_closed(tmp_path: Path) -> None:
    """No list yet, or a fetch that fails: every certificate is refused, not let through."""
    ca = load_or_create_ca(tmp_path / "k.pem", tmp_path / "c.pem", issuer="t")

    async def away() -> bytes:
        raise httpx.ConnectError("the hub is away")

    revocations = RevocationList(away, lambda: ca.certificate)
    with pytest.raises(PeerCertificateError, match="could not be fetched"):
        await revocations.is_revoked(1)

    now = datetime.now(UTC)
    forged = load_or_create_ca(tmp_path / "k2.pem", tmp_path / "c2.pem", issuer="t")
    listed = forged.revocation_list([], now=now, next_update=now + timedelta(minutes=1), number=1)

    async def forged_list() -> bytes:
        return listed.public_bytes(serialization.Encoding.PEM)

    with pytest.raises(PeerCertificateError, match="not signed by the pinned CA"):
        await RevocationList(forged_list, lambda: ca.certificate).refresh()

    # a genuine list, but long past its nextUpdate (a hub away, or a list replayed)
    old = ca.revocation_list(
        [], now=now - timedelta(hours=1), next_update=now - timedelta(minutes=20), number=1
    )

    async def old_list() -> bytes:
        return old.public_bytes(serialization.Encoding.PEM)

    with pytest.raises(PeerCertificateError, match="could not be fetched"):
        await RevocationList(old_list, lambda: ca.certificate).is_revoked(1)
