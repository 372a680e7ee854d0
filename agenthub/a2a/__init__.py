"""A2A (a2a-sdk) for the kit: an agent's registry card as an A2A Agent Card.

Needs the kit's ``a2a`` extra (``pip install 'agenthub[a2a]'``); nothing else of the kit
imports ``a2a``, so an agent without the extra still imports ``agenthub``.
"""
