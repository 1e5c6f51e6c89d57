import Ajv from "ajv";
import type { LogFormat, LogLevel } from "./log.ts";

/** The running configuration, built once by the CLI from flags and environment; tests pass plain objects. */
export type Config = {
  /** The node's record-stream folder (e.g. `.../record0.0.3`); null with a block stream folder only. */
  recordsDir: string | null;
  /**
   * A block stream folder (a node's `blockStreams/block-0.0.3/`, or a bucket's nested layout). With both folders,
   * record files are applied first and blocks continue them.
   */
  blocksDir?: string | null;
  /** SQLite file of the index, or `:memory:`. */
  db: string;
  port: number;
  host: string;
  logLevel: LogLevel;
  /** Treat a record file as complete when its `_sig` file exists (false: when its size stops changing). */
  waitSignatures: boolean;
  /** A `NodeAddressBook` file; when set, record files must be signed by the node that wrote the folder. */
  verifySignatures: string | null;
  /** How often to look at the folder besides file-system events, in milliseconds. */
  pollMs: number;
  /**
   * Without signatures (or block markers): how long a file's size and modification time must stay the same before
   * it is taken as complete, in ms (default 1000).
   */
  settleMs?: number;
  /** The most a cached list response may lag behind the index once newer data is applied, in milliseconds. */
  listCacheMs: number;
  /** JSON lines (default) or readable lines for a terminal. */
  logFormat?: LogFormat;
  /**
   * A cap on the ingest worker's old-generation heap in MB (unset: 512, set in ingest/service.ts); past it the
   * worker dies and so does the process.
   */
  workerHeapMb?: number;
  /**
   * A node's account balance folder (`*_Balances.csv` / `.pb.gz`): the starting hbar and token balances, and
   * later snapshots to compare with. Absent or null: hbar balances are known only for a stream from genesis.
   */
  balancesDir?: string | null;
  /**
   * While catching up, the most transactions one SQLite commit may hold (whole files only; a file larger than
   * this commits alone). Default 20,000; 1 commits every file on its own.
   */
  commitTransactions?: number;
  /** Read worker threads answering API requests (default: the machine's cores − 1, at least 1). */
  readWorkers?: number;
  /**
   * The deadline of one API query, in ms (default 20000, the public mirror node's statement timeout): past it the
   * request answers 503 and its read worker is replaced.
   */
  queryTimeoutMs?: number;
  /**
   * The most MiB a stream file (record file, balance snapshot) may hold, on disk and decompressed; a larger one
   * stops ingestion as corrupt (default 256).
   */
  maxFileMb?: number;
  /**
   * Serve `/metrics` on this port (same host; 0: any free port) instead of the public one, so that it can be
   * firewalled apart. Unset: `/metrics` is on the public port.
   */
  metricsPort?: number;
  /**
   * A second port (same host; 0: any free port) serving the paths upstream serves from its Java service
   * (`/api/v1/network/*`, the Java account lists and hooks, `/api/v1/topics/{id}`), where the official SDKs look
   * for them on a local network (8084). Unset: no second listener. The CLI defaults it to 8084 with the default
   * host.
   */
  javaPort?: number;
  /**
   * The mirror gRPC API's port (plaintext, on `host`; 0: any free port). Absent or null: no gRPC API (the CLI's
   * default is 5600; tests and embedders opt in).
   */
  grpcPort?: number | null;
  /**
   * Sidecar files of v6 record files (contract state changes, actions, bytecode): `optional` (default) reads those
   * present, `required` stops ingestion on a missing one, `off` reads none. A corrupt or hash-mismatched sidecar
   * always stops ingestion (unless off).
   */
  sidecars?: "off" | "optional" | "required";
  /**
   * The Hedera network the stream comes from, for the EVM's chain id (`CHAINID` in `/contracts/call`): mainnet 295,
   * testnet 296, previewnet 297, other 298 (default, as upstream's).
   */
  network?: "mainnet" | "testnet" | "previewnet" | "other";
  /**
   * `GET /api/v1/contracts/results/{id}/opcodes` replays recorded transactions with the opcode logger (`--opcodes
   * on`). Off (default, as upstream ships it): that path answers 404.
   */
  opcodes?: boolean;
  /** Past this many bytes the write-ahead log is checkpointed and started over (default 64 MiB; no flag: tests). */
  walLimitBytes?: number;
};

/** The public mirror node's REST statement timeout (`hiero.mirror.rest.db.pool.statementTimeout`). */
export const DEFAULT_QUERY_TIMEOUT_MS = 20_000;

const schema = {
  type: "object",
  additionalProperties: false,
  required: [
    "recordsDir",
    "db",
    "port",
    "host",
    "logLevel",
    "waitSignatures",
    "verifySignatures",
    "pollMs",
    "listCacheMs",
  ],
  properties: {
    recordsDir: { type: ["string", "null"], minLength: 1 },
    blocksDir: { type: ["string", "null"], minLength: 1 },
    db: { type: "string", minLength: 1 },
    port: { type: "integer", minimum: 0, maximum: 65535 },
    host: { type: "string", minLength: 1 },
    logLevel: { enum: ["fatal", "error", "warn", "info", "debug", "trace", "silent"] },
    waitSignatures: { type: "boolean" },
    verifySignatures: { type: ["string", "null"] },
    pollMs: { type: "integer", minimum: 10, maximum: 60000 },
    settleMs: { type: "integer", minimum: 0, maximum: 3600000 },
    listCacheMs: { type: "integer", minimum: 0, maximum: 3600000 },
    logFormat: { enum: ["json", "pretty"] },
    workerHeapMb: { type: "integer", minimum: 8, maximum: 1048576 },
    balancesDir: { type: ["string", "null"], minLength: 1 },
    commitTransactions: { type: "integer", minimum: 1, maximum: 10000000 },
    readWorkers: { type: "integer", minimum: 1, maximum: 256 },
    queryTimeoutMs: { type: "integer", minimum: 1, maximum: 3600000 },
    maxFileMb: { type: "integer", minimum: 1, maximum: 2047 },
    metricsPort: { type: "integer", minimum: 0, maximum: 65535 },
    javaPort: { type: "integer", minimum: 0, maximum: 65535 },
    grpcPort: { type: ["integer", "null"], minimum: 0, maximum: 65535 },
    sidecars: { enum: ["off", "optional", "required"] },
    network: { enum: ["mainnet", "testnet", "previewnet", "other"] },
    opcodes: { type: "boolean" },
    walLimitBytes: { type: "integer", minimum: 4096 },
  },
} as const;

const validate = new Ajv.default({ allErrors: true }).compile(schema);

/** Checks a configuration, naming every bad setting at once. */
export function validateConfig(config: Config): Config {
  if (!validate(config)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath.slice(1) || "config"} ${e.message}`,
    );
    throw new ConfigError(problems);
  }
  return config;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
    this.problems = problems;
  }
}
