"""`celery -A boxoffice_worker.celery worker` with a real Redis and a prefork pool of 2, as issue 40 asks: 200 tasks
answer as the worker does; a pool process killed mid-run loses no task; an upstream that fails twice is retried to
success; a spent quota is retried after its reset; a permanent failure fails at once."""
import datetime
import signal
import sys
import urllib.request

import pytest

from jobs_testing import BINARY, ROOT, fake_upstream, live
from runners_testing import (RedisServer, celery_worker, children, command_of, runner_environment, wait_until,
                             without_source)

sys.path.insert(0, str(ROOT / "clients" / "python"))
celery = pytest.importorskip("celery")
from boxoffice_worker import Worker  # noqa: E402
from boxoffice_worker.jobs import JobFailed  # noqa: E402


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    folder = tmp_path_factory.mktemp("celery")
    redis = RedisServer(folder)
    upstream = fake_upstream.Running(delay_ms=20)
    worker_env = live(upstream, folder / "cache")
    runner = celery_worker(runner_environment(worker_env, redis), folder / "celery.log")
    app = celery.Celery("jobs-test", broker=redis.url + "/0", backend=redis.url + "/1")
    app.conf.accept_content = ["json"]
    yield app, upstream, worker_env, runner
    runner.stop()
    upstream.stop()
    redis.stop()



def pool_processes(runner):
    return [pid for pid in children(runner.process.pid) if "python" in command_of(pid)]


def test_two_hundred_tasks_answer_as_the_worker_does(pool):
    app, _, worker_env, runner = pool
    jobs = [("boxoffice.daily", {"date": (datetime.date(2023, 1, 1) + datetime.timedelta(days=n)).isoformat()})
            for n in range(170)]
    jobs += [("movie.detail", {"movieCode": code}) for code in ["20124079", "20112207", "20112621", "20113260"] * 5]
    jobs += [("movie.search", {"title": "범죄와의 전쟁"})] * 5 + [("codes.list", {"kind": "genre"})] * 5
    results = [app.send_task(method, kwargs=params) for method, params in jobs]
    answers = [result.get(timeout=120) for result in results]
    with Worker(BINARY, env=worker_env) as direct:
        for (method, params), answer in zip(jobs, answers):
            assert without_source(answer) == without_source(direct.call(method, params)), (method, params)
    # One long-lived worker per pool process: each of the two has exactly one boxoffice-worker child.
    processes = pool_processes(runner)
    assert len(processes) == 2
    assert all(len([pid for pid in children(process) if "boxoffice-worker" in command_of(pid)]) == 1
               for process in processes)


def test_a_killed_pool_process_loses_no_task(pool):
    app, upstream, _, runner = pool
    days = [(datetime.date(2022, 3, 1) + datetime.timedelta(days=n)).isoformat() for n in range(40)]
    # Every call waits at the upstream until released, so the pool's processes are mid-task when one is killed.
    urllib.request.urlopen(upstream.base + "/__hold?after=0")
    results = [app.send_task("boxoffice.daily", kwargs={"date": day}) for day in days]
    victim = pool_processes(runner)[0]
    wait_until(lambda: upstream.counts()["calls"] and any("20220301" in key or "202203" in key
                                                          for key in upstream.counts()["calls"]),
               what="a task at the upstream")
    import os
    os.kill(victim, signal.SIGKILL)
    urllib.request.urlopen(upstream.base + "/__release")
    answers = [result.get(timeout=120) for result in results]
    assert [answer["range"]["start"] for answer in answers] == days
    wait_until(lambda: len(pool_processes(runner)) == 2, what="the pool to replace the killed process")
    assert victim not in pool_processes(runner)


# Failures time mends, each retried to success: the upstream down for six calls (three tries of the worker's own per
# task, RetryPolicy: two task tries fail), and KOBIS's quota fault (320011) three times, with today faked
# (BOXOFFICE_TODAY) so that the reset it reports has passed and the task is tried again at once.
# Five quota faults: past Celery's default limit of three retries, which a quota wait must not have.
MENDED = [("/__flaky?times=6", "2021-06-01", 7), ("/__quota?calls=5", "2021-07-01", 6)]


@pytest.mark.parametrize("failing,day,calls", MENDED, ids=["upstream down twice", "quota spent until the reset"])
def test_a_failure_time_mends_is_retried_to_success(pool, failing, day, calls):
    app, upstream, _, _ = pool
    urllib.request.urlopen(upstream.base + failing)
    answer = app.send_task("boxoffice.daily", kwargs={"date": day}).get(timeout=120)
    assert answer["range"]["start"] == day
    key = "/kobis/boxoffice/searchDailyBoxOfficeList.json?itemPerPage=10&targetDt=" + day.replace("-", "")
    assert upstream.counts()["calls"][key] == calls


def test_a_permanent_failure_fails_at_once(pool):
    app, upstream, _, _ = pool
    with pytest.raises(JobFailed) as failed:
        app.send_task("movie.detail", kwargs={"movieCode": "99999999"}).get(timeout=60)
    assert failed.value.reason == "upstream_rejected"
    assert upstream.counts()["calls"]["/kobis/movie/searchMovieInfo.json?movieCd=99999999"] == 1
    with pytest.raises(JobFailed) as invalid:
        app.send_task("boxoffice.daily", kwargs={"date": "2030-01-01"}).get(timeout=60)
    assert invalid.value.reason == "invalid_params"
