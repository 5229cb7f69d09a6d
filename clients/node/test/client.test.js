// The Node client against the built worker (offline, and live against a fake upstream on 127.0.0.1), and against
// a stub for what the worker never does on its own (a stderr flood, an answer line over 1 MiB).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { InvalidParams, NotFound, OfflineUnavailable, Worker, WorkerExited, WorkerTimeout } from "../index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * The worker under test: `$BOXOFFICE_WORKER` (the name the clients read), else `$BOXOFFICE_WORKER_BINARY` (the old
 * name, still taken, with one line on stderr), else the debug build.
 */
function workerBinary() {
  if (process.env.BOXOFFICE_WORKER) return process.env.BOXOFFICE_WORKER;
  if (process.env.BOXOFFICE_WORKER_BINARY) {
    process.stderr.write("BOXOFFICE_WORKER_BINARY is deprecated: set BOXOFFICE_WORKER, the name the clients read\n");
    return process.env.BOXOFFICE_WORKER_BINARY;
  }
  return join(root, ".build", "debug", "boxoffice-worker");
}

const binary = workerBinary();
const stub = join(root, "clients", "testing", "stub_worker.py");
const offlineEnv = { KOBIS_API_KEY: "", KAKAO_REST_API_KEY: "", BOXOFFICE_TODAY: "2026-11-21" };
const offline = (options = {}) => new Worker({ binary, env: offlineEnv, ...options });

let upstream;
let base;
before(async () => {
  upstream = spawn("python3", [join(root, "clients", "testing", "fake_upstream.py")], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve) => upstream.stdout.once("data", (data) => resolve(Number(String(data).trim()))));
  base = `http://127.0.0.1:${port}`;
});
after(() => upstream.kill());

test("every method offline", async () => {
  const worker = offline();
  try {
    const daily = await worker.daily({ date: "2023-04-26", limit: 3 });
    assert.equal(daily.kind, "daily");
    assert.equal(daily.entries.length, 3);
    assert.equal((await worker.weekly({ date: "2012-01-01", period: "weekend" })).kind, "weekend");
    assert.equal((await worker.detail("20124079")).title, "광해, 왕이 된 남자");
    assert.equal((await worker.poster({ title: "광해, 왕이 된 남자" })).found, true);
    assert.ok((await worker.search({ title: "범죄와의 전쟁", limit: 10 })).total >= 1);
    assert.equal((await worker.status()).mode, "offline");
    assert.deepEqual(await worker.call("ping"), {});
  } finally {
    await worker.close();
  }
});

/** `record` cut to `names` (a recorded answer may carry more). */
const fields = (record, ...names) => Object.fromEntries(names.map((name) => [name, record[name]]));

test("people, companies and codes offline", async () => {
  const worker = offline();
  try {
    const person = await worker.peopleDetail("20164556");
    assert.deepEqual(fields(person, "peopleCode", "name", "nameEnglish", "sex", "role", "homepages"), {
      peopleCode: "20164556", name: "김종현", nameEnglish: "Kim Hong-hyeon", sex: "male", role: "기획진행", homepages: [],
    });
    assert.deepEqual(person.filmography.map((film) => fields(film, "movieCode", "title", "part")), [
      { movieCode: "20080394", title: "비스티 보이즈", part: "기획진행" },
      { movieCode: "20070072", title: "우아한 세계", part: "제작팀" },
    ]);
    assert.equal(person.source.origin, "fixture");

    const people = await worker.peopleSearch();
    assert.deepEqual([people.total, people.page, people.people.length], [189403, 1, 10]);
    assert.deepEqual(fields(people.people[0], "peopleCode", "name", "nameEnglish", "role", "filmography"), {
      peopleCode: "20350945", name: "김교영", nameEnglish: null, role: "의상", filmography: ["기억의 재구성"],
    });

    const company = await worker.companyDetail("20122497");
    assert.deepEqual(fields(company, "companyCode", "name", "nameEnglish", "ceo", "parts"), {
      companyCode: "20122497", name: "(유)조이앤컨텐츠그룹", nameEnglish: "JOY N CONTENTS GROUP", ceo: "최광래",
      parts: ["제작사", "배급사", "수입사"],
    });
    assert.deepEqual(fields(company.filmography[0], "movieCode", "title", "parts"), {
      movieCode: "20173021", title: "더 건맨 : 테이큰 감독 뉴프로젝트", parts: ["배급사", "수입사"],
    });

    const companies = await worker.companySearch();
    assert.equal(companies.total, 12271);
    const first = fields(companies.companies[0], "companyCode", "name", "nameEnglish", "ceo", "parts", "filmography");
    assert.deepEqual(first, {
      companyCode: "20204225", name: "이트라필름", nameEnglish: null, ceo: "원태웅", parts: ["제작사"], filmography: [],
    });
    const seventh = companies.companies[6];
    assert.deepEqual([seventh.companyCode, seventh.parts, seventh.filmography.length], ["20203082", ["제작사", "배급사"], 4]);

    const regions = await worker.codes("region");
    assert.deepEqual([regions.kind, regions.comCode, regions.codes.length], ["region", "0105000000", 17]);
    assert.deepEqual(fields(regions.codes[0], "code", "name"), { code: "0105001", name: "서울시" });

    await assert.rejects(worker.peopleDetail("99999999"), (error) =>
      error instanceof OfflineUnavailable && error.code === -31006 && error.reason === "offline_unavailable");
  } finally {
    await worker.close();
  }
});

/** The run's day number of `date` (day 1 the opening), from the calendar. */
const dayOf = (date, openDate) => (Date.parse(date) - Date.parse(openDate)) / 86400000 + 1;

test("a film's run and a comparison offline", async () => {
  const worker = offline();
  try {
    const seen = [];
    const run = await worker.movieRun("파묘", { onProgress: (progress) => seen.push(progress) });
    assert.deepEqual([run.movieCode, run.title, run.openDate], ["20234675", "파묘", "2024-02-22"]);
    assert.deepEqual(run.milestones.filter((milestone) => milestone.audience === 10_000_000), [
      { audience: 10_000_000, date: "2024-03-24", day: 32 },
    ]);
    assert.equal(dayOf("2024-03-24", run.openDate), 32);
    assert.deepEqual([run.coverage.offline, run.coverage.stopped], [true, "ended"]);
    assert.ok(seen.length > 0 && seen.every((progress, index) => index === 0 || progress >= seen[index - 1]));
    // By code, the same run.
    assert.deepEqual((await worker.movieRun({ movieCode: "20234675" })).milestones, run.milestones);

    const compared = await worker.movieCompare({ movies: ["파묘", "범죄도시4"] });
    assert.deepEqual(compared.films.map((film) => [film.movieCode, film.title, film.openDate]), [
      ["20234675", "파묘", "2024-02-22"], ["20228797", "범죄도시4", "2024-04-24"],
    ]);
    const row = compared.milestones.filter((milestone) => milestone.audience === 10_000_000);
    // 범죄도시4 opened 2024-04-24 and passed ten million on 2024-05-15: day 22, ten days before 파묘's 32.
    assert.deepEqual(row, [{ audience: 10_000_000, days: [32, 22] }]);
    compared.films.forEach((film, index) => {
      const reached = film.milestones.find((milestone) => milestone.audience === 10_000_000);
      assert.equal(dayOf(reached.date, film.openDate), reached.day);
      assert.equal(reached.day, row[0].days[index]);
    });

    // Offline, a title no recorded search covers is not known to name no film: the worker says it has no recording
    // (live, the same title is NotFound: "a title naming no film is NotFound").
    await assert.rejects(worker.movieRun("없는 영화"), (error) =>
      error instanceof OfflineUnavailable && error.code === -31006 && error.reason === "offline_unavailable");
  } finally {
    await worker.close();
  }
});

test("a title naming no film is NotFound; one naming several is InvalidParams", async () => {
  const cache = mkdtempSync(join(tmpdir(), "bo-node-"));
  const worker = new Worker({
    binary,
    env: {
      KOBIS_API_KEY: "test-kobis-key", KAKAO_REST_API_KEY: "test-kakao-key", KOBIS_BASE_URL: `${base}/kobis`,
      KAKAO_BASE_URL: `${base}/kakao`, BOXOFFICE_CACHE_DIR: cache, BOXOFFICE_TODAY: "2026-11-21",
    },
  });
  try {
    // The fake KOBIS answers this title's search with no film (NO_FILM_TITLE in fake_upstream.py).
    await assert.rejects(worker.movieRun("없는 영화"), (error) =>
      error instanceof NotFound && error.code === -31004 && error.reason === "not_found" &&
      /no KOBIS film is titled "없는 영화"/.test(error.message));
    // In a comparison the error names the film (the first, 광해, is one the fake KOBIS has).
    await assert.rejects(worker.movieCompare({ movies: ["20124079", "없는 영화"] }), (error) =>
      error instanceof NotFound && /"없는 영화"/.test(error.message));
    // Every other title searched answers the one recorded search: five films, none titled "전쟁".
    await assert.rejects(worker.movieRun({ title: "전쟁" }), (error) =>
      error instanceof InvalidParams && error.data.candidates.length === 5 &&
      error.data.candidates.some((film) => film.movieCode === "20113557" && film.openDate === "2012-02-02"));
  } finally {
    await worker.close();
    rmSync(cache, { recursive: true, force: true });
  }
});

test("the run methods send the worker's names", async () => {
  const worker = new Worker({ binary: stub, args: ["--echo"] });
  try {
    assert.deepEqual(
      await worker.movieRun("파묘", { through: "2024-06-30", days: 60, maxCalls: 30, diversity: false, refresh: true }), {
        method: "movie.run",
        params: { title: "파묘", through: "2024-06-30", days: 60, maxCalls: 30, diversity: false, refresh: true },
      });
    assert.deepEqual(await worker.movieRun({ movieCode: "20234675", maxCalls: 0 }), {
      method: "movie.run", params: { movieCode: "20234675", maxCalls: 0 },
    });
    assert.deepEqual(await worker.movieCompare({ movies: ["파묘", "범죄도시4"], diversity: true }), {
      method: "movie.compare", params: { movies: ["파묘", "범죄도시4"], diversity: true },
    });
  } finally {
    await worker.close();
  }
});

test("the run methods refuse before anything is sent", async () => {
  const worker = offline();
  try {
    const errors = await refusedBeforeSending(worker, [
      () => worker.movieRun("파묘", { maxCall: 30 }),
      () => worker.movieRun({ movieCode: 20234675 }),
      () => worker.movieRun("파묘", { through: "2024/06/30" }),
      () => worker.movieRun("파묘", { max_calls: 30 }),
      () => worker.movieCompare({ movies: "파묘" }),
      () => worker.movieCompare({ movies: ["파묘", 20228797] }),
      () => worker.movieCompare({ movies: ["파묘", "범죄도시4"], days: "60" }),
      () => worker.movieCompare(["파묘", "범죄도시4"]),
    ]);
    const messages = errors.map((error) => error.message);
    assert.match(messages[0], /Invalid params for movie\.run: unknown key "maxCall" \(did you mean "maxCalls"\?\)/);
    assert.match(messages[1], /"movieCode" must be a string, not the integer 20234675/);
    assert.match(messages[2], /"through" must be a date as YYYY-MM-DD, not "2024\/06\/30"/);
    assert.match(messages[3], /"max_calls" \(did you mean "maxCalls"\?\)/);
    assert.match(messages[4], /"movies" must be an array, not the string "파묘"/);
    assert.match(messages[5], /"movies\[1\]" must be a string, not the integer 20228797/);
    assert.equal(errors[5].data.errors[0].instanceLocation, "/movies/1");
    assert.match(messages[6], /"days" must be an integer, not the string "60"/);
    assert.match(messages[7], /the params must be an object, not an array/);
  } finally {
    await worker.close();
  }
});

test("the people, company and code methods send the worker's names", async () => {
  const worker = new Worker({ binary: stub, args: ["--echo"] });
  try {
    assert.deepEqual(await worker.peopleSearch("김종현", { filmography: "우아한 세계", page: 2, limit: 5, refresh: true }), {
      method: "people.search",
      params: { name: "김종현", filmography: "우아한 세계", page: 2, limit: 5, refresh: true },
    });
    assert.deepEqual(await worker.peopleSearch(), { method: "people.search", params: null });
    assert.deepEqual(await worker.peopleDetail({ peopleCode: "20164556", include: ["movies"] }), {
      method: "people.detail", params: { peopleCode: "20164556", include: ["movies"] },
    });
    assert.deepEqual(await worker.companySearch("조이앤", { ceo: "최광래", page: 2, limit: 100 }), {
      method: "company.search", params: { name: "조이앤", ceo: "최광래", page: 2, limit: 100 },
    });
    assert.deepEqual(await worker.companyDetail("20122497", { refresh: true }), {
      method: "company.detail", params: { companyCode: "20122497", refresh: true },
    });
    assert.deepEqual(await worker.codes("companyPart"), { method: "codes.list", params: { kind: "companyPart" } });
    assert.deepEqual(await worker.codes({ kind: "region", refresh: true }), {
      method: "codes.list", params: { kind: "region", refresh: true },
    });
    // A region's name is an area as its code is: sent as given, for the worker to resolve.
    assert.deepEqual(await worker.daily("2023-04-26", { area: "서울시" }), {
      method: "boxoffice.daily", params: { date: "2023-04-26", area: "서울시" },
    });
    assert.deepEqual(await worker.weekly("2023-04-23", { area: "Seoul" }), {
      method: "boxoffice.weekly", params: { date: "2023-04-23", area: "Seoul" },
    });
  } finally {
    await worker.close();
  }
});

test("every method live against a fake upstream", async () => {
  const cache = mkdtempSync(join(tmpdir(), "bo-node-"));
  const worker = new Worker({
    binary,
    env: {
      KOBIS_API_KEY: "test-kobis-key", KAKAO_REST_API_KEY: "test-kakao-key", KOBIS_BASE_URL: `${base}/kobis`,
      KAKAO_BASE_URL: `${base}/kakao`, BOXOFFICE_CACHE_DIR: cache,
      BOXOFFICE_TODAY: "2026-11-21",
      // The fake upstream serves its images from loopback, where downloads go only when allowed.
      BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS: "1",
    },
  });
  try {
    assert.equal((await worker.daily({ date: "2023-04-26" })).entries.length, 10);
    assert.equal((await worker.weekly({ date: "2012-01-01", period: "weekend" })).kind, "weekend");
    assert.equal((await worker.detail("20124079")).movieCode, "20124079");
    const poster = await worker.poster({ title: "광해, 왕이 된 남자", download: true });
    assert.equal(poster.file.mimeType, "image/jpeg");
    assert.ok((await worker.search({ title: "범죄와의 전쟁" })).total >= 1);
    assert.equal((await worker.status()).mode, "live");
  } finally {
    await worker.close();
    rmSync(cache, { recursive: true, force: true });
  }
});

test("errors are classes by reason", async () => {
  const worker = offline();
  try {
    await assert.rejects(worker.daily({ date: "2022-02-30" }), (error) => error instanceof InvalidParams && error.code === -32602);
    await assert.rejects(worker.daily({ date: "2020-01-01" }),
      (error) => error instanceof OfflineUnavailable && error.data.available.includes("2023-04-26"));
  } finally {
    await worker.close();
  }
});

/** The worker's count of requests received (worker.status counts itself: one more per look). */
const received = async (worker) => (await worker.status()).requests.requests;

/** Runs `refusals` (calls that must be refused by the client) and proves the worker received none of them. */
async function refusedBeforeSending(worker, refusals) {
  const before = await received(worker);
  const errors = [];
  for (const refusal of refusals) {
    await assert.rejects(refusal(), (error) => {
      errors.push(error);
      return error instanceof InvalidParams && error.code === -32602 && error.reason === "invalid_params";
    });
  }
  assert.equal(await received(worker), before + 1, "only the second worker.status reached the worker");
  return errors;
}

test("an unknown key is refused before anything is sent", async () => {
  // A client that has sent nothing has not even started its worker.
  const unstarted = offline();
  try {
    await assert.rejects(unstarted.daily({ data: "2022-01-05" }), InvalidParams);
    assert.equal(unstarted.pid, undefined);
  } finally {
    await unstarted.close();
  }
  const worker = offline();
  try {
    const errors = await refusedBeforeSending(worker, [
      () => worker.daily({ date: "2022-01-05", colour: "red" }),
      () => worker.weekly("2023-04-23", { perod: "week" }),
      () => worker.detail("20124079", { force: true }),
      () => worker.search({ title: "광해", years: 2012 }),
      () => worker.status({ verbose: true }),
    ]);
    assert.match(errors[0].message, /unknown key "colour"/);
    assert.deepEqual(errors[0].data.errors, [{
      instanceLocation: "/colour", keywordLocation: "/additionalProperties", message: errors[0].data.errors[0].message,
    }]);
    assert.match(errors[1].message, /"perod" \(did you mean "period"\?\)/);
    assert.match(errors[4].message, /unknown key "verbose"; it takes no params/);
  } finally {
    await worker.close();
  }
});

test("a misspelled key is refused with the key it was meant as", async () => {
  const worker = offline();
  try {
    const errors = await refusedBeforeSending(worker, [
      () => worker.daily({ data: "2022-01-05" }),
      () => worker.daily({ date: "2022-01-05", multi_movie: true }),
      () => worker.poster({ title: "광해, 왕이 된 남자", downlod: true }),
      () => worker.daily({ date: "2022-01-05", timeout: 1000 }),
      () => worker.daily({ date: "2022-01-05", nation: "Korean" }),
    ]);
    assert.match(errors[0].message, /unknown key "data" \(did you mean "date"\?\)/);
    assert.equal(errors[0].data.errors[0].instanceLocation, "/data");
    assert.match(errors[1].message, /"multi_movie" \(did you mean "multiMovie"\?\)/);
    assert.match(errors[2].message, /"downlod" \(did you mean "download"\?\)/);
    assert.match(errors[3].message, /"timeout" \(did you mean "timeoutMs"\?\)/);
    assert.match(errors[4].message,
      /"nation" must be one of "korean", "foreign", not the string "Korean" \(did you mean "korean"\?\)/);
  } finally {
    await worker.close();
  }
});

test("a value of the wrong type is refused before anything is sent", async () => {
  const worker = offline();
  try {
    const errors = await refusedBeforeSending(worker, [
      () => worker.daily({ date: "2022-01-05", limit: "3" }),
      () => worker.daily(20220105),
      () => worker.daily(new Date(2022, 0, 5)),
      () => worker.daily({ date: "2022/01/05" }),
      () => worker.daily({ date: "2022-01-05", include: "detail" }),
      () => worker.daily({ date: "2022-01-05", include: ["details"] }),
      () => worker.weekly({ date: "2023-04-23", multiMovie: "yes" }),
      () => worker.detail(20124079),
      () => worker.daily({ date: "2022-01-05", onProgress: "log" }),
    ]);
    const messages = errors.map((error) => error.message);
    assert.match(messages[0], /"limit" must be an integer, not the string "3"/);
    assert.equal(errors[0].data.errors[0].keywordLocation, "/properties/limit/type");
    assert.match(messages[1], /must be an object or a date string, not the integer 20220105/);
    assert.match(messages[2], /not a Date/);
    assert.match(messages[3], /"date" must be a date as YYYY-MM-DD, not "2022\/01\/05"/);
    assert.match(messages[4], /"include" must be an array, not the string "detail"/);
    assert.match(messages[5], /"include\[0\]" must be one of "detail", "poster", not the string "details"/);
    assert.equal(errors[5].data.errors[0].instanceLocation, "/include/0");
    assert.match(messages[6], /"multiMovie" must be a boolean/);
    assert.match(messages[7], /must be an object or a movieCode string, not the integer 20124079/);
    assert.match(messages[8], /"onProgress" must be a function/);
  } finally {
    await worker.close();
  }
});

test("the people, company and code methods refuse before anything is sent", async () => {
  const worker = offline();
  try {
    const errors = await refusedBeforeSending(worker, [
      () => worker.peopleSearch({ nme: "김" }),
      () => worker.peopleSearch({ limit: "3" }),
      () => worker.peopleDetail(20164556),
      () => worker.peopleDetail("20164556", { include: "movies" }),
      () => worker.companySearch({ parts: "배급사" }),
      () => worker.companyDetail("20122497", { include: ["movies"] }),
      () => worker.codes("regoin"),
      () => worker.codes("region", { kind: "nation" }),
    ]);
    const messages = errors.map((error) => error.message);
    assert.match(messages[0], /Invalid params for people\.search: unknown key "nme" \(did you mean "name"\?\)/);
    assert.match(messages[1], /"limit" must be an integer, not the string "3"/);
    assert.match(messages[2], /must be an object or a peopleCode string, not the integer 20164556/);
    assert.match(messages[3], /"include" must be an array, not the string "movies"/);
    assert.match(messages[4], /unknown key "parts" \(did you mean "part"\?\)/);
    assert.match(messages[5], /Invalid params for company\.detail: unknown key "include"/);
    assert.match(messages[6], /"kind" must be one of .* not the string "regoin" \(did you mean "region"\?\)/);
    assert.match(messages[7], /"kind" is given twice/);
  } finally {
    await worker.close();
  }
});

test("a people.search limit over 100 is the worker's to refuse", async () => {
  const worker = offline();
  try {
    // Ranges are not among the client's rules (params.js): the call is sent, and the worker answers -32602.
    const before = await received(worker);
    await assert.rejects(worker.peopleSearch({ limit: 101 }), (error) =>
      error instanceof InvalidParams && error.code === -32602 &&
      error.data.errors.some((problem) => problem.instanceLocation === "/limit"));
    assert.equal(await received(worker), before + 2, "the people.search and the second worker.status");
  } finally {
    await worker.close();
  }
});

test("a bare date string answers for that day", async () => {
  const worker = offline();
  try {
    // Offline, the default day is the latest recorded one (2023-04-26), so 2022-01-05 is answered only if sent.
    assert.notEqual((await worker.daily()).range.start, "2022-01-05");
    const daily = await worker.daily("2022-01-05");
    assert.deepEqual(daily.range, { start: "2022-01-05", end: "2022-01-05" });
    const limited = await worker.daily("2022-01-05", { limit: 3 });
    assert.equal(limited.range.start, "2022-01-05");
    assert.equal(limited.entries.length, 3);
    assert.notEqual((await worker.weekly()).range.end, "2023-04-23");
    const weekly = await worker.weekly("2023-04-23", { period: "week" });
    assert.deepEqual([weekly.kind, weekly.range.end], ["week", "2023-04-23"]);
    assert.equal((await worker.poster("광해, 왕이 된 남자")).found, true);
    await assert.rejects(worker.daily("2022-01-05", { date: "2023-04-26" }), /"date" is given twice/);
  } finally {
    await worker.close();
  }
});

test("200 concurrent calls are matched by id", async () => {
  const worker = offline();
  try {
    const limits = Array.from({ length: 200 }, (_, index) => (index % 10) + 1);
    const results = await Promise.all(limits.map((limit) => worker.daily({ date: "2022-01-05", limit })));
    assert.deepEqual(results.map((result) => result.entries.length), limits);
  } finally {
    await worker.close();
  }
});

test("answers out of order reach their callers", async () => {
  const worker = offline({ args: ["--diagnostics"] });
  try {
    // The first call is answered only once it is aborted: the later ones overtake it, whatever the load.
    const controller = new AbortController();
    let firstSettled = false;
    const first = worker.call("diagnostics.sleep", { ms: 60000 }, { signal: controller.signal });
    first.catch(() => {}).finally(() => { firstSettled = true; });
    await untilReceived(worker, 1);
    const [second, third] = await Promise.all([
      worker.call("diagnostics.sleep", { ms: 2 }), worker.call("diagnostics.sleep", { ms: 1 }),
    ]);
    assert.deepEqual([second.sleptMs, third.sleptMs], [2, 1]);
    assert.equal(firstSettled, false);
    controller.abort(new Error("overtaken"));
    await assert.rejects(first, /overtaken/);
  } finally {
    await worker.close();
  }
});

test("progress callbacks arrive in order", async () => {
  const worker = offline();
  try {
    const seen = [];
    await worker.daily({ date: "2022-01-05", include: ["detail"], onProgress: (progress, total) => seen.push([progress, total]) });
    assert.deepEqual(seen.map(([progress]) => progress), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.ok(seen.every(([, total]) => total === 10));
  } finally {
    await worker.close();
  }
});

/** Asks worker.status until `holds(requests)` is true: a state the worker reports, never a guessed time. */
async function untilStatus(worker, holds, withinMs = 30000) {
  const deadline = Date.now() + withinMs;
  let requests;
  while (Date.now() < deadline) {
    requests = (await worker.status()).requests;
    if (holds(requests)) return requests;
  }
  throw new Error(`the worker never reported the state waited for: ${JSON.stringify(requests)}`);
}

/**
 * Until the worker has received `count` requests besides the worker.status calls made here to ask (a count that only
 * grows, so a call that already finished still counts).
 */
function untilReceived(worker, count) {
  let asked = 0;
  return untilStatus(worker, (requests) => {
    asked += 1;
    return requests.requests - asked >= count;
  });
}

/** Until `count` calls are in flight in the worker (worker.status, answered at once, is not among them). */
const untilInFlight = (worker, count) => untilStatus(worker, (requests) => requests.inFlight >= count);

test("aborting a call cancels it in the worker, which keeps serving", async () => {
  const worker = offline({ args: ["--diagnostics"] });
  try {
    const controller = new AbortController();
    const call = worker.call("diagnostics.sleep", { ms: 20000 }, { signal: controller.signal });
    await untilInFlight(worker, 1);
    controller.abort(new Error("the user gave up"));
    await assert.rejects(call, /the user gave up/);
    assert.deepEqual(await worker.call("ping"), {});
    await untilStatus(worker, (requests) => requests.cancelled === 1);
  } finally {
    await worker.close();
  }
});

test("a timeout rejects and cancels in the worker", async () => {
  const worker = offline({ args: ["--diagnostics"] });
  try {
    await assert.rejects(worker.call("diagnostics.sleep", { ms: 20000 }, { timeoutMs: 300 }), WorkerTimeout);
    assert.deepEqual(await worker.call("ping"), {});
  } finally {
    await worker.close();
  }
});

test("a killed worker fails its calls, and the next call starts a new one", async () => {
  const worker = offline({ args: ["--diagnostics"] });
  try {
    await worker.call("ping");
    const first = worker.pid;
    const pending = worker.call("diagnostics.sleep", { ms: 20000 });
    await untilInFlight(worker, 1);
    process.kill(first, "SIGKILL");
    await assert.rejects(pending, (error) => error instanceof WorkerExited && error.signal === "SIGKILL");
    assert.deepEqual(await worker.call("ping"), {});
    assert.notEqual(worker.pid, first);
  } finally {
    await worker.close();
  }
});

test("a worker writing 1 MiB to stderr does not deadlock", async () => {
  let stderrBytes = 0;
  const worker = new Worker({ binary: stub, onStderr: (line) => (stderrBytes += line.length + 1) });
  try {
    assert.equal((await worker.call("flood", {}, { timeoutMs: 20000 })).flooded, 1 << 20);
    assert.equal(stderrBytes, 1 << 20);
  } finally {
    await worker.close();
  }
});

test("an answer line over 1 MiB is read whole", async () => {
  const worker = new Worker({ binary: stub });
  try {
    const result = await worker.call("big", {}, { timeoutMs: 20000 });
    assert.equal(result.text.length, 700 * 1024);
    assert.ok(Buffer.byteLength(result.text) > 1 << 20);
  } finally {
    await worker.close();
  }
});

test("close with calls in flight answers them all", async () => {
  const worker = offline({ args: ["--diagnostics"] });
  const calls = Array.from({ length: 20 }, () => worker.call("diagnostics.sleep", { ms: 300 }));
  await untilReceived(worker, 20);
  await worker.close();
  const results = await Promise.all(calls);
  assert.ok(results.every((result) => result.sleptMs === 300));
});
