"""World tokens: random, shown once, stored only as a hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token(role: str) -> str:
    """A fresh token; the prefix only helps a human tell GM and player tokens apart."""
    return f"{role}_{secrets.token_urlsafe(24)}"


def hash_token(token: str) -> str:
    # Tokens carry 192 random bits, so a plain SHA-256 cannot be brute-forced;
    # a slow password hash would only slow every connection down.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_world_id() -> str:
    return "w_" + secrets.token_hex(8)


def same_hash(stored: str, token_hash: str) -> bool:
    """Constant-time comparison of two token hashes (a timing side channel reveals nothing
    about how many leading characters matched)."""
    return hmac.compare_digest(stored.encode("ascii"), token_hash.encode("ascii"))
