"""`boxoffice-worker-nats`: serve the worker's methods on NATS, submit jobs to the work queue, collect outcomes.

    boxoffice-worker-nats [serve] [--server URL]… [--workers N] [--jobs] [-- WORKER FLAGS…]
    boxoffice-worker-nats submit [METHOD] [--collect] < lines
    boxoffice-worker-nats collect BATCH

Logs go to stderr; `submit` prints the batch id, `collect` one outcome line per job (pipe's outcome lines, in
submission order). Exit status: 0 done; `collect` 2 when some jobs failed, 1 or 75 when all did (75 if every
failure is one time may mend), as `pipe`; 64 a usage error; 69 (`EX_UNAVAILABLE`) no NATS server reachable; 130
after SIGINT while collecting. `serve` drains on SIGTERM or SIGINT and exits 0.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import sys
from typing import List, Optional, Sequence

from . import connection, names

LOGGER = logging.getLogger("boxoffice_worker.nats")
EX_USAGE = 64
EX_UNAVAILABLE = 69
EX_TEMPFAIL = 75
# Reasons time may mend (pipe's rule for its exit status).
MENDABLE = {"upstream_unavailable", "quota_exhausted", "worker_exited", "timeout"}
TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="boxoffice-worker-nats", description=__doc__.split("\n\n")[0])
    commands = top.add_subparsers(dest="command")
    serve = commands.add_parser("serve", help="serve the methods (the default)")
    connection.add_flags(serve)
    serve.add_argument("--workers", type=int, default=1, metavar="N", help="long-lived workers (default 1)")
    serve.add_argument("--worker", metavar="PATH", help="the boxoffice-worker binary (default: the bundled one)")
    serve.add_argument("--jobs", action="store_true", help="also work the JetStream job queue")
    serve.add_argument("--job-concurrency", type=int, metavar="N",
                       help="jobs at once (default 4 per worker)")
    serve.add_argument("--ack-wait", type=float, default=30.0, metavar="SECONDS",
                       help="how long a taken job may go unheard of before it is delivered again (default 30)")
    serve.add_argument("--retry-backoff", type=float, default=2.0, metavar="SECONDS",
                       help="the first pause before a job the upstream failed is tried again, doubled each time")
    serve.add_argument("--max-tries", type=int, default=8, metavar="N",
                       help="deliveries of a job the upstream keeps failing before its failure is its outcome "
                            "(default 8; the quota's reset is waited for without limit)")
    serve.add_argument("--max-in-flight", type=int, metavar="N", help="requests at once (default 256 per worker)")
    serve.add_argument("--no-requests", action="store_true", help="work jobs only: no request/reply endpoints")
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    submit = commands.add_parser("submit", help="queue one job a line of stdin")
    connection.add_flags(submit)
    submit.add_argument("method", nargs="?", help="the method of every line (else each line names its own)")
    submit.add_argument("--batch", metavar="ID", help="the batch id (default: the time and a random suffix)")
    submit.add_argument("--collect", action="store_true", help="then print the outcomes as collect does")
    collect = commands.add_parser("collect", help="print a batch's outcomes in submission order")
    connection.add_flags(collect)
    collect.add_argument("batch", help="the batch id submit printed")
    return top


def split(argv: Sequence[str]) -> "tuple[List[str], List[str]]":
    """The adapter's arguments and the worker's (after `--`); `serve` is the default command."""
    arguments = list(argv)
    worker: List[str] = []
    if "--" in arguments:
        at = arguments.index("--")
        arguments, worker = arguments[:at], arguments[at + 1:]
    if not arguments or arguments[0] not in ("serve", "submit", "collect", "-h", "--help"):
        arguments.insert(0, "serve")
    return arguments, worker


def main(argv: Optional[Sequence[str]] = None) -> int:
    arguments, worker_args = split(sys.argv[1:] if argv is None else argv)
    try:
        import nats  # noqa: F401
    except ImportError:
        print("boxoffice-worker-nats: nats-py is not installed: pip install 'boxoffice-worker[nats]'", file=sys.stderr)
        return EX_UNAVAILABLE
    try:
        flags = parser().parse_args(arguments)
    except SystemExit as exit:
        return EX_USAGE if exit.code not in (0, None) else 0
    if flags.command == "serve":
        logging.basicConfig(level=getattr(logging, flags.log_level.upper()), stream=sys.stderr,
                            format="boxoffice-worker-nats: %(message)s")
        for name in ("workers", "job_concurrency", "max_in_flight", "max_tries"):
            value = getattr(flags, name)
            if value is not None and value < 1:
                print("boxoffice-worker-nats: --%s must be at least 1" % name.replace("_", "-"), file=sys.stderr)
                return EX_USAGE
        if flags.ack_wait <= 0 or flags.retry_backoff < 0:
            print("boxoffice-worker-nats: --ack-wait must be above 0 and --retry-backoff not below", file=sys.stderr)
            return EX_USAGE
        from .serve import serve
        return asyncio.run(serve(flags, worker_args))
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="boxoffice-worker-nats: %(message)s")
    if flags.command == "submit":
        if flags.method is not None and flags.method not in names.METHODS:
            print("boxoffice-worker-nats: no method %s (one of: %s)" % (flags.method, ", ".join(names.METHODS)),
                  file=sys.stderr)
            return EX_USAGE
        if flags.batch is not None and not TOKEN.fullmatch(flags.batch):
            print("boxoffice-worker-nats: a batch id is letters, digits, - and _", file=sys.stderr)
            return EX_USAGE
        return asyncio.run(_submit(flags))
    if not TOKEN.fullmatch(flags.batch):
        print("boxoffice-worker-nats: a batch id is letters, digits, - and _", file=sys.stderr)
        return EX_USAGE
    return asyncio.run(_collect_command(flags))


async def connect(flags: argparse.Namespace, lost: Optional[asyncio.Event] = None):
    """A connection to the first server that answers, or None after saying why on stderr; `lost` is set when the
    connection goes."""
    import nats
    options = connection.options(flags)

    async def quiet(error: Exception) -> None:
        LOGGER.debug("NATS: %s", error)

    async def gone() -> None:
        if lost is not None:
            lost.set()

    # Two tries per server at most (nats-py's 0 would mean "no limit"), each bounded: a one-shot command says at
    # once that no server answers.
    options.update(max_reconnect_attempts=1, reconnect_time_wait=0.2, connect_timeout=2, error_cb=quiet,
                   disconnected_cb=gone, closed_cb=gone)
    try:
        return await asyncio.wait_for(nats.connect(**options), 30)
    except Exception as error:
        shown = ", ".join(connection.shown(url) for url in options["servers"])
        print("boxoffice-worker-nats: cannot reach NATS at %s: %s" % (shown, str(error) or type(error).__name__),
              file=sys.stderr)
        return None


async def _submit(flags: argparse.Namespace) -> int:
    from .workqueue import submit
    lost = asyncio.Event()
    client = await connect(flags, lost)
    if client is None:
        return EX_UNAVAILABLE
    try:
        lines = sys.stdin.read().splitlines()
        batch, count = await submit(client, flags.method, lines, flags.batch)
        print("boxoffice-worker-nats: queued %d jobs as batch %s" % (count, batch), file=sys.stderr)
        if not flags.collect:
            print(batch)
            return 0
        return await _collect(client, batch, lost)
    finally:
        await client.close()


async def _collect_command(flags: argparse.Namespace) -> int:
    lost = asyncio.Event()
    client = await connect(flags, lost)
    if client is None:
        return EX_UNAVAILABLE
    try:
        return await _collect(client, flags.batch, lost)
    finally:
        await client.close()


async def _collect(client, batch: str, lost: asyncio.Event) -> int:
    """Prints the outcomes; the exit status pipe would give them (69 when the connection goes first, 1 for a batch
    the bucket does not hold)."""
    from .workqueue import UnknownBatch, collect
    succeeded = 0
    failed: List[str] = []
    out = sys.stdout.buffer
    outcomes = collect(client, batch).__aiter__()
    while True:
        following = asyncio.ensure_future(outcomes.__anext__())
        gone = asyncio.ensure_future(lost.wait())
        await asyncio.wait({following, gone}, return_when=asyncio.FIRST_COMPLETED)
        gone.cancel()
        if not following.done():
            following.cancel()
            print("boxoffice-worker-nats: the connection to NATS was lost after %d outcomes of %s; collect again"
                  % (succeeded + len(failed), batch), file=sys.stderr)
            return EX_UNAVAILABLE
        try:
            line = following.result()
        except StopAsyncIteration:
            break
        except UnknownBatch:
            print("boxoffice-worker-nats: no batch %s in the outcomes (submit prints the id; outcomes are kept 7 "
                  "days)" % batch, file=sys.stderr)
            return 1
        out.write(line + b"\n")
        out.flush()
        reason = _failure_reason(line)
        if reason is None:
            succeeded += 1
        else:
            failed.append(reason)
    if not failed:
        return 0
    if succeeded:
        return 2
    return EX_TEMPFAIL if all(reason in MENDABLE for reason in failed) else 1


def _failure_reason(line: bytes) -> Optional[str]:
    """The reason of a failed outcome line; None for a result."""
    try:
        error = json.loads(line).get("error")
    except (ValueError, AttributeError):
        return "internal_error"
    return str(error.get("reason")) if isinstance(error, dict) else None

if __name__ == "__main__":
    sys.exit(main())
