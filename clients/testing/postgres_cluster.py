#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for the tests: Debian's PostgreSQL 15, initdb'd into a temporary directory, on a
free port of 127.0.0.1 and a private socket directory, with password (scram-sha-256) authentication over TCP.

    python3 clients/testing/postgres_cluster.py run -- COMMAND...

starts one, runs COMMAND with BOXOFFICE_TEST_DATABASE_URL (and BOXOFFICE_TEST_PG_* for tests that stop and
restart it) in its environment, then stops and removes it; COMMAND's exit code is the script's. When no cluster can
start (no PostgreSQL here), it says why on stderr and runs COMMAND without the variables, so tests that need one skip
with that reason.

initdb and the server refuse to run as root, so as root they run as the `postgres` user the Debian package creates,
in directories that user owns. The socket directory is private to the cluster, and only the TCP listener on
127.0.0.1 is open: other test runs on the machine (and any system cluster on 5432) are never touched.
"""
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BIN = pathlib.Path(os.environ.get("BOXOFFICE_PG_BIN", "/usr/lib/postgresql/15/bin"))


class Unavailable(Exception):
    """No cluster can start here; the message says why."""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """One cluster: start(), url(...), sql(...), stop(mode), restart(), remove()."""

    def __init__(self, role="boxoffice", database="boxoffice", tls=False):
        if not (BIN / "initdb").exists():
            raise Unavailable("PostgreSQL is not installed (%s/initdb is missing; scripts/setup postgres installs it)" % BIN)
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            try:
                import pwd
                self.owner = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and there is no postgres user to run the server as")
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="boxoffice-pg-", dir="/tmp"))
        self.data = self.root / "data"
        self.sockets = self.root / "sockets"
        self.sockets.mkdir()
        if self.as_postgres:
            for path in (self.root, self.sockets):
                os.chown(path, self.owner.pw_uid, self.owner.pw_gid)
        os.chmod(self.root, 0o700)
        self.role = role
        self.database = database
        self.password = secrets.token_hex(16)
        self.port = None
        self.running = False
        self.tls = tls

    def _run(self, *arguments, check=True, capture=True):
        command = list(arguments)
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--"] + command
        result = subprocess.run(command, stdout=subprocess.PIPE if capture else None,
                                stderr=subprocess.STDOUT if capture else None, text=True, cwd="/")
        if check and result.returncode != 0:
            raise Unavailable("%s failed: %s" % (" ".join(arguments[:2]), (result.stdout or "").strip()[-800:]))
        return result

    def start(self):
        self._run(str(BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth-local=trust",
                  "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")
        if self.tls:
            # A self-signed certificate for 127.0.0.1: enough for sslmode=require (no verification) and to see
            # verify-full refuse it.
            self._run("openssl", "req", "-new", "-x509", "-days", "2", "-nodes", "-subj", "/CN=127.0.0.1",
                      "-newkey", "rsa:2048", "-keyout", str(self.data / "server.key"),
                      "-out", str(self.data / "server.crt"))
            self._run("chmod", "600", str(self.data / "server.key"))
        self._start_server()
        self.sql("CREATE ROLE %s LOGIN CREATEDB PASSWORD '%s'" % (self.role, self.password))
        # PostgreSQL 15 lets only a database's owner create tables in its public schema.
        self.sql("CREATE DATABASE %s OWNER %s" % (self.database, self.role))
        return self

    def _start_server(self, keep_port=False):
        for attempt in range(5):
            if not (keep_port and self.port):
                self.port = free_port()
            options = "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" % (
                self.port, self.sockets)
            if self.tls:
                options += " -c ssl=on"
            result = self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
                               "-w", "-t", "30", "-o", options, "start", check=False)
            if result.returncode == 0:
                self.running = True
                return
            time.sleep(0.2)  # sleep-ok: a pause before retrying a server start on another port
        raise Unavailable("the server did not start: " + self.log()[-800:])

    def log(self):
        try:
            return (self.root / "server.log").read_text(errors="replace")
        except OSError:
            return ""

    def url(self, database=None, password=None, sslmode="disable"):
        return "postgres://%s:%s@127.0.0.1:%d/%s?sslmode=%s" % (
            self.role, self.password if password is None else password, self.port, database or self.database, sslmode)

    def sql(self, statement, database="postgres"):
        """Runs `statement` as the superuser over the private socket; returns what psql printed (unaligned)."""
        result = self._run("psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", str(self.sockets),
                           "-p", str(self.port), "-U", "postgres", "-d", database, "-c", statement)
        return result.stdout.strip()

    def stop(self, mode="fast"):
        if self.running:
            self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", check=False)
            self.running = False

    def restart(self):
        """Starts the stopped server again on the same port."""
        self._start_server(keep_port=True)

    def remove(self):
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def environment(self):
        return {
            "BOXOFFICE_TEST_DATABASE_URL": self.url(),
            "BOXOFFICE_TEST_PG_PASSWORD": self.password,
        }


def main():
    arguments = sys.argv[1:]
    if len(arguments) < 3 or arguments[0] != "run" or arguments[1] != "--":
        print(__doc__, file=sys.stderr)
        return 64
    command = arguments[2:]
    environment = dict(os.environ)
    cluster = None
    try:
        cluster = Cluster().start()
        environment.update(cluster.environment())
        print("postgres_cluster: a throwaway PostgreSQL 15 on 127.0.0.1:%d" % cluster.port, file=sys.stderr)
    except Unavailable as error:
        print("postgres_cluster: no PostgreSQL for these tests: %s" % error, file=sys.stderr)
        if cluster:
            cluster.remove()
            cluster = None
    try:
        return subprocess.call(command, env=environment)
    finally:
        if cluster:
            cluster.remove()


if __name__ == "__main__":
    sys.exit(main())
