import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Config } from "../../src/config.ts";
import { copyStream, FIXTURE_STREAMS, REAL_STREAMS, startTestService, type TestService } from "./service.ts";

/** The engine's own account of a fixture scenario (`fixtures/streams/<name>/expected.json`). */
export type ExpectedLedger = {
  accounts: Record<string, { id: string; key: string | null; memo: string }>;
  tokens: Record<
    string,
    {
      id: string;
      type: string;
      name: string;
      symbol: string;
      memo: string;
      decimals: number;
      treasury: string;
      totalSupply: string;
      maxSupply: string;
      supplyType: string;
      deleted: boolean;
      paused: boolean;
      createdTimestamp: string;
      expirySeconds: string;
      autoRenewAccount: string | null;
      autoRenewPeriod: string;
      keys: Record<string, string>;
      customFeeCount: number;
      balances: Record<string, string>;
      nfts?: Record<string, { owner: string | null; metadata: string; spender: string | null }>;
    }
  >;
  steps: Array<{
    index: number;
    type: string;
    label?: string;
    status: string;
    consensusTimestamp: string;
    transactionId?: string;
    entityId?: string;
    /** Submitted messages: the sequence number and the topic's running hash after it (base64). */
    message?: { sequenceNumber: string; runningHash: string };
  }>;
  blocks: Array<{
    number: string;
    name: string;
    count: number;
    from: string;
    to: string;
    hash: string;
    previousHash: string;
  }>;
};

export function fixtureStream(name: string): string {
  return join(FIXTURE_STREAMS, name, "record0.0.3");
}

export function expectedLedger(name: string): ExpectedLedger {
  return JSON.parse(readFileSync(join(FIXTURE_STREAMS, name, "expected.json"), "utf8")) as ExpectedLedger;
}

/**
 * Copies record files [from, to) of a scenario's stream (`to` omitted: to the end), with their signatures, into
 * `dir`. Signatures go last: a watcher counts a record file as complete once its signature exists.
 */
export function copyScenarioBlocks(
  scenario: string,
  ledger: ExpectedLedger,
  dir: string,
  from: number,
  to?: number,
): void {
  const names = new Set(
    ledger.blocks.slice(from, to).flatMap((b) => [b.name, b.name.replace(".rcd.gz", ".rcd_sig")]),
  );
  const files = readdirSync(fixtureStream(scenario))
    .filter((f) => names.has(f))
    .sort((a, b) => Number(a.endsWith("_sig")) - Number(b.endsWith("_sig")));
  for (const file of files) cpSync(join(fixtureStream(scenario), file), join(dir, file));
}

/** The consensus timestamp of the step with this label. */
export function stepTime(ledger: ExpectedLedger, label: string): string {
  const step = ledger.steps.find((s) => s.label === label);
  if (!step) throw new Error(`no step labelled ${label}`);
  return step.consensusTimestamp;
}

/** The same instant moved by `deltaNs` nanoseconds, in the API's timestamp form. */
export function shiftTimestamp(timestamp: string, deltaNs: bigint): string {
  const [seconds, nanos] = timestamp.split(".") as [string, string];
  const ns = BigInt(seconds) * 1_000_000_000n + BigInt(nanos) + deltaNs;
  return `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`;
}

/**
 * Serves a copy of a fixture scenario's stream for the whole test file: the real service starts before the
 * file's tests (and must reach readiness) and stops after them.
 */
export function useScenario(
  name: string,
  options: {
    balances?: boolean;
    /** The index in a file beside the stream's copy (`indexPath`), for tests that open it themselves. */
    indexFile?: boolean;
    /** Settings of the service beyond the stream (`--network`, `--opcodes`, …). */
    config?: Partial<Config>;
  } = {},
): {
  readonly service: TestService;
  readonly ledger: ExpectedLedger;
  /** The index file (with `indexFile`). */
  readonly indexPath: string;
} {
  let service: TestService | undefined;
  let remove: (() => void) | undefined;
  let indexPath: string | undefined;
  const ledger = expectedLedger(name);
  beforeAll(async () => {
    const stream = copyStream(fixtureStream(name));
    remove = stream.remove;
    if (options.indexFile === true) indexPath = join(stream.dir, "..", "index.db");
    // `balances`: the scenario's balance folder (beside its stream) is served too, copied like the stream.
    const balances = join(fixtureStream(name), "..", "balance0.0.3");
    let balancesDir: string | undefined;
    if (options.balances === true) {
      if (!existsSync(balances)) throw new Error(`scenario ${name} has no balance folder`);
      balancesDir = join(stream.dir, "..", "balance0.0.3");
      cpSync(balances, balancesDir, { recursive: true });
    }
    service = await startTestService({
      ...options.config,
      recordsDir: stream.dir,
      ...(balancesDir === undefined ? {} : { balancesDir }),
      ...(indexPath === undefined ? {} : { db: indexPath }),
    });
    await service.ingest.settled;
    const status = service.ingest.status();
    if (status.state !== "ready") throw new Error(`scenario ${name} did not ingest: ${status.reason}`);
  });
  afterAll(async () => {
    await service?.stop();
    remove?.();
  });
  return {
    get service() {
      if (service === undefined) throw new Error("the scenario service starts in beforeAll");
      return service;
    },
    ledger,
    get indexPath() {
      if (indexPath === undefined) throw new Error("the scenario's index is in a file only with indexFile");
      return indexPath;
    },
  };
}

/**
 * Serves a copy of each named stream (a fixture scenario's or a real one) for the whole test file, each in a
 * service of its own that must reach readiness before the file's tests; real streams are read without waiting
 * for signature files. The map is filled in `beforeAll` (a test file's own `beforeAll` registered after this call
 * sees it full).
 */
export function useStreams(sources: Readonly<Record<string, string>>): ReadonlyMap<string, TestService> {
  const services = new Map<string, TestService>();
  const cleanups: Array<() => unknown> = [];
  beforeAll(async () => {
    for (const [name, source] of Object.entries(sources)) {
      const copy = copyStream(source);
      cleanups.push(copy.remove);
      const service = await startTestService({
        recordsDir: copy.dir,
        waitSignatures: !source.startsWith(REAL_STREAMS),
      });
      cleanups.push(() => service.stop());
      await service.ingest.settled;
      const status = service.ingest.status();
      if (status.state !== "ready") throw new Error(`stream ${name} did not ingest: ${status.reason}`);
      services.set(name, service);
    }
  }, 120_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return services;
}
