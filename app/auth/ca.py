"""The hub as its agents' certificate authority: its key and certificate, made on first start
(the key mode 0600, beside the signing key) or loaded, and the leaf certificates it signs.

A leaf names its agent as ACPs-spec-ATR says: CN = the AIC, SAN URI ``acps://{AIC}``, plus the
DNS or IP name of the agent's ``endpointUrl`` and ``{aic}.aic.invalid`` (the name a kit leader
verifies in the handshake); it is good for both TLS ends (serverAuth and clientAuth) and binds
the key the registry holds, nothing else.
"""

from __future__ import annotations

import ipaddress
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from agenthub.protocol.aic import URI_SCHEME, aic_host

KEY_FILE_MODE = 0o600
CA_YEARS = 10
CLOCK_SKEW = timedelta(minutes=5)
"""A leaf is valid from a little before it is made, for peers whose clocks run behind."""


@dataclass(frozen=True)
class HubCA:
    key: ec.EllipticCurvePrivateKey
    certificate: x509.Certificate
    created: bool = False
    trusted: tuple[x509.Certificate, ...] = ()
    """Other CAs (``AGENTHUB_TRUSTED_CA_FILE``) whose agents may register under their AIC."""

    @property
    def pem(self) -> bytes:
        """The hub's CA certificate first, then the other CAs it trusts: what peers pin."""
        own = self.certificate.public_bytes(serialization.Encoding.PEM)
        return own + b"".join(c.public_bytes(serialization.Encoding.PEM) for c in self.trusted)

    def issue(
        self,
        public_key: ec.EllipticCurvePublicKey,
        *,
        aic: str,
        host: str | None,
        serial: int,
        not_before: datetime,
        not_after: datetime,
    ) -> x509.Certificate:
        """An agent's leaf: good for both TLS ends, named by its AIC."""
        names: list[x509.GeneralName] = [
            x509.UniformResourceIdentifier(URI_SCHEME + aic),
            x509.DNSName(aic_host(aic)),
        ]
        if host:
            names.append(general_name(host))
        builder = self.leaf(
            public_key,
            common_name=aic,
            names=names,
            usages=[ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH],
            serial=serial,
            not_before=not_before,
            not_after=not_after,
        ).add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=True,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        return builder.sign(self.key, hashes.SHA256())

    def leaf(
        self,
        public_key: ec.EllipticCurvePublicKey,
        *,
        common_name: str,
        names: list[x509.GeneralName],
        usages: list[x509.ObjectIdentifier],
        serial: int,
        not_before: datetime,
        not_after: datetime,
    ) -> x509.CertificateBuilder:
        """What every leaf of this CA has: never past the CA's own life, not a CA."""
        return (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
            .issuer_name(self.certificate.subject)
            .public_key(public_key)
            .serial_number(serial)
            .not_valid_before(not_before - CLOCK_SKEW)
            .not_valid_after(min(not_after, self.certificate.not_valid_after_utc))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage(usages), critical=False)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
            .add_extension(self.authority_key_id(), critical=False)
        )

    def revocation_list(
        self,
        revoked: list[tuple[int, datetime]],
        *,
        now: datetime,
        next_update: datetime,
        number: int,
    ) -> x509.CertificateRevocationList:
        builder = (
            x509.CertificateRevocationListBuilder()
            .issuer_name(self.certificate.subject)
            .last_update(now)
            .next_update(next_update)
            .add_extension(self.authority_key_id(), critical=False)
            .add_extension(x509.CRLNumber(number), critical=False)
        )
        for serial, when in revoked:
            builder = builder.add_revoked_certificate(
                x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(when).build()
            )
        return builder.sign(self.key, hashes.SHA256())

    def authority_key_id(self) -> x509.AuthorityKeyIdentifier:
        return x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key())


def general_name(host: str) -> x509.GeneralName:
    """An IP address or a DNS name, as a certificate's subject alternative name."""
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def _ca_certificate(key: ec.EllipticCurvePrivateKey, issuer: str, role: str) -> x509.Certificate:
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, issuer),
            x509.NameAttribute(NameOID.COMMON_NAME, f"{issuer} {role} CA"),
        ]
    )
    now = datetime.now(UTC)
    public = key.public_key()
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - CLOCK_SKEW)
        .not_valid_after(now + timedelta(days=365 * CA_YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )


def write_once(path: Path, data: bytes, mode: int) -> bool:
    """Write a new file whole or not at all; False when another replica made it first (it
    is theirs, then). The data goes to a private temporary file that is linked into place:
    a reader never sees half a file, and a crash leaves no empty one behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        return True
    finally:
        os.unlink(temporary)


def read_ca(key_path: Path, cert_path: Path) -> HubCA:
    try:
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{key_path} is not an unencrypted PEM private key") from exc
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{key_path} does not hold an EC private key")
    try:
        certificate = x509.load_pem_x509_certificate(cert_path.read_bytes())
    except ValueError as exc:
        raise ValueError(f"{cert_path} is not a PEM certificate") from exc
    if certificate.public_key() != key.public_key():
        raise ValueError(f"{cert_path} is not the certificate of the key in {key_path}")
    return HubCA(key, certificate)


def load_or_create_ca(
    key_path: Path, cert_path: Path, *, issuer: str, role: str = "agent"
) -> HubCA:
    """Load the CA, or make it: key first (O_EXCL, so two replicas agree on one), then its
    certificate from whichever key won."""
    created = False
    if not key_path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        created = write_once(key_path, pem, KEY_FILE_MODE)
    if not cert_path.exists():
        stored = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        if not isinstance(stored, ec.EllipticCurvePrivateKey):
            raise ValueError(f"{key_path} does not hold an EC private key")
        certificate = _ca_certificate(stored, issuer, role)
        write_once(cert_path, certificate.public_bytes(serialization.Encoding.PEM), 0o644)
    ca = read_ca(key_path, cert_path)
    return HubCA(ca.key, ca.certificate, created=created)


def write_server_certificate(
    ca: HubCA, names: list[str], cert_path: Path, key_path: Path, *, days: int
) -> x509.Certificate:
    """A TLS server certificate for the hub itself (its own new key), for ``names``, signed
    by ``ca``: the hub's TLS CA (``Settings.tls_ca_paths``), never the agents' CA, whose
    leaves any agent can get for a name of its choosing and so must not pass as the hub."""
    if not names:
        raise ValueError("name at least one DNS name or IP address")
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.now(UTC)
    certificate = ca.leaf(
        key.public_key(),
        common_name=names[0],
        names=[general_name(name) for name in names],
        usages=[ExtendedKeyUsageOID.SERVER_AUTH],
        serial=x509.random_serial_number(),
        not_before=now,
        not_after=now + timedelta(days=days),
    ).sign(ca.key, hashes.SHA256())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    key_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, KEY_FILE_MODE)
    os.fchmod(fd, KEY_FILE_MODE)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return certificate


def read_trusted_cas(path: Path | None) -> tuple[x509.Certificate, ...]:
    """The CA certificates of a PEM bundle (none without a file)."""
    if path is None:
        return ()
    try:
        found = x509.load_pem_x509_certificates(path.read_bytes())
    except ValueError as exc:
        raise ValueError(f"{path} holds no PEM certificates") from exc
    for certificate in found:
        try:
            is_ca = certificate.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        except x509.ExtensionNotFound:
            is_ca = False
        if not is_ca:
            raise ValueError(f"{path}: {certificate.subject.rfc4514_string()} is not a CA")
    return tuple(found)
