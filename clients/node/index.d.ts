// The client's declarations; the method params and results come from types.d.ts, generated from Schemas/.
import type {
  BoxofficeDailyParams, BoxofficeDailyResult, BoxofficeWeeklyParams, BoxofficeWeeklyResult, Methods,
  MovieDetailResult, MoviePosterParams, MoviePosterResult, MovieSearchParams, MovieSearchResult, WorkerStatusResult,
} from "./types.js";

export * from "./types.js";

export type ProgressCallback = (progress: number, total?: number, message?: string) => void;

export interface CallOptions {
  /** Rejects with WorkerTimeout and cancels the request in the worker past this many milliseconds. */
  timeoutMs?: number;
  /** Aborting rejects the call with the signal's reason and cancels the request in the worker. */
  signal?: AbortSignal;
  /** Receives `notifications/progress` of this call (wired through `_meta.progressToken`). */
  onProgress?: ProgressCallback;
}

export interface WorkerOptions {
  /** The worker binary; default `$BOXOFFICE_WORKER`, else `boxoffice-worker` on PATH. */
  binary?: string;
  /** Flags for the worker, e.g. `["--cache-dir", "/var/cache/boxoffice"]`. */
  args?: string[];
  /** Environment added to this process's (e.g. `KOBIS_API_KEY`). */
  env?: Record<string, string>;
  /** The default per-call timeout. */
  timeoutMs?: number;
  maxRestarts?: number;
  restartWindowMs?: number;
  /** Each line the worker writes to stderr. */
  onStderr?: (line: string) => void;
}

export class WorkerError extends Error {
  code: number;
  reason?: string;
  data: Record<string, unknown>;
}
export class InvalidParams extends WorkerError {}
export class UpstreamUnavailable extends WorkerError {}
export class UpstreamRejected extends WorkerError {}
export class UpstreamMalformed extends WorkerError {}
export class NotFound extends WorkerError {}
export class QuotaExhausted extends WorkerError {}
export class OfflineUnavailable extends WorkerError {}
export class NotConfigured extends WorkerError {}
export class StorageFull extends WorkerError {}
export class RequestCancelled extends WorkerError {}
export class ProtocolError extends WorkerError {}
export class WorkerExited extends Error {
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
}
export class WorkerTimeout extends Error {}

export function findBinary(binary?: string): string;

export class Worker {
  constructor(options?: WorkerOptions);
  readonly pid: number | undefined;
  start(): void;
  call<M extends keyof Methods>(method: M, params?: Methods[M]["params"], options?: CallOptions): Promise<Methods[M]["result"]>;
  call(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  daily(params?: BoxofficeDailyParams & CallOptions): Promise<BoxofficeDailyResult>;
  weekly(params?: BoxofficeWeeklyParams & CallOptions): Promise<BoxofficeWeeklyResult>;
  detail(movieCode: string, options?: { refresh?: boolean } & CallOptions): Promise<MovieDetailResult>;
  poster(params: MoviePosterParams & CallOptions): Promise<MoviePosterResult>;
  search(params: MovieSearchParams & CallOptions): Promise<MovieSearchResult>;
  status(options?: CallOptions): Promise<WorkerStatusResult>;
  close(options?: { timeoutMs?: number }): Promise<void>;
}
