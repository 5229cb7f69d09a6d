"""A fleet: three adapters (three "hosts" on loopback, each with a cache directory of its own; `ip netns` is not
used here) sharing one PostgreSQL store and one NATS server. A 60-day backfill is submitted as 60 jobs and one host
is killed mid-run: every outcome is collected once, the days equal a single worker's range export, and the quota
the fleet spent is exactly the upstream calls it made."""
import datetime
import json
import subprocess
import sys
import time

import pytest

from nats_testing import BINARY, ROOT, Adapter, cli, fake_upstream, live

sys.path.insert(0, str(ROOT / "clients" / "testing"))
import postgres_cluster  # noqa: E402

DAYS = [(datetime.date(2023, 3, 1) + datetime.timedelta(days=offset)).isoformat() for offset in range(60)]


def entries_of(outcome):
    return [(entry["rank"], entry["movieCode"], entry["audience"]["count"]) for entry in outcome["result"]["entries"]]


def test_a_backfill_over_three_hosts_one_killed_loses_nothing_and_spends_the_quota_once(nats_server, tmp_path):
    try:
        cluster = postgres_cluster.Cluster().start()
    except postgres_cluster.Unavailable as error:
        pytest.skip("no PostgreSQL cluster can start here: %s" % error)
    upstream = fake_upstream.Running(delay_ms=50)
    hosts = []
    try:
        def host(index):
            env = live(upstream, tmp_path / ("host-%d" % index))
            env["BOXOFFICE_DATABASE_URL"] = cluster.url()
            return Adapter(nats_server, ["--jobs", "--no-requests", "--ack-wait", "3", "--job-concurrency", "2"],
                           env, tmp_path / ("host-%d.log" % index))

        hosts = [host(index) for index in range(3)]
        submitted = cli(nats_server, ["submit", "boxoffice.daily"], "\n".join(DAYS) + "\n")
        assert submitted.returncode == 0, submitted.stderr
        batch = submitted.stdout.strip()
        deadline = time.monotonic() + 120
        while upstream.counts()["kobis"] < 12:
            assert time.monotonic() < deadline, "the fleet never started on the backfill"
            time.sleep(0.02)  # sleep-ok: polling the fake upstream's count
        hosts[0].kill()
        collected = cli(nats_server, ["collect", batch], timeout=300)
        assert collected.returncode == 0, collected.stderr
        outcomes = [json.loads(line) for line in collected.stdout.splitlines()]
        assert [outcome["result"]["range"]["start"] for outcome in outcomes] == DAYS

        # A single worker's range export of the same days, against the same upstream, with a cache of its own.
        export = subprocess.run([BINARY, "daily", "--from", DAYS[0], "--to", DAYS[-1], "--format", "ndjson"],
                                capture_output=True, text=True, env=live(upstream, tmp_path / "single"), timeout=300)
        assert export.returncode == 0, export.stderr
        exported = [json.loads(line) for line in export.stdout.splitlines()]
        assert [entry for outcome in outcomes for entry in entries_of(outcome)] == [
            (entry["rank"], entry["movieCode"], entry["audience"]["count"]) for entry in exported]

        # The fleet's quota: what its leases spent is what reached the upstream before the single worker ran.
        fleet_calls = upstream.counts()["kobis"] - len(DAYS)
        spent = int(cluster.sql("SELECT coalesce(sum(spent), 0) FROM quota_leases", database=cluster.database))
        assert spent == fleet_calls, (spent, fleet_calls)
        assert fleet_calls >= len(DAYS)
    finally:
        for one in hosts:
            one.stop()
        upstream.stop()
        cluster.remove()
