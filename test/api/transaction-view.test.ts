import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transactionIdText, transactionJson } from "../../src/api/views/transactions.ts";
import { encodeEntityId } from "../../src/ids.ts";
import { NO_EXTRAS } from "../../src/store/transaction-lists.ts";
import type { TransactionRow } from "../../src/store/transactions.ts";
import { proto } from "../../src/streams/proto.ts";
import { formatTimestamp } from "../../src/time.ts";

function row(payerId: bigint, validStartNs: bigint, memo: Uint8Array): TransactionRow {
  return {
    consensusNs: 1_700_000_000_000_000_000n,
    type: 14,
    result: 22,
    payerId,
    validStartNs,
    nonce: 0,
    scheduled: false,
    highVolume: false,
    chargedFee: 1n,
    maxFee: 2n,
    validDurationSeconds: 120n,
    nodeId: 3n,
    entityId: null,
    parentNs: null,
    memo,
    hash: new Uint8Array(48).fill(7),
    transfers: [],
    tokenTransfers: [],
    nftTransfers: [],
    extras: NO_EXTRAS,
  };
}

describe("transactionJson", () => {
  it("writes the transaction id, valid start and memo as transactionIdText, formatTimestamp and base64 do", () => {
    const payer = fc.oneof(
      fc.constant(0n),
      fc.bigInt(1n, 2n ** 38n - 1n),
      fc
        .tuple(fc.bigInt(0n, 1023n), fc.bigInt(0n, 65535n), fc.bigInt(0n, 2n ** 38n - 1n))
        .map(([shard, realm, num]) => encodeEntityId(shard, realm, num)),
    );
    const validStart = fc.oneof(
      fc.bigInt(0n, 999_999_999n),
      fc.bigInt(0n, 2n ** 63n - 1n),
      fc.bigInt(-(2n ** 63n), -1n),
    );
    fc.assert(
      fc.property(payer, validStart, fc.uint8Array({ maxLength: 20 }), (payerId, validStartNs, memo) => {
        const json = JSON.parse(transactionJson(row(payerId, validStartNs, memo)));
        expect(json.transaction_id).toBe(transactionIdText(payerId, validStartNs));
        expect(json.valid_start_timestamp).toBe(formatTimestamp(validStartNs));
        expect(json.memo_base64).toBe(Buffer.from(memo).toString("base64"));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });
});

describe("batch_key", () => {
  const ed = Buffer.alloc(32, 0xab);
  const ecdsa = Buffer.concat([Buffer.from([0x02]), Buffer.alloc(32, 0xcd)]);
  const keyBytes = (key: proto.IKey) => proto.Key.encode(key).finish();
  const batchKeyOf = (key: proto.IKey | null) => {
    const base = row(2n, 1n, new Uint8Array());
    const extras = { ...NO_EXTRAS, batchKey: key === null ? null : keyBytes(key) };
    return JSON.parse(transactionJson({ ...base, extras }, true)).batch_key;
  };

  // Upstream 0.154 (openapi `Transaction.batch_key: Key`, spec transactions/{id}/no-params.json) prints the body's
  // batch key as a key object, not as `0x` hex.
  it("is a key object as every other key, null when absent or the empty key list", () => {
    expect(batchKeyOf(null)).toBeNull();
    expect(batchKeyOf({ ed25519: ed })).toEqual({ _type: "ED25519", key: ed.toString("hex") });
    expect(batchKeyOf({ keyList: { keys: [{ ed25519: ed }] } })).toEqual({
      _type: "ED25519",
      key: ed.toString("hex"),
    });
    expect(batchKeyOf({ ECDSASecp256k1: ecdsa })).toEqual({
      _type: "ECDSA_SECP256K1",
      key: ecdsa.toString("hex"),
    });
    const twoOfTwo = {
      thresholdKey: { threshold: 2, keys: { keys: [{ ed25519: ed }, { ECDSASecp256k1: ecdsa }] } },
    };
    expect(batchKeyOf(twoOfTwo)).toEqual({
      _type: "ProtobufEncoded",
      key: Buffer.from(keyBytes(twoOfTwo)).toString("hex"),
    });
    expect(batchKeyOf({ keyList: { keys: [] } })).toBeNull();
  });
});
