"""``agenthub demo``: a hub and a scripted IoA team as processes on loopback, narrated."""
