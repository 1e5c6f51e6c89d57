import { existsSync, statSync } from "node:fs";
import { constants } from "node:os";
import { type Config, ConfigError } from "../config.ts";
import { BalanceFileReadError } from "../errors.ts";
import { createLogger, type Logger } from "../log.ts";
import { mirrorliteVersion } from "../runtime/assets.ts";
import { UnsafeCacheError } from "../runtime/private-folder.ts";
import { INGEST_USAGE, parseCommand, SERVE_USAGE, USAGE } from "./args.ts";
import { StartupError } from "./startup-error.ts";

/** After the first SIGTERM/SIGINT the process is gone within this long, stopped cleanly or not. */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** The `mirrorlite` command. Returns the process exit code (serve resolves only when it is stopped). */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    return await runCommand(argv, env);
  } catch (error) {
    // The single executable's cache folder is not safe to load code from: one line, exit 1.
    if (!(error instanceof UnsafeCacheError)) throw error;
    process.stderr.write(`mirrorlite: ${error.message}\n`);
    return 1;
  }
}

async function runCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let command: ReturnType<typeof parseCommand>;
  try {
    command = parseCommand(argv, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`mirrorlite: ${error.problems.join("; ")}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.name === "version") {
    process.stdout.write(`mirrorlite ${mirrorliteVersion()} (node ${process.versions.node})\n`);
    return 0;
  }
  if (command.name === "help") {
    const text = { main: USAGE, serve: SERVE_USAGE, ingest: INGEST_USAGE }[command.topic];
    process.stdout.write(`${text}\n`);
    return 0;
  }
  const { config } = command;
  for (const [what, dir] of [
    ["records", config.recordsDir],
    ["blocks", config.blocksDir ?? null],
  ] as const) {
    if (dir !== null && (!existsSync(dir) || !statSync(dir).isDirectory())) {
      process.stderr.write(`mirrorlite: ${what} folder not found: ${dir}\n`);
      return 2;
    }
  }
  const log = createLogger(config.logLevel, { format: config.logFormat });
  try {
    return await run(command.name, config, log);
  } catch (error) {
    if (!(error instanceof BalanceFileReadError)) throw error;
    process.stderr.write(`mirrorlite: ${error.message}\n`);
    return 2;
  }
}

async function run(name: "serve" | "ingest", config: Config, log: Logger): Promise<number> {
  if (name === "ingest") {
    // Loaded on demand so that `ingest` never loads the HTTP side, nor `serve` the one-shot path.
    const { ingestOnce } = await import("./ingest-once.ts");
    const interrupt = new AbortController();
    const onInterrupt = (signal: NodeJS.Signals) => {
      // A second signal: exit now; the index still ends at a whole file (SQLite's journal).
      if (interrupt.signal.aborted) process.exit(128 + (constants.signals[signal] ?? 15));
      interrupt.abort(signal);
    };
    process.on("SIGINT", onInterrupt);
    process.on("SIGTERM", onInterrupt);
    let outcome: Awaited<ReturnType<typeof ingestOnce>>;
    try {
      outcome = await ingestOnce(config, log.child({ component: "ingest" }), interrupt.signal);
    } catch (error) {
      if (!(error instanceof StartupError)) throw error;
      process.stderr.write(`mirrorlite: ${error.message}\n`);
      return 1;
    }
    process.removeListener("SIGINT", onInterrupt);
    process.removeListener("SIGTERM", onInterrupt);
    if (!outcome.ok) {
      process.stderr.write(`mirrorlite: ingestion stopped: ${outcome.reason}\n`);
      return 1;
    }
    log.info({ files: outcome.files, transactions: outcome.transactions }, "ingest finished");
    return 0;
  }

  // Signals that arrive while starting (a long migration, a slow disk) stop the start-up as soon as it is done.
  let signalled: string | undefined;
  let onSignal: (signal: string) => void = (signal) => {
    signalled = signal;
  };
  let signals = 0;
  const handler = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      // A second signal: the operator does not want to wait.
      process.stderr.write(`mirrorlite: ${signal} again, exiting now\n`);
      process.exit(128 + (constants.signals[signal] ?? 15));
    }
    onSignal(signal);
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);

  const { startService } = await import("./serve.ts");
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService(config, log);
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    log.error(error.message);
    process.stderr.write(`mirrorlite: ${error.message}\n`);
    return 1;
  }

  const outcome = await new Promise<{ signal: string } | { crash: string }>((resolve) => {
    onSignal = (signal) => {
      signalled = signal;
      resolve({ signal });
    };
    if (signalled !== undefined) resolve({ signal: signalled });
    void service.ingest.crashed.then((crash) => resolve({ crash }));
  });
  // Whatever happens below, the process ends in time: a supervisor waiting on it must not wait forever.
  const deadline = setTimeout(() => {
    process.stderr.write("mirrorlite: could not stop cleanly in time, exiting\n");
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  deadline.unref();
  if ("crash" in outcome) {
    log.fatal(
      { reason: outcome.crash },
      "ingest worker crashed; exiting so that a supervisor restarts mirrorlite",
    );
    process.stderr.write(`mirrorlite: ${outcome.crash}\n`);
  } else {
    log.info({ signal: outcome.signal }, "shutting down");
  }
  await service.stop();
  clearTimeout(deadline);
  process.removeListener("SIGINT", handler);
  process.removeListener("SIGTERM", handler);
  if ("crash" in outcome) return 1;
  log.info("stopped");
  return 0;
}
