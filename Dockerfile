# agenthub hub image: slim, non-root (uid 10001). Build: docker build -t agenthub .
# It holds the two distributions of this repository as installed wheels, not the sources:
# the kit `agenthub` (kit/pyproject.toml; its build hook takes the sources from ../agenthub)
# and the hub `agenthub-hub` (pyproject.toml: app/, with migrations/ inside as app/migrations).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml hatch_build.py README.md LICENSE ./
COPY kit ./kit
COPY agenthub ./agenthub
COPY app ./app
COPY migrations ./migrations
# Both wheels are named on the command line, so the hub's `agenthub==<version>` is met by
# this kit and never looked up on an index (where the name could one day be taken by another)
RUN pip wheel --no-deps --wheel-dir /wheels ./kit . \
 && python -m venv /opt/venv \
 && /opt/venv/bin/pip install /wheels/agenthub-*.whl \
      "$(echo /wheels/agenthub_hub-*.whl)[postgres,redis]"

FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# /var/lib/agenthub: the working directory (a default SQLite store and key land here when
# run alone); keys/ and lb-tls/: the mount points of the compose file's `hub-keys` and
# `lb-tls` volumes, whose owner and mode a fresh volume copies from here
RUN groupadd --system --gid 10001 agenthub \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /var/lib/agenthub \
      --shell /usr/sbin/nologin agenthub \
 && install -d -o 10001 -g 10001 -m 0700 /var/lib/agenthub /var/lib/agenthub/keys \
      /var/lib/agenthub/lb-tls
COPY --from=build /opt/venv /opt/venv
WORKDIR /var/lib/agenthub
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"]
# the console script of the installed hub; the migrations come from its wheel
ENTRYPOINT ["agenthub"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--no-migrate"]
