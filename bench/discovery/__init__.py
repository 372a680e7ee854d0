"""Discovery at 100,000 agents: ranked search against a plain LIKE filter."""
