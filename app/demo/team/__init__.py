"""The demo team: scripted agents written with the kit (``agenthub demo`` runs them)."""
