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


def test_left_out_lists_and_objects_are_fresh_empty_values_documented_as_defaults() -> None:
    import json

    from protocol.v1.parse import parse_request
    from protocol.v1.requests import ActionRequest

    payload = {"id": "r" * 32, "actor": "a", "action": "skill"}
    first, second = parse_request("roll", (payload,)), parse_request("roll", (payload,))
    assert isinstance(first, ActionRequest) and isinstance(second, ActionRequest)
    assert first.targets == [] and first.params == {}
    assert first.targets is not second.targets and first.params is not second.params
    schema = json.loads(json.dumps(ActionRequest.model_json_schema()))
    assert schema["properties"]["targets"]["default"] == []
    assert schema["properties"]["params"]["default"] == {}
