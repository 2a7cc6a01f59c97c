"""DRF reference implementation of the recruitment API (test fixture)."""
