import { parseArgs } from "node:util";
import { type Config, ConfigError, validateConfig } from "../config.ts";
import { SIDECAR_MODES, type SidecarMode } from "../ingest/sidecars.ts";
import type { LogFormat, LogLevel } from "../log.ts";
import { demoBalancesDir, demoRecordsDir } from "../runtime/assets.ts";

export type Command =
  | { name: "serve" | "ingest"; config: Config }
  | { name: "help"; topic: "main" | "serve" | "ingest" }
  | { name: "version" };

export const USAGE = `Usage:
  mirrorlite serve  [--records DIR] [--blocks DIR] [--db FILE] [--port N] [--host H] [options]
  mirrorlite ingest --records DIR | --blocks DIR --db FILE [options]
  mirrorlite --version | --help | serve --help | ingest --help

  serve   ingests DIR and keeps following it while serving the Mirror Node REST API.
          Without --records it serves the bundled demo stream from an in-memory index.
  ingest  ingests every complete file in DIR into FILE and exits (non-zero on a bad file).

Exit codes: 0 stopped cleanly (SIGTERM/SIGINT), 1 failed (ingest worker crashed, database cannot be opened,
port in use, bad file for ingest), 2 usage error (or a malformed --balances file).`;

const COMMON_OPTIONS = `  --records DIR               MIRRORLITE_RECORDS      a node's record stream folder (…/record0.0.3)
  --blocks DIR                MIRRORLITE_BLOCKS       a block stream folder (…/block-0.0.3, or a bucket's
                                                      0000/0000/0000/0000/ layout); with --records, record
                                                      files first, then the blocks that continue them
  --no-wait-signatures                                a record file is complete when its size stops changing,
                                                      not when its _sig file exists (a block: not its .mf)
  --settle-ms MS              MIRRORLITE_SETTLE_MS    without signatures: a file is complete once its size
                                                      and time stayed the same this long (1000)
  --verify-signatures FILE                            accept only record files signed by the folder's node,
                                                      per this NodeAddressBook file
  --sidecars MODE             MIRRORLITE_SIDECARS     sidecar files of record files (contract state,
                                                      actions, bytecode): optional reads those present,
                                                      required stops on a missing one, off reads none;
                                                      a corrupt one always stops (optional)
  --log-level L               MIRRORLITE_LOG_LEVEL    fatal|error|warn|info|debug|trace|silent (info)
  --log-format F              MIRRORLITE_LOG_FORMAT   json|pretty (pretty on a terminal, json otherwise)
  --worker-heap-mb MB         MIRRORLITE_WORKER_HEAP_MB  cap the ingest worker's heap (512)
  --commit-transactions N                             while catching up, whole files share one SQLite
                                                      commit up to N transactions; 1 = one per file (20000)
  --max-file-mb MB            MIRRORLITE_MAX_FILE_MB  the largest stream file, on disk and decompressed;
                                                      a larger one is refused as corrupt (256)
  --balances DIR              MIRRORLITE_BALANCES     a node's account balance folder (*_Balances.csv,
                                                      *_Balances.pb.gz): the newest snapshot at or before
                                                      the first record file starts the hbar and token
                                                      balances; later ones are checked (the demo's own)`;

export const SERVE_USAGE = `Usage: mirrorlite serve [options]

Ingests the record stream folder, keeps following it, and serves the Mirror Node REST API v1, /health/*,
/metrics (Prometheus) and /api/v1/docs (OpenAPI, Swagger UI). Flags win over environment variables.

  flag                        environment             meaning (default)
${COMMON_OPTIONS.replace("a node's record stream folder (…/record0.0.3)", "a node's record stream folder (the bundled demo)")}
  --db FILE                   MIRRORLITE_DB           the SQLite index; :memory: keeps it in RAM
                                                      (./mirrorlite.db; :memory: for the demo)
  --port N                    MIRRORLITE_PORT         HTTP port; 0 picks a free one (5551)
  --host H                    MIRRORLITE_HOST         HTTP address (127.0.0.1)
  --list-cache-ms MS          MIRRORLITE_LIST_CACHE_MS  how stale a cached list may be; 0 = never (1000)
  --poll-ms MS                MIRRORLITE_POLL_MS      how often to look at the folder besides file events (250)
  --read-workers N            MIRRORLITE_READ_WORKERS  threads answering API queries (cores − 1, at least 1)
  --query-timeout-ms MS       MIRRORLITE_QUERY_TIMEOUT_MS  a query running longer answers 503 and its thread
                                                      is replaced (20000)
  --metrics-port N            MIRRORLITE_METRICS_PORT serve /metrics on this port instead of --port (unset)
  --java-port N               MIRRORLITE_JAVA_PORT    also serve the Java-service paths (/network/*, hooks…)
                                                      here, as SDKs expect on 8084; 0: off (8084 with the
                                                      default host, else off)
  --grpc-port N|off           MIRRORLITE_GRPC_PORT    the mirror gRPC API (topic subscriptions, address book,
                                                      health), plaintext on --host; 0 picks a free port,
                                                      off disables it (5600)
  --network NAME              MIRRORLITE_NETWORK      mainnet, testnet, previewnet or other: the EVM's chain id
                                                      in /contracts/call (295-298; other)
  --opcodes on|off            MIRRORLITE_OPCODES      replay transactions at /contracts/results/{id}/opcodes
                                                      (off: 404, as the mirror node ships it) (off)

SIGTERM or SIGINT stops cleanly within 10 s (a file being applied is rolled back, never half applied);
a second signal exits at once.`;

export const INGEST_USAGE = `Usage: mirrorlite ingest --records DIR --db FILE [options]
       mirrorlite ingest [--records DIR] --blocks DIR --db FILE [options]

Applies every complete record file in DIR (then every block of --blocks) to FILE, then exits: 0 when all applied, 1 naming the file that
could not be (corrupt, out of chain, badly signed).

  flag                        environment             meaning (default)
${COMMON_OPTIONS}
  --db FILE                   MIRRORLITE_DB           the SQLite index (required)`;

/** Flags and environment → a validated command. Throws ConfigError naming every problem. */
const DEFAULT_HOST = "127.0.0.1";

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    return { name: "help", topic: "main" };
  }
  if (name === "--version" || name === "-v" || name === "version") return { name: "version" };
  if (name !== "serve" && name !== "ingest") throw new ConfigError([`unknown command "${name}"`]);
  if (rest.includes("--help") || rest.includes("-h")) return { name: "help", topic: name };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...rest],
      strict: true,
      allowPositionals: false,
      options: {
        records: { type: "string" },
        blocks: { type: "string" },
        db: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "log-level": { type: "string" },
        "log-format": { type: "string" },
        "no-wait-signatures": { type: "boolean" },
        "verify-signatures": { type: "string" },
        "poll-ms": { type: "string" },
        "settle-ms": { type: "string" },
        "list-cache-ms": { type: "string" },
        "worker-heap-mb": { type: "string" },
        balances: { type: "string" },
        "commit-transactions": { type: "string" },
        "read-workers": { type: "string" },
        "query-timeout-ms": { type: "string" },
        "max-file-mb": { type: "string" },
        "metrics-port": { type: "string" },
        "java-port": { type: "string" },
        "grpc-port": { type: "string" },
        sidecars: { type: "string" },
        network: { type: "string" },
        opcodes: { type: "string" },
      },
    }));
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  const option = (flag: string, variable?: string) =>
    (values[flag] as string | undefined) ?? (variable === undefined ? undefined : env[variable]);
  const records = option("records", "MIRRORLITE_RECORDS");
  const blocks = option("blocks", "MIRRORLITE_BLOCKS");
  const ownStream = records !== undefined || blocks !== undefined;
  const db = option("db", "MIRRORLITE_DB");
  const problems: string[] = [];
  if (name === "ingest" && !ownStream) problems.push("ingest needs --records DIR or --blocks DIR");
  if (name === "ingest" && !db) problems.push("ingest needs --db FILE");
  const port = integer(option("port", "MIRRORLITE_PORT") ?? "5551", "port", problems);
  const pollMs = integer(option("poll-ms", "MIRRORLITE_POLL_MS") ?? "250", "poll-ms", problems);
  const settleText = option("settle-ms", "MIRRORLITE_SETTLE_MS");
  const settleMs = settleText === undefined ? undefined : integer(settleText, "settle-ms", problems);
  const listCacheMs = integer(
    option("list-cache-ms", "MIRRORLITE_LIST_CACHE_MS") ?? "1000",
    "list-cache-ms",
    problems,
  );
  const heap = option("worker-heap-mb", "MIRRORLITE_WORKER_HEAP_MB");
  const workerHeapMb = heap === undefined ? undefined : integer(heap, "worker-heap-mb", problems);
  // Readable lines for a person at a terminal, JSON for everything else (journald, collectors, pipes).
  const logFormat =
    option("log-format", "MIRRORLITE_LOG_FORMAT") ?? (process.stdout.isTTY ? "pretty" : "json");
  const commitText = values["commit-transactions"] as string | undefined;
  const commitTransactions =
    commitText === undefined ? undefined : integer(commitText, "commit-transactions", problems);
  const readWorkersText = option("read-workers", "MIRRORLITE_READ_WORKERS");
  const readWorkers =
    readWorkersText === undefined ? undefined : integer(readWorkersText, "read-workers", problems);
  const timeoutText = option("query-timeout-ms", "MIRRORLITE_QUERY_TIMEOUT_MS");
  const queryTimeoutMs =
    timeoutText === undefined ? undefined : integer(timeoutText, "query-timeout-ms", problems);
  const maxFileText = option("max-file-mb", "MIRRORLITE_MAX_FILE_MB");
  const maxFileMb = maxFileText === undefined ? undefined : integer(maxFileText, "max-file-mb", problems);
  const metricsText = option("metrics-port", "MIRRORLITE_METRICS_PORT");
  const metricsPort = metricsText === undefined ? undefined : integer(metricsText, "metrics-port", problems);
  const host = option("host", "MIRRORLITE_HOST") ?? DEFAULT_HOST;
  // The SDKs send a local mirror's Java-service queries to 8084: listen there unless told otherwise (0: off).
  const javaText = option("java-port", "MIRRORLITE_JAVA_PORT") ?? (host === DEFAULT_HOST ? "8084" : "0");
  const javaPort = integer(javaText, "java-port", problems);
  const grpcText = option("grpc-port", "MIRRORLITE_GRPC_PORT") ?? "5600";
  const grpcPort = grpcText === "off" ? null : integer(grpcText, "grpc-port", problems);
  const sidecarsText = option("sidecars", "MIRRORLITE_SIDECARS");
  if (sidecarsText !== undefined && !(SIDECAR_MODES as readonly string[]).includes(sidecarsText))
    problems.push(`sidecars must be off, optional or required, not "${sidecarsText}"`);
  const networkText = option("network", "MIRRORLITE_NETWORK")?.toLowerCase();
  if (networkText !== undefined && !["mainnet", "testnet", "previewnet", "other"].includes(networkText))
    problems.push(`network must be mainnet, testnet, previewnet or other, not "${networkText}"`);
  const opcodesText = option("opcodes", "MIRRORLITE_OPCODES")?.toLowerCase();
  if (opcodesText !== undefined && opcodesText !== "on" && opcodesText !== "off")
    problems.push(`opcodes must be on or off, not "${opcodesText}"`);
  if (problems.length > 0) throw new ConfigError(problems);
  const config = validateConfig({
    // The bundled demo is a throwaway: index it in memory unless told otherwise.
    recordsDir: records ?? (blocks === undefined ? demoRecordsDir() : null),
    blocksDir: blocks ?? null,
    db: db ?? (ownStream ? "./mirrorlite.db" : ":memory:"),
    port,
    host,
    logLevel: (option("log-level", "MIRRORLITE_LOG_LEVEL") ?? "info") as LogLevel,
    waitSignatures: values["no-wait-signatures"] !== true,
    verifySignatures: (values["verify-signatures"] as string | undefined) ?? null,
    pollMs,
    listCacheMs,
    logFormat: logFormat as LogFormat,
    ...(workerHeapMb === undefined ? {} : { workerHeapMb }),
    // The bundled demo comes with its balance snapshots, so that it serves the network supply.
    balancesDir:
      (values.balances as string | undefined) ??
      env.MIRRORLITE_BALANCES ??
      (ownStream ? null : demoBalancesDir()),
    ...(commitTransactions === undefined ? {} : { commitTransactions }),
    ...(readWorkers === undefined ? {} : { readWorkers }),
    ...(queryTimeoutMs === undefined ? {} : { queryTimeoutMs }),
    ...(maxFileMb === undefined ? {} : { maxFileMb }),
    ...(metricsPort === undefined ? {} : { metricsPort }),
    ...(javaPort === 0 ? {} : { javaPort }),
    ...(name === "serve" ? { grpcPort } : {}),
    ...(sidecarsText === undefined ? {} : { sidecars: sidecarsText as SidecarMode }),
    ...(networkText === undefined ? {} : { network: networkText as NonNullable<Config["network"]> }),
    ...(settleMs === undefined ? {} : { settleMs }),
    ...(name === "serve" && opcodesText !== undefined ? { opcodes: opcodesText === "on" } : {}),
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
