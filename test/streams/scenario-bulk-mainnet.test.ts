import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateBulkStream } from "../../fixtures/writer/scenario/bulk.ts";
import { type ChainTip, checkChain, toChainTip } from "../../src/streams/chain.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { timestampToNs } from "../../src/time.ts";
import { runningHashV3 } from "../helpers/topic-running-hash.ts";
import { type Decoded, decodeItem } from "./scenario-helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "mirrorlite-bulk-mainnet-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("bulk stream, mainnet-like mix", () => {
  let items: Decoded[] = [];
  beforeAll(() => {
    const dir = join(scratch, "record0.0.3");
    const result = generateBulkStream({
      dir,
      tokens: 10,
      transactions: 4000,
      transactionsPerFile: 250,
      signatures: false,
      signingKey: null,
      mix: "mainnet",
    });
    expect(result.transactions).toBe(4000);
    let tip: ChainTip | null = null;
    for (const name of readdirSync(dir).sort()) {
      const file = readRecordFile(name, readFileSync(join(dir, name)));
      checkChain(tip, file);
      tip = toChainTip(file, file.blockNumber!);
      items.push(...file.items.map(decodeItem));
    }
  });
  afterAll(() => {
    items = [];
  });

  it("is mostly consensus messages and hbar transfers, with some token activity and a few creates and updates", () => {
    const count = (kind: string) => items.filter((d) => d.body.data === kind).length;
    const hbarOnly = items.filter(
      (d) => d.body.data === "cryptoTransfer" && (d.body.cryptoTransfer?.tokenTransfers ?? []).length === 0,
    ).length;
    expect(items).toHaveLength(4000);
    expect(count("consensusSubmitMessage")).toBeGreaterThan(1800);
    expect(hbarOnly).toBeGreaterThan(900);
    expect(count("cryptoTransfer") - hbarOnly).toBeGreaterThan(150);
    expect(count("tokenMint")).toBeGreaterThan(10);
    expect(count("consensusCreateTopic")).toBeGreaterThanOrEqual(20);
    expect(count("cryptoUpdateAccount")).toBeGreaterThan(10);
    expect(count("tokenCreation")).toBe(10);
    for (const d of items) expect(d.record.receipt?.status).toBe(22);
  });

  it("numbers each topic's messages from 1 and chains their running hashes as a node does", () => {
    const topics = new Map<string, { sequence: bigint; hash: Buffer }>();
    for (const d of items.filter((i) => i.body.data === "consensusCreateTopic")) {
      topics.set(String(toBigInt(d.record.receipt!.topicID!.topicNum)), {
        sequence: 0n,
        hash: Buffer.alloc(48),
      });
    }
    for (const d of items.filter((i) => i.body.data === "consensusSubmitMessage")) {
      const topicNum = toBigInt(d.body.consensusSubmitMessage!.topicID!.topicNum);
      const topic = topics.get(String(topicNum))!;
      const receipt = d.record.receipt!;
      expect(toBigInt(receipt.topicSequenceNumber)).toBe(topic.sequence + 1n);
      expect(toBigInt(receipt.topicRunningHashVersion)).toBe(3n);
      const hash = runningHashV3({
        previous: topic.hash,
        payer: [0n, 0n, toBigInt(d.record.transactionID!.accountID!.accountNum)],
        topic: [0n, 0n, topicNum],
        consensusNs: timestampToNs(d.record.consensusTimestamp),
        sequenceNumber: topic.sequence + 1n,
        message: Buffer.from(d.body.consensusSubmitMessage!.message!),
      });
      expect(Buffer.from(receipt.topicRunningHash!).toString("hex")).toBe(hash.toString("hex"));
      topics.set(String(topicNum), { sequence: topic.sequence + 1n, hash });
    }
  });
});
