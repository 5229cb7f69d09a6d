"""nats-py's connect options from the command line and the environment, as the NATS tools take them.

| flag | environment | nats-py |
|---|---|---|
| `--server URL` (repeatable) | `NATS_URL` (comma-separated) | `servers` (default `nats://127.0.0.1:4222`) |
| `--creds FILE` | `NATS_CREDS` | `user_credentials` (a JWT and NKEY seed file) |
| `--nkey FILE` | `NATS_NKEY` | `nkeys_seed` |
| `--user NAME` | `NATS_USER` | `user`, with `NATS_PASSWORD` (never a flag: a flag shows in `ps`) |
| — | `NATS_TOKEN` | `token` |
| `--tls-ca FILE`, `--tls-cert FILE`, `--tls-key FILE` | `NATS_CA`, `NATS_CERT`, `NATS_KEY` | `tls` (an `ssl.SSLContext`); a `tls://` URL asks for TLS with the system's roots |

A URL's user and password are shown nowhere: `shown()` is what logs and messages print.
"""
from __future__ import annotations

import argparse
import os
import ssl
from typing import Any, Dict, List, Mapping, Optional

DEFAULT_SERVER = "nats://127.0.0.1:4222"


def add_flags(parser: argparse.ArgumentParser) -> None:
    """The connection's flags, on every subcommand."""
    group = parser.add_argument_group("NATS connection")
    group.add_argument("--server", "-s", action="append", metavar="URL",
                       help="a NATS server (repeatable; default $NATS_URL or %s)" % DEFAULT_SERVER)
    group.add_argument("--creds", metavar="FILE", help="a credentials file (JWT and NKEY seed; $NATS_CREDS)")
    group.add_argument("--nkey", metavar="FILE", help="an NKEY seed file ($NATS_NKEY)")
    group.add_argument("--user", metavar="NAME", help="a user name; its password from $NATS_PASSWORD ($NATS_USER)")
    group.add_argument("--tls-ca", metavar="FILE", help="the CA that signed the server's certificate ($NATS_CA)")
    group.add_argument("--tls-cert", metavar="FILE", help="a client certificate for TLS ($NATS_CERT)")
    group.add_argument("--tls-key", metavar="FILE", help="the client certificate's key ($NATS_KEY)")
    group.add_argument("--name", metavar="NAME", help="the connection's name as the server shows it")


def servers(flags: argparse.Namespace, environment: Mapping[str, str]) -> List[str]:
    if flags.server:
        return list(flags.server)
    listed = [url.strip() for url in environment.get("NATS_URL", "").split(",") if url.strip()]
    return listed or [DEFAULT_SERVER]


def shown(url: str) -> str:
    """`url` without its password or token: `nats://user:***@host:4222` (a URL without a scheme, as nats-py takes
    it, gets `nats://`). The credentials end at the last `@` (a password may hold `@` or `/`); a user name that
    cannot be told apart is masked whole."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        scheme, rest = "nats", url
    credentials, at, address = rest.rpartition("@")
    if not at:
        return "%s://%s" % (scheme, rest)
    user, colon, _ = credentials.partition(":")
    masked = user + ":***" if colon and "/" not in user else "***"
    return "%s://%s@%s" % (scheme, masked, address)


def options(flags: argparse.Namespace, environment: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
    """The keyword arguments of `nats.connect`."""
    env = os.environ if environment is None else environment
    found: Dict[str, Any] = {"servers": servers(flags, env), "max_reconnect_attempts": -1, "reconnect_time_wait": 1,
                             "allow_reconnect": True}
    if flags.name:
        found["name"] = flags.name
    creds = flags.creds or env.get("NATS_CREDS")
    if creds:
        found["user_credentials"] = creds
    nkey = flags.nkey or env.get("NATS_NKEY")
    if nkey:
        found["nkeys_seed"] = nkey
    user = flags.user or env.get("NATS_USER")
    if user:
        found["user"] = user
        if env.get("NATS_PASSWORD"):
            found["password"] = env["NATS_PASSWORD"]
    if env.get("NATS_TOKEN"):
        found["token"] = env["NATS_TOKEN"]
    ca = flags.tls_ca or env.get("NATS_CA")
    cert = flags.tls_cert or env.get("NATS_CERT")
    key = flags.tls_key or env.get("NATS_KEY")
    if ca or cert:
        context = ssl.create_default_context(cafile=ca)
        if cert:
            context.load_cert_chain(cert, key)
        found["tls"] = context
    return found
