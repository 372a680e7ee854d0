"""docker-compose.yml, the Dockerfile and the nginx config, checked statically (no Docker here)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from app.config import Settings

ROOT = Path(__file__).parents[2]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def hubs(services: dict[str, Any]) -> dict[str, Any]:
    found = {name: s for name, s in services.items() if name.startswith("hub-")}
    assert all(s["build"] == "." for s in found.values())
    return found


def test_services_and_healthchecks() -> None:
    services = compose()["services"]
    assert {"postgres", "redis", "migrate", "lb"} <= services.keys()
    assert len(hubs(services)) >= 2
    assert "pg_isready" in str(services["postgres"]["healthcheck"]["test"])
    assert "ping" in str(services["redis"]["healthcheck"]["test"])
    for hub in hubs(services).values():
        assert "readyz" in str(hub["healthcheck"]["test"])
    assert services["migrate"]["command"] == ["migrate"]
    assert services["migrate"]["restart"] == "no"


def test_start_order_follows_health() -> None:
    services = compose()["services"]
    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for hub in hubs(services).values():
        assert hub["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
            "migrate": {"condition": "service_completed_successfully"},
        }
    assert set(services["lb"]["depends_on"]) == set(hubs(services))
    assert all(d["condition"] == "service_healthy" for d in services["lb"]["depends_on"].values())


def test_replicas_share_store_broker_and_key() -> None:
    data = compose()
    services = data["services"]
    envs = [hub["environment"] for hub in hubs(services).values()]
    assert all(env == envs[0] for env in envs)
    env = envs[0]
    # every variable is a real setting of the hub
    fields = {f"AGENTHUB_{name.upper()}" for name in Settings.model_fields}
    assert set(env) <= fields
    assert env["AGENTHUB_DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert (
        env["AGENTHUB_DATABASE_URL"] == services["migrate"]["environment"]["AGENTHUB_DATABASE_URL"]
    )
    assert env["AGENTHUB_BROKER_URL"].startswith("redis://redis:")
    assert env["AGENTHUB_SIGNING_KEY_FILE"] == "/run/secrets/hub_signing_key"
    for hub in hubs(services).values():
        assert hub["secrets"] == ["hub_signing_key"]
    assert data["secrets"]["hub_signing_key"]["file"].endswith(".pem")
    assert "deploy/secrets/*.pem" in (ROOT / ".gitignore").read_text()


def test_load_balancer_keeps_sse_unbuffered() -> None:
    services = compose()["services"]
    (mount,) = services["lb"]["volumes"]
    config = (ROOT / mount.split(":")[0]).read_text()
    for name in hubs(services):
        assert re.search(rf"server {name}:8000", config), name
    assert "proxy_buffering off;" in config
    assert "proxy_http_version 1.1;" in config
    timeout = re.search(r"proxy_read_timeout (\d+)([smh]);", config)
    assert timeout is not None
    seconds = int(timeout.group(1)) * {"s": 1, "m": 60, "h": 3600}[timeout.group(2)]
    assert seconds > Settings().keepalive_seconds * 2


def test_dockerfile_is_slim_and_not_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    bases = re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)
    assert bases and all(b.endswith("-slim") for b in bases)
    users = re.findall(r"^USER (\S+)", dockerfile, re.MULTILINE)
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert "COPY migrations" in dockerfile and "--no-migrate" in dockerfile
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert "deploy/secrets" in ignored and ".venv" in ignored
