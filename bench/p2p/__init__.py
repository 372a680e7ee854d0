"""Point to point: the kit's mutually authenticated rpc beside bare httpx and a2a-sdk."""
