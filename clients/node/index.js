// Drive boxoffice-worker (Korean box office data over JSON-RPC on stdin/stdout) from Node. No dependencies.
//
// One reader matches answers to calls by id (answers come in any order) and splits stdout on newlines itself, so
// a line of any length is read whole; stderr is drained as it comes (to `onStderr`), so the worker never blocks on
// a full pipe. A worker that exits fails every pending call with WorkerExited; the next call starts a new one (at
// most `maxRestarts` within `restartWindowMs`).

import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

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

/** The worker to run: `binary`, else `$BOXOFFICE_WORKER`, else `boxoffice-worker` on PATH. */
export function findBinary(binary) {
  if (binary) return binary;
  if (process.env.BOXOFFICE_WORKER) return process.env.BOXOFFICE_WORKER;
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(folder, "boxoffice-worker");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  throw new Error("boxoffice-worker is not on PATH; pass binary or set BOXOFFICE_WORKER");
}

function compact(params) {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== null));
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
   * meanwhile, and the signal's reason when `signal` aborts (the request is cancelled in the worker).
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

  /** A day's box office (`boxoffice.daily`); default yesterday in Seoul. */
  daily({ date, limit, include, nation, multiMovie, area, refresh, ...options } = {}) {
    return this.call("boxoffice.daily", compact({ date, limit, include, nation, multiMovie, area, refresh }), options);
  }

  /** A week's, weekend's or weekdays' box office (`boxoffice.weekly`). */
  weekly({ date, period, limit, include, nation, multiMovie, area, refresh, ...options } = {}) {
    return this.call(
      "boxoffice.weekly", compact({ date, period, limit, include, nation, multiMovie, area, refresh }), options);
  }

  /** A movie's details (`movie.detail`). */
  detail(movieCode, { refresh, ...options } = {}) {
    return this.call("movie.detail", compact({ movieCode, refresh }), options);
  }

  /** A movie's poster (`movie.poster`), by title or movie code. */
  poster({ title, movieCode, download, refresh, ...options } = {}) {
    return this.call("movie.poster", compact({ title, movieCode, download, refresh }), options);
  }

  /** Movies by title and/or director (`movie.search`). */
  search({ title, director, year, page, limit, ...options } = {}) {
    return this.call("movie.search", compact({ title, director, year, page, limit }), options);
  }

  /** The worker's status (`worker.status`). */
  status(options = {}) {
    return this.call("worker.status", undefined, options);
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
