"""The imperative shell around the rules core: server, store, auth, rendering, CLI."""
