from pathlib import Path

from protocol.v1.schema import SCHEMA_DIR, render_all


def test_committed_schemas_match_the_models() -> None:
    expected = render_all()
    committed = {p.name: p.read_text("utf-8") for p in Path(SCHEMA_DIR).glob("*.json")}
    assert set(committed) == set(expected), "run: python -m protocol.v1.schema"
    for name, text in expected.items():
        assert committed[name] == text, f"{name} drifted: run python -m protocol.v1.schema"


def test_readme_lists_every_event() -> None:
    from protocol.v1.requests import REQUEST_MODELS

    readme = (Path(SCHEMA_DIR).parent / "README.md").read_text("utf-8")
    for event in REQUEST_MODELS:
        assert f"`{event}`" in readme, f"protocol/v1/README.md does not document {event}"
    for push in ("welcome", "chat_card", "token_status", "actor_update", "card_update", "synced"):
        assert f"`{push}`" in readme
