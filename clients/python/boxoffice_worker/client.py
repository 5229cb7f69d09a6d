"""The asyncio client and its synchronous wrapper."""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import logging
import importlib.metadata
import os
import pathlib
import shutil
import threading
import time
import weakref
from typing import (TYPE_CHECKING, Any, Callable, Coroutine, Deque, Dict, List, Mapping, Optional, Sequence, TypeVar,
                    cast)

from .errors import WorkerExited, WorkerTimeout, from_answer
from .params import checked
from .types import (
    BoxofficeDailyResult,
    BoxofficeWeeklyResult,
    MovieDetailResult,
    MoviePosterResult,
    MovieSearchResult,
    WorkerStatusResult,
)

if TYPE_CHECKING:
    # Named for type checkers only (annotations are not evaluated), so that importing the client never depends on
    # them: the generator names a param's values after the key only while every method agrees on them (`IncludeItem`
    # becomes `BoxofficeDailyIncludeItem` once another method's `include` takes other values). The results imported
    # here are cast by their names as strings.
    from .types import (
        BoxofficeDailyIncludeItem,
        Card,
        Chat,
        BoxofficeWeeklyIncludeItem,
        CodesListResult,
        CompanyDetailResult,
        CompanySearchResult,
        Kind,
        MovieCompareResult,
        MovieRunResult,
        Nation,
        PeopleDetailIncludeItem,
        PeopleDetailResult,
        PeopleSearchResult,
        Period,
    )

ProgressCallback = Callable[[float, Optional[float], Optional[str]], Any]
T = TypeVar("T")
STDERR_LOGGER = logging.getLogger("boxoffice_worker.stderr")
_CHUNK = 1 << 16
# How every answer line of the worker begins (protocol.md §1: compact, members in order): `call_json` reads the
# result's text from behind the id without parsing it.
_ANSWER_HEAD = b'{"jsonrpc":"2.0","id":'
_RESULT_MEMBER = b'"result":'


# Fork safety. A forked child inherits a copy of every client: the pipes to the parent's worker, the parent's pending
# calls, and (for `Worker`) an event loop whose thread does not exist in the child. Using any of that in the child
# would read the parent's answers, or wait for ever on a loop nobody runs. So every live client is listed here, and
# in a forked child each forgets what it inherited (`_forget_inherited`) and starts a worker of its own on first use;
# comparing `os.getpid()` with the pid the state belongs to is the backstop for a fork that runs no at-fork handlers.
_LIVE: "weakref.WeakSet[Any]" = weakref.WeakSet()
# What a forked child inherited and gave up, referenced for the life of the child so that no finalizer of it ever
# runs there: an asyncio transport's would unregister the parent's pipes from the epoll instance the two processes
# share (taking them from the parent's loop too) and, for a process it thinks still running, kill the parent's worker.
_INHERITED: List[Any] = []
# Serializes forgetting (two threads of a child may both find the pid changed); made anew in each child.
_FORK_GUARD = threading.RLock()


def _after_fork_in_child() -> None:
    global _FORK_GUARD
    _FORK_GUARD = threading.RLock()
    for client in list(_LIVE):
        try:
            client._forget_inherited()
        except Exception:  # noqa: BLE001 -- the client's pid is then still the parent's: its first use tries again
            pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _abandon_process(process: Optional[asyncio.subprocess.Process]) -> None:
    """In a forked child: closes this process's copies of the pipes to the parent's worker and gives the rest up
    without going through any event loop. The parent still holds its own copies, so its worker sees no end of input
    and keeps serving the parent."""
    _INHERITED.append(process)
    transport: Any = getattr(process, "_transport", None)
    if transport is None:
        return
    files = []
    for fd in (0, 1, 2):
        pipe_transport = transport.get_pipe_transport(fd)
        if pipe_transport is not None:
            files.append(pipe_transport.get_extra_info("pipe"))
    popen = transport.get_extra_info("subprocess")
    if popen is not None:
        files += [popen.stdin, popen.stdout, popen.stderr]
        if popen.returncode is None:
            # Not this process's child: never to be waited for, signalled or killed from here.
            popen.returncode = 0
    for file in files:
        if file is not None:
            file.close()


def _abandon_loop(loop: Optional[asyncio.AbstractEventLoop]) -> None:
    """In a forked child: gives up the parent's `Worker` loop (its thread is not in the child) without closing it
    through its API, which would unregister its self-pipe from the epoll instance the parent's loop still uses; only
    this process's copies of its descriptors are closed (closing a copy of the epoll descriptor unregisters
    nothing)."""
    _INHERITED.append(loop)
    for name in ("_ssock", "_csock", "_selector"):
        owned = getattr(loop, name, None)
        if owned is not None:
            owned.close()


def bundled_binary() -> Optional[str]:
    """The worker the wheel installed with this package, if any.

    The wheel carries the binary in its scripts; the installer records where it put it (the environment's `bin/`, the
    user scheme's with `--user`, `DIR/bin` with `--target DIR`) in the distribution's RECORD, which is read here, so
    the binary found is the one that came with this copy of the package, of its own version, and never another
    install's. Running from a source checkout (no installed distribution, or one installed elsewhere) finds none.
    """
    try:
        distribution = importlib.metadata.distribution("boxoffice-worker")
    except importlib.metadata.PackageNotFoundError:
        return None
    here = pathlib.Path(__file__).resolve()
    if pathlib.Path(str(distribution.locate_file("boxoffice_worker/client.py"))).resolve() != here:
        return None
    for entry in distribution.files or ():
        if entry.name == "boxoffice-worker" and entry.parent.name == "bin":
            candidate = pathlib.Path(str(distribution.locate_file(entry))).resolve()
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    return None


def find_binary(binary: Optional[str] = None) -> str:
    """The worker to run: `binary`, else `$BOXOFFICE_WORKER`, else the one installed with this package (the wheel's),
    else `boxoffice-worker` on PATH."""
    candidate = binary or os.environ.get("BOXOFFICE_WORKER") or bundled_binary() or shutil.which("boxoffice-worker")
    if not candidate:
        raise FileNotFoundError(
            "boxoffice-worker is not installed: `pip install boxoffice-worker` brings it; or put it on PATH, pass "
            "binary= or set BOXOFFICE_WORKER")
    return candidate


class AsyncWorker:
    """One worker subprocess, driven by many concurrent calls.

    One reader task matches answers to calls by id (answers come in any order) and reads stdout in chunks, so a
    line of any length is read whole; another drains stderr into the `boxoffice_worker.stderr` logger as it
    comes, so the worker never blocks on a full pipe. A worker that exits fails every pending call with
    `WorkerExited`; the next call starts a new one (at most `max_restarts` in `restart_window` seconds).

    Fork-safe: in a forked child (Celery's prefork pool, `multiprocessing` with "fork", gunicorn) the client forgets
    the worker, the calls and the event loop objects it inherited (an event loop does not survive a fork), and its
    first use in the child starts a worker of the child's own, in the child's own running loop (its `asyncio.run`).
    The parent's worker is never read, written, closed or killed from the child.
    """

    def __init__(
        self,
        binary: Optional[str] = None,
        *,
        args: Sequence[str] = (),
        env: Optional[Mapping[str, str]] = None,
        timeout: Optional[float] = None,
        max_restarts: int = 3,
        restart_window: float = 60.0,
        stderr_logger: logging.Logger = STDERR_LOGGER,
        new_session: bool = False,
    ):
        self.binary = find_binary(binary)
        self.args = list(args)
        self.env = dict(env) if env is not None else None
        self.timeout = timeout
        self.max_restarts = max_restarts
        self.restart_window = restart_window
        self.stderr_logger = stderr_logger
        # In a process group of its own, so that a signal sent to the caller's group (a terminal's Ctrl-C) does not
        # stop the worker under the caller's drain; it still ends on its stdin's EOF when the caller dies.
        self.new_session = new_session
        self._process: Optional[asyncio.subprocess.Process] = None
        self._pending: Dict[int, "asyncio.Future[Any]"] = {}
        self._raw: set = set()  # ids of the calls made by call_json
        self._progress: Dict[str, ProgressCallback] = {}
        self._ids = itertools.count(1)
        self._tasks: List["asyncio.Task[None]"] = []
        self._starts: Deque[float] = collections.deque()
        self._stderr_tail = ""
        self._start_lock: Optional[asyncio.Lock] = None
        self._closing = False
        self._owner_pid = os.getpid()  # the process whose worker, calls and loop objects these are
        _LIVE.add(self)

    def _forget_inherited(self) -> None:
        """In a forked child (found by the at-fork handler, or by the pid on first use): drops the parent's worker,
        pending calls, reader tasks and lock, which belong to an event loop that does not run here, so the first
        use starts a worker of this process's own. Does nothing in the process the state belongs to."""
        with _FORK_GUARD:
            if self._owner_pid == os.getpid():
                return
            _INHERITED.append((self._tasks, self._pending, self._start_lock))
            _abandon_process(self._process)
            self._process = None
            self._pending = {}
            self._raw = set()
            self._progress = {}
            self._tasks = []
            self._starts = collections.deque()
            self._stderr_tail = ""
            self._start_lock = None
            self._owner_pid = os.getpid()

    # Lifecycle

    async def start(self) -> None:
        """Starts the worker if none is running (calls do this themselves)."""
        if self._owner_pid != os.getpid():
            self._forget_inherited()
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            if self._process is not None and self._process.returncode is None:
                return
            if self._closing:
                raise WorkerExited("the client is closed")
            now = time.monotonic()
            while self._starts and now - self._starts[0] > self.restart_window:
                self._starts.popleft()
            if len(self._starts) > self.max_restarts:
                raise WorkerExited(
                    "the worker exited %d times in %.0f s; not starting it again" % (len(self._starts), self.restart_window),
                    self._process.returncode if self._process else None, self._stderr_tail)
            self._starts.append(now)
            environment = dict(os.environ)
            if self.env is not None:
                environment.update(self.env)
            self._process = await asyncio.create_subprocess_exec(
                self.binary, *self.args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=environment, start_new_session=self.new_session)
            process = self._process
            self._tasks = [asyncio.ensure_future(self._read(process)), asyncio.ensure_future(self._drain(process))]

    async def close(self, timeout: float = 10.0) -> None:
        """Closes stdin (end of input: the worker answers everything in flight), waits for it to exit, and
        terminates it past `timeout`. In a forked child that has not used the client, there is nothing of its own
        to close: the worker inherited from the parent is the parent's, and goes on serving it."""
        if self._owner_pid != os.getpid():
            self._forget_inherited()
        self._closing = True
        process = self._process
        if process is None:
            return
        if process.stdin and not process.stdin.is_closing():
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), timeout)
        except asyncio.TimeoutError:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 5)
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def __aenter__(self) -> "AsyncWorker":
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def pid(self) -> Optional[int]:
        """The running worker's process id (None before the first call, and in a forked child before its first)."""
        if self._owner_pid != os.getpid():
            self._forget_inherited()
        return self._process.pid if self._process else None

    # Calls

    async def call(self, method: str, params: Optional[Mapping[str, Any]] = None, *, timeout: Optional[float] = None,
                   on_progress: Optional[ProgressCallback] = None) -> Any:
        """Calls `method`; its result. Raises a `WorkerError` subclass for an error answer, `WorkerTimeout` past
        `timeout` (the request is then cancelled in the worker), `WorkerExited` if the worker dies meanwhile.
        Cancelling the awaiting task sends `$/cancelRequest`."""
        return await self._call(method, params, timeout, on_progress, False)

    async def call_json(self, method: str, params: Optional[Mapping[str, Any]] = None, *,
                        timeout: Optional[float] = None) -> bytes:
        """Calls `method` as `call` does; its result as the JSON text the worker wrote (UTF-8 bytes), not parsed.
        For relays that pass an answer on (the NATS adapter): parsing a day's top 10 only to write it again cost
        them more than the rest of the call. Errors are raised as `call` raises them."""
        return cast(bytes, await self._call(method, params, timeout, None, True))

    async def _call(self, method: str, params: Optional[Mapping[str, Any]], timeout: Optional[float],
                    on_progress: Optional[ProgressCallback], raw: bool) -> Any:
        await self.start()
        process = self._process
        assert process is not None and process.stdin is not None
        identifier = next(self._ids)
        request: Dict[str, Any] = {"jsonrpc": "2.0", "id": identifier, "method": method}
        body = dict(params or {})
        token = None
        if on_progress is not None:
            token = "p%d" % identifier
            meta = dict(body.get("_meta") or {})
            meta["progressToken"] = token
            body["_meta"] = meta
            self._progress[token] = on_progress
        if body:
            request["params"] = body
        future: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self._pending[identifier] = future
        if raw:
            self._raw.add(identifier)
        try:
            process.stdin.write(json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
            # Wait for the pipe only when the host side has queued a lot: a thousand calls in flight then cost
            # one write each, not one wait each.
            if process.stdin.transport.get_write_buffer_size() > _CHUNK:
                await process.stdin.drain()
            limit = timeout if timeout is not None else self.timeout
            if limit is None:
                return await future
            try:
                return await asyncio.wait_for(asyncio.shield(future), limit)
            except asyncio.TimeoutError:
                self._cancel_in_worker(identifier)
                raise WorkerTimeout("%s took longer than %.3g s; cancelled" % (method, limit)) from None
        except asyncio.CancelledError:
            self._cancel_in_worker(identifier)
            raise
        except (BrokenPipeError, ConnectionResetError) as error:
            raise WorkerExited("the worker's stdin is closed", process.returncode, self._stderr_tail) from error
        finally:
            self._pending.pop(identifier, None)
            self._raw.discard(identifier)
            if token:
                self._progress.pop(token, None)

    def _cancel_in_worker(self, identifier: int) -> None:
        process = self._process
        if process is None or process.stdin is None or process.stdin.is_closing():
            return
        line = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": identifier}}
        try:
            process.stdin.write(json.dumps(line).encode() + b"\n")
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            pass

    # Typed methods: one per worker method (protocol.md §3). Each refuses, before anything is sent, a keyword it does
    # not take and a value of the wrong type with InvalidParams (params.checked, by the rules generated from Schemas/).

    @checked("boxoffice.daily")
    async def daily(self, date: Optional[str] = None, *, limit: Optional[int] = None,
                    include: Optional[Sequence[BoxofficeDailyIncludeItem]] = None, nation: Optional[Nation] = None,
                    multi_movie: Optional[bool] = None, area: Optional[str] = None, refresh: bool = False,
                    chat: Optional[Chat] = None, card: Optional[Card] = None, timeout: Optional[float] = None,
                    on_progress: Optional[ProgressCallback] = None) -> BoxofficeDailyResult:
        """A day's box office (`boxoffice.daily`); default yesterday in Seoul. `date` is YYYY-MM-DD. `chat` adds the
        result's messages to post (`result["chat"]["messages"]`); `card` ("list" or "grid") the screen as a PNG
        (`base64.b64decode(result["card"]["data"])`)."""
        params = _params(date=date, limit=limit, include=_listed(include), nation=nation, multiMovie=multi_movie,
                         area=area, refresh=refresh or None, chat=chat, card=card)
        return cast(BoxofficeDailyResult,
                    await self.call("boxoffice.daily", params, timeout=timeout, on_progress=on_progress))

    @checked("boxoffice.weekly")
    async def weekly(self, date: Optional[str] = None, *, period: Optional[Period] = None, limit: Optional[int] = None,
                     include: Optional[Sequence[BoxofficeWeeklyIncludeItem]] = None, nation: Optional[Nation] = None,
                     multi_movie: Optional[bool] = None, area: Optional[str] = None, refresh: bool = False,
                     chat: Optional[Chat] = None, card: Optional[Card] = None, timeout: Optional[float] = None,
                     on_progress: Optional[ProgressCallback] = None) -> BoxofficeWeeklyResult:
        """A week's, weekend's or weekdays' box office (`boxoffice.weekly`); `date` is any day of that week."""
        params = _params(date=date, period=period, limit=limit, include=_listed(include), nation=nation,
                         multiMovie=multi_movie, area=area, refresh=refresh or None, chat=chat, card=card)
        return cast(BoxofficeWeeklyResult,
                    await self.call("boxoffice.weekly", params, timeout=timeout, on_progress=on_progress))

    @checked("movie.detail")
    async def detail(self, movie_code: str, *, refresh: bool = False, chat: Optional[Chat] = None,
                     timeout: Optional[float] = None) -> MovieDetailResult:
        """A movie's details (`movie.detail`)."""
        params = _params(movieCode=movie_code, refresh=refresh or None, chat=chat)
        return cast(MovieDetailResult, await self.call("movie.detail", params, timeout=timeout))

    @checked("movie.poster")
    async def poster(self, title: Optional[str] = None, *, movie_code: Optional[str] = None, download: bool = False,
                     refresh: bool = False, timeout: Optional[float] = None) -> MoviePosterResult:
        """A movie's poster (`movie.poster`), by title or movie code."""
        params = _params(title=title, movieCode=movie_code, download=download or None, refresh=refresh or None)
        return cast(MoviePosterResult, await self.call("movie.poster", params, timeout=timeout))

    @checked("movie.search")
    async def search(self, title: Optional[str] = None, *, director: Optional[str] = None, year: Optional[int] = None,
                     page: Optional[int] = None, limit: Optional[int] = None, chat: Optional[Chat] = None,
                     timeout: Optional[float] = None) -> MovieSearchResult:
        """Movies by title and/or director (`movie.search`)."""
        params = _params(title=title, director=director, year=year, page=page, limit=limit, chat=chat)
        return cast(MovieSearchResult, await self.call("movie.search", params, timeout=timeout))

    @checked("movie.run")
    async def movie_run(self, title: Optional[str] = None, *, movie_code: Optional[str] = None,
                        through: Optional[str] = None, days: Optional[int] = None, max_calls: Optional[int] = None,
                        diversity: Optional[bool] = None, refresh: bool = False, chat: Optional[Chat] = None,
                        card: Optional[Card] = None, timeout: Optional[float] = None,
                        on_progress: Optional[ProgressCallback] = None) -> MovieRunResult:
        """A film's run from KOBIS's daily lists (`movie.run`), by title or movie code: each day from its previews to
        its last in a top 10, the day of each milestone and a summary. A title that names no film, or several (listed
        in `data["candidates"]`), is `InvalidParams`. Without `max_calls`, a run needing more KOBIS calls than today's
        quota leaves is refused before any call (`QuotaExhausted`). `diversity=False` is sent: it asks the 상업 영화
        list. `chat` adds the summary and milestones as messages to post, `card` the run as a PNG chart card."""
        params = _params(title=title, movieCode=movie_code, through=through, days=days, maxCalls=max_calls,
                         diversity=diversity, refresh=refresh or None, chat=chat, card=card)
        return cast("MovieRunResult", await self.call("movie.run", params, timeout=timeout, on_progress=on_progress))

    @checked("movie.compare")
    async def movie_compare(self, movies: Sequence[str], *, through: Optional[str] = None,
                            days: Optional[int] = None, max_calls: Optional[int] = None,
                            diversity: Optional[bool] = None, refresh: bool = False, chat: Optional[Chat] = None,
                            card: Optional[Card] = None, timeout: Optional[float] = None,
                            on_progress: Optional[ProgressCallback] = None) -> MovieCompareResult:
        """2 to 8 films' runs side by side, by day since each one's opening (`movie.compare`); each of `movies` a
        movie code or a title, resolved as `movie_run` resolves it. `max_calls` bounds the calls of all the films
        together."""
        # Sent as a list even when empty, so that the worker names what is wrong (fewer than 2), not a missing key.
        params = _params(movies=list(movies) if movies is not None else None, through=through, days=days,
                         maxCalls=max_calls, diversity=diversity, refresh=refresh or None, chat=chat, card=card)
        return cast("MovieCompareResult",
                    await self.call("movie.compare", params, timeout=timeout, on_progress=on_progress))

    @checked("people.search")
    async def people_search(self, name: Optional[str] = None, *, filmography: Optional[str] = None,
                            page: Optional[int] = None, limit: Optional[int] = None, refresh: bool = False,
                            timeout: Optional[float] = None) -> PeopleSearchResult:
        """People by name and/or the title of a film of theirs (`people.search`); `limit` a page, 1 to 100."""
        params = _params(name=name, filmography=filmography, page=page, limit=limit, refresh=refresh or None)
        return cast("PeopleSearchResult", await self.call("people.search", params, timeout=timeout))

    @checked("people.detail")
    async def people_detail(self, people_code: str, *, include: Optional[Sequence[PeopleDetailIncludeItem]] = None,
                            refresh: bool = False, timeout: Optional[float] = None) -> PeopleDetailResult:
        """A person's details and filmography (`people.detail`); `include=["movies"]` adds each film's details."""
        params = _params(peopleCode=people_code, include=_listed(include), refresh=refresh or None)
        return cast("PeopleDetailResult", await self.call("people.detail", params, timeout=timeout))

    @checked("company.search")
    async def company_search(self, name: Optional[str] = None, *, ceo: Optional[str] = None,
                             part: Optional[str] = None, page: Optional[int] = None, limit: Optional[int] = None,
                             refresh: bool = False, timeout: Optional[float] = None) -> CompanySearchResult:
        """Companies by name, CEO and/or part (`company.search`), a page of `limit` at a time."""
        params = _params(name=name, ceo=ceo, part=part, page=page, limit=limit, refresh=refresh or None)
        return cast("CompanySearchResult", await self.call("company.search", params, timeout=timeout))

    @checked("company.detail")
    async def company_detail(self, company_code: str, *, refresh: bool = False,
                             timeout: Optional[float] = None) -> CompanyDetailResult:
        """A company's details and filmography (`company.detail`)."""
        params = _params(companyCode=company_code, refresh=refresh or None)
        return cast("CompanyDetailResult", await self.call("company.detail", params, timeout=timeout))

    @checked("codes.list")
    async def codes(self, kind: Kind, *, refresh: bool = False,
                    timeout: Optional[float] = None) -> CodesListResult:
        """One of KOBIS's code lists (`codes.list`): `region`, `nation`, `type`, `genre`, `status`, `grade` or
        `companyPart`."""
        params = _params(kind=kind, refresh=refresh or None)
        return cast("CodesListResult", await self.call("codes.list", params, timeout=timeout))

    @checked("worker.status")
    async def status(self, *, timeout: Optional[float] = None) -> WorkerStatusResult:
        """The worker's status (`worker.status`)."""
        return cast(WorkerStatusResult, await self.call("worker.status", timeout=timeout))

    # Reading

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        buffer = bytearray()
        while True:
            chunk = await process.stdout.read(_CHUNK)
            if not chunk:
                break
            buffer += chunk
            start = 0
            while True:
                end = buffer.find(b"\n", start)
                if end < 0:
                    break
                self._dispatch(bytes(buffer[start:end]))
                start = end + 1
            del buffer[:start]
        returncode = await process.wait()
        await asyncio.sleep(0)  # let the stderr drain catch the last lines
        failure = WorkerExited("the worker exited (status %s) with a call pending" % returncode, returncode,
                               self._stderr_tail)
        for future in list(self._pending.values()):
            if not future.done():
                future.set_exception(failure)

    def _dispatch(self, line: bytes) -> None:
        if self._raw and line.startswith(_ANSWER_HEAD) and self._dispatch_raw(line):
            return
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError:
            self.stderr_logger.warning("not JSON on the worker's stdout: %r", line[:200])
            return
        if isinstance(message, list):
            for element in message:
                self._dispatch_one(element)
        else:
            self._dispatch_one(message)

    def _dispatch_raw(self, line: bytes) -> bool:
        """Answers a `call_json` call with the text of its result, when `line` is a result answer to one; whether
        it did (anything else is parsed as usual)."""
        comma = line.find(b",", len(_ANSWER_HEAD))
        if comma < 0 or not line.startswith(_RESULT_MEMBER, comma + 1) or not line.endswith(b"}"):
            return False
        digits = line[len(_ANSWER_HEAD):comma]
        if not digits.isdigit() or int(digits) not in self._raw:
            return False
        future = self._pending.get(int(digits))
        if future is not None and not future.done():
            future.set_result(line[comma + 1 + len(_RESULT_MEMBER):-1])
        return True

    def _dispatch_one(self, message: Any) -> None:
        if not isinstance(message, dict):
            return
        if message.get("method") == "notifications/progress":
            params: Dict[str, Any] = message.get("params") or {}
            callback = self._progress.get(str(params.get("progressToken")))
            if callback is not None:
                callback(cast(float, params.get("progress")), params.get("total"), params.get("message"))
            return
        identifier = message.get("id")
        future = self._pending.get(identifier) if isinstance(identifier, int) else None
        if future is None or future.done():
            return
        if "error" in message:
            future.set_exception(from_answer(message["error"]))
        elif identifier in self._raw:
            future.set_result(json.dumps(message.get("result"), ensure_ascii=False, separators=(",", ":")).encode())
        else:
            future.set_result(message.get("result"))

    async def _drain(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        pending = b""
        while True:
            chunk = await process.stderr.read(_CHUNK)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                text = line.decode("utf-8", "replace")
                self._stderr_tail = (self._stderr_tail + text + "\n")[-4000:]
                self.stderr_logger.info("%s", text)
        if pending:
            self._stderr_tail = (self._stderr_tail + pending.decode("utf-8", "replace"))[-4000:]
            self.stderr_logger.info("%s", pending.decode("utf-8", "replace"))


def _params(**values: Any) -> Dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def _listed(values: Optional[Sequence[str]]) -> Optional[List[str]]:
    return list(values) if values else None


class Worker:
    """The synchronous client: an `AsyncWorker` on an event loop in a thread of its own. Same methods, blocking.

    The loop and its thread start with the first call, so a `Worker` made at import (in a Celery or gunicorn master)
    starts no thread there. Fork-safe: in a forked child the client forgets the parent's loop, thread, worker and
    pending calls, and its first use starts a loop and a worker of the child's own; the parent keeps its own.
    """

    def __init__(self, binary: Optional[str] = None, *, args: Sequence[str] = (),
                 env: Optional[Mapping[str, str]] = None, timeout: Optional[float] = None, max_restarts: int = 3,
                 restart_window: float = 60.0, stderr_logger: logging.Logger = STDERR_LOGGER):
        self._client = AsyncWorker(binary, args=args, env=env, timeout=timeout, max_restarts=max_restarts,
                                   restart_window=restart_window, stderr_logger=stderr_logger)
        self._lock = threading.Lock()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self._closed = False
        self._owner_pid = os.getpid()  # the process whose loop and thread these are
        _LIVE.add(self)

    def _forget_inherited(self) -> None:
        """In a forked child: drops the parent's loop (its thread does not exist here, so nothing would ever run a
        call put on it) and lock (a thread that is not here may hold it), and the client's inherited state; the
        first use starts a loop of this process's own. Does nothing in the process the loop belongs to."""
        with _FORK_GUARD:
            if self._owner_pid == os.getpid():
                return
            self._lock = threading.Lock()
            _INHERITED.append(self._thread)
            _abandon_loop(self._loop)
            self._loop = None
            self._thread = None
            self._client._forget_inherited()
            self._owner_pid = os.getpid()

    def _own_loop(self) -> asyncio.AbstractEventLoop:
        """This process's loop, started (in a daemon thread) on first use."""
        if self._owner_pid != os.getpid():
            self._forget_inherited()
        with self._lock:
            if self._closed:
                raise WorkerExited("the client is closed")
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="boxoffice-worker-client", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        try:
            loop = self._own_loop()
        except BaseException:
            coroutine.close()
            raise
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()

    @property
    def pid(self) -> Optional[int]:
        """The running worker's process id (None before the first call, and in a forked child before its first)."""
        if self._owner_pid != os.getpid():
            self._forget_inherited()
        return self._client.pid

    def call(self, method: str, params: Optional[Mapping[str, Any]] = None, *, timeout: Optional[float] = None,
             on_progress: Optional[ProgressCallback] = None) -> Any:
        """Calls `method` (see `AsyncWorker.call`); `params` go as given, and the worker checks them."""
        return self._run(self._client.call(method, params, timeout=timeout, on_progress=on_progress))

    # The typed methods, each refusing what its AsyncWorker twin refuses, before anything is sent.

    @checked("boxoffice.daily")
    def daily(self, date: Optional[str] = None, *, limit: Optional[int] = None,
              include: Optional[Sequence[BoxofficeDailyIncludeItem]] = None, nation: Optional[Nation] = None,
              multi_movie: Optional[bool] = None, area: Optional[str] = None, refresh: bool = False,
              chat: Optional[Chat] = None, card: Optional[Card] = None, timeout: Optional[float] = None,
              on_progress: Optional[ProgressCallback] = None) -> BoxofficeDailyResult:
        """A day's box office (`boxoffice.daily`); default yesterday in Seoul. `date` is YYYY-MM-DD."""
        return self._run(self._client.daily(date, limit=limit, include=include, nation=nation, multi_movie=multi_movie,
                                            area=area, refresh=refresh, chat=chat, card=card, timeout=timeout,
                                            on_progress=on_progress))

    @checked("boxoffice.weekly")
    def weekly(self, date: Optional[str] = None, *, period: Optional[Period] = None, limit: Optional[int] = None,
               include: Optional[Sequence[BoxofficeWeeklyIncludeItem]] = None, nation: Optional[Nation] = None,
               multi_movie: Optional[bool] = None, area: Optional[str] = None, refresh: bool = False,
               chat: Optional[Chat] = None, card: Optional[Card] = None, timeout: Optional[float] = None,
               on_progress: Optional[ProgressCallback] = None) -> BoxofficeWeeklyResult:
        """A week's, weekend's or weekdays' box office (`boxoffice.weekly`); `date` is any day of that week."""
        return self._run(self._client.weekly(date, period=period, limit=limit, include=include, nation=nation,
                                             multi_movie=multi_movie, area=area, refresh=refresh, chat=chat,
                                             card=card, timeout=timeout, on_progress=on_progress))

    @checked("movie.detail")
    def detail(self, movie_code: str, *, refresh: bool = False, chat: Optional[Chat] = None,
               timeout: Optional[float] = None) -> MovieDetailResult:
        """A movie's details (`movie.detail`)."""
        return self._run(self._client.detail(movie_code, refresh=refresh, chat=chat, timeout=timeout))

    @checked("movie.poster")
    def poster(self, title: Optional[str] = None, *, movie_code: Optional[str] = None, download: bool = False,
               refresh: bool = False, timeout: Optional[float] = None) -> MoviePosterResult:
        """A movie's poster (`movie.poster`), by title or movie code."""
        return self._run(self._client.poster(title, movie_code=movie_code, download=download, refresh=refresh,
                                             timeout=timeout))

    @checked("movie.search")
    def search(self, title: Optional[str] = None, *, director: Optional[str] = None, year: Optional[int] = None,
               page: Optional[int] = None, limit: Optional[int] = None, chat: Optional[Chat] = None,
               timeout: Optional[float] = None) -> MovieSearchResult:
        """Movies by title and/or director (`movie.search`)."""
        return self._run(self._client.search(title, director=director, year=year, page=page, limit=limit, chat=chat,
                                             timeout=timeout))

    @checked("movie.run")
    def movie_run(self, title: Optional[str] = None, *, movie_code: Optional[str] = None,
                  through: Optional[str] = None, days: Optional[int] = None, max_calls: Optional[int] = None,
                  diversity: Optional[bool] = None, refresh: bool = False, chat: Optional[Chat] = None,
                  card: Optional[Card] = None, timeout: Optional[float] = None,
                  on_progress: Optional[ProgressCallback] = None) -> MovieRunResult:
        """A film's run from KOBIS's daily lists (`movie.run`), by title or movie code."""
        return self._run(self._client.movie_run(title, movie_code=movie_code, through=through, days=days,
                                                max_calls=max_calls, diversity=diversity, refresh=refresh,
                                                chat=chat, card=card, timeout=timeout, on_progress=on_progress))

    @checked("movie.compare")
    def movie_compare(self, movies: Sequence[str], *, through: Optional[str] = None, days: Optional[int] = None,
                      max_calls: Optional[int] = None, diversity: Optional[bool] = None, refresh: bool = False,
                      chat: Optional[Chat] = None, card: Optional[Card] = None, timeout: Optional[float] = None,
                      on_progress: Optional[ProgressCallback] = None) -> MovieCompareResult:
        """2 to 8 films' runs side by side, by day since each one's opening (`movie.compare`)."""
        return self._run(self._client.movie_compare(movies, through=through, days=days, max_calls=max_calls,
                                                    diversity=diversity, refresh=refresh, chat=chat, card=card,
                                                    timeout=timeout, on_progress=on_progress))

    @checked("people.search")
    def people_search(self, name: Optional[str] = None, *, filmography: Optional[str] = None,
                      page: Optional[int] = None, limit: Optional[int] = None, refresh: bool = False,
                      timeout: Optional[float] = None) -> PeopleSearchResult:
        """People by name and/or the title of a film of theirs (`people.search`); `limit` a page, 1 to 100."""
        return self._run(self._client.people_search(name, filmography=filmography, page=page, limit=limit,
                                                    refresh=refresh, timeout=timeout))

    @checked("people.detail")
    def people_detail(self, people_code: str, *, include: Optional[Sequence[PeopleDetailIncludeItem]] = None,
                      refresh: bool = False, timeout: Optional[float] = None) -> PeopleDetailResult:
        """A person's details and filmography (`people.detail`); `include=["movies"]` adds each film's details."""
        return self._run(self._client.people_detail(people_code, include=include, refresh=refresh, timeout=timeout))

    @checked("company.search")
    def company_search(self, name: Optional[str] = None, *, ceo: Optional[str] = None, part: Optional[str] = None,
                       page: Optional[int] = None, limit: Optional[int] = None, refresh: bool = False,
                       timeout: Optional[float] = None) -> CompanySearchResult:
        """Companies by name, CEO and/or part (`company.search`), a page of `limit` at a time."""
        return self._run(self._client.company_search(name, ceo=ceo, part=part, page=page, limit=limit,
                                                     refresh=refresh, timeout=timeout))

    @checked("company.detail")
    def company_detail(self, company_code: str, *, refresh: bool = False,
                       timeout: Optional[float] = None) -> CompanyDetailResult:
        """A company's details and filmography (`company.detail`)."""
        return self._run(self._client.company_detail(company_code, refresh=refresh, timeout=timeout))

    @checked("codes.list")
    def codes(self, kind: Kind, *, refresh: bool = False, timeout: Optional[float] = None) -> CodesListResult:
        """One of KOBIS's code lists (`codes.list`): `region`, `nation`, `type`, `genre`, `status`, `grade` or
        `companyPart`."""
        return self._run(self._client.codes(kind, refresh=refresh, timeout=timeout))

    @checked("worker.status")
    def status(self, *, timeout: Optional[float] = None) -> WorkerStatusResult:
        """The worker's status (`worker.status`)."""
        return self._run(self._client.status(timeout=timeout))

    def close(self) -> None:
        """Closes the worker (see `AsyncWorker.close`) and stops the loop; later calls raise `WorkerExited`. In a
        forked child that has not used the client it only marks it closed: the parent's worker goes on serving the
        parent."""
        if self._owner_pid != os.getpid():
            self._forget_inherited()
        with self._lock:
            if self._closed:
                return
            self._closed = True
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            self._client._closing = True
            return
        try:
            asyncio.run_coroutine_threadsafe(self._client.close(), loop).result()
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(5)
            if not thread.is_alive():
                loop.close()

    def __enter__(self) -> "Worker":
        self._run(self._client.start())
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
