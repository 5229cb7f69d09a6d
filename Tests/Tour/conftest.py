import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "clients" / "testing"))
from worker_binary import worker_binary_deprecation  # noqa: E402,F401
