import { parseArgs } from "node:util";
import { BUNDLED_RECORDS, type Config, ConfigError, validateConfig } from "../config.ts";
import type { LogLevel } from "../log.ts";

export type Command = { name: "serve" | "ingest"; config: Config } | { name: "help" };

export const USAGE = `Usage:
  mirrorlite serve  [--records DIR] [--db FILE] [--port N] [--host H] [--log-level L]
                    [--no-wait-signatures] [--verify-signatures ADDRESS_BOOK_FILE] [--list-cache-ms MS]
                    [--poll-ms MS]
  mirrorlite ingest --records DIR --db FILE [--no-wait-signatures] [--verify-signatures ADDRESS_BOOK_FILE]
                    [--commit-transactions N]

  serve   ingests DIR and keeps following it while serving the Mirror Node REST API.
          Without --records it serves the bundled demo stream from an in-memory index.
  ingest  ingests every complete file in DIR into FILE and exits (non-zero on a bad file).

Environment: MIRRORLITE_RECORDS, MIRRORLITE_DB, MIRRORLITE_PORT, MIRRORLITE_HOST, MIRRORLITE_LIST_CACHE_MS
(flags win). Defaults: --port 5551, --host 127.0.0.1, --db ./mirrorlite.db, --log-level info,
--list-cache-ms 1000 (how stale a cached list response may be; 0 = never stale), --commit-transactions 20000
(while catching up, whole files share one SQLite commit up to this many transactions; 1 = one per file).`;

/** Flags and environment → a validated command. Throws ConfigError naming every problem. */
export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") return { name: "help" };
  if (name !== "serve" && name !== "ingest") throw new ConfigError([`unknown command "${name}"`]);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...rest],
      strict: true,
      allowPositionals: false,
      options: {
        records: { type: "string" },
        db: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "log-level": { type: "string" },
        "no-wait-signatures": { type: "boolean" },
        "verify-signatures": { type: "string" },
        "poll-ms": { type: "string" },
        "list-cache-ms": { type: "string" },
        "commit-transactions": { type: "string" },
      },
    }));
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  const records = (values.records as string | undefined) ?? env.MIRRORLITE_RECORDS;
  const db = (values.db as string | undefined) ?? env.MIRRORLITE_DB;
  const problems: string[] = [];
  if (name === "ingest" && !records) problems.push("ingest needs --records DIR");
  if (name === "ingest" && !db) problems.push("ingest needs --db FILE");
  const port = integer(
    (values.port as string | undefined) ?? env.MIRRORLITE_PORT ?? "5551",
    "port",
    problems,
  );
  const pollMs = integer((values["poll-ms"] as string | undefined) ?? "250", "poll-ms", problems);
  const listCacheMs = integer(
    (values["list-cache-ms"] as string | undefined) ?? env.MIRRORLITE_LIST_CACHE_MS ?? "1000",
    "list-cache-ms",
    problems,
  );
  const commitText = values["commit-transactions"] as string | undefined;
  const commitTransactions =
    commitText === undefined ? undefined : integer(commitText, "commit-transactions", problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const config = validateConfig({
    recordsDir: records ?? BUNDLED_RECORDS,
    // The bundled demo is a throwaway: index it in memory unless told otherwise.
    db: db ?? (records ? "./mirrorlite.db" : ":memory:"),
    port,
    host: (values.host as string | undefined) ?? env.MIRRORLITE_HOST ?? "127.0.0.1",
    logLevel: ((values["log-level"] as string | undefined) ?? "info") as LogLevel,
    waitSignatures: values["no-wait-signatures"] !== true,
    verifySignatures: (values["verify-signatures"] as string | undefined) ?? null,
    pollMs,
    listCacheMs,
    ...(commitTransactions === undefined ? {} : { commitTransactions }),
  });
  return { name, config };
}

function integer(text: string, name: string, problems: string[]): number {
  if (!/^\d{1,9}$/.test(text)) {
    problems.push(`${name} must be a whole number, not "${text}"`);
    return 0;
  }
  return Number(text);
}
