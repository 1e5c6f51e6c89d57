import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Long from "long";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, signedTransaction } from "../fees/build-transaction.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";
import { postEstimate } from "./fee-estimate-helpers.ts";

/**
 * The schedule is 0.0.113 as indexed (fixtures/scenarios/fee-schedule.yaml), and a new one counts as soon as its
 * record file is applied, in both modes: the record files are handed to the running service one at a time.
 */
const SCENARIO = "fee-schedule";
const ledger = expectedLedger(SCENARIO);
let service: TestService;
let dir: string;
let removeDir: () => void;

const cryptoDelete = signedTransaction({
  cryptoDelete: { deleteAccountID: account(1001), transferAccountID: { accountNum: Long.fromNumber(2) } },
});

function copyBlock(index: number): void {
  const stem = ledger.blocks[index]!.name.replace(".rcd.gz", "");
  // Signature last: a record file counts as complete once its signature exists.
  for (const file of readdirSync(fixtureStream(SCENARIO))
    .filter((f) => f.startsWith(stem))
    .sort((a, b) => Number(a.endsWith("_sig")) - Number(b.endsWith("_sig")))) {
    cpSync(join(fixtureStream(SCENARIO), file), join(dir, file));
  }
}

function blockOf(label: string): number {
  const at = BigInt(ledger.steps.find((s) => s.label === label)!.consensusTimestamp.replace(".", ""));
  return ledger.blocks.findIndex(
    (b) => BigInt(b.from.replace(".", "")) <= at && at <= BigInt(b.to.replace(".", "")),
  );
}

async function applyThrough(index: number): Promise<void> {
  for (let i = 0; i <= index; i++) copyBlock(i);
  await waitForBlock(service, BigInt(ledger.blocks[index]!.number));
}

async function totals(): Promise<{ INTRINSIC: number; STATE: number }> {
  const out = { INTRINSIC: 0, STATE: 0 };
  for (const mode of ["INTRINSIC", "STATE"] as const) {
    const response = await postEstimate(service.baseUrl, cryptoDelete, { query: `mode=${mode}` });
    expect(response.status).toBe(200);
    out[mode] = (response.body as { total: number }).total;
  }
  return out;
}

const both = (total: number) => ({ INTRINSIC: total, STATE: total });

beforeAll(async () => {
  const temp = tempDir();
  dir = join(temp.dir, "record0.0.3");
  removeDir = temp.remove;
  cpSync(fixtureStream(SCENARIO), dir, { recursive: true, filter: (source) => !source.includes(".rcd") });
  copyBlock(0);
  service = await startTestService({ recordsDir: dir });
  await waitForBlock(service, BigInt(ledger.blocks[0]!.number));
});

afterAll(async () => {
  await service?.stop();
  removeDir?.();
});

describe("0.0.113 changed by FileUpdate + FileAppend in the stream", () => {
  it("uses the bundled genesis schedule while the stream has none", async () => {
    expect(await totals()).toEqual(both(1_000_000 + 49_000_000));
  });

  it("keeps the previous schedule while an upload is incomplete", async () => {
    await applyThrough(blockOf("cheap-update"));
    expect(blockOf("cheap-append-1")).toBeGreaterThan(blockOf("cheap-update"));
    expect(await totals()).toEqual(both(1_000_000 + 49_000_000));
  });

  it("applies the uploaded schedule once its last part is applied", async () => {
    await applyThrough(blockOf("cheap-append-2"));
    expect(await totals()).toEqual(both(1_000_000 + 1_000));
  });

  it("keeps it when a later upload does not parse", async () => {
    await applyThrough(blockOf("invalid-update"));
    expect(await totals()).toEqual(both(1_000_000 + 1_000));
  });

  it("applies a one-part upload, network multiplier included", async () => {
    await applyThrough(blockOf("dear-update"));
    // node 100 000 × (1 + 4) + service 2 000.
    expect(await totals()).toEqual(both(500_000 + 2_000));
    const body = (await postEstimate(service.baseUrl, cryptoDelete, { query: "mode=STATE" })).body;
    expect(body).toMatchObject({ network: { multiplier: 4, subtotal: 400_000 }, service: { base: 2_000 } });
  });
});
