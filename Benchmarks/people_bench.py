"""People benchmark: figures printed side by side with their baselines; asserts nothing.

Cached: a people.detail answered from a warm cache, its round trip p50 (pingpong.c) beside a cached movie.detail's
and a ping's, in the same run, against the same cache.
Filmography: people.detail with include ["movies"] for a person with 20 films, neither cached (a fresh cache
directory and a fresh worker each round), a fake KOBIS on 127.0.0.1 adding DELAY ms to every call: its time against
the two-round-trip floor (the person, then the 20 films together: 2 x DELAY) and against the same calls made
directly by an asyncio client. Measured in a running worker (one call made before, so the store is open and the
quota's day started) and in a fresh one (the store is created by the request itself).
"""
import argparse
import asyncio
import json
import os
import statistics
import time

import cache_bench

PERSON = "20990001"


def films(fixtures):
    codes = sorted(name[6:-5] for name in os.listdir(os.path.join(fixtures, "kobis")) if name.startswith("movie-"))
    return codes[:20]


def person_body(codes):
    filmos = [{"movieCd": code, "movieNm": "영화 %s" % code, "moviePartNm": "감독"} for code in codes]
    info = {"peopleCd": PERSON, "peopleNm": "다작 감독", "peopleNmEn": "", "sex": "", "repRoleNm": "감독",
            "homepages": [], "filmos": filmos}
    return json.dumps({"peopleInfoResult": {"peopleInfo": info, "source": "영화진흥위원회"}}, ensure_ascii=False).encode()


def direct(kobis, codes, rounds):
    """The same two waves made directly by a small asyncio client on new connections, as a cold worker makes them:
    the floor as this fake upstream and this machine allow it (the server's own work included)."""
    async def once():
        await cache_bench.get(kobis.port, "/people/searchPeopleInfo.json?peopleCd=%s&key=x" % PERSON)
        await asyncio.gather(*[cache_bench.get(kobis.port, "/movie/searchMovieInfo.json?movieCd=%s&key=x" % code)
                               for code in codes])

    samples = []
    for _ in range(rounds):
        begin = time.perf_counter()
        asyncio.run(once())
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--pingpong", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--delay-ms", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pings", type=int, default=5000)
    options = parser.parse_args()
    codes = films(options.fixtures)
    body = person_body(codes)
    movie_respond = cache_bench.respond

    def respond(path, query):
        if path.endswith("searchPeopleInfo.json"):
            return body
        return movie_respond(path, query)

    cache_bench.SHARED, cache_bench.FIXTURES = "/nonexistent", options.fixtures
    cache_bench.respond = respond
    cache_bench.DELAY = options.delay_ms / 1000
    kobis, kakao = cache_bench.serve(), cache_bench.serve()

    line = ('{"jsonrpc":"2.0","id":1,"method":"people.detail","params":{"peopleCode":"%s","include":["movies"]}}'
            % PERSON)
    def rounds(warm_up):
        samples = []
        for round_index in range(options.rounds):
            process = cache_bench.start(
                options.worker, cache_bench.environment(kobis, kakao, cache_bench.fresh_cache()))
            cache_bench.ask(process, warm_up)
            begin = time.perf_counter()
            answer = json.loads(cache_bench.ask(process, line))
            samples.append(time.perf_counter() - begin)
            process.stdin.close()
            process.wait()
            films = answer["result"]["filmography"]
            complete = sum(1 for film in films if film.get("movie") and not film.get("errors"))
            if complete != len(codes):
                raise SystemExit("filmography round %d: %d of %d films complete" % (round_index, complete, len(codes)))
        return statistics.median(samples) * 1000

    floor = 2 * options.delay_ms
    print("people.detail include movies, %d films, neither cached, upstream +%.0f ms per call"
          % (len(codes), options.delay_ms))
    # A running worker: one KOBIS call before (a code list) has opened the store, started the quota's day and
    # connected to KOBIS, as in a worker that has answered anything before.
    running = rounds('{"jsonrpc":"2.0","id":0,"method":"codes.list","params":{"kind":"region"}}')
    print("  a running worker p50: %7.1f ms   floor (2 round trips) %.0f ms -> %.2f x the floor [target <= 1.1]"
          % (running, floor, running / floor))
    # A fresh worker and a fresh cache directory: the store is created by this request.
    fresh = rounds('{"jsonrpc":"2.0","id":0,"method":"ping"}')
    print("  a fresh worker, fresh cache directory p50: %5.1f ms -> %.2f x the floor (the store created on the way)"
          % (fresh, fresh / floor))
    made_directly = direct(kobis, codes, options.rounds)
    print("  the same calls made directly (asyncio client): %.1f ms (%.2f x the floor) -> a running worker is %.2f x that"
          % (made_directly, made_directly / floor, running / made_directly))

    # Warm: one process fills the cache with the person and a movie, then pingpong measures cached round trips.
    cache_bench.DELAY = 0
    env = cache_bench.environment(kobis, kakao, cache_bench.fresh_cache())
    person_line = '{"jsonrpc":"2.0","id":1,"method":"people.detail","params":{"peopleCode":"%s"}}' % PERSON
    movie_line = '{"jsonrpc":"2.0","id":1,"method":"movie.detail","params":{"movieCode":"%s"}}' % codes[0]
    filler = cache_bench.start(options.worker, env)
    cache_bench.ask(filler, person_line)
    cache_bench.ask(filler, movie_line)
    filler.stdin.close()
    filler.wait()
    command = [options.worker, "--today", "2026-11-21"]
    ping = cache_bench.pingpong(options.pingpong, command, env, options.pings)
    movie = cache_bench.pingpong(options.pingpong, command, env, options.pings, movie_line)
    person = cache_bench.pingpong(options.pingpong, command, env, options.pings, person_line)
    print("warm cache, round trip p50: people.detail %.1f µs, movie.detail %.1f µs (%+.1f µs) [target within 10 µs]; "
          "a ping %.1f µs" % (person, movie, person - movie, ping))
    kobis.shutdown()
    kakao.shutdown()


if __name__ == "__main__":
    main()
