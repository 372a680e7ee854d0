"""Hub identity, tokens and the current-agent dependency. The only package that imports jose."""
