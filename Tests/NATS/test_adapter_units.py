"""The adapter's pieces that need no server: how a server address is shown, and a failure as a reply."""
import sys

from nats_testing import ROOT

sys.path.insert(0, str(ROOT / "clients" / "python"))
from boxoffice_worker.errors import WorkerExited  # noqa: E402
from boxoffice_worker.nats.connection import shown  # noqa: E402
from boxoffice_worker.nats.outcome import error_object, error_reply  # noqa: E402


def test_a_server_address_never_shows_its_password_or_token():
    cases = {
        "nats://127.0.0.1:4222": "nats://127.0.0.1:4222",
        "nats://alice:s3cret@10.0.0.5:4222": "nats://alice:***@10.0.0.5:4222",
        "tls://alice:p@ss/w@rd@nats.example:4222": "tls://alice:***@nats.example:4222",
        "alice:s3cret@10.0.0.5:4222": "nats://alice:***@10.0.0.5:4222",
        "nats://t0ken@10.0.0.5:4222": "nats://***@10.0.0.5:4222",
        "nats://a/b:c@host": "nats://***@host",
    }
    for url, expected in cases.items():
        assert shown(url) == expected, url
        for secret in ("s3cret", "p@ss", "w@rd", "t0ken"):
            assert secret not in shown(url)


def test_a_worker_gone_is_told_without_its_stderr():
    found = error_object(WorkerExited("the worker exited", 70, "KOBIS_API_KEY=abc panic at line 3"))
    assert found == {"code": -32603, "message": "the worker exited (status 70) under the request",
                     "reason": "worker_exited"}
    body, headers = error_reply({"code": -31002, "message": "line one\r\nInjected: yes\x00\x1b[2J", "reason": "x"})
    assert headers["Nats-Service-Error"] == "line one  Injected: yes  [2J"
    assert b"Injected" in body
