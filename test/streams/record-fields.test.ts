import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import Long from "long";
import { describe, expect, it } from "vitest";
import { proto } from "../../src/streams/proto.ts";
import { WireWriter } from "../../src/streams/protobuf-wire.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import {
  RECORD_PARTS,
  type RecordFields,
  readRecordFields,
  recordFieldsOf,
} from "../../src/streams/record-fields.ts";
import { transactionBodyBytes } from "../../src/streams/transaction-body-bytes.ts";
import { hasApprovedTransfers, readBodyFields } from "../../src/streams/transaction-body-fields.ts";
import { FIXTURE_STREAMS } from "../helpers/service.ts";
import { nodeFolders, realRecordFiles } from "./record-fixtures.ts";

/** Every item of every generated scenario stream and every real record file. */
function allItems(): { source: string; transactionBytes: Uint8Array; recordBytes: Uint8Array }[] {
  const out: { source: string; transactionBytes: Uint8Array; recordBytes: Uint8Array }[] = [];
  const scenarios = readdirSync(FIXTURE_STREAMS, { withFileTypes: true }).filter((entry) =>
    entry.isDirectory(),
  );
  for (const { name: scenario } of scenarios) {
    const dir = join(FIXTURE_STREAMS, scenario, "record0.0.3");
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith(".rcd.gz"))
      .sort()) {
      const file = readRecordFile(name, readFileSync(join(dir, name)));
      for (const item of file.items) out.push({ source: `${scenario}/${name}`, ...item });
    }
  }
  for (const version of ["v2", "v5", "v5-contracts", "v6"]) {
    for (const dir of nodeFolders(version)) {
      for (const real of realRecordFiles(dir)) {
        const file = readRecordFile(real.name, real.bytes);
        for (const item of file.items) out.push({ source: `${dir}/${real.name}`, ...item });
      }
    }
  }
  return out;
}

/** Byte arrays as hex, so that a view and a Buffer of the same bytes compare equal. */
function comparable(fields: RecordFields) {
  return {
    ...fields,
    topicRunningHash: Buffer.from(fields.topicRunningHash).toString("hex"),
    transactionHash: Buffer.from(fields.transactionHash).toString("hex"),
  };
}

/** What the generated decoder makes of the bytes, through the same fields; null when it cannot decode them. */
function decoded(bytes: Uint8Array): RecordFields | null | "throws" {
  let record: proto.TransactionRecord;
  try {
    record = proto.TransactionRecord.decode(bytes);
  } catch {
    return null;
  }
  try {
    return recordFieldsOf(record);
  } catch {
    return "throws";
  }
}

const encode = (record: proto.ITransactionRecord) => proto.TransactionRecord.encode(record).finish();
/** A protobufjs int64 (or uint64) of an exact bigint. */
const long = (value: bigint, unsigned = false) =>
  unsigned
    ? Long.fromString(BigInt.asUintN(64, value).toString(), true)
    : Long.fromString(BigInt.asIntN(64, value).toString(), false);

describe("readRecordFields", () => {
  const items = allItems();

  it("reads every record of the fixtures and the real files as the generated decoder does", () => {
    expect(items.length).toBeGreaterThan(500);
    let parts = 0;
    for (const { source, recordBytes } of items) {
      const fields = readRecordFields(recordBytes);
      expect(fields, source).not.toBeNull();
      const expected = decoded(recordBytes);
      expect(expected, source).not.toBeNull();
      expect(comparable(fields!), source).toEqual(comparable(expected as RecordFields));
      parts |= fields!.parts;
    }
    // The comparison covers records with contract results, token transfer lists, assessed fees, automatic
    // associations, staking reward payouts and pending airdrops.
    for (const part of [
      RECORD_PARTS.contractResult,
      RECORD_PARTS.tokenTransferLists,
      RECORD_PARTS.assessedCustomFees,
      RECORD_PARTS.automaticTokenAssociations,
      RECORD_PARTS.paidStakingRewards,
      RECORD_PARTS.newPendingAirdrops,
    ]) {
      expect(parts & part).toBe(part);
    }
  });

  it("keeps the last occurrence of a message field whole and appends repeated entries, as the decoder does", () => {
    const first = encode({
      receipt: { status: 22, topicSequenceNumber: Long.fromNumber(9), topicRunningHash: Buffer.alloc(48, 1) },
      transferList: {
        accountAmounts: [{ accountID: { accountNum: Long.fromNumber(3) }, amount: Long.fromNumber(5) }],
      },
      highVolumePricingMultiplier: Long.fromNumber(3, true),
    });
    const second = encode({
      receipt: { status: 7 },
      transferList: {
        accountAmounts: [
          { accountID: { accountNum: Long.fromNumber(98) }, amount: Long.fromNumber(-5) },
          { accountID: { alias: Buffer.from("alias") }, amount: Long.fromNumber(1) },
          { accountID: { accountNum: Long.fromNumber(0) }, amount: Long.fromNumber(0) },
        ],
      },
      highVolumePricingMultiplier: Long.fromNumber(0, true),
    });
    const bytes = Buffer.concat([first, second]);
    const fields = readRecordFields(bytes)!;
    expect(comparable(fields)).toEqual(comparable(decoded(bytes) as RecordFields));
    expect(fields.status).toBe(7);
    expect(fields.topicSequenceNumber).toBe(0n);
    // The alias-only entry names no number; account 0.0.0 does.
    expect(fields.transfers).toEqual([
      { accountId: 98n, amount: -5n },
      { accountId: 0n, amount: 0n },
    ]);
    expect(fields.parts).toBe(0);
  });

  it("reads int64 and uint64 extremes exactly", () => {
    const bytes = encode({
      consensusTimestamp: { seconds: long(-5n), nanos: -1 },
      transactionFee: long(2n ** 64n - 1n, true),
      transactionID: {
        accountID: { shardNum: long(1n), realmNum: long(2n), accountNum: long(2n ** 38n - 1n) },
        transactionValidStart: { seconds: long(2n ** 62n), nanos: 999_999_999 },
        nonce: -3,
        scheduled: true,
      },
      transferList: {
        accountAmounts: [
          { accountID: { accountNum: long(2n ** 38n - 1n) }, amount: long(-(2n ** 63n)) },
          { accountID: { accountNum: long(7n) }, amount: long(2n ** 63n - 1n) },
        ],
      },
      receipt: {
        topicRunningHashVersion: long(2n ** 64n - 2n, true),
        topicSequenceNumber: long(2n ** 60n, true),
      },
      parentConsensusTimestamp: { seconds: long(1n) },
      scheduleRef: {},
    });
    const fields = readRecordFields(bytes)!;
    expect(comparable(fields)).toEqual(comparable(decoded(bytes) as RecordFields));
    expect(fields.transactionFee).toBe(2n ** 64n - 1n);
    expect(fields.consensusNs).toBe(-5_000_000_001n);
    expect(fields.transactionId?.nonce).toBe(-3);
    expect(fields.transfers[0]).toEqual({ accountId: 2n ** 38n - 1n, amount: -(2n ** 63n) });
    expect(fields.hasScheduleRef).toBe(true);
  });

  it("leaves to the decoder what it cannot read the same way", () => {
    // Field 1 (the receipt) as a varint: the decoder takes 5 as a length and fails.
    expect(readRecordFields(Uint8Array.of(0x08, 0x05))).toBeNull();
    // A payer or an account outside the 10/16/38-bit packing: the decoder's path refuses them too.
    const outside = encode({ transactionID: { accountID: { shardNum: long(5000n), accountNum: long(1n) } } });
    expect(readRecordFields(outside)).toBeNull();
    expect(decoded(outside)).toBe("throws");
    const large = encode({
      transferList: { accountAmounts: [{ accountID: { accountNum: long(2n ** 38n) } }] },
    });
    expect(readRecordFields(large)).toBeNull();
    expect(decoded(large)).toBe("throws");
    // A receipt's file id as a varint: the decoder would read it as a length, past the receipt's end.
    const receipt = new WireWriter().varintField(3, 5).finish();
    expect(readRecordFields(new WireWriter().bytesField(1, receipt).finish())).toBeNull();
    // Truncated.
    const whole = encode({ transactionHash: Buffer.alloc(48, 2) });
    expect(readRecordFields(whole.subarray(0, 20))).toBeNull();
    // A fee sent length-delimited.
    expect(readRecordFields(new WireWriter().bytesField(6, Uint8Array.of(1)).finish())).toBeNull();
  });

  it("agrees with the decoder on any record built from the fields it reads, and on those bytes altered", () => {
    let alteredCompared = 0;
    const int64 = fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n);
    const uint64 = fc.bigInt(0n, 2n ** 64n - 1n);
    const accountId = fc.oneof(
      fc.record({ accountNum: fc.bigInt(0n, 2n ** 40n).map((v) => long(v)) }),
      fc.record({
        shardNum: fc.bigInt(0n, 1100n).map((v) => long(v)),
        realmNum: fc.bigInt(0n, 70000n).map((v) => long(v)),
        accountNum: fc.bigInt(-1n, 2n ** 39n).map((v) => long(v)),
      }),
      fc.record({ alias: fc.uint8Array({ maxLength: 4 }) }),
    );
    const timestamp = fc.record({ seconds: int64.map((v) => long(v)), nanos: fc.integer() });
    const record = fc.record(
      {
        receipt: fc.record(
          {
            status: fc.integer({ min: 0, max: 400 }),
            topicSequenceNumber: uint64.map((v) => long(v, true)),
            topicRunningHash: fc.uint8Array({ maxLength: 48 }),
            topicRunningHashVersion: uint64.map((v) => long(v, true)),
            accountID: accountId,
          },
          { requiredKeys: [] },
        ),
        transactionHash: fc.uint8Array({ maxLength: 48 }),
        consensusTimestamp: timestamp,
        transactionID: fc.record(
          {
            accountID: accountId,
            transactionValidStart: timestamp,
            nonce: fc.integer(),
            scheduled: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        memo: fc.string({ maxLength: 8 }),
        transactionFee: uint64.map((v) => long(v, true)),
        transferList: fc.record({
          accountAmounts: fc.array(
            fc.record({ accountID: accountId, amount: int64.map((v) => long(v)), isApproval: fc.boolean() }),
            { maxLength: 4 },
          ),
        }),
        tokenTransferLists: fc.array(fc.record({ token: fc.record({ tokenNum: fc.constant(long(5n)) }) }), {
          maxLength: 1,
        }),
        scheduleRef: fc.record({ scheduleNum: fc.constant(long(9n)) }),
        parentConsensusTimestamp: timestamp,
        paidStakingRewards: fc.array(fc.record({ accountID: accountId }), { maxLength: 1 }),
        highVolumePricingMultiplier: uint64.map((v) => long(v, true)),
        contractCallResult: fc.constant({}),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(record, fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 3 }), (value, flips) => {
        const bytes = encode(value as proto.ITransactionRecord);
        const expected = decoded(bytes);
        const fields = readRecordFields(bytes);
        if (expected === "throws" || expected === null) expect(fields).toBeNull();
        else expect(comparable(fields!)).toEqual(comparable(expected));
        // Altered bytes: the reader never throws; where they are still a well-formed record (the decoder's
        // object encodes to them again), whatever the reader takes the decoder reads the same.
        const altered = Uint8Array.from(bytes);
        for (const [at, value] of flips) if (altered.length > 0) altered[at % altered.length] = value;
        const alteredFields = readRecordFields(altered);
        const alteredExpected = decoded(altered);
        if (alteredExpected === "throws") expect(alteredFields).toBeNull();
        if (alteredFields === null || alteredExpected === null || alteredExpected === "throws") return;
        const again = encode(proto.TransactionRecord.decode(altered));
        if (Buffer.compare(Buffer.from(again), Buffer.from(altered)) !== 0) return;
        alteredCompared++;
        expect(comparable(alteredFields)).toEqual(comparable(alteredExpected));
      }),
      { numRuns: 2000, seed: 15 },
    );
    expect(alteredCompared).toBeGreaterThan(200);
  });
});

describe("hasApprovedTransfers", () => {
  it("says whether a CryptoTransfer body approves any hbar or fungible transfer, as its decoded body does", () => {
    let approving = 0;
    let transfers = 0;
    for (const { source, transactionBytes } of allItems()) {
      const bodyBytes = transactionBodyBytes(transactionBytes);
      const body = proto.TransactionBody.decode(bodyBytes);
      if (body.cryptoTransfer == null) continue;
      transfers++;
      const fields = readBodyFields(bodyBytes, (field) => field === 14);
      const expected =
        (body.cryptoTransfer.transfers?.accountAmounts ?? []).some((aa) => aa.isApproval === true) ||
        (body.cryptoTransfer.tokenTransfers ?? []).some((list) =>
          (list.transfers ?? []).some((aa) => aa.isApproval === true),
        );
      expect(hasApprovedTransfers(bodyBytes, fields.dataStart, fields.dataEnd), source).toBe(expected);
      if (expected) approving++;
    }
    expect(transfers).toBeGreaterThan(100);
    expect(approving).toBeGreaterThan(0);
  });

  it("finds an approval in an hbar transfer and in a token transfer list", () => {
    const body = (transfer: proto.ICryptoTransferTransactionBody) => {
      const bytes = proto.TransactionBody.encode({ cryptoTransfer: transfer }).finish();
      const fields = readBodyFields(bytes, (field) => field === 14);
      return hasApprovedTransfers(bytes, fields.dataStart, fields.dataEnd);
    };
    const aa = (isApproval: boolean) => ({
      accountID: { accountNum: long(5n) },
      amount: long(-1n),
      isApproval,
    });
    expect(body({ transfers: { accountAmounts: [aa(false), aa(true)] } })).toBe(true);
    expect(body({ tokenTransfers: [{ token: { tokenNum: long(9n) }, transfers: [aa(true)] }] })).toBe(true);
    expect(
      body({ transfers: { accountAmounts: [aa(false)] }, tokenTransfers: [{ transfers: [aa(false)] }] }),
    ).toBe(false);
    // NFT approvals are read elsewhere (the token transfer path decodes the body).
    expect(body({ tokenTransfers: [{ nftTransfers: [{ serialNumber: long(1n), isApproval: true }] }] })).toBe(
      false,
    );
  });
});
