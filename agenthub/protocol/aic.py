"""Agent identity codes (AIC) as ACPs-spec-AIC v02 shapes them, and GB/Z 185.2 names them.

Ten dot-separated segments: the OID prefix ``1.2.156.3088`` (4), the version (1 base-36 digit),
the registration service provider (ARSP, 1-6), the vendor (1-6), the ontology serial (1-9),
the instance serial (1-9; all zeros for an ontology's own code) and a check code: four base-36
digits of CRC-16/CCITT-FALSE over segments 1-9 and the ARSP's salt. acps-sdk's
``validate_aic_format`` accepts every code made here; its ``AICValidator(salt)`` also checks the
check code.
"""

from __future__ import annotations

import binascii
import re
import secrets

AIC_PREFIX = "1.2.156.3088"
AIC_VERSION = "1"
BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SERIAL_CHARS = 9
AIC_PATTERN = re.compile(
    r"1\.2\.156\.3088\.[0-9A-Z]\.[0-9A-Z]{1,6}\.[0-9A-Z]{1,6}\.[0-9A-Z]{1,9}\.[0-9A-Z]{1,9}"
    r"\.[0-9A-Z]{4}"
)
URI_SCHEME = "acps://"
"""A certificate names its agent by a SAN URI ``acps://{AIC}`` (ACPs-spec-ATR)."""
HOST_SUFFIX = ".aic.invalid"
"""The hub's certificates also carry the DNS name ``{aic}.aic.invalid`` (``.invalid`` never
resolves, RFC 2606): a kit leader asks TLS for that name (SNI), so the handshake itself proves
the partner is the agent called, before any byte of the request is sent."""


def aic_host(aic: str) -> str:
    return aic.lower() + HOST_SUFFIX


def _base36(number: int, width: int) -> str:
    digits = ""
    while number:
        number, rest = divmod(number, 36)
        digits = BASE36[rest] + digits
    return digits.rjust(width, "0")


def check_code(body: str, salt: bytes = b"") -> str:
    """The tenth segment for segments 1-9 (``body``): CRC-16/CCITT-FALSE, as 4 base-36 digits."""
    return _base36(binascii.crc_hqx(body.upper().encode("ascii") + salt, 0xFFFF), 4)


def new_aic(arsp: str, vendor: str, salt: bytes = b"") -> str:
    """A fresh instance code: random ontology and instance serials (93 bits together)."""
    ontology = "".join(secrets.choice(BASE36) for _ in range(SERIAL_CHARS))
    instance = "0"
    while set(instance) == {"0"}:  # all zeros would name the ontology, not an instance
        instance = "".join(secrets.choice(BASE36) for _ in range(SERIAL_CHARS))
    body = ".".join((AIC_PREFIX, AIC_VERSION, arsp, vendor, ontology, instance))
    return f"{body}.{check_code(body, salt)}"


def is_aic(text: str) -> bool:
    """Whether ``text`` has the shape of an AIC (the check code is the issuer's to verify)."""
    return AIC_PATTERN.fullmatch(text) is not None


def has_valid_check_code(aic: str, salt: bytes = b"") -> bool:
    body, _, code = aic.rpartition(".")
    return is_aic(aic) and check_code(body, salt) == code
