"""Workers sharing one PostgreSQL as separate machines would (each with a cache directory of its own), against a fake
upstream that counts what it is asked; and the same quota rules on SQLite with four processes on one directory."""
import json
import os
import subprocess
import tempfile
import threading
import time

from fleet_testing import BINARY, LockHolder, Worker, cache_files_text, new_cluster, remove, spent_in_database, until

PAST_DATES = ["2025-%02d-%02d" % (month, day) for month in range(1, 13) for day in range(1, 29)]


def dates(start, count):
    return PAST_DATES[start:start + count]


def concurrently(worker, requests):
    """Sends every request before reading any answer (so they are in flight together); answers by id."""
    with worker.lock:
        first = worker.next_id + 1
        for offset, (method, params) in enumerate(requests):
            worker.process.stdin.write(json.dumps(
                {"jsonrpc": "2.0", "id": first + offset, "method": method, "params": params}) + "\n")
        worker.next_id += len(requests)
        worker.process.stdin.flush()
        answers = {}
        for _ in requests:
            line = worker.process.stdout.readline()
            worker.outputs.add(line)
            answer = json.loads(line)
            answers[answer["id"]] = answer
    return [answers[first + offset] for offset in range(len(requests))]


def test_a_second_machine_makes_no_upstream_request_for_what_the_first_fetched(fleet_database, fleet_upstream, fleet_outputs, fleet_cluster):
    database, upstream, outputs, cluster = fleet_database, fleet_upstream, fleet_outputs, fleet_cluster
    first = Worker(upstream, outputs, database=database)
    assert "result" in first.daily("2025-03-01")
    assert "result" in first.call("movie.detail", {"movieCode": "20124079"})
    poster = first.call("movie.poster", {"movieCode": "20124079", "download": True})["result"]
    assert poster["file"]["path"].startswith(first.cache)
    assert first.stop() == 0
    before = upstream.counts()
    assert before["kobis"] >= 2 and before["kakao"] == 1 and before["images"] == 1

    second = Worker(upstream, outputs, database=database)
    daily = second.daily("2025-03-01")["result"]
    assert daily["source"]["origin"] == "cache"
    assert second.call("movie.detail", {"movieCode": "20124079"})["result"]["source"]["origin"] == "cache"
    again = second.call("movie.poster", {"movieCode": "20124079", "download": True})["result"]
    # The file is written on the second machine, in its own cache directory, from the bytes in the database.
    assert again["file"]["path"].startswith(second.cache)
    assert again["file"]["sha256"] == poster["file"]["sha256"]
    with open(again["file"]["path"], "rb") as image:
        assert image.read() == fake_upstream_poster()
    status = second.call("worker.status")["result"]
    assert status["store"]["kind"] == "postgres" and status["store"]["connected"] is True
    assert status["store"]["schemaVersion"] == 1
    assert status["store"]["location"].startswith("postgres://boxoffice:***@127.0.0.1:")
    assert second.stop() == 0
    after = upstream.counts()
    assert (after["kobis"], after["kakao"], after["images"]) == (before["kobis"], before["kakao"], before["images"])
    for worker in (first, second):
        assert cluster.password not in cache_files_text(worker.cache)
        remove(worker.cache)


def fake_upstream_poster():
    from fleet_testing import fake_upstream
    return fake_upstream.POSTER


def test_four_machines_with_a_limit_of_25_make_exactly_25_kobis_calls(fleet_database, fleet_upstream, fleet_outputs):
    database, upstream, outputs = fleet_database, fleet_upstream, fleet_outputs
    workers = [Worker(upstream, outputs, database=database, arguments=["--kobis-daily-limit", "25"])
               for _ in range(4)]
    results = [None] * 4

    def run(index):
        results[index] = concurrently(
            workers[index], [("boxoffice.daily", {"date": date}) for date in dates(index * 10, 10)])

    threads = [threading.Thread(target=run, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = [answer for result in results for answer in result]
    succeeded = [answer for answer in answers if "result" in answer]
    refused = [answer for answer in answers if "error" in answer]
    assert upstream.counts()["kobis"] == 25
    assert len(succeeded) == 25 and len(refused) == 15
    for answer in refused:
        assert answer["error"]["code"] == -31005
        assert answer["error"]["data"]["reason"] == "quota_exhausted"
        assert answer["error"]["data"]["resetsAt"] == "2026-11-21T15:00:00Z"
    # Cached answers are still served with the budget spent.
    served = next(index for index, result in enumerate(results) if "result" in result[0])
    cached = workers[served].daily(dates(served * 10, 1)[0])
    assert cached["result"]["source"]["origin"] == "cache"
    quota = workers[0].call("worker.status")["result"]["quota"]
    assert quota["remaining"] == 0 and quota["counting"] == "shared"
    for worker in workers:
        assert worker.stop() == 0
        remove(worker.cache)
    assert upstream.counts()["kobis"] == 25


def test_a_worker_killed_holding_a_lease_loses_it_at_its_expiry(fleet_cluster, fleet_database, fleet_upstream,
                                                                 fleet_outputs):
    database, upstream, outputs = fleet_database, fleet_upstream, fleet_outputs
    # The dead worker's lease lasts an hour, and the test ends it itself once the survivor has spent the rest: the
    # expiry is a time stored with the lease, so setting it to the past is the expiry, with no clock to wait for.
    flags = ["--kobis-daily-limit", "60", "--lease-seconds", "3600"]
    doomed = Worker(upstream, outputs, database=database, arguments=flags)
    assert "result" in doomed.daily(dates(0, 1)[0])  # takes a lease of 10 calls, spends 1
    name = database.rsplit("/", 1)[1].split("?")[0]
    until(lambda: spent_in_database(fleet_cluster, name) == 1, what="the spend in the database")
    doomed.kill()

    survivor = Worker(upstream, outputs, database=database, arguments=["--kobis-daily-limit", "60"])
    made = sum("result" in survivor.daily(date) for date in dates(1, 60))
    assert made == 50, "the nine calls the dead worker still held are not spendable before its lease expires"
    fleet_cluster.sql("UPDATE quota_leases SET expires_at = 0 WHERE lease = (SELECT min(lease) FROM quota_leases)",
                      database=name)
    more = sum("result" in survivor.daily(date) for date in dates(61, 15))
    assert more == 9, "after the expiry, the dead worker's unspent calls are spent by the others"
    assert upstream.counts()["kobis"] == 60
    assert survivor.stop() == 0
    remove(doomed.cache)
    remove(survivor.cache)


def test_postgres_stopped_mid_run_then_restarted(fleet_upstream):
    upstream = fleet_upstream
    cluster = new_cluster()
    try:
        from fleet_testing import Outputs
        outputs = Outputs()
        worker = Worker(upstream, outputs, database=cluster.url(), arguments=["--kobis-daily-limit", "25"])
        assert "result" in worker.daily(dates(0, 1)[0])  # a lease of 6
        until(lambda: spent_in_database(cluster, cluster.database) == 1, what="the spend in the database")
        cluster.stop("immediate")
        during = [worker.daily(date) for date in dates(1, 8)]  # 5 from the lease, then 3 counted in the process
        assert all("result" in answer for answer in during), during
        status = worker.call("worker.status")["result"]
        assert status["store"]["connected"] is False
        assert status["quota"]["counting"] == "process" and status["quota"]["used"] == 9
        warnings = [line for line in worker.stderr_lines if "warning" in line]
        assert len(warnings) == 1, worker.stderr()

        cluster.restart()
        deadline = time.time() + 20
        while time.time() < deadline:
            if worker.call("worker.status")["result"]["store"]["connected"]:
                break
            time.sleep(0.25)  # sleep-ok: the pace of a wait for a state (the reconnection), not an order
        else:
            raise AssertionError("the worker did not reconnect: " + worker.stderr())
        assert "result" in worker.daily(dates(9, 1)[0])  # takes a lease again, after adding the calls counted meanwhile
        assert worker.call("worker.status")["result"]["quota"]["counting"] == "shared"
        assert worker.stop() == 0
        assert len([line for line in worker.stderr_lines if "warning" in line]) == 1, worker.stderr()
        kept = int(cluster.sql("SELECT count(*) FROM upstream", database=cluster.database))
        assert kept == 10, "the bodies fetched during the outage are written once the database is back"
        counted = cluster.sql("SELECT allotted FROM quota_days", database=cluster.database)
        assert int(counted) == 10 == upstream.counts()["kobis"], "the quota is reconciled: every call is counted"
        assert cluster.password not in outputs.joined()
        remove(worker.cache)
    finally:
        cluster.remove()


def test_unreachable_at_start_is_one_warning_and_requests_are_served(fleet_upstream, fleet_outputs, fleet_cluster):
    upstream, outputs, cluster = fleet_upstream, fleet_outputs, fleet_cluster
    from fleet_testing import postgres_cluster
    port = postgres_cluster.free_port()
    url = "postgres://boxoffice:%s@127.0.0.1:%d/nowhere" % (cluster.password, port)
    worker = Worker(upstream, outputs, database=url)
    assert "result" in worker.daily(dates(0, 1)[0])
    status = worker.call("worker.status")["result"]
    assert status["store"]["connected"] is False and status["quota"]["counting"] == "process"
    assert status["store"]["location"] == "postgres://boxoffice:***@127.0.0.1:%d/nowhere" % port
    assert worker.stop() == 0
    assert len([line for line in worker.stderr_lines if "warning" in line]) == 1, worker.stderr()
    remove(worker.cache)


def test_a_wrong_password_is_never_shown(fleet_upstream, fleet_outputs, fleet_cluster):
    upstream, outputs, cluster = fleet_upstream, fleet_outputs, fleet_cluster
    wrong = "not-the-password-0123456789"
    worker = Worker(upstream, outputs, database=cluster.url(password=wrong))
    assert "result" in worker.daily(dates(0, 1)[0])
    assert worker.stop() == 0
    assert "password authentication failed" in worker.stderr() and wrong not in outputs.joined()
    remove(worker.cache)


def test_two_workers_starting_at_once_on_an_empty_database_both_migrate(fleet_database, fleet_upstream, fleet_outputs, fleet_cluster):
    database, upstream, outputs, cluster = fleet_database, fleet_upstream, fleet_outputs, fleet_cluster
    workers = [Worker(upstream, outputs, database=database) for _ in range(2)]
    for worker in workers:
        status = worker.call("worker.status")["result"]
        assert status["store"]["connected"] is True and status["store"]["schemaVersion"] == 1, worker.stderr()
    for worker in workers:
        assert worker.stop() == 0
        assert "error" not in worker.stderr().lower(), worker.stderr()
        remove(worker.cache)
    name = database.rsplit("/", 1)[1].split("?")[0]
    cluster.sql("UPDATE boxoffice_schema SET version = 99", database=name)
    refused = Worker(upstream, outputs, database=database)
    assert refused.stop() == 70
    assert "schema version 99, newer than this worker knows (1)" in refused.stderr()
    remove(refused.cache)


# PostgresSchema.lockKey: "boxoffic" in ASCII.
MIGRATION_LOCK = 0x626F786F66666963


def test_a_migration_kept_waiting_past_the_statement_timeout_says_why(fleet_database, fleet_upstream, fleet_outputs, fleet_cluster):
    """Another session holds the migration lock longer than the server's statement timeout: the worker's warning
    gives the server's reason (the statement timeout), not the aborted transaction the next statement would meet,
    and the worker serves; once the lock is free, a worker migrates."""
    database, upstream, outputs, cluster = fleet_database, fleet_upstream, fleet_outputs, fleet_cluster
    name = database.rsplit("/", 1)[1].split("?")[0]
    holder = LockHolder(cluster, name, MIGRATION_LOCK)
    try:
        waiting = Worker(upstream, outputs, database=database)
        assert "result" in waiting.daily(dates(0, 1)[0])
        assert waiting.stop() == 0
        assert "statement timeout" in waiting.stderr(), waiting.stderr()
        assert "current transaction is aborted" not in waiting.stderr(), waiting.stderr()
        remove(waiting.cache)
    finally:
        holder.release()
    worker = Worker(upstream, outputs, database=database)
    status = worker.call("worker.status")["result"]
    assert status["store"]["connected"] is True and status["store"]["schemaVersion"] == 1, worker.stderr()
    assert worker.stop() == 0
    remove(worker.cache)


def test_database_url_with_no_cache_is_a_usage_error():
    result = subprocess.run([BINARY, "--no-cache", "--database-url", "postgres://u:secret-x@127.0.0.1:1/db"],
                            capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert result.returncode == 64
    assert "secret-x" not in result.stderr + result.stdout


def test_four_workers_on_an_empty_sqlite_directory_twenty_times(fleet_upstream):
    upstream = fleet_upstream
    from fleet_testing import Outputs
    import tempfile
    for attempt in range(20):
        outputs = Outputs()
        cache = tempfile.mkdtemp(prefix="boxoffice-fleet-sqlite-")
        before = upstream.counts()["kobis"]
        workers = [Worker(upstream, outputs, cache=cache, arguments=["--kobis-daily-limit", "10"])
                   for _ in range(4)]
        results = [None] * 4

        def run(index):
            results[index] = concurrently(
                workers[index], [("boxoffice.daily", {"date": date}) for date in dates(index * 4, 4)])

        threads = [threading.Thread(target=run, args=(index,)) for index in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        succeeded = sum("result" in answer for result in results for answer in result)
        errors = "".join(worker.stderr() for worker in workers)
        for worker in workers:
            assert worker.stop() == 0
            # No migration error, no store left out, no quota counted in one process only: no warning at all.
            assert "warning" not in worker.stderr() and "UNIQUE constraint" not in worker.stderr(), (
                "attempt %d: %s" % (attempt, worker.stderr()))
        made = upstream.counts()["kobis"] - before
        assert made == 10 == succeeded, "attempt %d: %d calls, %d answers; %s" % (attempt, made, succeeded, errors)
        remove(cache)


def test_sslmode_require_uses_tls_and_verify_full_refuses_a_self_signed_certificate(fleet_upstream):
    upstream = fleet_upstream
    from fleet_testing import Outputs, postgres_cluster
    try:
        cluster = postgres_cluster.Cluster(tls=True).start()
    except postgres_cluster.Unavailable as error:
        import pytest
        pytest.skip("no PostgreSQL cluster with TLS can start here: %s" % error)
    try:
        outputs = Outputs()
        worker = Worker(upstream, outputs, database=cluster.url(sslmode="require"))
        assert worker.call("worker.status")["result"]["store"]["connected"] is True, worker.stderr()
        encrypted = cluster.sql(
            "SELECT bool_and(ssl) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid)"
            " WHERE application_name = 'boxoffice-worker'")
        assert encrypted == "t"
        assert worker.stop() == 0
        verified = Worker(upstream, outputs, database=cluster.url(sslmode="verify-full"))
        assert "result" in verified.daily(dates(0, 1)[0])
        assert verified.call("worker.status")["result"]["store"]["connected"] is False
        assert verified.stop() == 0
        assert "certificate" in verified.stderr().lower(), verified.stderr()
        assert cluster.password not in outputs.joined()
        remove(worker.cache)
        remove(verified.cache)
    finally:
        cluster.remove()


def test_with_postgres_a_cache_directory_others_can_write_holds_no_posters(fleet_database, fleet_upstream, fleet_outputs):
    # The posters stay in the local cache directory with PostgreSQL too; one other users can write to is refused
    # as the SQLite store refuses it (they could swap the files), the rest is served.
    shared = tempfile.mkdtemp(prefix="boxoffice-fleet-shared-")
    os.chmod(shared, 0o777)
    worker = Worker(fleet_upstream, fleet_outputs, cache=shared, database=fleet_database)
    try:
        assert "result" in worker.daily("2025-03-02")
        refused = worker.call("movie.poster", {"movieCode": "20124079", "download": True})["error"]
        assert refused["data"]["reason"] == "not_configured"
        assert "can be written by other users" in refused["message"] and "chmod 700" in refused["message"]
        assert worker.call("movie.poster", {"movieCode": "20124079"})["result"]["found"] is True
        assert worker.stop() == 0
        assert not os.path.exists(os.path.join(shared, "posters"))
        assert fleet_upstream.counts()["images"] == 0
    finally:
        remove(shared)
