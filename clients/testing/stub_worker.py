#!/usr/bin/env python3
"""A stand-in for boxoffice-worker that misbehaves on purpose, for the client tests of what the real worker never
does on its own: `flood` writes 1 MiB to stderr before answering (a client that leaves stderr unread deadlocks),
`big` answers with a line over 1 MiB (a client that reads stdout line by line with a 64 KiB limit fails). Any
other method is answered with {}, or with `--echo` with the request's method and params as sent (what a typed
method put on the wire). Speaks newline-delimited JSON-RPC like the worker.
"""
import json
import sys

ECHO = "--echo" in sys.argv[1:]

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    if "id" not in request:
        continue
    method = request.get("method")
    result = {}
    if method == "flood":
        for _ in range(1024):
            sys.stderr.write("x" * 1023 + "\n")
        sys.stderr.flush()
        result = {"flooded": 1 << 20}
    elif method == "big":
        result = {"text": "가" * (700 * 1024)}
    elif ECHO:
        result = {"method": method, "params": request.get("params")}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}, ensure_ascii=False) + "\n")
    sys.stdout.flush()
