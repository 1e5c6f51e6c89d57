/**
 * One snapshot per answer: every statement of a job reads the index as of one commit. A test route answers
 * `/api/v1/accounts/{id}` (several statements: entity, hbar and token balances, transactions) twice in one job,
 * with a commit of the ingest worker between the two that changes the account; both answers must be the state
 * before that commit. The commit's effect is then checked outside the job, so the test fails if the second
 * answer saw it.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyScenarioBlocks, expectedLedger } from "../helpers/fixtures.ts";
import { startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";
import { SNAPSHOT_ROUTES_URL } from "../helpers/snapshot-routes.ts";

const SCENARIO = "accounts";
const ledger = expectedLedger(SCENARIO);
/** The blocks served at start; the last one arrives while a job is between its statements. */
const HELD_BACK = 1;
const firstBlocks = ledger.blocks.length - HELD_BACK;

/** The payer of the held-back block's first transaction: its balance (fees) and transaction list change. */
function payerOfLastBlock(): string {
  const block = ledger.blocks.at(-1)!;
  const step = ledger.steps.find(
    (s) =>
      s.transactionId !== undefined && s.consensusTimestamp >= block.from && s.consensusTimestamp <= block.to,
  );
  if (step?.transactionId === undefined) throw new Error("the last block has no transaction");
  return step.transactionId.split("-")[0]!;
}

let service: TestService;
let remove: () => void;
let stream: string;
let staging: string;

beforeAll(async () => {
  const temp = tempDir();
  remove = temp.remove;
  stream = join(temp.dir, "record0.0.3");
  staging = join(temp.dir, "staging");
  mkdirSync(stream);
  mkdirSync(staging);
  copyScenarioBlocks(SCENARIO, ledger, stream, 0, firstBlocks);
  copyScenarioBlocks(SCENARIO, ledger, staging, firstBlocks);
  service = await startTestService(
    { recordsDir: stream, readWorkers: 1 },
    { routeModules: [SNAPSHOT_ROUTES_URL] },
  );
  await waitForBlock(service, BigInt(ledger.blocks[firstBlocks - 1]!.number));
});

afterAll(async () => {
  await service?.stop();
  remove?.();
});

describe("one snapshot per answer", () => {
  it("answers /accounts/{id} from the snapshot of its first statement while a commit lands between two", async () => {
    const payer = payerOfLastBlock();
    const lastServed = ledger.blocks[firstBlocks - 1]!.number;
    const query = new URLSearchParams({ staging, stream, after: lastServed });
    const held = await service.get(`/api/v1/test/snapshot/${payer}?${query}`);
    expect(held.status).toBe(200);
    const { committed, before, after } = held.body as { committed: boolean; before: unknown; after: unknown };
    // The commit happened between the two answers of the job …
    expect(committed).toBe(true);
    // … and changed the account (seen by a later answer) …
    const now = await service.get(`/api/v1/accounts/${payer}`);
    expect(now.status).toBe(200);
    expect(now.body).not.toEqual(before);
    // … yet the job's second answer is its first: every statement read one snapshot.
    expect(after).toEqual(before);
  });
});
