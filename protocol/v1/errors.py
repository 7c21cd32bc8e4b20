"""Protocol v1 error codes: stable identifiers with their messages in es and en.

Rule systems add their own codes (``no_ammo``, ``weapon_jammed``...) with
messages from their catalogues; the codes here are the bridge's own.
"""

from __future__ import annotations

from collections.abc import Mapping

ERRORS: Mapping[str, tuple[str, str]] = {
    # connection (connect_error data)
    "bad_auth": ("Los datos de conexión no son válidos.", "The connection data is not valid."),
    "bad_token": ("El token no abre ningún mundo.", "The token opens no world."),
    "unsupported_protocol": (
        "Versión de protocolo no admitida; este servidor habla la 1.",
        "Unsupported protocol version; this server speaks version 1.",
    ),
    # any request
    "bad_payload": ("La petición debe ser un objeto.", "The request must be an object."),
    "payload_too_large": ("La petición es demasiado grande.", "The request is too large."),
    "ext_type": (
        "La petición lleva tipos msgpack extendidos (undefined, Date...).",
        "The request carries msgpack extension types (undefined, Date...).",
    ),
    "unknown_event": ("Evento desconocido.", "Unknown event."),
    "invalid_field": ("Un campo falta o no es válido.", "A field is missing or not valid."),
    "id_reused": (
        "Ese id de petición ya se usó para otra petición distinta.",
        "That request id was already used for a different request.",
    ),
    "unknown_actor": ("No existe ese personaje.", "There is no such character."),
    "not_your_actor": (
        "Solo puedes actuar con tus propios personajes.",
        "You can only act for your own characters.",
    ),
    "gm_only": ("Solo el Director de Juego puede hacer eso.", "Only the GM can do that."),
    "wrong_event": (
        "Esa acción se envía con otro evento.",
        "That action is sent with another event.",
    ),
    "unknown_card": ("No existe esa carta.", "There is no such card."),
    "unknown_follow_up": ("Esa carta no tiene ese botón.", "That card has no such button."),
    "follow_up_used": ("Ese botón ya se usó.", "That button was already used."),
    "not_allowed": ("No puedes pulsar ese botón.", "You may not press that button."),
    "undo_conflict": (
        "No se puede deshacer: los personajes cambiaron después.",
        "Cannot undo: the characters changed afterwards.",
    ),
    "nothing_to_undo": ("Ese evento no se puede deshacer.", "That event cannot be undone."),
    "not_your_turn": (
        "No es el turno de ninguno de tus personajes.",
        "It is not the turn of any of your characters.",
    ),
    "dice_error": ("Los dados no se pudieron tirar.", "The dice could not be rolled."),
    "dice_limit": ("La tirada supera el límite de dados.", "The roll exceeds the dice limit."),
    "store_error": (
        "No se pudo guardar; no se aplicó nada. Reinténtalo.",
        "Could not save; nothing was applied. Try again.",
    ),
    "shutting_down": (
        "El servidor se está apagando; reinténtalo en un momento.",
        "The server is shutting down; try again in a moment.",
    ),
    "rate_limited": ("Demasiadas peticiones; espera un poco.", "Too many requests; slow down."),
    "world_rate_limited": (
        "Esta mesa envía demasiadas peticiones; espera un poco.",
        "This table is sending too many requests; slow down.",
    ),
    "world_full": (
        "Esta mesa tiene demasiadas conexiones abiertas.",
        "This table has too many open connections.",
    ),
    "auth_throttled": (
        "Demasiados tokens incorrectos desde esta dirección; espera un poco.",
        "Too many wrong tokens from this address; wait a moment.",
    ),
    "internal_error": (
        "Error interno; no se aplicó nada.",
        "Internal error; nothing was applied.",
    ),
}


def error_message(code: str, locale: str) -> str:
    es, en = ERRORS.get(code, ERRORS["internal_error"])
    return en if locale == "en" else es
