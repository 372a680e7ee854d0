"""The hub as its agents' CA: issuing for the registered key, revoking, the revocation list."""

from __future__ import annotations

import asyncio
import stat
from email.utils import format_datetime
from typing import Any

import httpx
from acps_sdk.aic import validate_aic_format
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from sqlalchemy import func, select

from agenthub import AgentKey, HubClient
from agenthub.peers import aic_of
from agenthub.protocol.aic import aic_host
from agenthub.protocol.jwk import ec_public_jwk
from app.certificates.models import Certificate
from app.certificates.names import NamePolicy, endpoint_host, why_not
from tests.support.hub import MakeAgent, hub_settings, problem
from tests.support.parts import parts


async def _certificates(hub: Any) -> int:
    async with parts(hub).session_factory() as session:
        return int(await session.scalar(select(func.count()).select_from(Certificate)) or 0)


async def _issue(kit: HubClient, key: AgentKey | None = None) -> httpx.Response:
    csr = (key or kit.key).certificate_request("ignored")
    assert kit.agent_id is not None
    return await kit.request("POST", f"/v1/agents/{kit.agent_id}/certificates", json={"csr": csr})


def _csr_of(key: Any) -> str:
    builder = x509.CertificateSigningRequestBuilder().subject_name(
        x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "other")])
    )
    algorithm = None if isinstance(key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    return builder.sign(key, algorithm).public_bytes(serialization.Encoding.PEM).decode()


async def _revoked_serials(client: httpx.AsyncClient, ca: x509.Certificate) -> set[int]:
    response = await client.get("/.well-known/agenthub-crl.pem")
    assert response.status_code == 200
    crl = x509.load_pem_x509_crl(response.content)
    assert crl.is_signature_valid(ca.public_key())  # type: ignore[arg-type]
    return {entry.serial_number for entry in crl}


async def test_the_ca_certificate_is_public_and_its_key_private(
    client: httpx.AsyncClient, hub: Any, settings: Any
) -> None:
    response = await client.get("/.well-known/agenthub-ca.pem")
    assert response.status_code == 200
    ca = x509.load_pem_x509_certificate(response.content)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    key_file, cert_file = settings.ca_paths
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert cert_file.read_bytes() == response.content
    metadata = (await client.get("/.well-known/agenthub.json")).json()
    assert metadata["caUri"].endswith("/.well-known/agenthub-ca.pem")
    assert metadata["crlUri"].endswith("/.well-known/agenthub-crl.pem")


async def test_a_certificate_names_the_agent_and_binds_its_registered_key(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("tls", endpointUrl="https://tls.example.com:8443/aip")
    assert validate_aic_format(kit.agent_id or "") == (True, None)
    response = await _issue(kit)
    assert response.status_code == 201, response.text
    body = response.json()
    leaf = x509.load_pem_x509_certificate(body["certificate"].encode())
    ca = x509.load_pem_x509_certificate(body["caCertificate"].encode())
    leaf.verify_directly_issued_by(ca)
    assert leaf.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == kit.agent_id
    assert aic_of(leaf) == kit.agent_id
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.UniformResourceIdentifier) == [f"acps://{kit.agent_id}"]
    assert names.get_values_for_type(x509.DNSName) == [
        aic_host(kit.agent_id or ""),
        "tls.example.com",
    ]
    usage = leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert set(usage) == {ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH}
    assert ec_public_jwk(leaf.public_key()) == kit.key.public_jwk  # type: ignore[arg-type]
    lifetime = leaf.not_valid_after_utc - leaf.not_valid_before_utc
    assert 7 * 86400 <= lifetime.total_seconds() <= 7 * 86400 + 600
    assert body["serial"] == format(leaf.serial_number, "x")
    listed = (await kit.request("GET", f"/v1/agents/{kit.agent_id}/certificates")).json()
    assert [c["serial"] for c in listed["items"]] == [body["serial"]]
    assert "certificate" not in listed["items"][0]


async def test_bad_requests_are_refused_and_store_nothing(
    client: httpx.AsyncClient, hub: Any, make_agent: MakeAgent
) -> None:
    kit = await make_agent("tls")
    other = await make_agent("other")
    path = f"/v1/agents/{kit.agent_id}/certificates"
    cases: list[tuple[Any, int, str]] = [
        ({"csr": "not a csr"}, 422, "bad-csr"),
        (
            {"csr": "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----"},
            422,
            "bad-csr",
        ),
        ({"csr": AgentKey.generate().certificate_request("x")}, 422, "csr-key-mismatch"),
        ({"csr": kit.key.certificate_request("x") + "junk"}, 422, "bad-csr"),
        ({"csr": "junk\n" + kit.key.certificate_request("x")}, 422, "bad-csr"),
        ({"csr": kit.key.certificate_request("x") * 2}, 422, "bad-csr"),
        ({"csr": _csr_of(rsa.generate_private_key(65537, 2048))}, 422, "csr-key-mismatch"),
        ({"csr": _csr_of(ec.generate_private_key(ec.SECP384R1()))}, 422, "csr-key-mismatch"),
        ({"csr": _csr_of(ed25519.Ed25519PrivateKey.generate())}, 422, "csr-key-mismatch"),
        ({}, 422, "invalid-input"),
        ({"csr": ""}, 422, "invalid-input"),
    ]
    for body, status, code in cases:
        found = problem(await kit.request("POST", path, json=body), status)
        assert found["type"].endswith(code), (body, found)
    # another agent's certificates are not the caller's to ask for, list or revoke
    csr = other.key.certificate_request("x")
    problem(await other.request("POST", path, json={"csr": csr}), 403)
    problem(await other.request("GET", path), 403)
    problem(await other.request("DELETE", f"{path}/abc"), 403)
    problem(await kit.request("DELETE", f"{path}/abc"), 404)
    problem(await kit.request("DELETE", f"{path}/not-hex"), 422)
    problem(await client.post(path, json={"csr": csr}), 401)
    assert await _certificates(hub) == 0


async def test_an_endpoint_no_certificate_may_name_is_refused(
    hub: Any, make_agent: MakeAgent
) -> None:
    """A wildcard would vouch for every host of a domain, and ``.invalid`` names are the
    agents' own (``{aic}.aic.invalid``): an agent may claim neither."""
    for url in ("https://*.example.com/aip", "https://1.2.156.3088.1.x.aic.invalid/"):
        kit = await make_agent("greedy", endpointUrl=url)
        found = problem(await _issue(kit), 422)
        assert found["type"].endswith("endpoint-not-certifiable"), found
    assert await _certificates(hub) == 0


def _names(response: httpx.Response) -> list[str]:
    """The names a leaf carries besides the AIC's own, as text."""
    assert response.status_code == 201, response.text
    leaf = x509.load_pem_x509_certificate(response.json()["certificate"].encode())
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    aic = aic_of(leaf) or ""
    dns = [name for name in names.get_values_for_type(x509.DNSName) if name != aic_host(aic)]
    return dns + [str(ip) for ip in names.get_values_for_type(x509.IPAddress)]


UNPROVEN = (
    "https://localhost:9443/",
    "https://api.localhost/",
    "https://127.0.0.1:9443/",
    "https://[::1]:9443/",
    "https://0.0.0.0/",
    "https://10.1.2.3/",
    "https://169.254.169.254/",
    "https://203.0.113.7/",  # public, but an address: never without the operator's leave
    "https://printer.local/",
    "https://db.internal/",
    "https://router.home.arpa/",
    "https://intranet/",  # one label
    "https://127.1/",  # a resolver reads it as 127.0.0.1 (and so does the registry)
    "https://tls.example/",
)


async def test_a_certificate_names_no_endpoint_the_agent_cannot_stand_behind(
    hub: Any, make_agent: MakeAgent
) -> None:
    """An agent writes its endpointUrl as it likes: by default the CA certifies a public DNS
    name no other live agent uses, and nothing else (loopback, private, link-local, IPs)."""
    for url in UNPROVEN:
        kit = await make_agent("claims", endpointUrl=url)
        assert _names(await _issue(kit)) == [], url

    first = await make_agent("first", endpointUrl="https://shared.example.com:9001/a")
    second = await make_agent("second", endpointUrl="https://SHARED.example.com.:9002/b")
    assert _names(await _issue(first)) == []  # two agents claim it: neither gets it
    assert _names(await _issue(second)) == []
    await second.deregister()
    assert _names(await _issue(first)) == ["shared.example.com"]  # now the only one
    # a name that merely contains another agent's is not that name
    third = await make_agent("third", endpointUrl="https://example.com/")
    assert _names(await _issue(third)) == ["example.com"]


async def test_a_name_in_a_certificate_is_one_agents_or_no_ones(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    """First come, first certified, but not for ever: the rightful owner of a name who
    registers ends the certificate an earlier agent got for it, even one that moved away."""
    ca = x509.load_pem_x509_certificate((await client.get("/.well-known/agenthub-ca.pem")).content)

    async def move(kit: HubClient, url: str) -> None:
        moved = await kit.request("PATCH", f"/v1/agents/{kit.agent_id}", json={"endpointUrl": url})
        assert moved.status_code == 200, moved.text

    squatter = await make_agent("squatter", endpointUrl="https://bank.example.com/")
    taken = await _issue(squatter)
    assert _names(taken) == ["bank.example.com"]
    await move(squatter, "https://elsewhere.example.com/")  # its certificate still names it
    assert await _revoked_serials(client, ca) == set()
    owner = await make_agent("owner", endpointUrl="https://bank.example.com/")
    assert await _revoked_serials(client, ca) == {int(taken.json()["serial"], 16)}
    owned = await _issue(owner)
    assert _names(owned) == ["bank.example.com"]  # the one agent that claims it now
    # claimed again by another: no one's (the owner's certificate still names its AIC)
    await move(squatter, "https://bank.example.com/other")
    assert int(owned.json()["serial"], 16) in await _revoked_serials(client, ca)
    assert _names(await _issue(squatter)) == [] and _names(await _issue(owner)) == []


async def test_an_operator_may_let_the_ca_certify_private_names_and_addresses(
    database_url: str, tmp_path: Any
) -> None:
    """On a closed network the operator may allow private names (still one agent each) and
    IP addresses (shared by every agent serving there)."""
    from app.main import create_app
    from tests.support.hub import HUB_BASE, REGISTRATION_TOKEN, card, empty_tables

    settings = hub_settings(
        database_url, tmp_path, certify_private_names=True, certify_ip_addresses=True
    )
    application = create_app(settings)
    async with (
        application.router.lifespan_context(application),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=application), base_url=HUB_BASE
        ) as http,
    ):
        try:

            async def agent(url: str) -> HubClient:
                key = AgentKey.generate()
                kit = HubClient(HUB_BASE, key=key, http=http)
                await kit.register(
                    card("x", key, endpointUrl=url), registration_token=REGISTRATION_TOKEN
                )
                return kit

            assert _names(await _issue(await agent("https://127.0.0.1:9001/"))) == ["127.0.0.1"]
            assert _names(await _issue(await agent("https://127.0.0.1:9002/"))) == ["127.0.0.1"]
            assert _names(await _issue(await agent("https://[::1]/"))) == ["::1"]
            assert _names(await _issue(await agent("https://printer.local/"))) == ["printer.local"]
            assert _names(await _issue(await agent("https://localhost:1/"))) == ["localhost"]
            assert _names(await _issue(await agent("https://localhost:2/"))) == []  # taken
        finally:
            await empty_tables(database_url)


def test_the_name_policy_says_why() -> None:
    closed = NamePolicy(private_names=True, ip_addresses=True)
    for url in UNPROVEN:
        host = endpoint_host(url) or ""
        assert why_not(host, NamePolicy()) is not None, host
        assert why_not(host, closed) is None or host == "127.1", host
    assert why_not("agents.example.com", NamePolicy()) is None


async def test_revocation_by_hand_rotation_and_deregistration_reach_the_list(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    ca = x509.load_pem_x509_certificate((await client.get("/.well-known/agenthub-ca.pem")).content)
    kit = await make_agent("tls")
    first = int((await _issue(kit)).json()["serial"], 16)
    second = int((await _issue(kit)).json()["serial"], 16)
    assert await _revoked_serials(client, ca) == set()

    padded = f"00{first:x}".upper()  # the same serial, written another way
    response = await kit.request("DELETE", f"/v1/agents/{kit.agent_id}/certificates/{padded}")
    assert response.status_code == 204
    assert await _revoked_serials(client, ca) == {first}
    listed = (await kit.request("GET", f"/v1/agents/{kit.agent_id}/certificates")).json()
    assert {c["serial"]: c.get("revokedAt") is not None for c in listed["items"]} == {
        f"{first:x}": True,
        f"{second:x}": False,
    }

    await kit.rotate_key(AgentKey.generate())  # the old key's certificates are void
    assert await _revoked_serials(client, ca) == {first, second}
    third = int((await _issue(kit)).json()["serial"], 16)
    await kit.deregister()
    assert await _revoked_serials(client, ca) == {first, second, third}


async def test_the_list_answers_conditional_gets_and_changes_with_a_revocation(
    client: httpx.AsyncClient, make_agent: MakeAgent
) -> None:
    kit = await make_agent("tls")
    serial = (await _issue(kit)).json()["serial"]
    url = "/.well-known/agenthub-crl.pem"
    first = await client.get(url)
    assert first.status_code == 200
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    assert etag.startswith('"') and int(first.headers["cache-control"].split("=")[1]) > 0
    crl = x509.load_pem_x509_crl(first.content)
    assert format_datetime(crl.last_update_utc, usegmt=True) == modified
    for headers in (
        {"If-None-Match": etag},
        {"If-None-Match": f'"other", W/{etag}'},
        {"If-None-Match": "*"},
        {"If-Modified-Since": modified},
    ):
        again = await client.get(url, headers=headers)
        assert (again.status_code, again.content) == (304, b""), headers
        assert again.headers["etag"] == etag
    for headers in (
        {"If-None-Match": '"other"', "If-Modified-Since": modified},  # the tag decides
        {"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"},
        {"If-Modified-Since": "not a date"},
    ):
        assert (await client.get(url, headers=headers)).status_code == 200, headers
    gone = await kit.request("DELETE", f"/v1/agents/{kit.agent_id}/certificates/{serial}")
    assert gone.status_code == 204
    after = await client.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["etag"] != etag
    serials = {entry.serial_number for entry in x509.load_pem_x509_crl(after.content)}
    assert int(serial, 16) in serials


async def test_concurrent_gets_of_the_list_sign_it_once(
    client: httpx.AsyncClient, hub: Any, make_agent: MakeAgent
) -> None:
    kit = await make_agent("tls")
    serial = (await _issue(kit)).json()["serial"]
    await kit.request("DELETE", f"/v1/agents/{kit.agent_id}/certificates/{serial}")
    lists = parts(hub).revocation_lists
    signed = lists.signed
    answers = await asyncio.gather(
        *(client.get("/.well-known/agenthub-crl.pem") for _ in range(50))
    )
    assert {a.status_code for a in answers} == {200}
    assert len({a.content for a in answers}) == 1
    assert lists.signed - signed <= 1


async def test_an_agent_holds_at_most_four_live_certificates(
    make_agent: MakeAgent, hub: Any
) -> None:
    kit = await make_agent("tls")
    serials = []
    for _ in range(4):
        issued = await _issue(kit)
        assert issued.status_code == 201, issued.text
        serials.append(issued.json()["serial"])
    refused = await _issue(kit)
    assert problem(refused, 409)["type"].endswith("/too-many-certificates")
    listed = (await kit.request("GET", f"/v1/agents/{kit.agent_id}/certificates")).json()
    assert len(listed["items"]) == 4  # the refusal stored nothing
    await kit.request("DELETE", f"/v1/agents/{kit.agent_id}/certificates/{serials[0]}")
    assert (await _issue(kit)).status_code == 201  # a revoked one no longer counts


async def test_an_agent_asking_for_certificates_too_fast_is_told_when_to_come_back(
    settings: Any,
) -> None:
    from tests.api.test_limits import agent_of, hub_with
    from tests.support.hub import HUB_BASE

    async with (
        hub_with(settings, certificates_per_hour_per_agent=2) as app,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=HUB_BASE) as http,
    ):
        kit, other = await agent_of(http, "tls"), await agent_of(http, "other")
        for _ in range(2):
            assert (await _issue(kit)).status_code == 201
        refused = await _issue(kit)
        problem(refused, 429)
        assert 1 <= int(refused.headers["retry-after"]) <= 1800
        # another agent's request for it is 403 and spends nothing of other's share
        csr = other.key.certificate_request("x")
        path = f"/v1/agents/{kit.agent_id}/certificates"
        assert (await other.request("POST", path, json={"csr": csr})).status_code == 403
        assert (await _issue(other)).status_code == 201


async def test_certificates_long_expired_are_purged(hub: Any, make_agent: MakeAgent) -> None:
    from datetime import timedelta

    from app.certificates.models import Certificate
    from app.certificates.service import purge_expired_certificates
    from app.models.types import utcnow

    kit = await make_agent("tls")
    serial = (await _issue(kit)).json()["serial"]
    async with parts(hub).session_factory() as db:
        assert await purge_expired_certificates(db, before=utcnow()) == 0
        row = await db.get(Certificate, serial)
        row.not_after = utcnow() - timedelta(days=8)
        db.add(row)
        await db.commit()
        assert await purge_expired_certificates(db, before=utcnow() - timedelta(days=7)) == 1
        assert await db.get(Certificate, serial) is None


async def test_a_kit_agent_restarted_past_the_cap_still_gets_its_certificate(
    make_agent: MakeAgent,
) -> None:
    """Each run of a kit agent asks for its own certificate: past the cap, the kit revokes
    the oldest one it does not present (an earlier run's) and asks again."""
    from agenthub.tls import AgentTls

    kit = await make_agent("tls")
    runs = []
    for _ in range(6):  # six starts of the same agent, the same key
        tls = AgentTls(kit)
        await tls.ensure()
        assert tls.certificate is not None
        runs.append(format(tls.certificate.serial_number, "x"))
    held = await kit.certificates()
    live = [c.serial for c in held if c.revoked_at is None]
    assert len(live) == 4 and runs[-1] in live
    # two of the earlier runs', the oldest by notBefore (whole seconds: a tie goes either way)
    revoked = {c.serial for c in held if c.revoked_at is not None}
    assert len(revoked) == 2 and revoked <= set(runs[:-1])


async def test_the_certificate_list_comes_a_page_at_a_time(make_agent: MakeAgent) -> None:
    kit = await make_agent("tls")
    serials = []
    for _ in range(7):  # issued and revoked: one live at a time
        serial = (await _issue(kit)).json()["serial"]
        await kit.request("DELETE", f"/v1/agents/{kit.agent_id}/certificates/{serial}")
        serials.append(serial)
    path = f"/v1/agents/{kit.agent_id}/certificates"
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 3}
    pages = 0
    while True:
        page = (await kit.request("GET", path, params=params)).json()
        pages += 1
        assert len(page["items"]) <= 3
        seen += [c["serial"] for c in page["items"]]
        if "nextCursor" not in page:
            break
        params["cursor"] = page["nextCursor"]
    assert pages == 3 and sorted(seen) == sorted(serials) and len(set(seen)) == 7
    assert [c.serial for c in await kit.certificates()] == seen  # the kit reads every page
    for bad in ({"limit": 0}, {"limit": 501}, {"cursor": "not-a-cursor"}):
        assert (await kit.request("GET", path, params=bad)).status_code in (400, 422), bad
