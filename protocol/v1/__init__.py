"""Protocol v1 (see README.md beside this file for the event catalogue)."""

from protocol.v1.requests import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
