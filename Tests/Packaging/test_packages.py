"""The installable forms scripts/package writes into dist/, installed as a person without Swift would install them:
the wheel with pip into a fresh venv and with uv as `uvx` runs it, the npm tarballs with no registry, the .deb with
dpkg. Each then answers offline (no key): the CLI's screen, the Python and Node clients with no configuration, the
MCP face through the official SDK.

`bash scripts/test --full` runs scripts/package first; these tests read its dist/. The last one builds the packages
again and compares the wheel's and the .deb's SHA-256.
"""

import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

import anyio
import pytest
from mcp import Client, StdioServerParameters

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
VERSION = (ROOT / "VERSION").read_text().strip()
# What manylinux policies allow a binary to load (PEP 600 and auditwheel's policy list), and the loader itself.
MANYLINUX_LIBRARIES = {"libc.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libpthread.so.0", "libgcc_s.so.1",
                       "libstdc++.so.6", "libutil.so.1", "libresolv.so.2", "libnsl.so.1", "ld-linux-x86-64.so.2",
                       "linux-vdso.so.1"}
SYSTEM_PATH = "/usr/bin:/bin"


def artifact(pattern):
    found = sorted(DIST.glob(pattern))
    if not found:
        pytest.fail("dist/%s is missing: run `bash scripts/package` first (scripts/test --full does)" % pattern)
    assert len(found) == 1, found
    return found[0]


def clean_environment(path, **extra):
    """An environment with no worker named and PATH holding only `path` and the system folders: what a fresh
    machine's shell has. No key: the worker is offline."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_")) and key != "PATH"}
    environment["PATH"] = "%s:%s" % (path, SYSTEM_PATH) if path else SYSTEM_PATH
    environment.update(extra)
    return environment


def run(arguments, **options):
    options.setdefault("capture_output", True)
    options.setdefault("text", True)
    options.setdefault("timeout", 300)
    return subprocess.run(arguments, **options)


def the_recipes_run(commands, environment, folder, bots=None):
    """The recipes installed as commands in the folder `commands` (issue 40) run with no clone: the TSV of a day, a
    backfill, the yesterday job, the webhook bots (which stop at their missing webhook setting; `bots`, the command
    lines that run them, default the installed commands); `folder` takes the files."""
    environment = dict(environment, BOXOFFICE_TODAY="2023-04-27", TMPDIR=str(folder))
    command = lambda name: str(pathlib.Path(commands) / name)  # noqa: E731
    bots = bots or [[command("boxoffice-discord")], [command("boxoffice-slack")]]
    tsv = run([command("boxoffice-dates-to-tsv"), "--offline"], input="2023-04-26\n", env=environment)
    assert tsv.returncode == 0 and len(tsv.stdout.splitlines()) == 11 and "드림" in tsv.stdout, tsv.stderr
    backfill = run([command("boxoffice-backfill"), "2023-04-23", "2023-04-23", "1", "--offline"], env=environment)
    assert backfill.returncode == 0 and json.loads(backfill.stdout)["range"]["start"] == "2023-04-23", backfill.stderr
    out = pathlib.Path(folder) / "out"
    out.mkdir()
    yesterday = run([command("boxoffice-yesterday"), "--offline"], env=dict(environment, BOXOFFICE_OUT=str(out),
                                                                               BOXOFFICE_TODAY="2023-04-27"))
    assert yesterday.returncode == 0 and (out / "daily-2023-04-26.json").exists(), yesterday.stderr
    for bot in bots:
        stopped = run(bot, env=environment)
        assert stopped.returncode == 2 and "WEBHOOK_URL is not set" in stopped.stderr, stopped.stderr


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A fresh venv with the wheel installed from dist/ alone (no index)."""
    folder = tmp_path_factory.mktemp("venv")
    assert run([sys.executable, "-m", "venv", str(folder)]).returncode == 0
    started = time.monotonic()
    installed = run([str(folder / "bin" / "pip"), "install", "--no-index", "--disable-pip-version-check", "-q",
                     str(artifact("boxoffice_worker-*.whl"))])
    print("pip install of the wheel: %.2f s" % (time.monotonic() - started))
    assert installed.returncode == 0, installed.stderr
    return folder


def test_wheel_is_tagged_manylinux_and_holds_the_binary_in_its_scripts():
    wheel = artifact("boxoffice_worker-*.whl")
    tag = re.fullmatch(r"boxoffice_worker-(.+)-py3-none-(manylinux_2_(\d+)_x86_64)\.whl", wheel.name)
    assert tag and tag.group(1) == VERSION, wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        script = "boxoffice_worker-%s.data/scripts/boxoffice-worker" % VERSION
        assert script in names and "boxoffice_worker/client.py" in names and "boxoffice_worker/py.typed" in names
        assert (archive.getinfo(script).external_attr >> 16) & 0o111, "the binary is executable"
        licenses = archive.read("boxoffice_worker/THIRD_PARTY_LICENSES").decode()
        for part in ("Swift runtime", "libjansson-dev", "libsqlite3-dev", "zlib1g-dev", "libstdc++",
                     "swift-nio-ssl: LICENSE.txt",
                     "swift-crypto: LICENSE.txt", "async-http-client: LICENSE.txt"):
            assert "==== %s" % part in licenses, part
        # The lean core (issue 43): neither GRDB nor postgres-nio is linked in any more, so neither is listed.
        assert "==== GRDB" not in licenses and "==== postgres-nio" not in licenses
        wheel_metadata = archive.read("boxoffice_worker-%s.dist-info/WHEEL" % VERSION).decode()
        assert "Root-Is-Purelib: false" in wheel_metadata and "Tag: py3-none-%s" % tag.group(2) in wheel_metadata
    print("wheel: %s, %.1f MB" % (wheel.name, wheel.stat().st_size / 1e6))
    shown = run([sys.executable, "-m", "auditwheel", "show", str(wheel)])
    assert shown.returncode == 0, shown.stderr
    assert 'consistent with the following platform tag: "%s"' % tag.group(2) in " ".join(shown.stdout.split()), \
        shown.stdout


def test_the_wheels_binary_loads_only_what_manylinux_allows(venv):
    binary = venv / "bin" / "boxoffice-worker"
    needed = run(["readelf", "-d", str(binary)]).stdout
    libraries = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", needed))
    assert libraries and libraries <= MANYLINUX_LIBRARIES, libraries
    # libstdc++ is linked in (scripts/release-build): the binary runs where none is installed.
    assert "libstdc++.so.6" not in libraries, libraries
    # ldd: what the loader resolves, with an empty library path; no Jansson, SQLite or zlib.
    resolved = run(["ldd", str(binary)], env={"LD_LIBRARY_PATH": "", "PATH": SYSTEM_PATH}).stdout
    names = {line.split()[0] for line in resolved.splitlines() if line.strip()}
    assert {name.rsplit("/", 1)[-1] for name in names} <= MANYLINUX_LIBRARIES, resolved
    assert not re.search(r"jansson|sqlite|libz\.", resolved), resolved
    # Stripped, with its debug info linked by name.
    sections = run(["readelf", "-S", str(binary)]).stdout
    assert ".gnu_debuglink" in sections and ".debug_info" not in sections and ".symtab" not in sections


def test_pip_install_puts_the_worker_and_its_cli_on_path(venv):
    environment = clean_environment(str(venv / "bin"))
    version = run(["boxoffice-worker", "--version"], env=environment)
    assert version.returncode == 0, version.stderr
    assert re.fullmatch(r"boxoffice-worker %s \(([0-9a-f]{12}|unknown)\)" % re.escape(VERSION), version.stdout.strip())
    screen = run(["boxoffice-worker", "daily", "2023-04-26"], env=environment)
    assert screen.returncode == 0, screen.stderr
    assert "2023-04-26" in screen.stdout and "슈퍼 마리오 브라더스" in screen.stdout, screen.stdout
    assert "신작" in screen.stdout


def test_the_wheel_installs_the_recipes_and_the_job_runners_extras(venv, tmp_path):
    environment = clean_environment(str(venv / "bin"))
    the_recipes_run(venv / "bin", environment, tmp_path)
    where = run([str(venv / "bin" / "python"), "-m", "boxoffice_worker.recipes", "bots/telegram-bot/bot.py"],
                env=environment)
    assert where.returncode == 0 and pathlib.Path(where.stdout.strip()).is_file(), where.stderr
    sourced = run(["bash", "-c", ". boxoffice-bo.sh && bo boxoffice.daily '{\"date\":\"2023-04-26\"}' | jq -r .kind"],
                  env=dict(environment, BO_FLAGS="--offline"))
    assert sourced.stdout.strip() == "daily", sourced.stderr
    extras = run([str(venv / "bin" / "python"), "-c", "import importlib.metadata as m; "
                  "print(sorted(m.metadata('boxoffice-worker').get_all('Provides-Extra')))"], env=environment)
    assert extras.stdout.strip() == "['celery', 'nats', 'rq']", extras.stdout + extras.stderr
    # The NATS adapter's command is installed with the wheel; without its extra it says how to get it.
    adapter = run(["boxoffice-worker-nats", "--help"], env=environment)
    assert adapter.returncode == 69 and "pip install 'boxoffice-worker[nats]'" in adapter.stderr, adapter.stderr


def test_the_python_client_finds_its_bundled_binary_with_no_configuration(venv):
    program = ("from boxoffice_worker import Worker, find_binary, __version__\n"
               "print(find_binary())\n"
               "print(__version__)\n"
               "with Worker() as worker:\n"
               "    print(worker.daily(date='2023-04-26')['entries'][0]['title'])\n")
    # PATH without the venv: the client finds the binary through the interpreter's scripts folder.
    answered = run([str(venv / "bin" / "python"), "-c", program], env=clean_environment(None), cwd=str(venv))
    assert answered.returncode == 0, answered.stderr
    found, version, title = answered.stdout.splitlines()
    assert pathlib.Path(found) == venv / "bin" / "boxoffice-worker" and version == VERSION
    assert title == "드림", answered.stdout


def test_the_official_mcp_sdk_talks_to_the_installed_worker(venv):
    async def body():
        parameters = StdioServerParameters(command=str(venv / "bin" / "boxoffice-worker"), args=["mcp"],
                                           env=clean_environment(str(venv / "bin"), BOXOFFICE_TODAY="2026-11-21"))
        async with Client(parameters, mode="legacy") as client:
            assert client.server_info is not None and client.server_info.version == VERSION
            result = await client.call_tool("boxoffice_daily", {"date": "2023-04-26", "limit": 3})
            assert result.is_error is False and len(result.structured_content["entries"]) == 3

    anyio.run(body)


def test_uvx_runs_the_mcp_face_from_the_wheel(tmp_path):
    """`uvx --from WHEEL boxoffice-worker mcp`, as an MCP host's configuration would start it (offline: the wheel
    has no dependencies to fetch)."""
    uv = pathlib.Path(sys.executable).parent / "uv"
    environment = clean_environment(None, UV_CACHE_DIR=str(tmp_path / "cache"), UV_TOOL_DIR=str(tmp_path / "tools"),
                                    UV_PYTHON=sys.executable, UV_OFFLINE="1", UV_NO_CONFIG="1",
                                    HOME=str(tmp_path))
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "packaging-test", "version": "1"}}}
    answered = run([str(uv), "tool", "run", "--from", str(artifact("boxoffice_worker-*.whl")), "boxoffice-worker",
                    "mcp"], input=json.dumps(initialize) + "\n", env=environment, cwd=str(tmp_path))
    assert answered.returncode == 0, answered.stderr
    answer = json.loads(answered.stdout.splitlines()[0])
    assert answer["id"] == 1 and answer["result"]["serverInfo"]["name"] == "boxoffice-worker", answer
    assert answer["result"]["serverInfo"]["version"] == VERSION


def test_npm_install_of_the_tarballs_gives_npx_and_a_client_that_finds_the_binary(tmp_path):
    main = artifact("boxoffice-worker-%s.tgz" % VERSION)
    platform = artifact("boxoffice-worker-linux-x64-%s.tgz" % VERSION)
    node = shutil.which("node")
    npm = shutil.which("npm")
    assert node and npm
    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text('{"name": "uses-boxoffice", "version": "1.0.0", "private": true}\n')
    environment = clean_environment(os.path.dirname(node), HOME=str(tmp_path), npm_config_cache=str(tmp_path / "npm"),
                                    npm_config_audit="false", npm_config_fund="false",
                                    npm_config_update_notifier="false")
    installed = run([npm, "install", "--offline", str(platform), str(main)], cwd=str(project), env=environment)
    assert installed.returncode == 0, installed.stderr
    platform_files = run(["tar", "tzf", str(platform)]).stdout.split()
    assert sorted(platform_files) == ["package/README.md", "package/THIRD_PARTY_LICENSES", "package/bin/boxoffice-worker",
                                      "package/package.json"], platform_files
    listed = json.loads(run([npm, "ls", "--json", "--all"], cwd=str(project), env=environment).stdout)
    assert set(listed["dependencies"]) >= {"boxoffice-worker", "@boxoffice-worker/linux-x64"}
    for name in ("boxoffice-worker", "@boxoffice-worker/linux-x64"):
        assert listed["dependencies"][name]["version"] == VERSION
    version = run([npm, "exec", "--offline", "--", "boxoffice-worker", "--version"], cwd=str(project), env=environment)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("boxoffice-worker %s (" % VERSION), version.stdout
    npx = run(["npx", "--offline", "boxoffice-worker", "daily", "2023-04-26", "--format", "ndjson"], cwd=str(project),
              env=environment)
    assert npx.returncode == 0, npx.stderr
    assert len(npx.stdout.splitlines()) == 10
    program = ("import { Worker, findBinary } from 'boxoffice-worker';\n"
               "console.log(findBinary());\n"
               "const worker = new Worker();\n"
               "const day = await worker.daily({ date: '2023-04-26', limit: 3 });\n"
               "console.log(day.entries.length);\n"
               "await worker.close();\n")
    answered = run([node, "--input-type=module", "-e", program], cwd=str(project), env=environment)
    assert answered.returncode == 0, answered.stderr
    found, count = answered.stdout.splitlines()
    assert found.endswith("node_modules/@boxoffice-worker/linux-x64/bin/boxoffice-worker") and count == "3"
    # The recipes as the package's commands, with the binary of the platform package.
    (tmp_path / "recipes").mkdir()
    the_recipes_run(project / "node_modules" / ".bin",
                    dict(environment, BOXOFFICE_WORKER=found), tmp_path / "recipes")
    assert (project / "node_modules" / "boxoffice-worker" / "recipes" / "bots" / "telegram-bot" / "bot.py").is_file()


NVIM_PLUGIN = "/usr/share/nvim/site/pack/boxoffice-worker/start/boxoffice"


def deb_contents(deb):
    listing = run(["dpkg-deb", "--contents", str(deb)]).stdout
    return [line.split()[-1].lstrip(".") for line in listing.splitlines() if not line.startswith("d")]


def test_the_deb_says_what_it_is_and_lintian_finds_no_error(tmp_path):
    deb = artifact("boxoffice-worker_%s_amd64.deb" % VERSION)
    info = run(["dpkg-deb", "--info", str(deb)]).stdout
    fields = dict(re.findall(r"^ ([A-Za-z-]+): (.*)$", info, flags=re.M))
    assert fields["Package"] == "boxoffice-worker" and fields["Version"] == VERSION
    assert fields["Architecture"] == "amd64"
    # Depends as dpkg-shlibdeps computed it: glibc and libgcc, no Jansson, SQLite, zlib or libstdc++ (linked in).
    assert "libc6" in fields["Depends"] and not re.search(r"jansson|sqlite|zlib|libstdc", fields["Depends"]), fields
    files = deb_contents(deb)
    for expected in ("/usr/bin/boxoffice-worker", "/usr/share/man/man1/boxoffice-worker.1.gz",
                     "/usr/share/doc/boxoffice-worker/THIRD_PARTY_LICENSES.gz",
                     "/usr/share/man/man1/boxoffice-worker.daily.1.gz",
                     "/usr/share/bash-completion/completions/boxoffice-worker",
                     "/usr/share/zsh/vendor-completions/_boxoffice-worker",
                     "/usr/share/fish/vendor_completions.d/boxoffice-worker.fish",
                     "/usr/share/doc/boxoffice-worker/copyright", "/usr/share/doc/boxoffice-worker/changelog.gz",
                     NVIM_PLUGIN + "/plugin/boxoffice.lua", NVIM_PLUGIN + "/lua/boxoffice/worker.lua",
                     NVIM_PLUGIN + "/doc/tags", "/usr/share/emacs/site-lisp/boxoffice-worker/boxoffice.el",
                     "/etc/emacs/site-start.d/50boxoffice-worker.el"):
        assert expected in files, files
    lintian = shutil.which("lintian")
    assert lintian, "lintian is installed by scripts/test --full"
    # lintian leaves its caches (mldbm-elf-*) in TMPDIR: here, in the test's own folder, which goes with it.
    judged = run([lintian, "--fail-on", "error", "--tag-display-limit", "0", str(deb)], timeout=600,
                 env=dict(os.environ, TMPDIR=str(tmp_path)))
    print(judged.stdout)
    assert judged.returncode == 0, judged.stdout + judged.stderr
    assert not re.search(r"^E: ", judged.stdout, flags=re.M)


@pytest.mark.skipif(os.geteuid() != 0, reason="installing a .deb needs root (CI and the sessions run as root)")
def test_the_deb_installs_works_and_removes_cleanly():
    deb = artifact("boxoffice-worker_%s_amd64.deb" % VERSION)
    if run(["dpkg", "-s", "boxoffice-worker"]).returncode == 0:
        pytest.skip("boxoffice-worker is installed on this machine already; this test installs and purges its own")
    files = deb_contents(deb)
    try:
        installed = run(["dpkg", "-i", str(deb)])
        assert installed.returncode == 0, installed.stderr
        environment = clean_environment(None, MANPAGER="cat", PAGER="cat", MANWIDTH="100")
        assert run(["/usr/bin/boxoffice-worker", "--version"], env=environment).stdout.startswith(
            "boxoffice-worker %s (" % VERSION)
        screen = run(["boxoffice-worker", "daily", "2023-04-26"], env=environment)
        assert screen.returncode == 0 and "신작" in screen.stdout, screen.stderr
        if shutil.which("man"):
            page = run(["man", "boxoffice-worker"], env=environment)
            assert page.returncode == 0 and "boxoffice-worker" in page.stdout, page.stderr
        loaded = run(["bash", "-c", "source /usr/share/bash-completion/completions/boxoffice-worker && "
                                    "complete -p boxoffice-worker"], env=environment)
        assert loaded.returncode == 0 and "boxoffice-worker" in loaded.stdout, loaded.stderr
        editors_find_the_installed_plugins(environment)
        folder = tempfile.mkdtemp(prefix="boxoffice-deb-recipes-")
        try:
            recipes = "/usr/share/boxoffice-worker/recipes/bots/"
            the_recipes_run("/usr/bin", environment, folder,
                            bots=[["python3", recipes + "discord-webhook/boxoffice-discord.py"],
                                  ["python3", recipes + "slack-webhook/boxoffice-slack.py"]])
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        assert os.path.isfile("/usr/share/boxoffice-worker/recipes/bo.sh")
    finally:
        removed = run(["dpkg", "--purge", "boxoffice-worker"])
    assert removed.returncode == 0, removed.stderr
    assert run(["dpkg", "-s", "boxoffice-worker"]).returncode != 0
    left = [path for path in files if os.path.lexists(path)]
    assert not left, left


def editors_find_the_installed_plugins(environment):
    """With no configuration at all, Neovim (its user configuration skipped, its plugins loaded) and Emacs (its site
    start run) have the installed package's commands, and each draws a day from the installed worker."""
    home = tempfile.mkdtemp(prefix="boxoffice-deb-editors-")
    try:
        environment = dict(environment, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_DATA_HOME=home + "/data",
                           XDG_STATE_HOME=home + "/state", BOXOFFICE_TODAY="2026-11-21", TMPDIR=home)
        environment.pop("BOXOFFICE_WORKER", None)
        if shutil.which("nvim"):
            drawn = run(["nvim", "--headless", "-u", "NORC", "-i", "NONE", "-c", "BoxOffice 2023-04-26", "-c",
                         "lua vim.wait(10000, function() return vim.fn.getline(4):find('드림') end, 10)",
                         "-c", "lua io.stdout:write(vim.fn.getline(4), '\\n', require('boxoffice.binary').find())",
                         "-c", "qall!"], env=environment, timeout=60)
            assert "신작" in drawn.stdout and "/usr/bin/boxoffice-worker" in drawn.stdout, drawn.stdout + drawn.stderr
            # The help tags the package made: :help finds the plugin's page.
            helped = run(["nvim", "--headless", "-u", "NORC", "-i", "NONE", "-c", "help :BoxOfficeWeekly", "-c",
                          "lua io.stdout:write(vim.fn.expand('%:p'))", "-c", "qall!"], env=environment, timeout=60)
            assert helped.stdout == NVIM_PLUGIN + "/doc/boxoffice.txt", helped.stdout + helped.stderr
        if shutil.which("emacs"):
            program = ('(progn (boxoffice-daily "2023-04-26")'
                       ' (with-timeout (10 (error "no answer"))'
                       '  (while (not (string-match-p "드림" (with-current-buffer "*boxoffice daily 2023-04-26*"'
                       ' (buffer-string)))) (accept-process-output nil 0.05)))'
                       ' (princ (with-current-buffer "*boxoffice daily 2023-04-26*" (buffer-string))))')
            drawn = run(["emacs", "--batch", "--eval", program], env=environment, timeout=60)
            assert drawn.returncode == 0 and "드림" in drawn.stdout, drawn.stdout + drawn.stderr
    finally:
        shutil.rmtree(home, ignore_errors=True)


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_second_build_gives_the_same_wheel_and_deb():
    """Runs last: scripts/package again from the same commit (the Swift build is then up to date; everything after
    it is made anew) must give the same bytes."""
    wheel, deb = artifact("boxoffice_worker-*.whl"), artifact("boxoffice-worker_*_amd64.deb")
    first = {wheel.name: sha256(wheel), deb.name: sha256(deb)}
    rebuilt = run(["bash", "scripts/package"], cwd=str(ROOT), timeout=3000)
    assert rebuilt.returncode == 0, rebuilt.stderr[-3000:]
    second = {name: sha256(DIST / name) for name in first}
    assert first == second
    sums = dict(reversed(line.split()) for line in (DIST / "SHA256SUMS").read_text().splitlines())
    assert {name: sums[name] for name in first} == second
