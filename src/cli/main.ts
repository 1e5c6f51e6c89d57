import { existsSync, statSync } from "node:fs";
import { type Config, ConfigError } from "../config.ts";
import { BalanceFileReadError } from "../errors.ts";
import { createLogger, type Logger } from "../log.ts";
import { parseCommand, USAGE } from "./args.ts";

/** The `mirrorlite` command. Returns the process exit code (serve resolves only when it is stopped). */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let command: ReturnType<typeof parseCommand>;
  try {
    command = parseCommand(argv, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`mirrorlite: ${error.problems.join("; ")}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.name === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { config } = command;
  if (!existsSync(config.recordsDir) || !statSync(config.recordsDir).isDirectory()) {
    process.stderr.write(`mirrorlite: records folder not found: ${config.recordsDir}\n`);
    return 2;
  }
  const log = createLogger(config.logLevel);
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
    const outcome = await ingestOnce(config, log.child({ component: "ingest" }));
    if (!outcome.ok) {
      process.stderr.write(`mirrorlite: ingestion stopped: ${outcome.reason}\n`);
      return 1;
    }
    log.info({ files: outcome.files, transactions: outcome.transactions }, "ingest finished");
    return 0;
  }

  const { startService } = await import("./serve.ts");
  const service = await startService(config, log);
  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, "shutting down");
      void service.stop().then(resolve);
    };
    process.once("SIGINT", () => shutdown("SIGINT"));
    process.once("SIGTERM", () => shutdown("SIGTERM"));
  });
  return 0;
}
