"""An agent certified by another CA (standing in for the ACPs CA) that the hub trusts: it
registers under the AIC it already holds and, as acps-sdk's docs show, drives a kit partner
over mutual TLS with its own certificate."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from acps_sdk.aic import validate_aic_format
from acps_sdk.aip.aip_base_model import TaskState
from acps_sdk.aip.aip_rpc_client import AipRpcClient
from acps_sdk.aip.mtls_config import MTLSConfig
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from agenthub import AgentKey, HubClient, HubRequestError
from agenthub.protocol.aic import new_aic
from app.config import Settings
from tests.support.hub import REGISTRATION_TOKEN
from tests.support.kit import EchoHandler, LiveHub, MakeLiveAgent


class OtherCA:
    """A CA of its own, issuing as ACPs-spec-ATR says: CN = AIC, SAN URI acps://{AIC}."""

    def __init__(self, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        now = datetime.now(UTC)
        self.certificate = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(subject)
            .public_key(self.key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(hours=1))
            .not_valid_after(now + timedelta(days=30))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(_usage(cert_sign=True), critical=True)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(self.key.public_key()), critical=False
            )
            .sign(self.key, hashes.SHA256())
        )
        self.pem = self.certificate.public_bytes(serialization.Encoding.PEM)

    def leaf(self, key: AgentKey | ec.EllipticCurvePublicKey, aic: str) -> bytes:
        public = (
            load_pem_private_key(key.private_pem(), None).public_key()
            if isinstance(key, AgentKey)
            else key
        )
        now = datetime.now(UTC)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, aic)]))
            .issuer_name(self.certificate.subject)
            .public_key(public)  # type: ignore[arg-type]
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(hours=1))
            .not_valid_after(now + timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_usage(cert_sign=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .add_extension(
                x509.SubjectAlternativeName([x509.UniformResourceIdentifier(f"acps://{aic}")]),
                critical=False,
            )
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                critical=False,
            )
            .sign(self.key, hashes.SHA256())
        )
        return certificate.public_bytes(serialization.Encoding.PEM)


def _usage(*, cert_sign: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not cert_sign,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=cert_sign,
        crl_sign=cert_sign,
        encipher_only=False,
        decipher_only=False,
    )


ACPS = OtherCA("ACPs test CA")


@pytest.fixture
def settings(settings: Settings, tmp_path: Path) -> Settings:
    """The hub trusts the other CA besides its own."""
    bundle = tmp_path / "trusted-cas.pem"
    bundle.write_bytes(ACPS.pem)
    settings.trusted_ca_file = bundle
    return settings


async def _register(live_hub: LiveHub, key: AgentKey, certificate: bytes) -> str:
    async with HubClient(live_hub.url, key=key) as hub:
        card = {"name": "acps-agent", "certificate": certificate.decode()}
        return (await hub.register(card, registration_token=REGISTRATION_TOKEN)).id


async def test_an_agent_certified_elsewhere_registers_under_its_aic_and_calls_over_mtls(
    live_hub: LiveHub, make_live_agent: MakeLiveAgent, tmp_path: Path
) -> None:
    key = AgentKey.generate()
    aic = new_aic("7", "ACME")
    assert validate_aic_format(aic) == (True, None)
    assert await _register(live_hub, key, ACPS.leaf(key, aic)) == aic

    partner = await make_live_agent("echo", EchoHandler())
    async with HubClient(live_hub.url, key=key, agent_id=aic) as hub:
        bundle = await hub.ca_certificate()  # the hub's CA, then the ACPs CA
        assert ACPS.pem in bundle
        session = hub.raise_or_json(
            await hub.request(
                "POST", "/v1/sessions", json={"receivers": [{"agentId": partner.agent_id}]}
            )
        )
    folder = tmp_path / "certs"
    folder.mkdir()
    (folder / f"{aic}.crt").write_bytes(ACPS.leaf(key, aic))
    (folder / f"{aic}.key").write_bytes(key.private_pem())
    (folder / "ca.crt").write_bytes(bundle)
    mtls = MTLSConfig(str(folder), aic)
    client = AipRpcClient(
        partner.public_url or "", aic, ssl_context=mtls.create_client_ssl_context()
    )
    try:
        started = await client.start_task(session["id"], "hello", task_id="t-certified")
        assert started.status.state == TaskState.AwaitingCompletion
        done = await client.complete_task("t-certified", session["id"])
        assert done.status.state == TaskState.Completed
    finally:
        await client.close()
    assert await partner.recorder.flush(5)
    task = (await partner.hub.request("GET", "/v1/tasks/t-certified")).json()
    assert (task["leaderId"], task["state"]) == (aic, "completed")


async def test_registration_certificates_are_checked(live_hub: LiveHub) -> None:
    key = AgentKey.generate()
    aic = new_aic("7", "ACME")
    stranger = OtherCA("a CA nobody trusts")
    garbage = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
    cases = [
        (stranger.leaf(key, aic), 422, "certificate-not-trusted"),
        (ACPS.leaf(AgentKey.generate(), aic), 422, "certificate-not-trusted"),  # another key
        (ACPS.leaf(key, "not-an-aic"), 422, "certificate-not-trusted"),
        (garbage, 422, "certificate-not-trusted"),
        (
            ACPS.leaf(ec.generate_private_key(ec.SECP384R1()).public_key(), aic),
            422,
            "certificate-not-trusted",
        ),
    ]
    for certificate, status, code in cases:
        with pytest.raises(HubRequestError) as refused:
            await _register(live_hub, key, certificate)
        assert refused.value.status == status, refused.value.problem
        assert refused.value.problem["type"].endswith(code), refused.value.problem
    assert await _register(live_hub, key, ACPS.leaf(key, aic)) == aic
    again = AgentKey.generate()
    with pytest.raises(HubRequestError) as taken:
        await _register(live_hub, again, ACPS.leaf(again, aic))
    assert taken.value.status == 409 and taken.value.problem["type"].endswith("aic-taken")
