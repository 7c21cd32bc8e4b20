"""Versioned schema migrations, as data: ``postgresql/NNNN_name.sql``, applied in order."""
