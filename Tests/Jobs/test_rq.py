"""`rq worker` (the forking default, and SimpleWorker) running boxoffice_worker.rq's job functions against a real
Redis: 50 jobs answer as the worker does; a work horse killed mid-job loses no job; an upstream that fails twice is
retried to success; a spent quota is retried after its reset; a permanent failure fails at once."""
import datetime
import os
import signal
import sys
import urllib.request

import pytest

from jobs_testing import BINARY, ROOT, fake_upstream, live
from runners_testing import (RedisServer, children, command_of, rq_worker, runner_environment, wait_until,
                             without_source)

sys.path.insert(0, str(ROOT / "clients" / "python"))
rq = pytest.importorskip("rq")
redis_client = pytest.importorskip("redis")
from boxoffice_worker import Worker  # noqa: E402

DAILY = "boxoffice_worker.rq.boxoffice_daily"


@pytest.fixture(scope="module", params=["forking", "simple"])
def runner(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("rq-" + request.param)
    redis = RedisServer(folder)
    upstream = fake_upstream.Running(delay_ms=20)
    worker_env = live(upstream, folder / "cache")
    process = rq_worker(runner_environment(worker_env, redis), redis, folder / "rq.log",
                        simple=request.param == "simple")
    connection = redis_client.Redis.from_url(redis.url + "/2")
    queue = rq.Queue(connection=connection)
    yield queue, upstream, worker_env, process, request.param
    process.stop()
    connection.close()
    upstream.stop()
    redis.stop()


def finished(jobs, seconds=120):
    wait_until(lambda: all(job.get_status(refresh=True) in ("finished", "failed") for job in jobs), seconds,
               what="the jobs to end")
    return [job.return_value(refresh=True) for job in jobs]



def test_fifty_jobs_answer_as_the_worker_does(runner):
    queue, _, worker_env, _, _ = runner
    days = [(datetime.date(2023, 2, 1) + datetime.timedelta(days=n)).isoformat() for n in range(45)]
    jobs = [queue.enqueue(DAILY, date=day) for day in days]
    jobs += [queue.enqueue("boxoffice_worker.rq.movie_detail", movieCode="20124079") for _ in range(5)]
    answers = finished(jobs)
    with Worker(BINARY, env=worker_env) as direct:
        for day, answer in zip(days, answers):
            assert without_source(answer) == without_source(direct.daily(day))
        assert without_source(answers[-1]) == without_source(direct.call("movie.detail", {"movieCode": "20124079"}))


def test_a_killed_work_horse_loses_no_job(runner):
    queue, upstream, _, process, kind = runner
    if kind == "simple":
        pytest.skip("SimpleWorker runs jobs in its own process: there is no work horse to kill")
    urllib.request.urlopen(upstream.base + "/__hold?after=0")
    days = [(datetime.date(2022, 5, 1) + datetime.timedelta(days=n)).isoformat() for n in range(5)]
    jobs = [queue.enqueue(DAILY, date=day, retry=rq.Retry(max=3)) for day in days]
    # The work horse is the RQ worker's child that runs a boxoffice-worker (its scheduler, the other child, does not).
    horse = []

    def find_horse():
        horse[:] = [pid for pid in children(process.process.pid) if "python" in command_of(pid)
                    and any("boxoffice-worker" in command_of(child) for child in children(pid))]
        return horse

    wait_until(find_horse, what="a work horse mid-job")
    os.kill(horse[0], signal.SIGKILL)
    urllib.request.urlopen(upstream.base + "/__release")
    answers = finished(jobs)
    assert [answer["range"]["start"] for answer in answers] == days


# The upstream down for six calls (two tries of the job), and KOBIS's quota fault three times with its reset passed
# (BOXOFFICE_TODAY): each retried to success, by a Retry the job returns.
MENDED = [("/__flaky?times=6", "2021-06-0", 7), ("/__quota?calls=3", "2021-07-0", 4)]


@pytest.mark.parametrize("failing,month,calls", MENDED, ids=["upstream down twice", "quota spent until the reset"])
def test_a_failure_time_mends_is_retried_to_success(runner, failing, month, calls):
    queue, upstream, _, _, kind = runner
    day = month + ("1" if kind == "forking" else "2")
    urllib.request.urlopen(upstream.base + failing)
    [answer] = finished([queue.enqueue(DAILY, date=day)])
    assert answer["range"]["start"] == day
    key = "/kobis/boxoffice/searchDailyBoxOfficeList.json?itemPerPage=10&targetDt=" + day.replace("-", "")
    assert upstream.counts()["calls"][key] == calls


def test_a_permanent_failure_fails_at_once(runner):
    queue, upstream, _, _, _ = runner
    job = queue.enqueue("boxoffice_worker.rq.movie_detail", movieCode="99999999", retry=rq.Retry(max=3))
    finished([job])
    assert job.get_status(refresh=True) == "failed"
    assert "JobFailed" in job.latest_result().exc_string and "upstream_rejected" in job.latest_result().exc_string
