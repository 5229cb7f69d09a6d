"""The adapter's pieces that need no server: how a server address is shown, a failure as a reply, and how
`collect` reads a watcher that ends its initial values early."""
import asyncio
import sys
from types import SimpleNamespace

from nats_testing import ROOT

sys.path.insert(0, str(ROOT / "clients" / "python"))
from boxoffice_worker.errors import WorkerExited  # noqa: E402
from boxoffice_worker.nats.connection import shown  # noqa: E402
from boxoffice_worker.nats import workqueue  # noqa: E402
from boxoffice_worker.nats.outcome import error_object, error_reply  # noqa: E402
from nats.js.errors import KeyNotFoundError  # noqa: E402


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


class _Watcher:
    """A KV watcher that says its initial values are over (None) before it delivers them, as nats-py does when a
    stored value is already on its way to the subscription's callback as the consumer's pending count is read."""

    def __init__(self, entries):
        self._entries = list(entries)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self._entries:
            raise StopAsyncIteration
        return self._entries.pop(0)

    async def stop(self):
        pass


class _Bucket:
    def __init__(self, stored, entries):
        self.stored = stored
        self.entries = entries

    async def watch(self, keys):
        return _Watcher(self.entries)

    async def get(self, key):
        if key not in self.stored:
            raise KeyNotFoundError()
        return SimpleNamespace(key=key, value=self.stored[key])


def _collect(bucket, batch):
    async def run():
        original = workqueue.outcomes

        async def fake_outcomes(js):
            return bucket
        workqueue.outcomes = fake_outcomes
        try:
            return [line async for line in workqueue.collect(SimpleNamespace(jetstream=lambda: None), batch)]
        finally:
            workqueue.outcomes = original
    return asyncio.run(run())


def test_collect_reads_a_batch_whose_values_come_after_the_watchers_end_marker():
    batch = "20261129T020556-9aa59a"
    entry = lambda key, value: SimpleNamespace(key="%s.%s" % (batch, key), value=value)  # noqa: E731
    early = _Bucket({"%s.jobs" % batch: b"2"}, [None, entry("jobs", b"2"), entry("1", b"one"), entry("2", b"two")])
    assert _collect(early, batch) == [b"one", b"two"]
    missing = _Bucket({}, [None])
    try:
        _collect(missing, batch)
    except workqueue.UnknownBatch:
        pass
    else:
        raise AssertionError("a batch the bucket does not hold is unknown")
