"""The wire contract between the JS shim and the bridge, one sub-package per major version."""
