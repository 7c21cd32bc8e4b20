"""bridge.worlds: the store's clock text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bridge.worlds import now


def test_now_is_utc_iso_with_milliseconds_and_keeps_up_with_the_clock() -> None:
    seen = []
    for _ in range(2000):
        before = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=1)
        text = now()
        after = datetime.now(UTC)
        moment = datetime.fromisoformat(text)
        assert text == moment.isoformat(timespec="milliseconds")
        assert text.endswith("+00:00") and len(text) == len("2026-01-01T00:00:00.000+00:00")
        assert before <= moment <= after
        seen.append(text)
    assert seen == sorted(seen)
