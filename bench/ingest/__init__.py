"""Durable group-message ingest beside a bare FastAPI POST endpoint."""
