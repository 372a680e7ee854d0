"""A hub group as an A2A agent: its card, its JSON-RPC endpoint, the group extension."""
