import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Args } from "../../fixtures/writer/scenario/args.ts";
import {
  BULK_FIRST_ENTITY,
  type BulkResult,
  bulkSeed,
  generateBulkStream,
} from "../../fixtures/writer/scenario/bulk.ts";
import { type BulkOp, opToStep } from "../../fixtures/writer/scenario/bulk-executor.ts";
import { Simulator } from "../../fixtures/writer/scenario/simulator.ts";
import { type ChainTip, checkChain, toChainTip } from "../../src/streams/chain.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordItem } from "../../src/streams/types.ts";
import { decodeItem } from "./scenario-helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "mirrorlite-bulk-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function readStream(dir: string): { items: RecordItem[]; files: string[] } {
  const files = readdirSync(dir)
    .filter((n) => n.endsWith(".rcd.gz"))
    .sort();
  let tip: ChainTip | null = null;
  const items: RecordItem[] = [];
  for (const name of files) {
    const file = readRecordFile(name, readFileSync(join(dir, name)));
    checkChain(tip, file);
    tip = toChainTip(file, file.blockNumber!);
    items.push(...file.items);
  }
  return { items, files };
}

/** Replays bulk operations through the general simulator, as scenario files are. */
function replay(ops: BulkOp[], realSignatures: boolean): RecordItem[] {
  const simulator = new Simulator({
    seed: bulkSeed(undefined),
    firstEntity: BigInt(BULK_FIRST_ENTITY),
    realSignatures,
  });
  return ops.flatMap((op, index) => {
    const { type, args } = opToStep(op);
    const where = `replay[${index}].${type}`;
    const { items } = simulator.apply(
      { type, args: new Args(where, args), where, index },
      op.consensusNs,
      op.validStartNs,
    );
    return items.map(({ item }) => item);
  });
}

describe.each([true, false])("bulk stream (real signatures: %s)", (signatures) => {
  const dir = join(scratch, `bulk-${signatures}`);
  const ops: BulkOp[] = [];
  let result: BulkResult;
  beforeAll(() => {
    result = generateBulkStream({
      dir,
      tokens: 60,
      transactions: 1500,
      transactionsPerFile: 100,
      signatures,
      onOperation: (op) => ops.push(op),
    });
  });

  it("writes the requested transactions into chained, signed files", () => {
    const { items, files } = readStream(dir);
    expect(result.transactions).toBe(1500);
    expect(items).toHaveLength(1500);
    expect(files).toHaveLength(15);
    expect(readdirSync(dir).filter((n) => n.endsWith(".rcd_sig"))).toHaveLength(15);
    expect(result.tokens).toBe(60);
    expect(result.accounts).toBe(20);
    expect(result.firstTokenId).toBe("0.0.1021");
    expect(result.lastTokenId).toBe("0.0.1080");
  });

  it("mixes token creates, fungible and NFT mints, and token, NFT and hbar transfers", () => {
    const kinds = new Map<string, number>();
    for (const item of readStream(dir).items) {
      const { body, record } = decodeItem(item);
      let kind = body.data ?? "none";
      if (kind === "tokenMint") kind += (body.tokenMint!.metadata ?? []).length > 0 ? ":nft" : ":fungible";
      if (kind === "cryptoTransfer") {
        const lists = body.cryptoTransfer!.tokenTransfers ?? [];
        kind +=
          lists.length === 0 ? ":hbar" : (lists[0]!.nftTransfers ?? []).length > 0 ? ":nft" : ":fungible";
      }
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      expect(record.receipt!.status).toBe(22);
    }
    for (const kind of ["cryptoCreateAccount", "tokenCreation", "tokenMint:fungible", "tokenMint:nft"]) {
      expect(kinds.get(kind), kind).toBeGreaterThan(0);
    }
    for (const kind of ["cryptoTransfer:hbar", "cryptoTransfer:fungible", "cryptoTransfer:nft"]) {
      expect(kinds.get(kind), kind).toBeGreaterThan(10);
    }
  });

  it("is byte for byte what the general simulator writes for the same operations", () => {
    const fast = readStream(dir).items;
    const general = replay(ops, signatures);
    expect(general).toHaveLength(fast.length);
    for (const [i, item] of fast.entries()) {
      expect(
        Buffer.from(item.transactionBytes).equals(Buffer.from(general[i]!.transactionBytes)),
        `transaction ${i}`,
      ).toBe(true);
      expect(Buffer.from(item.recordBytes).equals(Buffer.from(general[i]!.recordBytes)), `record ${i}`).toBe(
        true,
      );
    }
  });

  it("is deterministic", () => {
    const again = join(scratch, `again-${signatures}`);
    generateBulkStream({ dir: again, tokens: 60, transactions: 1500, transactionsPerFile: 100, signatures });
    const names = readdirSync(dir).sort();
    expect(readdirSync(again).sort()).toEqual(names);
    for (const name of names)
      expect(readFileSync(join(again, name)).equals(readFileSync(join(dir, name))), name).toBe(true);
  });
});

it("refuses sizes that cannot hold the accounts and tokens", () => {
  expect(() => generateBulkStream({ dir: join(scratch, "bad"), tokens: 100, transactions: 50 })).toThrow(
    RangeError,
  );
});
