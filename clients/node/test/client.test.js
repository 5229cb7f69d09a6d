// The Node client against the built worker (offline, and live against a fake upstream on 127.0.0.1), and against
// a stub for what the worker never does on its own (a stderr flood, an answer line over 1 MiB).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { InvalidParams, OfflineUnavailable, Worker, WorkerExited, WorkerTimeout } from "../index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const binary = process.env.BOXOFFICE_WORKER_BINARY || join(root, ".build", "debug", "boxoffice-worker");
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
