"""The address the wrong-token throttle counts (bridge.limits.client_address)."""

from __future__ import annotations

import pytest

from bridge.limits import MAX_FORWARDED_HOPS, client_address, normal_address

PROXY = frozenset({"10.0.0.2", "10.0.0.3"})


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        ("198.51.100.9", None, "198.51.100.9"),
        ("198.51.100.9", "203.0.113.7", "198.51.100.9"),  # not a proxy of ours: ignored
        ("10.0.0.2", None, "10.0.0.2"),
        ("10.0.0.2", "203.0.113.7", "203.0.113.7"),
        ("10.0.0.2", "1.2.3.4, 203.0.113.7", "203.0.113.7"),  # left entries can be forged
        ("10.0.0.2", "203.0.113.7, 10.0.0.3", "203.0.113.7"),  # two proxies of ours
        ("10.0.0.2", "10.0.0.3", "10.0.0.2"),  # only proxies: the peer
        ("10.0.0.2", " , ", "10.0.0.2"),
        ("10.0.0.2", "[2001:db8::1]", "2001:db8::1"),
        ("10.0.0.2", "2001:0db8:0:0::1", "2001:db8::1"),
        (None, "203.0.113.7", "unknown"),
    ],
)
def test_client_address(peer: str | None, forwarded: str | None, expected: str) -> None:
    assert client_address(peer, forwarded, PROXY) == expected


def test_a_long_forged_header_is_read_only_from_the_right() -> None:
    chain = ", ".join(["10.0.0.3"] * (MAX_FORWARDED_HOPS + 5) + [])
    assert client_address("10.0.0.2", "203.0.113.7, " + chain, PROXY) == "10.0.0.2"


def test_normal_address() -> None:
    assert normal_address(" ::FFFF:10.0.0.1 ") == "::ffff:a00:1"
    assert normal_address("not-an-ip") == "not-an-ip"
