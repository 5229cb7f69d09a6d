// How the package finds the worker, and the `npx` launcher (bin/boxoffice-worker.js) that runs it: the launcher that
// npx puts on PATH is never taken for the worker, and it passes the worker's arguments, output and status through.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const launcher = join(here, "..", "bin", "boxoffice-worker.js");
const worker = process.env.BOXOFFICE_WORKER || join(root, ".build", "debug", "boxoffice-worker");

/** A temporary folder holding `bin-launcher/boxoffice-worker` (a link to the launcher, as npx makes it) and
 * `bin-other/boxoffice-worker` (a stand-in worker that says its name); removed after `body`. */
function withFolders(body) {
  const folder = mkdtempSync(join(tmpdir(), "boxoffice-launcher-"));
  try {
    const launcherFolder = join(folder, "bin-launcher");
    const otherFolder = join(folder, "bin-other");
    mkdirSync(launcherFolder);
    mkdirSync(otherFolder);
    symlinkSync(launcher, join(launcherFolder, "boxoffice-worker"));
    writeFileSync(join(otherFolder, "boxoffice-worker"), "#!/bin/sh\necho other-worker \"$@\"\n");
    chmodSync(join(otherFolder, "boxoffice-worker"), 0o755);
    return body({ launcherFolder, otherFolder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs `node -e program` (an ES module) in the package's folder with `env`. */
function node(program, env) {
  return spawnSync(process.execPath, ["--input-type=module", "-e", program], {
    cwd: join(here, ".."), env, encoding: "utf8", timeout: 60_000,
  });
}

test("findBinary skips this package's own launcher on PATH and takes the next worker", () => {
  withFolders(({ launcherFolder, otherFolder }) => {
    const found = node("import { findBinary } from './index.js'; console.log(findBinary());", {
      PATH: `${launcherFolder}:${otherFolder}:/usr/bin:/bin`,
    });
    assert.equal(found.status, 0, found.stderr);
    assert.equal(found.stdout.trim(), join(otherFolder, "boxoffice-worker"));
  });
});

test("with only the launcher on PATH, findBinary says how to install the worker instead of looping", () => {
  withFolders(({ launcherFolder }) => {
    const found = node("import { findBinary } from './index.js'; findBinary();", {
      PATH: `${launcherFolder}:/usr/bin:/bin`,
    });
    assert.notEqual(found.status, 0);
    assert.match(found.stderr, /boxoffice-worker is not installed: `npm install boxoffice-worker`/);
    const launched = spawnSync(process.execPath, [launcher, "--version"], {
      env: { PATH: `${launcherFolder}:/usr/bin:/bin` }, encoding: "utf8", timeout: 60_000,
    });
    assert.equal(launched.status, 127);
    assert.match(launched.stderr, /^boxoffice-worker: boxoffice-worker is not installed/);
  });
});

test("the launcher runs the worker with its arguments, output and exit status", () => {
  const env = { PATH: "/usr/bin:/bin", BOXOFFICE_WORKER: worker, BOXOFFICE_TODAY: "2026-11-21" };
  const version = spawnSync(process.execPath, [launcher, "--version"], { env, encoding: "utf8", timeout: 60_000 });
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, /^boxoffice-worker \d+\.\d+\.\d+ \(([0-9a-f]{12}|unknown)\)\n$/);
  const ping = spawnSync(process.execPath, [launcher], {
    env, input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', encoding: "utf8", timeout: 60_000,
  });
  assert.equal(ping.status, 0, ping.stderr);
  assert.equal(ping.stdout, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
  const refused = spawnSync(process.execPath, [launcher, "daily", "not-a-date"], { env, encoding: "utf8", timeout: 60_000 });
  assert.equal(refused.status, 64, refused.stderr);
});
