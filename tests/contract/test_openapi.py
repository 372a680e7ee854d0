"""The committed OpenAPI document is current; its operation ids are the handler names, every
operation is described, and its documented security is what the hub does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from app.cli import openapi_document
from tests.support.hub import OPERATOR_TOKEN, REGISTRATION_TOKEN

OPENAPI_FILE = Path(__file__).parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_is_current() -> None:
    assert OPENAPI_FILE.read_text(encoding="utf-8") == openapi_document(), (
        "openapi/openapi.json is stale: run `make openapi` and commit it"
    )


def test_operation_ids_are_unique_handler_names() -> None:
    spec = json.loads(openapi_document())
    ids = [op["operationId"] for path in spec["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids))
    assert {
        "register_agent",
        "list_agents",
        "get_agent",
        "update_agent",
        "delete_agent",
        "create_token",
        "list_operator_agents",
        "list_operator_sessions",
        "list_operator_groups",
        "list_operator_tasks",
        "stream_operator_events",
        "get_operator_health",
    } <= set(ids)


def test_v1_routes_document_problem_responses() -> None:
    spec = json.loads(openapi_document())
    for path, operations in spec["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, op in operations.items():
            assert "401" in op["responses"] or "422" in op["responses"], (method, path)
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    assert "application/problem+json" in response["content"], (method, path)


def test_every_operation_has_a_description() -> None:
    spec = json.loads(openapi_document())
    bare = [
        f"{method.upper()} {path}"
        for path, operations in spec["paths"].items()
        for method, op in operations.items()
        if len(op.get("description", "").strip()) < 40
    ]
    assert bare == []
    token = spec["paths"]["/v1/auth/token"]["post"]["description"]
    for claim in ("`iss`", "`sub`", "`aud`", "`iat`", "`exp`", "`jti`", "`nonce`", '"ES256"'):
        assert claim in token, claim
    assert spec["info"]["description"]


def test_the_security_schemes_are_bearer_tokens() -> None:
    schemes = json.loads(openapi_document())["components"]["securitySchemes"]
    assert set(schemes) == {"AccessToken", "OperatorToken", "RegistrationToken"}
    assert all(s["type"] == "http" and s["scheme"] == "bearer" for s in schemes.values())
    assert schemes["AccessToken"]["bearerFormat"] == "JWT"


def _operations() -> list[tuple[str, str, list[dict[str, list[str]]]]]:
    spec = json.loads(openapi_document())
    return [
        (method, path, op.get("security", []))
        for path, operations in spec["paths"].items()
        for method, op in operations.items()
    ]


def _streams() -> set[str]:
    spec = json.loads(openapi_document())
    return {
        path
        for path, operations in spec["paths"].items()
        for op in operations.values()
        if "text/event-stream" in op["responses"].get("200", {}).get("content", {})
    }


def test_the_documented_security_of_the_main_routes() -> None:
    security = {(m, p): [next(iter(s), None) for s in sec] for m, p, sec in _operations()}
    assert security["post", "/v1/agents"] == ["RegistrationToken", "OperatorToken", None]
    assert security["post", "/v1/auth/token"] == []
    assert security["get", "/healthz"] == [] and security["get", "/.well-known/jwks.json"] == []
    for route in (
        ("get", "/v1/agents"),
        ("get", "/v1/agents/{agentId}"),
        ("delete", "/v1/agents/{agentId}"),
        ("post", "/v1/groups"),
        ("post", "/v1/groups/{groupId}/applications/{agentId}/approve"),
    ):
        assert security[route] == ["AccessToken", "OperatorToken"], route
    for route in (
        ("patch", "/v1/agents/{agentId}"),
        ("post", "/v1/sessions"),
        ("get", "/v1/groups/{groupId}/events"),
        ("get", "/v1/agents/me/events"),
    ):
        assert security[route] == ["AccessToken"], route
    for route in (
        ("get", "/v1/operator/agents"),
        ("get", "/v1/operator/sessions"),
        ("get", "/v1/operator/groups"),
        ("get", "/v1/operator/tasks"),
        ("get", "/v1/operator/events"),
        ("get", "/v1/operator/health"),
    ):
        assert security[route] == ["OperatorToken"], route


@pytest.mark.parametrize(
    ("token", "scheme"),
    [(OPERATOR_TOKEN, "OperatorToken"), (REGISTRATION_TOKEN, "RegistrationToken")],
)
async def test_the_documented_security_is_what_the_hub_does(
    client: httpx.AsyncClient, token: str, scheme: str
) -> None:
    """Each secured operation answers 401 to a token exactly when its security does not
    list that token's scheme (and always without a token)."""
    checked = 0
    streams = _streams()
    for method, path, security in _operations():
        if not security:
            continue
        url = re.sub(r"\{[^}]+\}", "1.2.156.3088.1.AGH.NOBODY", path)
        body = {} if method in ("post", "patch") else None
        anonymous = await client.request(method, url, json=body)
        assert anonymous.status_code == 401, (method, path)
        headers = {"Authorization": f"Bearer {token}"}
        if path in streams:  # a stream it admits would never end here: make it a 422
            headers["Last-Event-ID"] = "9" * 1000
        response = await client.request(method, url, json=body, headers=headers)
        accepted = any(scheme in requirement for requirement in security)
        assert (response.status_code != 401) == accepted, (method, path, response.text)
        checked += 1
    assert checked >= 30
