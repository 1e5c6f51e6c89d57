/**
 * `node --import tsx bench/contracts-ingest.ts [transactions]`: ingest cost per transaction of a contract-heavy
 * stream (ERC-20 transfers through ContractCall: a result, a Transfer log, two storage writes, an action, all in
 * sidecars) against a transfer-heavy one (hbar CryptoTransfers), both written by the scenario writer and ingested
 * in this process (createIngestor, one commit per catch-up group) into a fresh index. Rounds alternate the two so a
 * shared machine's load falls on both; medians are printed. Issue 22's target: contracts not slower per
 * transaction than transfers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runScenario } from "../fixtures/writer/scenario/engine.ts";
import { parseScenario } from "../fixtures/writer/scenario/scenario-file.ts";
import { planRecordFiles, writeRecordFiles } from "../fixtures/writer/scenario/write-stream.ts";
import { createIngestor } from "../src/ingest/ingestor.ts";
import { createLogger } from "../src/log.ts";
import { openWriter } from "../src/store/db.ts";
import { migrate } from "../src/store/migrations.ts";
import { createWriteStore } from "../src/store/write-store.ts";

const COUNT = Number(process.argv[2] ?? 1500);
const ROUNDS = 3;

const HEADER = `start: 2025-08-01T12:00:00Z
blockSeconds: 2
firstEntity: 1001
spacing: 20ms
hapiVersion: 0.70.0
steps:
  - cryptoCreate: { name: alice, balance: "100000 hbar" }
  - cryptoCreate: { name: bob, balance: "100 hbar" }
  - contractCreate: { name: token, contract: Token, payer: alice, params: ["0x0f4240"], gas: 400000, gasUsed: 300000, storage: [{ slot: "map:alice:0x00", write: "0x0f4240" }] }
`;

function contractSteps(n: number): string {
  const lines: string[] = [];
  let alice = 1_000_000;
  let bob = 0;
  for (let i = 0; i < n; i++) {
    alice -= 1;
    bob += 1;
    lines.push(
      `  - contractCall: { contract: token, payer: alice, call: "transfer(address,uint256)", params: [bob, "0x01"], gas: 60000, gasUsed: 35000, result: "0x01", logs: [{ topics: ["Transfer(address,address,uint256)", alice, bob], data: "0x01" }], storage: [{ slot: "map:alice:0x00", read: "0x${(alice + 1).toString(16).padStart(6, "0")}", write: "0x${alice.toString(16).padStart(6, "0")}" }, { slot: "map:bob:0x00", read: "0x${(bob - 1).toString(16).padStart(6, "0")}", write: "0x${bob.toString(16).padStart(6, "0")}" }] }`,
    );
  }
  return lines.join("\n");
}

function transferSteps(n: number): string {
  return Array.from(
    { length: n },
    () => `  - cryptoTransfer: { payer: alice, hbar: { alice: -1, bob: 1 } }`,
  ).join("\n");
}

function writeStream(dir: string, steps: string): number {
  const run = runScenario(parseScenario("bench", `${HEADER}${steps}\n`));
  const files = planRecordFiles(run.groups, run.settings.blockSeconds, 0n);
  writeRecordFiles(files, dir, { hapiVersion: run.settings.hapiVersion, signingKey: null });
  return files.reduce((sum, file) => sum + file.items.length, 0);
}

function ingestMs(dir: string, dbPath: string): number {
  rmSync(dbPath, { force: true });
  const db = openWriter(dbPath, { durable: false });
  migrate(db);
  const store = createWriteStore(db);
  const ingestor = createIngestor({
    dir,
    store,
    waitSignatures: false,
    settleMs: 0,
    commitMs: Number.POSITIVE_INFINITY,
    log: createLogger("silent"),
  });
  const started = performance.now();
  ingestor.ingestReady();
  const ms = performance.now() - started;
  ingestor.close();
  db.close();
  return ms;
}

const work = mkdtempSync(join(tmpdir(), "contracts-bench-"));
try {
  const contracts = join(work, "contracts");
  const transfers = join(work, "transfers");
  const contractTx = writeStream(contracts, contractSteps(COUNT));
  const transferTx = writeStream(transfers, transferSteps(COUNT));
  const times: Record<"contracts" | "transfers", number[]> = { contracts: [], transfers: [] };
  for (let round = 0; round < ROUNDS; round++) {
    times.contracts.push((ingestMs(contracts, join(work, "c.db")) * 1000) / contractTx);
    times.transfers.push((ingestMs(transfers, join(work, "t.db")) * 1000) / transferTx);
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const c = median(times.contracts);
  const t = median(times.transfers);
  console.log(
    `contract-heavy: ${contractTx} transactions, ${c.toFixed(1)} µs per transaction (median of ${ROUNDS})`,
  );
  console.log(
    `transfer-heavy: ${transferTx} transactions, ${t.toFixed(1)} µs per transaction (median of ${ROUNDS})`,
  );
  console.log(`ratio contracts / transfers: ${(c / t).toFixed(2)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
