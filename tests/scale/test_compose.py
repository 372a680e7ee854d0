"""docker-compose.yml, the Dockerfile and deploy/, checked statically and by the real Compose
`config` (no Docker engine here: nothing is started)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.config import Settings
from tests.support.system import require

ROOT = Path(__file__).parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
SERVICES = {"postgres", "redis", "migrate", "keys", "lb-certificate", "hub", "lb"}
SECRET_SETTINGS = ("DATABASE_URL", "OPERATOR_TOKEN", "REGISTRATION_TOKEN")
HUB_UID = "10001"


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text())
    return data


def services() -> dict[str, Any]:
    found: dict[str, Any] = compose()["services"]
    return found


def default(value: str) -> str:
    """``${NAME:-default}`` as Compose reads it when NAME is unset."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value)


def test_one_hub_service_that_scales() -> None:
    found = services()
    assert found.keys() == SERVICES
    hub = found["hub"]
    # replicas by --scale or deploy.replicas: no fixed name, no host port to collide on
    assert "container_name" not in hub and "ports" not in hub
    assert hub["deploy"]["replicas"] >= 2
    assert hub["command"] == ["serve", "--host", "0.0.0.0", "--port", "8000", "--no-migrate"]
    assert found["migrate"]["command"] == ["migrate"]
    assert found["keys"]["command"] == ["keys"]
    assert found["lb-certificate"]["command"][0] == "hub-certificate"
    for name in ("hub", "migrate", "keys", "lb-certificate"):
        assert found[name]["build"] == "." and found[name]["image"] == found["hub"]["image"]
        assert "user" not in found[name]  # the image's uid 10001


def test_healthchecks_and_start_order() -> None:
    found = services()
    assert "pg_isready" in str(found["postgres"]["healthcheck"]["test"])
    assert "ping" in str(found["redis"]["healthcheck"]["test"])
    assert "readyz" in str(found["hub"]["healthcheck"]["test"])
    assert "readyz" in str(found["lb"]["healthcheck"]["test"])
    assert found["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert found["hub"]["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
        "migrate": {"condition": "service_completed_successfully"},
        "keys": {"condition": "service_completed_successfully"},
    }
    assert found["lb"]["depends_on"] == {
        "hub": {"condition": "service_healthy"},
        "lb-certificate": {"condition": "service_completed_successfully"},
    }
    # nginx's certificate is signed by the hub's TLS CA, beside the key `keys` makes first
    assert found["lb-certificate"]["depends_on"] == {
        "keys": {"condition": "service_completed_successfully"}
    }
    for one_shot in ("migrate", "keys", "lb-certificate"):
        assert found[one_shot]["restart"] == "no"


def test_every_service_has_cpu_and_memory_limits() -> None:
    for name, service in services().items():
        limits = service["deploy"]["resources"]["limits"]
        assert float(limits["cpus"]) > 0, name
        assert re.fullmatch(r"\d+[MG]", limits["memory"]), name
        # both spellings at once are refused by Compose v2 when they differ
        assert "mem_limit" not in service and "cpus" not in service, name


def test_every_agenthub_variable_is_a_setting() -> None:
    settings = {f"AGENTHUB_{name.upper()}" for name in Settings.model_fields}
    named = set(re.findall(r"AGENTHUB_[A-Z0-9_]+", COMPOSE_FILE.read_text()))
    assert named and named <= settings, named - settings


def test_secrets_are_files_and_no_password_is_written() -> None:
    data = compose()
    found = data["services"]
    text = COMPOSE_FILE.read_text()
    assert not re.search(r"://[^/\s:@]+:[^@\s]+@", text), "a URL with a password"
    assert "POSTGRES_PASSWORD:" not in text
    for name in SECRET_SETTINGS:
        assert not re.search(rf"AGENTHUB_{name}:", text), f"AGENTHUB_{name} in plain text"
    postgres = found["postgres"]["environment"]
    assert postgres["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    hub = found["hub"]["environment"]
    for name in SECRET_SETTINGS:
        secret = hub[f"AGENTHUB_{name}_FILE"].removeprefix("/run/secrets/")
        assert secret in found["hub"]["secrets"], name
    assert found["migrate"]["environment"] == {
        "AGENTHUB_DATABASE_URL_FILE": hub["AGENTHUB_DATABASE_URL_FILE"]
    }
    used = {s for service in found.values() for s in service.get("secrets", [])}
    assert used == data["secrets"].keys()
    for secret in data["secrets"].values():
        path = ROOT / secret["file"]
        assert path.parent == ROOT / "deploy" / "secrets"
        ignored = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=ROOT, check=False)
        assert ignored.returncode == 0, f"{path} is not git-ignored"


def test_signing_key_is_made_by_the_hubs_user_in_a_volume_they_mount_read_only() -> None:
    found = services()
    key = found["hub"]["environment"]["AGENTHUB_SIGNING_KEY_FILE"]
    assert found["keys"]["environment"] == {"AGENTHUB_SIGNING_KEY_FILE": key}
    folder = str(Path(key).parent)
    (made,) = found["keys"]["volumes"]
    (mounted,) = found["hub"]["volumes"]
    volume = made.split(":")[0]
    assert made == f"{volume}:{folder}"
    assert mounted == f"{volume}:{folder}:ro"
    assert volume in compose()["volumes"]
    # a fresh named volume takes the owner and mode of the image's folder
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(rf"install -d -o {HUB_UID} -g {HUB_UID} -m 0700 .*{folder}\b", dockerfile)


def test_hubs_believe_forwarded_headers_from_the_lb_network_only() -> None:
    data = compose()
    found = data["services"]
    allowed = default(found["hub"]["environment"]["AGENTHUB_FORWARDED_ALLOW_IPS"])
    (front,) = found["lb"]["networks"]
    subnets = [default(c["subnet"]) for c in data["networks"][front]["ipam"]["config"]]
    assert subnets == [allowed]
    on_front = {name for name, s in found.items() if front in s.get("networks", [])}
    assert on_front == {"lb", "hub"}
    assert data["networks"]["back"]["internal"] is True
    assert found["keys"]["network_mode"] == "none"


def test_lb_finds_the_replicas_by_service_name_and_keeps_sse_unbuffered() -> None:
    lb = services()["lb"]
    # open-source nginx re-resolves upstream servers (`resolve`) since 1.27.3
    version = tuple(int(n) for n in re.findall(r"\d+", lb["image"].split(":")[1]))
    assert version >= (1, 27, 3), lb["image"]
    env = lb["environment"]
    assert env["NGINX_HUB_SERVERS"].startswith("server hub:8000 resolve ")
    assert env["NGINX_RESOLVER"].startswith("resolver 127.0.0.11 ")
    mount, tls = lb["volumes"]
    source, target, mode = mount.split(":")
    assert target == "/etc/nginx/templates/default.conf.template" and mode == "ro"
    # TLS ends at nginx, with the certificate `lb-certificate` wrote into a volume of its own
    volume, folder, mode = tls.split(":")
    maker = services()["lb-certificate"]
    (written,) = [v for v in maker["volumes"] if v.startswith(volume + ":")]
    made = maker["command"]
    for name in ("NGINX_TLS_CERT", "NGINX_TLS_KEY"):
        file = env[name].removeprefix(folder + "/")
        assert written.split(":")[1] + "/" + file in made, (name, made)
    assert mode == "ro" and volume != services()["keys"]["volumes"][0].split(":")[0]
    # the ports nginx listens on inside are the ones published (unprivileged: above 1024)
    inside = {port.split(":")[-1] for port in lb["ports"]}
    assert inside == {env["NGINX_PORT"], env["NGINX_TLS_PORT"]}
    assert all(int(port) > 1024 for port in inside)
    assert f"http://127.0.0.1:{env['NGINX_PORT']}/readyz" in lb["healthcheck"]["test"]
    assert "listen ${NGINX_TLS_PORT} ssl;" in (ROOT / source).read_text()
    template = (ROOT / source).read_text()
    assert set(re.findall(r"\$\{(\w+)\}", template)) <= env.keys()
    assert re.search(r"upstream hubs \{\s+zone ", template)  # `resolve` needs a zone
    for directive in (
        "proxy_buffering off;",
        "proxy_http_version 1.1;",
        'proxy_set_header Connection "";',
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "gzip off;",
    ):
        assert directive in template, directive
    timeout = re.search(r"proxy_read_timeout (\d+)([smh]);", template)
    assert timeout is not None
    seconds = int(timeout.group(1)) * {"s": 1, "m": 60, "h": 3600}[timeout.group(2)]
    assert seconds > Settings(_env_file=None).keepalive_seconds * 2


def test_dockerfile_installs_both_wheels_slim_and_not_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    bases = re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)
    assert len(bases) == 2 and all(b.endswith("-slim") for b in bases)
    build, runtime = dockerfile.split("\nFROM ")[1:]
    assert "pip wheel --no-deps --wheel-dir /wheels ./kit ." in build
    assert "[postgres,redis]" in build and "-e " not in build
    for source in ("kit", "agenthub", "app", "migrations"):
        assert re.search(rf"^COPY {source} ", build, re.MULTILINE), source
    # the running image holds the installed venv, not the sources
    assert re.findall(r"^COPY .*", runtime, re.MULTILINE) == [
        "COPY --from=build /opt/venv /opt/venv"
    ]
    users = re.findall(r"^USER (\S+)", runtime, re.MULTILINE)
    assert users == [f"{HUB_UID}:{HUB_UID}"]
    assert re.search(r"^WORKDIR /var/lib/agenthub$", runtime, re.MULTILINE)
    assert '\nENTRYPOINT ["agenthub"]\n' in runtime
    assert "--no-migrate" in runtime


def test_dockerignore_lets_in_only_the_build_inputs() -> None:
    lines = [
        line
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert lines[0] == "*"
    let_in = {line[1:].rstrip("/") for line in lines if line.startswith("!")}
    copied = set(re.findall(r"^COPY (?!--)(.+) \S+$", (ROOT / "Dockerfile").read_text(), re.M))
    assert let_in == {name for sources in copied for name in sources.split()}
    for never in ("deploy/secrets", ".venv", "tests", "bench", "**/.env", "**/*.pem"):
        assert never in lines, never


def test_make_secrets_writes_every_secret_once(tmp_path: Path) -> None:
    folder = tmp_path / "secrets"

    def make() -> str:
        done = subprocess.run(
            ["sh", str(ROOT / "deploy" / "make-secrets.sh"), str(folder)],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    assert make().count("made ") == 4
    files = {Path(s["file"]).name for s in compose()["secrets"].values()}
    assert {p.name for p in folder.iterdir()} == files
    assert folder.stat().st_mode & 0o777 == 0o700
    assert all((folder / f).stat().st_mode & 0o777 == 0o644 for f in files)
    before = {f: (folder / f).read_text() for f in files}
    assert make().count("kept ") == 4
    assert before == {f: (folder / f).read_text() for f in files}
    # the URL the hub reads carries the password postgres is given
    settings = Settings(_env_file=None, database_url_file=folder / "database-url")
    password = before["postgres-password"].strip()
    assert settings.database_url == (
        f"postgresql+asyncpg://agenthub:{password}@postgres:5432/agenthub"
    )


def run_config(command: list[str], tmp_path: Path) -> dict[str, Any]:
    """``config`` as Compose resolves it with no variables set (an empty env file stands in
    for a developer's .env, which Compose would read too)."""
    env_file = tmp_path / "empty.env"
    env_file.write_text("")
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    done = subprocess.run(
        [*command, "--env-file", str(env_file), "--file", str(COMPOSE_FILE), "config"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr.upper(), done.stderr
    resolved: dict[str, Any] = yaml.safe_load(done.stdout)
    return resolved


def check_resolved(resolved: dict[str, Any]) -> None:
    found = resolved["services"]
    assert found.keys() == SERVICES
    assert found["hub"]["deploy"]["replicas"] == 2
    env = found["hub"]["environment"]
    assert env["AGENTHUB_FORWARDED_ALLOW_IPS"] == "172.31.240.0/24"
    assert env["AGENTHUB_ISSUER"] == "agenthub"


def test_debians_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    """docker-compose 1.29 (Debian 12): the strictest Compose the file is written for."""
    binary = require("docker-compose", "docker-compose")
    check_resolved(run_config([binary], tmp_path))


def mounted_volumes(service: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """A resolved service's named volumes: (volume, folder, writable); bind mounts left out."""
    found = []
    for mount in service.get("volumes", []):
        source, target, *mode = mount.split(":")
        if not source.startswith(("/", ".")):
            found.append((source, target, "ro" not in mode))
    return found


def private_keys_in_volumes(found: dict[str, Any]) -> dict[str, set[str]]:
    """Every private key a service writes, by the volume it lands in: the hub's commands make
    the signing key and, beside it, the agents' CA key and the hub's TLS CA key (the
    settings' own paths), and ``hub-certificate --key`` one more."""
    keys: dict[str, set[str]] = {}
    for service in found.values():
        written = [(v, folder) for v, folder, writable in mounted_volumes(service) if writable]
        if not written:
            continue
        paths: set[Path] = set()
        signing = service.get("environment", {}).get("AGENTHUB_SIGNING_KEY_FILE")
        if signing:
            settings = Settings(_env_file=None, signing_key_file=signing)
            paths |= {Path(signing), settings.ca_paths[0], settings.tls_ca_paths[0]}
        command = service.get("command") or []
        paths |= {Path(command[i + 1]) for i, arg in enumerate(command[:-1]) if arg == "--key"}
        for volume, folder in written:
            keys.setdefault(volume, set()).update(
                p.name for p in paths if str(p.parent) == folder.rstrip("/")
            )
    return keys


def test_a_published_service_reads_no_private_key_but_its_own(tmp_path: Path) -> None:
    """What the published `lb` can read, from the file Compose resolves: its own TLS key, and
    neither the signing key nor a CA's key (nor a secret)."""
    found = run_config([require("docker-compose", "docker-compose")], tmp_path)["services"]
    keys = private_keys_in_volumes(found)
    assert keys["hub-keys"] == {
        "hub-signing-key.pem",
        "agenthub-ca-key.pem",
        "agenthub-tls-ca-key.pem",
    }
    published = {name: s for name, s in found.items() if s.get("ports")}
    assert published.keys() == {"lb"}
    for name, service in published.items():
        env = service.get("environment", {})
        needed = {Path(value).name for value in env.values() if str(value).endswith("key.pem")}
        readable = {
            key for volume, _, _ in mounted_volumes(service) for key in keys.get(volume, set())
        }
        assert readable and readable <= needed, (name, readable - needed)
        assert not service.get("secrets"), name
        # and it runs as no root, with no capability
        assert service["user"].split(":")[0] not in ("0", "root"), name
        assert service["cap_drop"] == ["ALL"], name


def test_compose_v2_accepts_the_file(tmp_path: Path) -> None:
    """`docker compose` (v2), where it is installed: the current Compose Specification."""
    docker = shutil.which("docker")
    if (
        docker is None
        or subprocess.run(
            [docker, "compose", "version"], capture_output=True, check=False
        ).returncode
    ):
        pytest.skip("needs Compose v2 (`docker compose`); Debian 12 ships only 1.29")
    check_resolved(run_config([docker, "compose"], tmp_path))
