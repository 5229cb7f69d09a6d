// The client's declarations; the method params and results come from types.d.ts, generated from Schemas/.
import type {
  BoxofficeDailyParams, BoxofficeDailyResult, BoxofficeWeeklyParams, BoxofficeWeeklyResult, CodesListParams,
  CodesListResult, CompanyDetailParams, CompanyDetailResult, CompanySearchParams, CompanySearchResult, Methods,
  MovieCompareParams, MovieCompareResult, MovieDetailParams, MovieDetailResult, MoviePosterParams, MoviePosterResult,
  MovieRunParams, MovieRunResult, MovieSearchParams, MovieSearchResult, PeopleDetailParams, PeopleDetailResult,
  PeopleSearchParams, PeopleSearchResult, WorkerStatusResult,
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

/**
 * An error answer of the worker, or the client's refusal of a typed method's params before anything is sent
 * (InvalidParams, code -32602, `data.errors` shaped like the worker's).
 */
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

/** The platform packages that carry the worker, by `${process.platform} ${process.arch}`. */
export const PLATFORM_PACKAGES: Record<string, string>;
/** The worker installed with this package (its platform package's binary), or undefined. */
export function bundledBinary(): string | undefined;
export function findBinary(binary?: string): string;

export class Worker {
  constructor(options?: WorkerOptions);
  readonly pid: number | undefined;
  start(): void;
  /** Sends `params` as given (the worker checks them). */
  call<M extends keyof Methods>(method: M, params?: Methods[M]["params"], options?: CallOptions): Promise<Methods[M]["result"]>;
  call(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  // The typed methods refuse an unknown key or a value of the wrong type with InvalidParams before anything is sent.
  /** A day's box office; `daily("2022-01-05")` is `daily({ date: "2022-01-05" })`. */
  daily(date: string, params?: Omit<BoxofficeDailyParams, "date"> & CallOptions): Promise<BoxofficeDailyResult>;
  daily(params?: BoxofficeDailyParams & CallOptions): Promise<BoxofficeDailyResult>;
  /** A week's, weekend's or weekdays' box office; a bare `date` is any day of that week. */
  weekly(date: string, params?: Omit<BoxofficeWeeklyParams, "date"> & CallOptions): Promise<BoxofficeWeeklyResult>;
  weekly(params?: BoxofficeWeeklyParams & CallOptions): Promise<BoxofficeWeeklyResult>;
  detail(movieCode: string, params?: Omit<MovieDetailParams, "movieCode"> & CallOptions): Promise<MovieDetailResult>;
  detail(params: MovieDetailParams & CallOptions): Promise<MovieDetailResult>;
  poster(
    title: string, params?: Omit<MoviePosterParams, "title" | "movieCode"> & CallOptions): Promise<MoviePosterResult>;
  poster(params: MoviePosterParams & CallOptions): Promise<MoviePosterResult>;
  search(title: string, params?: Omit<MovieSearchParams, "title"> & CallOptions): Promise<MovieSearchResult>;
  search(params: MovieSearchParams & CallOptions): Promise<MovieSearchResult>;
  /** A film's run from the daily lists; a bare string is a title. */
  movieRun(
    title: string, params?: Omit<MovieRunParams, "title" | "movieCode"> & CallOptions): Promise<MovieRunResult>;
  movieRun(params: MovieRunParams & CallOptions): Promise<MovieRunResult>;
  /** 2 to 8 films' runs side by side, by day since each one's opening: `movieCompare({ movies: [a, b] })`. */
  movieCompare(params: MovieCompareParams & CallOptions): Promise<MovieCompareResult>;
  /** People by name and/or a film's title; a bare string is a name. */
  peopleSearch(name: string, params?: Omit<PeopleSearchParams, "name"> & CallOptions): Promise<PeopleSearchResult>;
  peopleSearch(params?: PeopleSearchParams & CallOptions): Promise<PeopleSearchResult>;
  /** A person's details and filmography; `include: ["movies"]` adds each film's details. */
  peopleDetail(
    peopleCode: string, params?: Omit<PeopleDetailParams, "peopleCode"> & CallOptions): Promise<PeopleDetailResult>;
  peopleDetail(params: PeopleDetailParams & CallOptions): Promise<PeopleDetailResult>;
  /** Companies by name, CEO and/or part; a bare string is a name. */
  companySearch(
    name: string, params?: Omit<CompanySearchParams, "name"> & CallOptions): Promise<CompanySearchResult>;
  companySearch(params?: CompanySearchParams & CallOptions): Promise<CompanySearchResult>;
  companyDetail(
    companyCode: string, params?: Omit<CompanyDetailParams, "companyCode"> & CallOptions): Promise<CompanyDetailResult>;
  companyDetail(params: CompanyDetailParams & CallOptions): Promise<CompanyDetailResult>;
  /** One of KOBIS's code lists: `codes("region")`. */
  codes(kind: CodesListParams["kind"], params?: Omit<CodesListParams, "kind"> & CallOptions): Promise<CodesListResult>;
  codes(params: CodesListParams & CallOptions): Promise<CodesListResult>;
  status(options?: CallOptions): Promise<WorkerStatusResult>;
  close(options?: { timeoutMs?: number }): Promise<void>;
}
