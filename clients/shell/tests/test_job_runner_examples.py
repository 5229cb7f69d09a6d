"""The job runner examples say what makes them work: the workflow parses, builds the worker it runs (no package
exists yet), caches the build, and lets no failure pass (`|| true`); cron and systemd set PATH or name the worker
by its full path, and say where output and errors go; no recipe hides the worker's stderr."""
import pathlib
import re
import shutil
import subprocess

import pytest

from recipe_testing import ROOT

WORKFLOW = ROOT / "examples" / "github-actions" / "boxoffice.yml"
CRON = ROOT / "examples" / "cron" / "boxoffice-yesterday.cron"
SERVICE = ROOT / "examples" / "systemd" / "boxoffice-yesterday.service"
RECIPES = [ROOT / "examples" / "boxoffice-yesterday.sh"] + sorted((ROOT / "clients" / "shell").glob("*.sh"))


def parsed_workflow():
    """The workflow through PyYAML (pinned in scripts/python-requirements.txt), as GitHub reads YAML 1.1."""
    import yaml
    return yaml.safe_load(WORKFLOW.read_text())


def test_the_workflow_parses_and_builds_the_worker_it_runs():
    workflow = parsed_workflow()
    # YAML 1.1 reads a bare `on` as true (a key "true" once through JSON).
    triggers = workflow.get("on") or workflow.get(True) or workflow.get("true")
    assert "schedule" in triggers and "workflow_dispatch" in triggers
    assert workflow["permissions"]["contents"] == "write", "the push needs it"
    steps = workflow["jobs"]["yesterday"]["steps"]
    uses = [step.get("uses", "") for step in steps]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert any(use.startswith("swift-actions/setup-swift@") for use in uses)
    assert re.search(r"apt-get install .*libjansson-dev", runs)
    assert "swift build -c release --static-swift-stdlib --product boxoffice-worker" in runs
    caches = [step for step in steps if step.get("uses", "").startswith("actions/cache")]
    build_cache = [step for step in caches if step.get("with", {}).get("path") == ".build"]
    assert build_cache and "hashFiles('Package.swift', 'Sources/**')" in build_cache[0]["with"]["key"]
    assert 'BOXOFFICE_WORKER=$worker' in runs, "the script runs the worker just built"
    assert "sh examples/boxoffice-yesterday.sh" in runs
    assert "git diff --cached --quiet" in runs and re.search(r"^\s*git push\s*$", runs, re.M), "commit on a change only"
    names = [step.get("uses") or step.get("name") for step in steps]
    assert names.index("swift-actions/setup-swift@v2") < next(i for i, step in enumerate(steps)
                                                              if "swift build" in step.get("run", ""))


def test_nothing_hides_a_failure():
    for path in [WORKFLOW, CRON, SERVICE] + RECIPES:
        assert "|| true" not in path.read_text(), path


def test_no_recipe_hides_the_workers_stderr():
    for path in RECIPES:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r'"\$(found|worker|BACKFILL_WORKER)"', line):
                assert "2>/dev/null" not in line and "2>&-" not in line, "%s:%d: %s" % (path, number, line)


def test_cron_and_systemd_find_the_worker_and_say_where_things_go():
    cron = CRON.read_text()
    assert re.search(r"^PATH=/usr/local/bin:", cron, re.M), "cron's own PATH is /usr/bin:/bin"
    assert re.search(r"^BOXOFFICE_WORKER=/", cron, re.M)
    job = [line for line in cron.splitlines() if re.match(r"^[0-9*]", line)]
    assert len(job) == 1 and job[0].split()[5].startswith("/"), "the script by its full path"
    assert "2>>" in job[0] and ">>" in job[0].split("2>>")[0], "stdout and stderr each go to a file"
    service = SERVICE.read_text()
    assert re.search(r"^Environment=PATH=/usr/local/bin:", service, re.M)
    assert re.search(r"^Environment=BOXOFFICE_WORKER=/", service, re.M)
    assert re.search(r"^ExecStart=/", service, re.M)
    assert "journalctl" in service, "where output and errors go"


def test_the_recipes_pass_shellcheck():
    for path in RECIPES:
        shell = "sh" if path.read_text().startswith("#!/bin/sh") else "bash"
        # -x: follow what a recipe sources (bo.sh), from the recipe's folder.
        check = subprocess.run(["shellcheck", "-x", "-P", "SCRIPTDIR", "-s", shell, str(path)], capture_output=True,
                               text=True, timeout=120)
        assert check.returncode == 0, check.stdout


def test_the_posix_script_stays_posix():
    """boxoffice-yesterday.sh is copied to /usr/local/bin and run by sh (dash on Debian): no bash-only syntax."""
    text = (ROOT / "examples" / "boxoffice-yesterday.sh").read_text()
    assert text.startswith("#!/bin/sh\n")
    for bashism in ("[[", "<<<", "pipefail", "local ", "$'", "function ", "${!", "mapfile"):
        assert bashism not in text, bashism
    if shutil.which("dash"):
        assert subprocess.run(["dash", "-n", str(pathlib.Path(ROOT / "examples" / "boxoffice-yesterday.sh"))],
                              timeout=60).returncode == 0
