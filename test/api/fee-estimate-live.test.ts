import { cpSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import Long from "long";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedTransaction } from "../fees/build-transaction.ts";
import { copyScenarioBlocks, expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";
import { postEstimate } from "./fee-estimate-helpers.ts";

/**
 * STATE estimates follow the index as record files are applied: a topic's fee added or removed by an update
 * counts from the file that holds the update on.
 */
const SCENARIO = "fee-estimates";
const ledger = expectedLedger(SCENARIO);
let service: TestService;
let dir: string;
let removeDir: () => void;
let dbPath: string;

function copyBlocks(from: number, to: number): void {
  copyScenarioBlocks(SCENARIO, ledger, dir, from, to);
}

/** Index of the record file holding the step labelled `label`. */
function blockOf(label: string): number {
  const at = ledger.steps.find((s) => s.label === label)!.consensusTimestamp;
  const toNs = (t: string) => BigInt(t.replace(".", ""));
  return ledger.blocks.findIndex((b) => toNs(b.from) <= toNs(at) && toNs(at) <= toNs(b.to));
}

async function submitTotal(topicNum: number): Promise<number> {
  const bytes = signedTransaction({
    consensusSubmitMessage: {
      topicID: { topicNum: Long.fromNumber(topicNum) },
      message: new Uint8Array(128),
    },
  });
  const response = await postEstimate(service.baseUrl, bytes, { query: "mode=STATE" });
  return (response.body as { total: number }).total;
}

beforeAll(async () => {
  const temp = tempDir();
  dir = join(temp.dir, "record0.0.3");
  removeDir = temp.remove;
  cpSync(fixtureStream(SCENARIO), dir, {
    recursive: true,
    filter: (source) =>
      !ledger.blocks.slice(blockOf("later-gains-fee")).some((b) => source.includes(b.name.slice(0, -7))),
  });
  dbPath = join(temp.dir, "index.db");
  service = await startTestService({ recordsDir: dir, db: dbPath });
  await service.ingest.settled;
});

afterAll(async () => {
  await service?.stop();
  removeDir?.();
});

describe("STATE estimates as topics change", () => {
  it("a topic's custom fee counts from the record file that sets it", async () => {
    const update = blockOf("later-gains-fee");
    expect(blockOf("dropped-loses-fee")).toBe(update);
    await waitForBlock(service, BigInt(ledger.blocks[update - 1]!.number));
    expect(await submitTotal(1010)).toBe(1_890_400);
    expect(await submitTotal(1011)).toBe(500_000_000);

    copyBlocks(update, ledger.blocks.length);
    await waitForBlock(service, BigInt(ledger.blocks.at(-1)!.number));
    expect(await submitTotal(1010)).toBe(500_000_000);
    expect(await submitTotal(1011)).toBe(1_890_400);
  });
});

describe("topics with history (migration 0012-topics)", () => {
  it("keeps one version per create or update, with contiguous validity ranges", () => {
    const db = new Database(dbPath, { readonly: true });
    db.defaultSafeIntegers(true);
    const rows = db
      .prepare("SELECT id, valid_from, valid_to, memo, custom_fees FROM topic ORDER BY id, valid_from")
      .all() as Array<{
      id: bigint;
      valid_from: bigint;
      valid_to: bigint | null;
      memo: string;
      custom_fees: string;
    }>;
    db.close();
    const byTopic = (id: bigint) => rows.filter((r) => r.id === id);
    const toNs = (t: string) => BigInt(t.replace(".", ""));
    const gained = toNs(ledger.steps.find((s) => s.label === "later-gains-fee")!.consensusTimestamp);
    const later = byTopic(1010n);
    expect(later.map((r) => [r.valid_to, r.memo, JSON.parse(r.custom_fees).length])).toEqual([
      [gained, "", 0],
      [null, "Now with a fee", 1],
    ]);
    expect(later[1]!.valid_from).toBe(gained);
    expect(JSON.parse(later[1]!.custom_fees)).toEqual([
      {
        kind: "fixed",
        amount: "100000000",
        collectorId: "1001",
        denominatingTokenId: null,
        allCollectorsAreExempt: false,
      },
    ]);
    expect(byTopic(1009n)).toHaveLength(1);
    expect(byTopic(1008n).map((r) => r.memo)).toEqual(["News", "Daily news"]);
    expect(byTopic(1011n).map((r) => JSON.parse(r.custom_fees).length)).toEqual([1, 0]);
  });
});
