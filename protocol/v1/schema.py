"""Generate the JSON Schema files of protocol v1 from its models.

``python -m protocol.v1.schema`` rewrites ``protocol/v1/schemas/*.json``; a test
fails when the committed files drift from the models.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from protocol.v1 import pushes, requests, session

SCHEMA_DIR = Path(__file__).parent / "schemas"

MODELS: dict[str, type[BaseModel]] = {
    "auth": requests.Auth,
    "action_request": requests.ActionRequest,
    "card_action_request": requests.CardActionRequest,
    "status_set_request": requests.StatusSetRequest,
    "actor_upsert_request": requests.ActorUpsertRequest,
    "actor_remove_request": requests.ActorRemoveRequest,
    "time_advance_request": requests.TimeAdvanceRequest,
    "undo_request": requests.UndoRequest,
    "actor_state_request": requests.ActorStateRequest,
    "ack_ok": pushes.AckOk,
    "ack_error": pushes.AckError,
    "connect_error": pushes.ConnectError,
    "welcome": pushes.Welcome,
    "chat_card": pushes.ChatCard,
    "token_status": pushes.TokenStatus,
    "actor_update": pushes.ActorUpdate,
    "card_update": pushes.CardUpdate,
    "synced": pushes.Synced,
    "combat_state": pushes.CombatState,
    "combat_start_request": requests.CombatStartRequest,
    "combat_request": requests.CombatRequest,
    "combat_actors_request": requests.CombatActorsRequest,
    "combat_actor_request": requests.CombatActorRequest,
    "combat_declare_request": requests.CombatDeclareRequest,
    "session_header": session.SessionHeader,
    "session_event": session.SessionEvent,
}


def render_all() -> dict[str, str]:
    files = {}
    for name, model in MODELS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"vtt-bridge/protocol/v1/{name}.json"
        files[f"{name}.json"] = (
            json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
        )
    return files


def main() -> int:
    SCHEMA_DIR.mkdir(exist_ok=True)
    for filename, text in render_all().items():
        (SCHEMA_DIR / filename).write_text(text, "utf-8")
    print(f"wrote {len(MODELS)} schemas to {SCHEMA_DIR}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
