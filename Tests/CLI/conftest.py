"""The fixtures of the CLI tests (the helpers are in cli_testing.py)."""
from cli_testing import terminal, upstream  # noqa: F401  (pytest fixtures)
from scratch import scratch  # noqa: F401  (pytest fixture)
