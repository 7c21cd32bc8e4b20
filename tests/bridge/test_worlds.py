"""bridge.worlds: the store's clock text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

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


def test_now_matches_datetime_formatting_across_seconds_and_days(monkeypatch: Any) -> None:
    """The text is put together from a second's text and a millisecond's tail: the same
    text ``datetime.isoformat`` gives, at second, minute, day and year boundaries."""
    import time

    import bridge.worlds as worlds

    base = int(datetime(2026, 12, 31, 23, 59, 58, tzinfo=UTC).timestamp()) * 1000
    instants = [*range(base, base + 3_000, 7), base + 1_999, base + 2_000, 0, 999, 1_000]
    for ms in instants:
        monkeypatch.setattr(time, "time_ns", lambda ms=ms: ms * 1_000_000 + 999_999)
        seconds, millis = divmod(ms, 1000)
        expected = (
            datetime.fromtimestamp(seconds, UTC)
            .replace(microsecond=millis * 1000)
            .isoformat(timespec="milliseconds")
        )
        assert worlds.now() == expected
