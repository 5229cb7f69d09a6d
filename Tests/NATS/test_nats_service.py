"""The worker's methods as a NATS service: request/reply for every method, errors with the service protocol's
headers, discovery with $SRV.*, two adapters sharing a queue group (one killed mid-run), and the drain on SIGTERM.
A real nats-server -js on a free loopback port; the workers live against the fake upstream or offline."""
import asyncio
import json
import time
import urllib.request

import pytest

from nats_testing import (Adapter, cli, connect, difference, environment, fake_upstream, live, request, rpc, run,
                          without_source)

DAY = "2023-04-26"
MOVIE = "20124079"
PERSON = "20164556"
COMPANY = "20122497"

# Every method of the service and params the fake upstream answers.
CALLS = [
    ("boxoffice.daily", {"date": DAY, "limit": 5}),
    ("boxoffice.weekly", {"date": "2023-04-23", "period": "week"}),
    ("movie.detail", {"movieCode": MOVIE}),
    ("movie.search", {"title": "광해"}),
    ("movie.poster", {"title": "광해, 왕이 된 남자"}),
    ("people.search", {"name": "봉준호"}),
    ("people.detail", {"peopleCode": PERSON, "include": ["movies"]}),
    ("company.search", {"name": "CJ"}),
    ("company.detail", {"companyCode": COMPANY}),
    ("codes.list", {"kind": "genre"}),
    ("movie.run", {"movieCode": "20231089", "through": "2023-05-10"}),
    ("movie.compare", {"movies": ["20231089", "20198482"], "through": "2023-05-10"}),
    ("ping", {}),
]


def test_every_method_answers_as_the_json_rpc_face(nats_server, nats_upstream, tmp_path):
    adapter = Adapter(nats_server, ["--workers", "2"], live(nats_upstream, tmp_path / "nats-cache"),
                      tmp_path / "adapter.log")
    try:
        async def over_nats():
            client = await connect(nats_server)
            try:
                answers = [await request(client, method, params) for method, params in CALLS]
                status, _ = await request(client, "worker.status")
                empty = await client.request("kobis.ping", b"", timeout=10)
                return answers, status, empty.data
            finally:
                await client.close()

        answers, status, empty = run(over_nats())
        direct = rpc([{"jsonrpc": "2.0", "id": index, "method": method, "params": params}
                      for index, (method, params) in enumerate(CALLS)], live(nats_upstream, tmp_path / "rpc-cache"))
        for index, (method, params) in enumerate(CALLS):
            body, headers = answers[index]
            assert "Nats-Service-Error" not in headers, (method, body)
            assert "result" in direct[index], (method, direct[index])
            assert difference(without_source(body), without_source(direct[index]["result"])) is None, method
        assert status["mode"] == "live" and status["name"] == "boxoffice-worker"
        assert empty == b"{}", "an empty payload is the empty params object"
    finally:
        assert adapter.terminate() == 0


def test_errors_reply_with_the_service_headers_and_the_error_object(nats_server, tmp_path):
    adapter = Adapter(nats_server, [], environment(), tmp_path / "adapter.log")
    try:
        async def errors():
            client = await connect(nats_server)
            try:
                found = {}
                found["not recorded"] = await request(client, "movie.detail", {"movieCode": "19990001"})
                found["bad params"] = await request(client, "boxoffice.daily", {"date": DAY, "limit": 11})
                found["unknown param"] = await request(client, "boxoffice.daily", {"day": DAY})
                message = await client.request("kobis.boxoffice.daily", b"{not json", timeout=10)
                found["not JSON"] = json.loads(message.data), message.headers
                message = await client.request("kobis.boxoffice.daily", b'["2023-04-26"]', timeout=10)
                found["an array"] = json.loads(message.data), message.headers
                return found
            finally:
                await client.close()

        found = run(errors())
        expected = {"not recorded": (-31006, "offline_unavailable"), "bad params": (-32602, "invalid_params"),
                    "unknown param": (-32602, "invalid_params"), "not JSON": (-32700, "parse_error"),
                    "an array": (-32602, "invalid_params")}
        for name, (code, reason) in expected.items():
            body, headers = found[name]
            assert body["code"] == code and body["reason"] == reason, (name, body)
            assert headers["Nats-Service-Error-Code"] == str(code), (name, headers)
            assert headers["Nats-Service-Error"] == body["message"][:512], (name, headers)
        assert found["bad params"][0]["data"]["errors"][0]["instanceLocation"] == "/limit"
    finally:
        assert adapter.terminate() == 0


@pytest.mark.parametrize("row", ["newline", "carriage-return", "nul", "terminal-escapes"])
def test_hostile_fault_text_stays_inside_its_header(nats_server, tmp_path, row):
    """A KOBIS fault whose message breaks lines: the reply has exactly the two error headers, each one line, and
    the body keeps the message as the worker wrote it."""
    upstream = fake_upstream.Running(hostile=row, hostile_fault=True)
    adapter = Adapter(nats_server, [], live(upstream, tmp_path / "cache"), tmp_path / "adapter.log")
    try:
        async def fault():
            client = await connect(nats_server)
            try:
                return await request(client, "boxoffice.daily", {"date": DAY})
            finally:
                await client.close()

        body, headers = run(fault())
        assert set(headers) == {"Nats-Service-Error", "Nats-Service-Error-Code"}, headers
        for value in headers.values():
            assert not any(ord(character) < 0x20 or 0x7F <= ord(character) < 0xA0 for character in value), value
        assert headers["Nats-Service-Error-Code"] == str(body["code"])
        assert body["reason"] and body["message"]
    finally:
        assert adapter.terminate() == 0
        upstream.stop()


async def gathered(client, subject, count, within=10):
    """The replies to one request on `subject` (a discovery: every instance answers), once `count` have come."""
    inbox = client.new_inbox()
    replies = []
    done = asyncio.Event()

    async def received(message):
        replies.append(json.loads(message.data))
        if len(replies) >= count:
            done.set()

    subscription = await client.subscribe(inbox, cb=received)
    await client.publish(subject, b"", reply=inbox)
    try:
        await asyncio.wait_for(done.wait(), within)
    finally:
        await subscription.unsubscribe()
    return replies


def test_discovery_by_every_adapter_and_stats_count_requests(nats_server, tmp_path):
    adapters = [Adapter(nats_server, [], environment(), tmp_path / ("adapter-%d.log" % index)) for index in range(2)]
    try:
        async def discover():
            client = await connect(nats_server)
            try:
                pings = await gathered(client, "$SRV.PING.boxoffice", 2)
                everyone = await gathered(client, "$SRV.PING", 2)
                infos = await gathered(client, "$SRV.INFO.boxoffice", 2)
                for _ in range(10):
                    await request(client, "boxoffice.daily", {"date": DAY})
                await request(client, "movie.detail", {"movieCode": "19990001"})
                stats = await gathered(client, "$SRV.STATS.boxoffice", 2)
                one = await client.request("$SRV.STATS.boxoffice.%s" % adapters[0].id, b"", timeout=10)
                return pings, everyone, infos, stats, json.loads(one.data)
            finally:
                await client.close()

        pings, everyone, infos, stats, one = run(discover())
        assert sorted(ping["id"] for ping in pings) == sorted(adapter.id for adapter in adapters)
        assert all(ping["type"] == "io.nats.micro.v1.ping_response" and ping["name"] == "boxoffice" for ping in pings)
        assert {ping["id"] for ping in everyone} == {adapter.id for adapter in adapters}
        for info in infos:
            subjects = {endpoint["subject"]: endpoint for endpoint in info["endpoints"]}
            assert set(subjects) == {"kobis." + method for method in (
                "boxoffice.daily", "boxoffice.weekly", "movie.detail", "movie.search", "movie.poster",
                "people.search", "people.detail", "company.search", "company.detail", "codes.list", "movie.run",
                "movie.compare", "worker.status", "ping")}
            assert all(endpoint["queue_group"] == "boxoffice" for endpoint in info["endpoints"])

        def endpoint(document, name):
            return next(item for item in document["endpoints"] if item["name"] == name)

        assert sum(endpoint(document, "boxoffice-daily")["num_requests"] for document in stats) == 10
        assert sum(endpoint(document, "movie-detail")["num_errors"] for document in stats) == 1
        assert one["id"] == adapters[0].id
        assert all(endpoint(document, "boxoffice-daily")["processing_time"] >= 0 for document in stats)
    finally:
        for adapter in adapters:
            assert adapter.terminate() == 0


async def asked(client, method, params, timeout=3.0, tries=3):
    """A request as a client of a fleet makes it: a request that gets no reply in `timeout` (its adapter died
    with it) or meets no responders is sent again, up to `tries` times. The tries it took and the body."""
    import nats.errors
    for attempt in range(1, tries + 1):
        try:
            body, headers = await request(client, method, params, timeout=timeout)
            return attempt, body, headers
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError):
            if attempt == tries:
                raise


def test_two_adapters_share_the_load_and_one_killed_loses_no_request(nats_server, nats_upstream, tmp_path):
    cache = tmp_path / "cache"
    adapters = [Adapter(nats_server, ["--workers", "1"], live(nats_upstream, cache / str(index)),
                        tmp_path / ("adapter-%d.log" % index)) for index in range(2)]
    try:
        async def load():
            client = await connect(nats_server)
            try:
                days = ["2023-%02d-%02d" % (1 + index // 28, 1 + index % 28) for index in range(200)]
                first = await asyncio.gather(*(asked(client, "boxoffice.daily", {"date": day}) for day in days))
                stats = await gathered(client, "$SRV.STATS.boxoffice", 2)
                # The kill: one adapter and its worker die while 100 live requests are in flight.
                fresh = ["2022-%02d-%02d" % (1 + index // 28, 1 + index % 28) for index in range(100)]
                during = [asyncio.ensure_future(asked(client, "boxoffice.daily", {"date": day})) for day in fresh]
                await asyncio.sleep(0.05)  # sleep-ok: some of them reach both adapters before the kill
                adapters[0].kill()
                after = await asyncio.gather(*(asked(client, "boxoffice.daily", {"date": day, "limit": 3})
                                               for day in fresh))
                return first, stats, await asyncio.gather(*during), after
            finally:
                await client.close()

        first, stats, during, after = run(load())
        assert all("Nats-Service-Error" not in headers for _, _, headers in first)
        served = [next(item for item in document["endpoints"] if item["name"] == "boxoffice-daily")["num_requests"]
                  for document in stats]
        assert sum(served) == 200 and min(served) > 0, served
        assert all("Nats-Service-Error" not in headers and body["kind"] == "daily" for _, body, headers in during)
        # Made after the kill: every one answered, by the adapter left, at its first try.
        assert all(attempt == 1 and "Nats-Service-Error" not in headers for attempt, _, headers in after)
        assert adapters[1].process.poll() is None
    finally:
        adapters[0].stop()
        assert adapters[1].terminate() == 0


def test_sigterm_answers_every_request_in_flight_then_exits_0(nats_server, nats_upstream, tmp_path):
    adapter = Adapter(nats_server, ["--workers", "2"], live(nats_upstream, tmp_path / "cache"),
                      tmp_path / "adapter.log")
    try:
        urllib.request.urlopen(nats_upstream.base + "/__hold?after=0").read()

        async def drained():
            client = await connect(nats_server)
            try:
                days = ["2023-03-%02d" % day for day in range(1, 9)]
                pending = [asyncio.ensure_future(request(client, "boxoffice.daily", {"date": day}, timeout=60))
                           for day in days]
                while nats_upstream.counts()["kobis"] < len(days):
                    await asyncio.sleep(0.02)  # sleep-ok: polling the fake upstream's count of held calls
                adapter.process.send_signal(15)
                while "draining" not in adapter.log_path.read_text():
                    await asyncio.sleep(0.02)  # sleep-ok: polling the adapter's log for the drain
                urllib.request.urlopen(nats_upstream.base + "/__release").read()
                return await asyncio.gather(*pending)
            finally:
                await client.close()

        answers = run(drained())
        assert all("Nats-Service-Error" not in headers and body["kind"] == "daily" for body, headers in answers)
        assert adapter.process.wait(timeout=60) == 0
    finally:
        adapter.stop()


def test_a_worker_that_cannot_start_ends_the_adapter_with_70_and_says_why(nats_server, tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "boxoffice_worker.nats", "--server", nats_server.url, "--",
                           "--no-such-flag"], capture_output=True, text=True, env=environment(), timeout=120)
    assert done.returncode == 70, done.stderr
    assert "cannot start the worker" in done.stderr and "--no-such-flag" in done.stderr, done.stderr


def test_a_signal_while_no_server_answers_stops_the_adapter_at_once(tmp_path):
    import signal
    import subprocess
    import sys
    from nats_testing import free_port
    log = open(tmp_path / "adapter.log", "w")
    adapter = subprocess.Popen([sys.executable, "-m", "boxoffice_worker.nats", "--server",
                                "nats://127.0.0.1:%d" % free_port()], env=environment(), stderr=log)
    try:
        deadline = time.monotonic() + 60
        while "NATS:" not in (tmp_path / "adapter.log").read_text():
            assert adapter.poll() is None and time.monotonic() < deadline, (tmp_path / "adapter.log").read_text()
            time.sleep(0.02)  # sleep-ok: polling the adapter's log for its first failed connect
        adapter.send_signal(signal.SIGTERM)
        assert adapter.wait(timeout=30) == 0, (tmp_path / "adapter.log").read_text()
    finally:
        if adapter.poll() is None:
            adapter.kill()
        log.close()


def test_a_server_with_a_password_the_adapter_takes_from_the_environment_and_never_shows(tmp_path):
    from nats_testing import NATSServer
    server = NATSServer(tmp_path / "server", ["--user", "boxoffice", "--pass", "pa55-w0rd-never-shown"])
    env = environment({"NATS_USER": "boxoffice", "NATS_PASSWORD": "pa55-w0rd-never-shown"})
    adapter = None
    try:
        adapter = Adapter(server, [], env, tmp_path / "adapter.log")
        async def call():
            import nats
            client = await nats.connect(server.url, user="boxoffice", password="pa55-w0rd-never-shown")
            try:
                return await request(client, "ping")
            finally:
                await client.close()

        assert run(call()) == ({}, {})
        # Without the password: refused by the server, said without any secret.
        refused = cli(server, ["collect", "x"], env=environment({"NATS_USER": "boxoffice"}))
        assert refused.returncode == 69, refused.stderr
        shown_with_url = cli(server, ["collect", "x", "--server",
                                      server.url.replace("nats://", "nats://boxoffice:wrong-pa55@")])
        assert shown_with_url.returncode == 69 and "wrong-pa55" not in shown_with_url.stderr, shown_with_url.stderr
    finally:
        adapter_ended = adapter is None or adapter.terminate() == 0
        server.stop()
    assert adapter_ended
    assert "pa55-w0rd-never-shown" not in (tmp_path / "adapter.log").read_text()
