// Drive boxoffice-worker (Korean box office data over JSON-RPC on stdin/stdout) from Node. No dependencies.
//
// One reader matches answers to calls by id (answers come in any order) and splits stdout on newlines itself, so
// a line of any length is read whole; stderr is drained as it comes (to `onStderr`), so the worker never blocks on
// a full pipe. A worker that exits fails every pending call with WorkerExited; the next call starts a new one (at
// most `maxRestarts` within `restartWindowMs`).

import { spawn } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { described, isPlainObject, paramProblems } from "./params.js";

/** An error answer of the worker: its JSON-RPC `code`, `message`, `data.reason` and the whole `data`. */
export class WorkerError extends Error {
  constructor(code, message, data) {
    super(`${message} (${code})`);
    this.name = new.target.name;
    this.code = code;
    this.data = data ?? {};
    this.reason = this.data.reason;
  }
}
export class InvalidParams extends WorkerError {}
export class UpstreamUnavailable extends WorkerError {}
export class UpstreamRejected extends WorkerError {}
export class UpstreamMalformed extends WorkerError {}
export class NotFound extends WorkerError {}
export class QuotaExhausted extends WorkerError {}
export class OfflineUnavailable extends WorkerError {}
export class NotConfigured extends WorkerError {}
/** -31008: the disk under the cache directory is full; `data.directory` names it. */
export class StorageFull extends WorkerError {}
export class RequestCancelled extends WorkerError {}
export class ProtocolError extends WorkerError {}

/** The worker process ended while calls were pending (or could not be started again). */
export class WorkerExited extends Error {
  constructor(message, exitCode, signal, stderrTail) {
    super(stderrTail?.trim() ? `${message}: ${stderrTail.trim().slice(-500)}` : message);
    this.name = "WorkerExited";
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderrTail = stderrTail ?? "";
  }
}

/** A call took longer than its timeout; the request was cancelled in the worker. */
export class WorkerTimeout extends Error {
  constructor(message) {
    super(message);
    this.name = "WorkerTimeout";
  }
}

const BY_REASON = {
  invalid_params: InvalidParams,
  upstream_unavailable: UpstreamUnavailable,
  upstream_rejected: UpstreamRejected,
  upstream_malformed: UpstreamMalformed,
  not_found: NotFound,
  quota_exhausted: QuotaExhausted,
  offline_unavailable: OfflineUnavailable,
  not_configured: NotConfigured,
  storage_full: StorageFull,
};

function errorFromAnswer(error) {
  const code = Number(error?.code ?? -32603);
  const data = error?.data && typeof error.data === "object" ? error.data : {};
  if (code === -32800) return new RequestCancelled(code, String(error.message), data);
  const Kind = BY_REASON[data.reason] ?? (code === -32602 ? InvalidParams : ProtocolError);
  return new Kind(code, String(error?.message ?? "error"), data);
}

/** The platform package that carries the worker for this machine (an optional dependency; npm installs the one whose
 * `os` and `cpu` match), as esbuild and biome ship their binaries. */
export const PLATFORM_PACKAGES = { "linux x64": "@boxoffice-worker/linux-x64" };

/** The worker installed with this package (from its platform package), or undefined. */
export function bundledBinary() {
  const name = PLATFORM_PACKAGES[`${process.platform} ${process.arch}`];
  if (!name) return undefined;
  try {
    const candidate = createRequire(import.meta.url).resolve(`${name}/bin/boxoffice-worker`);
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return undefined;
  }
}

/** This package's own `npx` launcher: under `npx`, `npm exec` or after a global install, `boxoffice-worker` on PATH
 * is that launcher, which must never be taken for the worker (it would start itself, again and again). */
const LAUNCHER = fileURLToPath(new URL("./bin/boxoffice-worker.js", import.meta.url));

function isLauncher(candidate) {
  try {
    return realpathSync(candidate) === realpathSync(LAUNCHER);
  } catch {
    return false;
  }
}

/** The worker to run: `binary`, else `$BOXOFFICE_WORKER`, else the one installed with this package (its platform
 * package), else `boxoffice-worker` on PATH (never this package's own launcher). */
export function findBinary(binary) {
  if (binary) return binary;
  if (process.env.BOXOFFICE_WORKER) return process.env.BOXOFFICE_WORKER;
  const bundled = bundledBinary();
  if (bundled) return bundled;
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(folder, "boxoffice-worker");
    try {
      accessSync(candidate, constants.X_OK);
      if (!isLauncher(candidate)) return candidate;
    } catch {}
  }
  throw new Error(
    "boxoffice-worker is not installed: `npm install boxoffice-worker` brings it (linux-x64); or put it on PATH, " +
      "pass binary or set BOXOFFICE_WORKER",
  );
}

function compact(params) {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== null));
}

/** The options of one call, taken beside the params by the typed methods. */
const CALL_OPTIONS = ["timeoutMs", "signal", "onProgress"];

const OPTION_RULES = {
  timeoutMs: [(value) => typeof value === "number" && value >= 0, "a number of milliseconds"],
  signal: [(value) => typeof value?.addEventListener === "function" && "aborted" in value, "an AbortSignal"],
  onProgress: [(value) => typeof value === "function", "a function"],
};

/**
 * A typed method's arguments as the params to send and the call options, or InvalidParams (the class of the
 * worker's -32602) before anything is sent. `first` is the params, call options among them, or for a method with a
 * `bare` key that key's value alone (`daily("2022-01-05")` is `daily({ date: "2022-01-05" })`); `more` is the rest.
 * Keys and types are checked against the rules generated from Schemas/ (params.js); null and undefined mean absent.
 */
function typedArguments(method, bare, first, more) {
  const given = {};
  const problems = [];
  const refuse = (message, instanceLocation = "", keywordLocation = "/type") =>
    problems.push({ instanceLocation, keywordLocation, message });
  if (bare && typeof first === "string") given[bare] = first;
  else if (isPlainObject(first)) Object.assign(given, first);
  else if (first !== undefined && first !== null) {
    refuse(`the params must be an object${bare ? ` or a ${bare} string` : ""}, not ${described(first)}`);
  }
  if (isPlainObject(more)) {
    for (const [key, value] of Object.entries(more)) {
      if (key in given) refuse(`"${key}" is given twice`, `/${key}`, "");
      given[key] = value;
    }
  } else if (more !== undefined && more !== null) {
    refuse(`the params after the ${bare ?? "first argument"} must be an object, not ${described(more)}`);
  }
  const options = {};
  for (const key of CALL_OPTIONS) {
    if (!(key in given)) continue;
    const value = given[key];
    delete given[key];
    if (value === undefined || value === null) continue;
    const [holds, wanted] = OPTION_RULES[key];
    if (!holds(value)) refuse(`the call option "${key}" must be ${wanted}, not ${described(value)}`, "", "");
    options[key] = value;
  }
  problems.push(...paramProblems(method, given, CALL_OPTIONS));
  if (problems.length) {
    const message = `Invalid params for ${method}: ${problems.map((problem) => problem.message).join("; ")}`;
    throw new InvalidParams(-32602, message, { reason: "invalid_params", errors: problems.slice(0, 20) });
  }
  return { params: compact(given), options };
}

/** One worker subprocess, driven by many concurrent calls. */
export class Worker {
  constructor({ binary, args = [], env, timeoutMs, maxRestarts = 3, restartWindowMs = 60000, onStderr } = {}) {
    this.binary = findBinary(binary);
    this.args = args;
    this.env = env;
    this.timeoutMs = timeoutMs;
    this.maxRestarts = maxRestarts;
    this.restartWindowMs = restartWindowMs;
    this.onStderr = onStderr ?? (() => {});
    this.child = null;
    this.pending = new Map();
    this.progress = new Map();
    this.nextId = 1;
    this.starts = [];
    this.stderrTail = "";
    this.closing = false;
  }

  /** The running worker's process id. */
  get pid() {
    return this.child?.pid;
  }

  /** Starts the worker if none is running (calls do this themselves). */
  start() {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return;
    if (this.closing) throw new WorkerExited("the client is closed");
    const now = Date.now();
    this.starts = this.starts.filter((time) => now - time <= this.restartWindowMs);
    if (this.starts.length > this.maxRestarts) {
      throw new WorkerExited(`the worker exited ${this.starts.length} times; not starting it again`, null, null, this.stderrTail);
    }
    this.starts.push(now);
    const child = spawn(this.binary, this.args, {
      env: { ...process.env, ...(this.env ?? {}) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    child.stdin.on("error", () => {});
    // Only a line cut by a chunk's end is copied (into `partial`); whole lines are parsed where they lie.
    let partial = [];
    child.stdout.on("data", (chunk) => {
      let start = 0;
      let end = chunk.indexOf(10);
      if (end >= 0 && partial.length) {
        partial.push(chunk.subarray(0, end));
        this.dispatch(Buffer.concat(partial));
        partial = [];
        start = end + 1;
        end = chunk.indexOf(10, start);
      }
      for (; end >= 0; end = chunk.indexOf(10, start)) {
        this.dispatch(chunk.subarray(start, end));
        start = end + 1;
      }
      if (start < chunk.length) partial.push(chunk.subarray(start));
    });
    let pendingText = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text) => {
      this.stderrTail = (this.stderrTail + text).slice(-4000);
      pendingText += text;
      const lines = pendingText.split("\n");
      pendingText = lines.pop();
      for (const line of lines) this.onStderr(line);
    });
    child.exited = new Promise((resolve) => {
      child.on("close", (exitCode, signal) => {
        if (pendingText) this.onStderr(pendingText);
        const failure = new WorkerExited(
          `the worker exited (${signal ?? exitCode}) with a call pending`, exitCode, signal, this.stderrTail);
        for (const [id, call] of this.pending) {
          if (call.child === child) {
            this.pending.delete(id);
            call.reject(failure);
          }
        }
        resolve({ exitCode, signal });
      });
    });
    child.on("error", (error) => {
      for (const [id, call] of this.pending) {
        if (call.child === child) {
          this.pending.delete(id);
          call.reject(new WorkerExited(`the worker could not run: ${error.message}`));
        }
      }
    });
  }

  dispatch(line) {
    if (line.length === 0) return;
    let message;
    try {
      message = JSON.parse(line.toString("utf8"));
    } catch {
      this.onStderr(`not JSON on the worker's stdout: ${line.subarray(0, 200)}`);
      return;
    }
    for (const one of Array.isArray(message) ? message : [message]) {
      if (one?.method === "notifications/progress") {
        const params = one.params ?? {};
        this.progress.get(String(params.progressToken))?.(params.progress, params.total, params.message);
        continue;
      }
      const call = this.pending.get(one?.id);
      if (!call) continue;
      this.pending.delete(one.id);
      if (one.error) call.reject(errorFromAnswer(one.error));
      else call.resolve(one.result);
    }
  }

  cancelInWorker(id) {
    if (!this.child || this.child.stdin.destroyed) return;
    this.write(JSON.stringify({ jsonrpc: "2.0", method: "$/cancelRequest", params: { id } }) + "\n");
  }

  /**
   * Calls `method`; resolves with its result. Rejects with a WorkerError subclass for an error answer,
   * WorkerTimeout past `timeoutMs` (the request is then cancelled in the worker), WorkerExited if the worker dies
   * meanwhile, and the signal's reason when `signal` aborts (the request is cancelled in the worker). `params` go
   * as given: the worker checks them (the typed methods check them first, against the same schemas).
   */
  call(method, params, { timeoutMs, signal, onProgress } = {}) {
    return new Promise((resolve, reject) => {
      try {
        this.start();
      } catch (error) {
        reject(error);
        return;
      }
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const id = this.nextId++;
      const body = { ...(params ?? {}) };
      let token;
      if (onProgress) {
        token = `p${id}`;
        body._meta = { ...(body._meta ?? {}), progressToken: token };
        this.progress.set(token, onProgress);
      }
      const request = { jsonrpc: "2.0", id, method };
      if (Object.keys(body).length) request.params = body;
      let timer;
      const finish = () => {
        clearTimeout(timer);
        if (token) this.progress.delete(token);
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        finish();
        this.cancelInWorker(id);
        reject(signal.reason);
      };
      this.pending.set(id, {
        child: this.child,
        resolve: (value) => {
          finish();
          resolve(value);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      const limit = timeoutMs ?? this.timeoutMs;
      if (limit !== undefined) {
        timer = setTimeout(() => {
          if (!this.pending.has(id)) return;
          this.pending.delete(id);
          finish();
          this.cancelInWorker(id);
          reject(new WorkerTimeout(`${method} took longer than ${limit} ms; cancelled`));
        }, limit);
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      this.write(JSON.stringify(request) + "\n");
    });
  }

  /** Queues a request line; the lines of one tick go to the pipe in one write. */
  write(line) {
    const stdin = this.child.stdin;
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    stdin.write(line);
  }

  /**
   * Calls a typed method once its arguments check out (`typedArguments`); a refusal rejects the promise and sends
   * nothing.
   */
  typed(method, bare, first, more) {
    let checked;
    try {
      checked = typedArguments(method, bare, first, more);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.call(method, checked.params, checked.options);
  }

  /**
   * A day's box office (`boxoffice.daily`); default yesterday in Seoul. `daily("2022-01-05")`,
   * `daily("2022-01-05", { limit: 3 })` and `daily({ date: "2022-01-05", limit: 3 })` are the same call.
   */
  daily(params, more) {
    return this.typed("boxoffice.daily", "date", params, more);
  }

  /** A week's, weekend's or weekdays' box office (`boxoffice.weekly`); a bare string is any day of that week. */
  weekly(params, more) {
    return this.typed("boxoffice.weekly", "date", params, more);
  }

  /** A movie's details (`movie.detail`): `detail("20124079")` or `detail({ movieCode: "20124079" })`. */
  detail(movieCode, more) {
    return this.typed("movie.detail", "movieCode", movieCode, more);
  }

  /** A movie's poster (`movie.poster`), by title (`poster("광해, 왕이 된 남자")`) or `{ movieCode }`. */
  poster(params, more) {
    return this.typed("movie.poster", "title", params, more);
  }

  /** Movies by title and/or director (`movie.search`); a bare string is a title. */
  search(params, more) {
    return this.typed("movie.search", "title", params, more);
  }

  /**
   * A film's run from KOBIS's daily lists (`movie.run`), by title (`movieRun("파묘")`) or `{ movieCode }`: each day
   * from its previews to its last in a top 10, the day of each milestone and a summary. A title that names no film,
   * or several (listed in `data.candidates`), is InvalidParams; without `maxCalls`, a run needing more KOBIS calls
   * than today's quota leaves is refused before any call (QuotaExhausted).
   */
  movieRun(params, more) {
    return this.typed("movie.run", "title", params, more);
  }

  /**
   * 2 to 8 films' runs side by side, by day since each one's opening (`movie.compare`):
   * `movieCompare({ movies: ["파묘", "범죄도시4"] })`, each a movie code or a title. An object only: the films are no
   * bare string, and the limits (`maxCalls` for all of them together) go beside them.
   */
  movieCompare(params) {
    return this.typed("movie.compare", undefined, params);
  }

  /**
   * People by name and/or the title of a film of theirs (`people.search`); a bare string is a name:
   * `peopleSearch("김종현", { limit: 20 })` is `peopleSearch({ name: "김종현", limit: 20 })`.
   */
  peopleSearch(params, more) {
    return this.typed("people.search", "name", params, more);
  }

  /**
   * A person's details and filmography (`people.detail`): `peopleDetail("20164556")` or
   * `peopleDetail({ peopleCode: "20164556", include: ["movies"] })`, which adds each film's details.
   */
  peopleDetail(peopleCode, more) {
    return this.typed("people.detail", "peopleCode", peopleCode, more);
  }

  /** Companies by name, CEO and/or part (`company.search`); a bare string is a name. */
  companySearch(params, more) {
    return this.typed("company.search", "name", params, more);
  }

  /** A company's details and filmography (`company.detail`): `companyDetail("20122497")`. */
  companyDetail(companyCode, more) {
    return this.typed("company.detail", "companyCode", companyCode, more);
  }

  /** One of KOBIS's code lists (`codes.list`): `codes("region")` is `codes({ kind: "region" })`. */
  codes(kind, more) {
    return this.typed("codes.list", "kind", kind, more);
  }

  /** The worker's status (`worker.status`). */
  status(options) {
    return this.typed("worker.status", undefined, options);
  }

  /**
   * Closes stdin (end of input: the worker answers everything in flight), waits for it to exit, and terminates
   * it past `timeoutMs`.
   */
  async close({ timeoutMs = 10000 } = {}) {
    this.closing = true;
    const child = this.child;
    if (!child) return;
    child.stdin.end();
    let timer;
    const timedOut = new Promise((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    if ((await Promise.race([child.exited, timedOut])) === "timeout") {
      child.kill("SIGTERM");
      await child.exited;
    }
    clearTimeout(timer);
  }
}
