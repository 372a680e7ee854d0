# agenthub hub image: slim, non-root. Build: docker build -t agenthub .
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /srv/agenthub
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
RUN pip install ".[postgres,redis]"

FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN useradd --system --uid 10001 --no-create-home --home-dir /srv/agenthub agenthub
COPY --from=build /opt/venv /opt/venv
COPY --from=build /srv/agenthub /srv/agenthub
WORKDIR /srv/agenthub
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"]
# `python -m app.cli` from /srv/agenthub runs the copied sources, next to their migrations
ENTRYPOINT ["python", "-m", "app.cli"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--no-migrate"]
