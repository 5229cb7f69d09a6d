"""The fixtures of the client tests (the helpers are in client_testing.py)."""
from client_testing import upstream  # noqa: F401  (a pytest fixture)
