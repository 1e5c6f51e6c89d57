/**
 * Contract results from blocks, as the mirror node's block transformers derive them: a real ContractCall and
 * ContractCreate (the v6 record stream of fixtures/real, given logs here) written as a block by the project's
 * block writer (EVM transaction results in outputs, logs in EVM trace data with their topics trimmed, the created
 * contract's account in state changes) and read back: the same results, logs with their blooms computed, the
 * created contract's EVM address; ContractUpdate and ContractDelete receipts naming their contract.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Long from "long";
import { describe, expect, it } from "vitest";
import { blockBytes } from "../../fixtures/writer/write-block-stream.ts";
import { resolveContractId } from "../../src/streams/block-contract-results.ts";
import { readBlock } from "../../src/streams/block-file.ts";
import { STATE, STATE_ID } from "../../src/streams/block-items.ts";
import { blockRecords } from "../../src/streams/block-records.ts";
import { StateChangeContext } from "../../src/streams/block-state-changes.ts";
import { BLOOM_BYTES } from "../../src/streams/evm-bloom.ts";
import { proto } from "../../src/streams/proto.ts";
import { WireWriter } from "../../src/streams/protobuf-wire.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import type { RecordItem } from "../../src/streams/types.ts";
import { REAL_STREAMS } from "../helpers/service.ts";

const hex = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString("hex");
const bytes = (value: string) => new Uint8Array(Buffer.from(value, "hex"));

/** Bloom bits of a test network's log (contract 0.0.3042133, two topics), as the importer's tests list them. */
const LOG_BITS = [93, 179, 263, 375, 745, 1333, 1464, 1478, 1538];
const LOG_TOPICS = [
  "d06a6b7f4918494b3719217d1802786c1f5112a6c1d88fe2cfec00b4584f6aec",
  "3728e591097635310e6341af53db8b7ee42da9b3a8d918f9463ce9cca886dfbd",
];

function bloomWithBits(bits: number[]): string {
  const bloom = new Uint8Array(BLOOM_BYTES);
  for (const bit of bits) bloom[bit >>> 3] = bloom[bit >>> 3]! | (1 << (bit & 7));
  return hex(bloom);
}

/** The real v6 file holding a ContractCall and its child ContractCreate. */
function realContractItems(): RecordItem[] {
  const dir = join(REAL_STREAMS, "v6", "record0.0.3");
  const name = readdirSync(dir)
    .filter((n) => n.endsWith(".rcd.gz"))
    .sort()
    .at(-1)!;
  return readRecordFile(name, readFileSync(join(dir, name))).items;
}

function readBack(items: RecordItem[]) {
  const block = blockBytes(items, { major: 0, minor: 73, patch: 0 }, 6n, new Uint8Array(48));
  return blockRecords(readBlock("block 6", block, block.length)).map((r) => r.record);
}

function withRecord(item: RecordItem, change: (record: proto.TransactionRecord) => void): RecordItem {
  const record = proto.TransactionRecord.decode(item.recordBytes);
  change(record);
  return { ...item, recordBytes: proto.TransactionRecord.encode(record).finish() };
}

describe("contract results from blocks", () => {
  it("carry the EVM results, the logs with their blooms and the created contract's EVM address", () => {
    const items = realContractItems();
    const callAt = items.findIndex((i) => proto.TransactionRecord.decode(i.recordBytes).contractCallResult);
    expect(callAt).toBeGreaterThanOrEqual(0);
    const withLogs = items.map((item, index) =>
      index !== callAt
        ? item
        : withRecord(item, (record) => {
            const result = record.contractCallResult!;
            result.logInfo = [
              proto.ContractLoginfo.create({
                contractID: { contractNum: Long.fromNumber(3042133) },
                topic: LOG_TOPICS.map(bytes),
                data: bytes("00ff"),
              }),
              proto.ContractLoginfo.create({
                contractID: { contractNum: Long.fromNumber(3042133) },
                topic: [bytes(`${"00".repeat(29)}62866b`)],
              }),
            ];
          }),
    );
    const originals = withLogs.map((i) => proto.TransactionRecord.decode(i.recordBytes));
    const records = readBack(withLogs);
    const call = records[callAt]!.contractCallResult as proto.ContractFunctionResult;
    const original = originals[callAt]!.contractCallResult as proto.ContractFunctionResult;
    expect(call.gasUsed.toString()).toBe(original.gasUsed.toString());
    expect(call.contractID).toEqual(original.contractID);
    expect(records[callAt]!.receipt!.contractID).toEqual(original.contractID);
    expect(hex(call.contractCallResult)).toBe(hex(original.contractCallResult));
    expect(call.logInfo).toHaveLength(2);
    const [first, second] = call.logInfo as proto.ContractLoginfo[];
    // Topics as the block gives them (leading zeros trimmed), blooms computed from them padded again.
    expect(hex(first!.bloom)).toBe(bloomWithBits(LOG_BITS));
    expect(first!.topic.map(hex)).toEqual(LOG_TOPICS);
    expect(hex(first!.data)).toBe("00ff");
    expect(second!.topic.map(hex)).toEqual(["62866b"]);
    const all = Buffer.from(first!.bloom).map((b, i) => b | second!.bloom[i]!);
    expect(hex(call.bloom)).toBe(hex(all));
    expect(hex(call.bloom)).not.toBe(hex(new Uint8Array(BLOOM_BYTES)));

    const createAt = originals.findIndex((r) => r.contractCreateResult);
    const created = records[createAt]!.contractCreateResult!;
    expect(created.contractID).toEqual(originals[createAt]!.contractCreateResult!.contractID);
    expect(hex(created.evmAddress?.value)).toBe(
      hex(originals[createAt]!.contractCreateResult!.evmAddress?.value),
    );
    expect(hex(created.evmAddress?.value)).toHaveLength(40);
  });

  it("name the contract of a ContractUpdate or ContractDelete, from its id or its long-zero EVM address", () => {
    const [template] = realContractItems();
    const transactionOf = (body: proto.ITransactionBody): Uint8Array => {
      const bodyBytes = proto.TransactionBody.encode(body).finish();
      const signed = proto.SignedTransaction.encode({ bodyBytes }).finish();
      return proto.Transaction.encode({ signedTransactionBytes: signed }).finish();
    };
    const base = proto.TransactionRecord.decode(template!.recordBytes);
    const recordAt = (nanos: number) =>
      proto.TransactionRecord.encode({
        receipt: { status: proto.ResponseCodeEnum.SUCCESS },
        consensusTimestamp: { seconds: base.consensusTimestamp!.seconds, nanos },
        transactionID: base.transactionID,
        transferList: {},
      }).finish();
    const longZero = new Uint8Array(20);
    longZero[19] = 0x2a;
    const items: RecordItem[] = [
      {
        transactionBytes: transactionOf({
          transactionID: base.transactionID,
          contractUpdateInstance: { contractID: { contractNum: Long.fromNumber(1001) } },
        }),
        recordBytes: recordAt(1),
      },
      {
        transactionBytes: transactionOf({
          transactionID: base.transactionID,
          contractDeleteInstance: { contractID: { evmAddress: longZero } },
        }),
        recordBytes: recordAt(2),
      },
    ];
    const [update, remove] = readBack(items);
    expect(update!.receipt!.contractID?.contractNum?.toString()).toBe("1001");
    expect(remove!.receipt!.contractID?.contractNum?.toString()).toBe("42");
  });

  it("resolve any other EVM address through the contract accounts in state changes", () => {
    const alias = bytes("00112233445566778899aabbccddeeff00112233");
    const accountId = { accountNum: Long.fromNumber(5005) };
    const account = proto.Account.encode({ accountId, alias, smartContract: true }).finish();
    const update = new WireWriter()
      .bytesField(
        STATE.mapUpdateKey,
        new WireWriter().bytesField(STATE.keyAccountId, proto.AccountID.encode(accountId).finish()).finish(),
      )
      .bytesField(STATE.mapUpdateValue, new WireWriter().bytesField(STATE.valueAccount, account).finish())
      .finish();
    const change = new WireWriter()
      .varintField(STATE.changeStateId, STATE_ID.accounts)
      .bytesField(STATE.changeMapUpdate, update)
      .finish();
    const changes = new WireWriter().bytesField(STATE.changesList, change).finish();
    const context = new StateChangeContext("block", [changes]);
    expect(resolveContractId({ evmAddress: alias }, () => context)?.contractNum?.toString()).toBe("5005");
    expect(resolveContractId({ evmAddress: bytes("ff".repeat(20)) }, () => context)).toBeNull();
  });
});
