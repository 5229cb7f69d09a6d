#!/usr/bin/env node
// `npx boxoffice-worker …`: runs the worker binary that came with this package (its platform package), with the
// same arguments, standard streams, exit status and signals, so a host that spawns `npx -y boxoffice-worker mcp`
// talks to the worker itself. Node cannot exec in place, so the launcher stays as the worker's parent: it passes on
// SIGINT, SIGTERM and SIGHUP, and ends with the worker's status (or the same signal). findBinary never returns this
// launcher itself, which `npx` puts on PATH.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { findBinary } from "../index.js";

let binary;
try {
  binary = findBinary();
} catch (error) {
  process.stderr.write(`boxoffice-worker: ${error.message}\n`);
  process.exit(127);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  process.stderr.write(`boxoffice-worker: cannot start ${binary}: ${error.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // The same signal, so the caller sees what the worker saw; Node ignores some (SIGPIPE), and then the shell's
    // convention for a death by signal, 128 + its number, is the status.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    process.exit(128 + (constants.signals[signal] ?? 0));
  } else {
    process.exit(code ?? 1);
  }
});
