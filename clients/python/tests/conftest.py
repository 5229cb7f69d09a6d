"""The fixtures of the client tests (the helpers are in client_testing.py)."""
from client_testing import client_upstream, worker_binary_deprecation  # noqa: F401  (pytest fixtures)
