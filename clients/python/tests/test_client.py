"""The Python client against the built worker (offline, and live against a fake upstream on 127.0.0.1), and
against a stub for what the worker never does on its own (a stderr flood, an answer line over 1 MiB)."""
import asyncio
import datetime
import inspect
import os
import signal
import time

import pytest
from boxoffice_worker import (
    AsyncWorker,
    InvalidParams,
    NotFound,
    OfflineUnavailable,
    Worker,
    WorkerExited,
    WorkerTimeout,
)
from boxoffice_worker.types import PARAM_RULES
from client_testing import BINARY, OFFLINE, STUB, live_env


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def offline(**options):
    return AsyncWorker(BINARY, env=OFFLINE, **options)


async def until_status(worker, holds, within=30):
    """Asks worker.status until `holds(requests)` is true (a state the worker reports, never a guessed time);
    fails after `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        requests = (await worker.status())["requests"]
        if holds(requests):
            return requests
    raise AssertionError("the worker never reported the state waited for: %r" % requests)


async def until_received(worker, count):
    """Until the worker has received `count` requests besides the worker.status calls made here to ask (a count that
    only grows, so a call that already finished still counts)."""
    asked = [0]

    def holds(requests):
        asked[0] += 1
        return requests["requests"] - asked[0] >= count

    return await until_status(worker, holds)


async def until_in_flight(worker, count):
    """Until `count` calls are in flight in the worker (worker.status, answered at once, is not among them)."""
    return await until_status(worker, lambda requests: requests["inFlight"] >= count)


def test_every_method_offline():
    async def body():
        async with offline() as worker:
            daily = await worker.daily(date="2023-04-26", limit=3)
            assert daily["kind"] == "daily" and len(daily["entries"]) == 3
            weekly = await worker.weekly(date="2012-01-01", period="weekend")
            assert weekly["kind"] == "weekend"
            assert (await worker.detail("20124079"))["title"] == "광해, 왕이 된 남자"
            assert (await worker.poster("광해, 왕이 된 남자"))["found"] is True
            assert (await worker.search("범죄와의 전쟁", limit=10))["total"] >= 1
            assert (await worker.status())["mode"] == "offline"
            assert await worker.call("ping") == {}

    run(body())


def fields(record, *names):
    """`record` cut to `names` (a recorded answer may carry more)."""
    return {name: record[name] for name in names}


def test_people_companies_and_codes_offline():
    async def body():
        async with offline() as worker:
            person = await worker.people_detail("20164556")
            assert fields(person, "peopleCode", "name", "nameEnglish", "sex", "role", "homepages") == {
                "peopleCode": "20164556", "name": "김종현", "nameEnglish": "Kim Hong-hyeon", "sex": "male",
                "role": "기획진행", "homepages": []}
            assert [fields(film, "movieCode", "title", "part") for film in person["filmography"]] == [
                {"movieCode": "20080394", "title": "비스티 보이즈", "part": "기획진행"},
                {"movieCode": "20070072", "title": "우아한 세계", "part": "제작팀"}]
            assert person["source"]["origin"] == "fixture"

            people = await worker.people_search()
            assert (people["total"], people["page"], len(people["people"])) == (189403, 1, 10)
            assert fields(people["people"][0], "peopleCode", "name", "nameEnglish", "role", "filmography") == {
                "peopleCode": "20350945", "name": "김교영", "nameEnglish": None, "role": "의상",
                "filmography": ["기억의 재구성"]}

            company = await worker.company_detail("20122497")
            assert fields(company, "companyCode", "name", "nameEnglish", "ceo", "parts") == {
                "companyCode": "20122497", "name": "(유)조이앤컨텐츠그룹", "nameEnglish": "JOY N CONTENTS GROUP",
                "ceo": "최광래", "parts": ["제작사", "배급사", "수입사"]}
            assert fields(company["filmography"][0], "movieCode", "title", "parts") == {
                "movieCode": "20173021", "title": "더 건맨 : 테이큰 감독 뉴프로젝트", "parts": ["배급사", "수입사"]}

            companies = await worker.company_search()
            assert companies["total"] == 12271
            assert fields(companies["companies"][0], "companyCode", "name", "nameEnglish", "ceo", "parts",
                          "filmography") == {
                "companyCode": "20204225", "name": "이트라필름", "nameEnglish": None, "ceo": "원태웅",
                "parts": ["제작사"], "filmography": []}
            seventh = companies["companies"][6]
            assert (seventh["companyCode"], seventh["parts"], len(seventh["filmography"])) == (
                "20203082", ["제작사", "배급사"], 4)

            regions = await worker.codes("region")
            assert (regions["kind"], regions["comCode"], len(regions["codes"])) == ("region", "0105000000", 17)
            assert fields(regions["codes"][0], "code", "name") == {"code": "0105001", "name": "서울시"}

            with pytest.raises(OfflineUnavailable) as unavailable:
                await worker.people_detail("99999999")
            assert unavailable.value.code == -31006 and unavailable.value.reason == "offline_unavailable"

    run(body())


def day_of(date, open_date):
    """The run's day number of `date` (day 1 the opening), from the calendar."""
    return (datetime.date.fromisoformat(date) - datetime.date.fromisoformat(open_date)).days + 1


def test_a_film_s_run_and_a_comparison_offline():
    async def body():
        async with offline() as worker:
            seen = []
            run = await worker.movie_run("파묘", on_progress=lambda progress, total, message: seen.append(progress))
            assert (run["movieCode"], run["title"], run["openDate"]) == ("20234675", "파묘", "2024-02-22")
            assert [milestone for milestone in run["milestones"] if milestone["audience"] == 10_000_000] == [
                {"audience": 10_000_000, "date": "2024-03-24", "day": 32}]
            assert day_of("2024-03-24", run["openDate"]) == 32
            assert run["coverage"]["offline"] is True and run["coverage"]["stopped"] == "ended"
            assert seen and seen == sorted(seen)
            # By code, the same run.
            assert (await worker.movie_run(movie_code="20234675"))["milestones"] == run["milestones"]

            compared = await worker.movie_compare(["파묘", "범죄도시4"])
            films = compared["films"]
            assert [(film["movieCode"], film["title"], film["openDate"]) for film in films] == [
                ("20234675", "파묘", "2024-02-22"), ("20228797", "범죄도시4", "2024-04-24")]
            row = [milestone for milestone in compared["milestones"] if milestone["audience"] == 10_000_000]
            # 범죄도시4 opened 2024-04-24 and passed ten million on 2024-05-15: day 22, ten days before 파묘's 32.
            assert row == [{"audience": 10_000_000, "days": [32, 22]}]
            for film, day in zip(films, row[0]["days"]):
                reached = [milestone for milestone in film["milestones"] if milestone["audience"] == 10_000_000]
                assert day_of(reached[0]["date"], film["openDate"]) == reached[0]["day"] == day
            assert films[1]["milestones"][-2] == {"audience": 10_000_000, "date": "2024-05-15", "day": 22}

            # Offline, a title no recorded search covers is not known to name no film: the worker says it has no
            # recording (live, the same title is NotFound: test_a_title_naming_no_film_is_not_found).
            with pytest.raises(OfflineUnavailable) as unavailable:
                await worker.movie_run("없는 영화")
            assert unavailable.value.code == -31006 and unavailable.value.reason == "offline_unavailable"

    run(body())


def test_a_title_naming_no_film_is_not_found(client_upstream, tmp_path):
    base, _ = client_upstream

    async def body():
        async with AsyncWorker(BINARY, env=live_env(base, tmp_path / "cache")) as worker:
            # The fake KOBIS answers this title's search with no film (fake_upstream.NO_FILM_TITLE).
            with pytest.raises(NotFound) as nothing:
                await worker.movie_run("없는 영화")
            assert nothing.value.code == -31004 and nothing.value.reason == "not_found"
            assert 'no KOBIS film is titled "없는 영화"' in str(nothing.value)
            # In a comparison the error names the film (the first, 광해, is one the fake KOBIS has).
            with pytest.raises(NotFound) as in_compare:
                await worker.movie_compare(["20124079", "없는 영화"])
            assert '"없는 영화"' in str(in_compare.value)
            # Every other title searched answers the one recorded search: five films, none titled "전쟁".
            with pytest.raises(InvalidParams) as several:
                await worker.movie_run("전쟁")
            assert len(several.value.data["candidates"]) == 5
            assert {"movieCode": "20113557", "title": "범죄와의 전쟁: 나쁜놈들 전성시대",
                    "openDate": "2012-02-02"} in several.value.data["candidates"]

    run(body())


def test_the_run_methods_send_the_worker_s_names():
    async def body():
        async with AsyncWorker(STUB, args=["--echo"]) as worker:
            assert await worker.movie_run("파묘", through="2024-06-30", days=60, max_calls=30, diversity=False,
                                          refresh=True) == {
                "method": "movie.run", "params": {"title": "파묘", "through": "2024-06-30", "days": 60,
                                                  "maxCalls": 30, "diversity": False, "refresh": True}}
            assert await worker.movie_run(movie_code="20234675", max_calls=0) == {
                "method": "movie.run", "params": {"movieCode": "20234675", "maxCalls": 0}}
            assert await worker.movie_compare(("파묘", "범죄도시4"), diversity=True) == {
                "method": "movie.compare", "params": {"movies": ["파묘", "범죄도시4"], "diversity": True}}
            # An empty list goes as it is, for the worker to say it has fewer than two films.
            assert await worker.movie_compare([]) == {"method": "movie.compare", "params": {"movies": []}}

    run(body())


def test_the_run_methods_refuse_before_anything_is_sent():
    async def body():
        async with offline() as worker:
            errors = await refused_before_sending(worker, [
                lambda: worker.movie_run("파묘", max_call=30),
                lambda: worker.movie_run(movie_code=20234675),
                lambda: worker.movie_run("파묘", through="2024/06/30"),
                lambda: worker.movie_run("파묘", maxCalls=30),
                lambda: worker.movie_compare("파묘"),
                lambda: worker.movie_compare(["파묘", 20228797]),
                lambda: worker.movie_compare(["파묘", "범죄도시4"], days="60"),
                lambda: worker.movie_compare(),
            ])
        messages = [str(error) for error in errors]
        assert 'Invalid params for movie.run: unknown keyword "max_call" (did you mean "max_calls"?)' in messages[0]
        assert '"movie_code" must be a string, not the integer 20234675' in messages[1]
        assert errors[1].data["errors"][0]["instanceLocation"] == "/movieCode"
        assert '"through" must be a date as YYYY-MM-DD, not "2024/06/30"' in messages[2]
        assert '"maxCalls" (did you mean "max_calls"?)' in messages[3]
        assert '"movies" must be an array, not the string "파묘"' in messages[4]
        assert '"movies[1]" must be a string, not the integer 20228797' in messages[5]
        assert errors[5].data["errors"][0]["instanceLocation"] == "/movies/1"
        assert '"days" must be an integer, not the string "60"' in messages[6]
        assert 'the argument "movies" is missing' in messages[7]

    run(body())


def test_the_people_company_and_code_methods_send_the_worker_s_names():
    async def body():
        async with AsyncWorker(STUB, args=["--echo"]) as worker:
            assert await worker.people_search("김종현", filmography="우아한 세계", page=2, limit=5, refresh=True) == {
                "method": "people.search",
                "params": {"name": "김종현", "filmography": "우아한 세계", "page": 2, "limit": 5, "refresh": True}}
            assert await worker.people_search() == {"method": "people.search", "params": None}
            assert await worker.people_detail("20164556", include=("movies",)) == {
                "method": "people.detail", "params": {"peopleCode": "20164556", "include": ["movies"]}}
            assert await worker.company_search("조이앤", ceo="최광래", page=2, limit=100) == {
                "method": "company.search", "params": {"name": "조이앤", "ceo": "최광래", "page": 2, "limit": 100}}
            assert await worker.company_detail("20122497", refresh=True) == {
                "method": "company.detail", "params": {"companyCode": "20122497", "refresh": True}}
            assert await worker.codes("companyPart") == {"method": "codes.list", "params": {"kind": "companyPart"}}
            # A region's name is an area as its code is: sent as given, for the worker to resolve.
            assert await worker.daily("2023-04-26", area="서울시") == {
                "method": "boxoffice.daily", "params": {"date": "2023-04-26", "area": "서울시"}}
            assert await worker.weekly("2023-04-23", area="Seoul") == {
                "method": "boxoffice.weekly", "params": {"date": "2023-04-23", "area": "Seoul"}}

    run(body())


def test_every_method_live_against_a_fake_upstream(client_upstream, tmp_path):
    base, counts = client_upstream

    async def body():
        async with AsyncWorker(BINARY, env=live_env(base, tmp_path / "cache")) as worker:
            assert len((await worker.daily(date="2023-04-26"))["entries"]) == 10
            assert (await worker.weekly(date="2012-01-01", period="weekend"))["kind"] == "weekend"
            assert (await worker.detail("20124079"))["movieCode"] == "20124079"
            poster = await worker.poster("광해, 왕이 된 남자", download=True)
            assert poster["found"] is True and poster["file"]["mimeType"] == "image/jpeg"
            assert (await worker.search("범죄와의 전쟁"))["total"] >= 1
            status = await worker.status()
            assert status["mode"] == "live" and status["upstream"]["kobis"]["calls"] >= 4

    before = counts()["kobis"]
    run(body())
    assert counts()["kobis"] - before >= 4


def test_errors_are_exceptions_by_reason():
    async def body():
        async with offline() as worker:
            with pytest.raises(InvalidParams) as invalid:
                await worker.daily(date="2022-02-30")
            assert invalid.value.code == -32602 and invalid.value.reason == "invalid_params"
            with pytest.raises(OfflineUnavailable) as unavailable:
                await worker.daily(date="2020-01-01")
            assert unavailable.value.code == -31006 and "2023-04-26" in unavailable.value.data["available"]

    run(body())


async def received(worker):
    """The worker's count of requests received (worker.status counts itself: one more per look)."""
    return (await worker.status())["requests"]["requests"]


async def refused_before_sending(worker, refusals):
    """Awaits `refusals` (calls the client must refuse) and proves the worker received none of them; their errors."""
    before = await received(worker)
    errors = []
    for refusal in refusals:
        with pytest.raises(InvalidParams) as refused:
            await refusal()
        assert refused.value.code == -32602 and refused.value.reason == "invalid_params"
        errors.append(refused.value)
    assert await received(worker) == before + 1, "only the second worker.status reached the worker"
    return errors


def test_an_unknown_keyword_is_refused_before_anything_is_sent():
    async def body():
        # A client that has sent nothing has not even started its worker.
        unstarted = offline()
        with pytest.raises(InvalidParams):
            await unstarted.daily(data="2022-01-05")
        assert unstarted.pid is None
        await unstarted.close()
        async with offline() as worker:
            errors = await refused_before_sending(worker, [
                lambda: worker.daily("2022-01-05", colour="red"),
                lambda: worker.weekly("2023-04-23", perod="week"),
                lambda: worker.detail("20124079", force=True),
                lambda: worker.search("광해", years=2012),
                lambda: worker.status(verbose=True),
                lambda: worker.daily("2022-01-05", 3),
            ])
        assert 'unknown keyword "colour"' in str(errors[0])
        assert errors[0].data["errors"][0]["instanceLocation"] == "/colour"
        assert errors[0].data["errors"][0]["keywordLocation"] == "/additionalProperties"
        assert '"perod" (did you mean "period"?)' in str(errors[1])
        assert 'unknown keyword "verbose"; it takes timeout' in str(errors[4])
        assert "at most 1 positional argument (date), not 2" in str(errors[5])

    run(body())


def test_a_misspelled_keyword_is_refused_with_the_one_it_was_meant_as():
    async def body():
        async with offline() as worker:
            errors = await refused_before_sending(worker, [
                lambda: worker.daily(data="2022-01-05"),
                lambda: worker.daily("2022-01-05", multiMovie=True),
                lambda: worker.poster("광해, 왕이 된 남자", downlod=True),
                lambda: worker.daily("2022-01-05", time_out=1),
                lambda: worker.daily("2022-01-05", nation="Korean"),
            ])
        assert 'unknown keyword "data" (did you mean "date"?)' in str(errors[0])
        assert errors[0].data["errors"][0]["instanceLocation"] == "/data"
        assert '"multiMovie" (did you mean "multi_movie"?)' in str(errors[1])
        assert '"downlod" (did you mean "download"?)' in str(errors[2])
        assert '"time_out" (did you mean "timeout"?)' in str(errors[3])
        assert '"nation" must be one of "korean", "foreign", not the string "Korean" (did you mean "korean"?)' \
            in str(errors[4])

    run(body())


def test_a_value_of_the_wrong_type_is_refused_before_anything_is_sent():
    async def body():
        async with offline() as worker:
            errors = await refused_before_sending(worker, [
                lambda: worker.daily("2022-01-05", limit="3"),
                lambda: worker.daily({"date": "2022-01-05"}),
                lambda: worker.daily(datetime.date(2022, 1, 5)),
                lambda: worker.daily("2022/01/05"),
                lambda: worker.daily("2022-01-05", include="detail"),
                lambda: worker.daily("2022-01-05", include=["details"]),
                lambda: worker.weekly("2023-04-23", multi_movie="yes"),
                lambda: worker.detail(20124079),
                lambda: worker.daily("2022-01-05", limit=2.5),
            ])
        messages = [str(error) for error in errors]
        assert '"limit" must be an integer, not the string "3"' in messages[0]
        assert errors[0].data["errors"][0]["keywordLocation"] == "/properties/limit/type"
        assert '"date" must be a string, not an object' in messages[1]
        assert '"date" must be a string, not a datetime.date' in messages[2]
        assert '"date" must be a date as YYYY-MM-DD, not "2022/01/05"' in messages[3]
        assert '"include" must be an array, not the string "detail"' in messages[4]
        assert '"include[0]" must be one of "detail", "poster", not the string "details"' in messages[5]
        assert errors[5].data["errors"][0]["instanceLocation"] == "/include/0"
        assert '"multi_movie" must be a boolean' in messages[6]
        assert errors[6].data["errors"][0]["instanceLocation"] == "/multiMovie"
        assert '"movie_code" must be a string, not the integer 20124079' in messages[7]
        assert '"limit" must be an integer, not the number 2.5' in messages[8]

    run(body())


def test_the_people_company_and_code_methods_refuse_before_anything_is_sent():
    async def body():
        async with offline() as worker:
            errors = await refused_before_sending(worker, [
                lambda: worker.people_search(nmae="김"),
                lambda: worker.people_search(limit="3"),
                lambda: worker.people_detail(20164556),
                lambda: worker.people_detail("20164556", include="movies"),
                lambda: worker.company_search(parts="배급사"),
                lambda: worker.company_detail("20122497", include=["movies"]),
                lambda: worker.codes("regoin"),
                lambda: worker.codes(),
            ])
        messages = [str(error) for error in errors]
        assert 'Invalid params for people.search: unknown keyword "nmae" (did you mean "name"?)' in messages[0]
        assert '"limit" must be an integer, not the string "3"' in messages[1]
        assert '"people_code" must be a string, not the integer 20164556' in messages[2]
        assert errors[2].data["errors"][0]["instanceLocation"] == "/peopleCode"
        assert '"include" must be an array, not the string "movies"' in messages[3]
        assert 'unknown keyword "parts" (did you mean "part"?)' in messages[4]
        assert 'Invalid params for company.detail: unknown keyword "include"' in messages[5]
        assert '"kind" must be one of' in messages[6] and '(did you mean "region"?)' in messages[6]
        assert 'the argument "kind" is missing' in messages[7]

    run(body())


def test_a_people_search_limit_over_100_is_the_worker_s_to_refuse():
    async def body():
        async with offline() as worker:
            # Ranges are not among the client's rules (params.py): the call is sent, and the worker answers -32602.
            before = await received(worker)
            with pytest.raises(InvalidParams) as refused:
                await worker.people_search(limit=101)
            assert refused.value.code == -32602 and refused.value.reason == "invalid_params"
            assert any(error["instanceLocation"] == "/limit" for error in refused.value.data["errors"])
            assert await received(worker) == before + 2, "the people.search and the second worker.status"

    run(body())


def test_a_bare_date_string_answers_for_that_day():
    async def body():
        async with offline() as worker:
            # Offline, the default day is the latest recorded one (2023-04-26), so 2022-01-05 is answered only if sent.
            assert (await worker.daily())["range"]["start"] != "2022-01-05"
            daily = await worker.daily("2022-01-05")
            assert daily["range"] == {"start": "2022-01-05", "end": "2022-01-05"}
            # limit=3.0: a whole number written as a float is an integer to JSON Schema, and to the worker.
            limited = await worker.daily("2022-01-05", limit=3.0)
            assert limited["range"]["start"] == "2022-01-05" and len(limited["entries"]) == 3
            assert (await worker.weekly())["range"]["end"] != "2023-04-23"
            weekly = await worker.weekly("2023-04-23", period="week")
            assert (weekly["kind"], weekly["range"]["end"]) == ("week", "2023-04-23")

    run(body())


def test_the_synchronous_wrapper_refuses_before_sending_and_takes_a_bare_date():
    worker = Worker(BINARY, env=OFFLINE)
    try:
        with pytest.raises(InvalidParams, match=r'unknown keyword "data" \(did you mean "date"\?\)'):
            worker.daily(data="2022-01-05")
        with pytest.raises(InvalidParams, match=r'"limit" must be an integer'):
            worker.weekly("2023-04-23", limit="3")
        assert worker.pid is None  # nothing was sent: the worker was never started
        assert worker.daily("2022-01-05")["range"]["start"] == "2022-01-05"
    finally:
        worker.close()


def test_the_typed_methods_take_exactly_the_params_of_the_schemas():
    """The keyword parameters are written by hand for IDEs and type checkers; this keeps them to the schemas."""
    typed = {"daily": "boxoffice.daily", "weekly": "boxoffice.weekly", "detail": "movie.detail",
             "poster": "movie.poster", "search": "movie.search", "status": "worker.status",
             "people_search": "people.search", "people_detail": "people.detail", "company_search": "company.search",
             "company_detail": "company.detail", "codes": "codes.list", "movie_run": "movie.run",
             "movie_compare": "movie.compare"}
    for client in (AsyncWorker, Worker):
        for name, method in typed.items():
            parameters = inspect.signature(getattr(client, name)).parameters
            keywords = {snake_to_camel(key) for key in parameters if key not in ("self", "timeout", "on_progress")}
            assert keywords == set(PARAM_RULES[method]["properties"]), (client.__name__, name)


def snake_to_camel(name):
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def test_200_concurrent_calls_are_matched_by_id():
    async def body():
        async with offline() as worker:
            limits = [index % 10 + 1 for index in range(200)]
            results = await asyncio.gather(*(worker.daily(date="2022-01-05", limit=limit) for limit in limits))
            assert [len(result["entries"]) for result in results] == limits

    run(body())


def test_answers_out_of_order_reach_their_callers():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            # The first call is answered only once it is cancelled: the later ones overtake it, whatever the load.
            first = asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 60000}))
            await until_received(worker, 1)
            second, third = await asyncio.gather(worker.call("diagnostics.sleep", {"ms": 2}),
                                                 worker.call("diagnostics.sleep", {"ms": 1}))
            assert (second["sleptMs"], third["sleptMs"]) == (2, 1)
            assert not first.done()
            first.cancel()
            with pytest.raises(asyncio.CancelledError):
                await first
            assert await worker.call("ping") == {}

    run(body())


def test_progress_callbacks_arrive_in_order():
    async def body():
        seen = []
        async with offline() as worker:
            result = await worker.daily(date="2022-01-05", include=["detail"],
                                        on_progress=lambda progress, total, message: seen.append((progress, total)))
        assert result["entries"][0]["detail"]["movieCode"]
        assert [progress for progress, _ in seen] == list(range(1, 11))
        assert all(total == 10 for _, total in seen)

    run(body())


def test_cancelling_the_task_cancels_the_request_and_the_worker_keeps_serving():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            task = asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 20000}))
            await until_in_flight(worker, 1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert await worker.call("ping") == {}
            await until_status(worker, lambda requests: requests["cancelled"] == 1)

    run(body())


def test_a_timeout_raises_and_cancels_in_the_worker():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            started = time.monotonic()
            with pytest.raises(WorkerTimeout):
                await worker.call("diagnostics.sleep", {"ms": 20000}, timeout=0.3)
            assert time.monotonic() - started < 5
            assert await worker.call("ping") == {}

    run(body())


def test_a_killed_worker_fails_its_calls_and_the_next_call_starts_a_new_one():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            first = worker.pid
            pending = asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 20000}))
            await until_in_flight(worker, 1)
            os.kill(first, signal.SIGKILL)
            with pytest.raises(WorkerExited) as exited:
                await pending
            assert exited.value.returncode == -signal.SIGKILL
            assert await worker.call("ping") == {}
            assert worker.pid != first

    run(body())


def test_a_worker_writing_1_mib_to_stderr_does_not_deadlock():
    async def body():
        async with AsyncWorker(STUB) as worker:
            assert (await worker.call("flood", timeout=20))["flooded"] == 1 << 20
            assert await worker.call("ping") == {}

    run(body())


def test_an_answer_line_over_1_mib_is_read_whole():
    async def body():
        async with AsyncWorker(STUB) as worker:
            result = await worker.call("big", timeout=20)
            assert len(result["text"]) == 700 * 1024 and len(result["text"].encode()) > 1 << 20

    run(body())


def test_close_with_calls_in_flight_answers_them_all():
    async def body():
        worker = offline(args=["--diagnostics"])
        await worker.start()
        calls = [asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 300})) for _ in range(20)]
        await until_received(worker, 20)
        await worker.close()
        results = await asyncio.gather(*calls)
        assert all(result["sleptMs"] == 300 for result in results)

    run(body())


def test_the_synchronous_wrapper():
    with Worker(BINARY, env=OFFLINE) as worker:
        assert worker.daily(date="2023-04-26")["entries"][0]["title"] == "드림"
        assert worker.status()["mode"] == "offline"
        with pytest.raises(InvalidParams):
            worker.daily(date="tomorrow")
        assert worker.people_detail("20164556")["name"] == "김종현"
        assert worker.people_search()["total"] == 189403
        assert worker.company_detail("20122497")["ceo"] == "최광래"
        assert worker.company_search()["companies"][0]["companyCode"] == "20204225"
        assert worker.codes("region")["codes"][0]["name"] == "서울시"
        with pytest.raises(InvalidParams, match=r'unknown keyword "nmae" \(did you mean "name"\?\)'):
            worker.people_search(nmae="김")
        with pytest.raises(OfflineUnavailable):
            worker.people_detail("99999999")
        assert worker.movie_run("파묘")["milestones"][18] == {"audience": 10_000_000, "date": "2024-03-24", "day": 32}
        assert worker.movie_compare(["파묘", "범죄도시4"])["milestones"][18] == {"audience": 10_000_000, "days": [32, 22]}
        with pytest.raises(InvalidParams, match=r'"movies" must be an array'):
            worker.movie_compare("파묘")
