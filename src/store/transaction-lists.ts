/**
 * The small per-record lists of the transaction index, packed into blobs: a row per list entry would cost more
 * than the entry (rowid, record header, index entry), and a list is only ever read whole, with its row.
 *
 * Encoding: a sequence of varints (7 bits a byte, little end first, any length). Signed values are zig-zag
 * encoded (0, -1, 1, -2 … → 0, 1, 2, 3 …). All values are bigint-exact: int64 amounts never pass through a
 * double. `extras` is a sequence of sections, each a tag then its payload; absent sections cost nothing.
 */

/** Bits of `transaction.flags`. */
export const TRANSACTION_FLAGS = {
  /** The result is not one the mirror node counts as success. Part of the `kind` index key. */
  failed: 1,
  /** Some hbar or fungible token amount of the record is positive / negative (`type=credit|debit`). */
  credit: 2,
  debit: 4,
  /** Rows of the record exist in token_transfer / nft_transfer. */
  tokenTransfers: 8,
  nftTransfers: 16,
  /** The body's high_volume flag. */
  highVolume: 32,
  /** The record has a scheduleRef: the execution of a scheduled transaction. */
  scheduled: 64,
} as const;

/** Bits of the low part of `account_transaction.kind` (type * 8 + these). */
export const ACCOUNT_KIND_BITS = { failed: 4, credit: 2, debit: 1 } as const;

export type HbarTransfer = { accountId: bigint; amount: bigint; isApproval: boolean };

export type StakingRewardTransfer = { accountId: bigint; amount: bigint };

export type AssessedCustomFee = {
  amount: bigint;
  collectorId: bigint;
  /** Null for fees in hbar. */
  tokenId: bigint | null;
  effectivePayerIds: bigint[];
};

/** A transaction id named by an atomic batch as one of its inner transactions. */
export type InnerTransactionId = { payerId: bigint; validStartNs: bigint };

/** The rarely present parts of a record, packed into `transaction.extras`. */
export type TransactionExtras = {
  stakingRewardTransfers: StakingRewardTransfer[];
  assessedCustomFees: AssessedCustomFee[];
  /** The body's `max_custom_fees`: each a serialized `CustomFeeLimit`. */
  maxCustomFees: Uint8Array[];
  /** The body's `batch_key` as serialized `Key` bytes. */
  batchKey: Uint8Array | null;
  highVolumePricingMultiplier: bigint;
  innerTransactions: InnerTransactionId[];
};

export const NO_EXTRAS: TransactionExtras = Object.freeze({
  stakingRewardTransfers: [],
  assessedCustomFees: [],
  maxCustomFees: [],
  batchKey: null,
  highVolumePricingMultiplier: 0n,
  innerTransactions: [],
}) as TransactionExtras;

const SECTION_STAKING_REWARDS = 1;
const SECTION_ASSESSED_FEES = 2;
const SECTION_MAX_CUSTOM_FEES = 3;
const SECTION_BATCH_KEY = 4;
const SECTION_PRICING_MULTIPLIER = 5;
const SECTION_INNER_TRANSACTIONS = 6;

const SAFE = 2 ** 53;
/** Below this magnitude, zig-zag (and one more flag bit) stays exact in double arithmetic. */
const SMALL = 1n << 50n;

/** Appends varints to a growing buffer. One writer is reused for every record of a file. */
export class PackWriter {
  private buffer = new Uint8Array(256);
  private length = 0;

  reset(): this {
    this.length = 0;
    return this;
  }

  get size(): number {
    return this.length;
  }

  /** A non-negative integer of any size. */
  unsigned(value: bigint | number): void {
    if (typeof value === "number" ? value < SAFE : value < 9007199254740992n) {
      let n = Number(value);
      this.ensure(8);
      while (n >= 128) {
        this.buffer[this.length++] = (n % 128) | 128;
        n = Math.floor(n / 128);
      }
      this.buffer[this.length++] = n;
      return;
    }
    let rest = BigInt(value);
    this.ensure(20);
    while (rest >= 128n) {
      this.buffer[this.length++] = Number(rest & 127n) | 128;
      rest >>= 7n;
    }
    this.buffer[this.length++] = Number(rest);
  }

  /** A signed integer, zig-zag encoded. */
  signed(value: bigint | number): void {
    if (
      typeof value === "number"
        ? Number.isSafeInteger(value) && Math.abs(value) < 2 ** 50
        : value < SMALL && value > -SMALL
    ) {
      const n = Number(value);
      this.unsigned(n >= 0 ? n * 2 : -n * 2 - 1);
      return;
    }
    const big = BigInt(value);
    this.unsigned(big >= 0n ? big << 1n : (-big << 1n) - 1n);
  }

  /** A signed integer or null: 0 for null, else the zig-zag value plus one. */
  nullableSigned(value: bigint | number | null): void {
    if (value === null) {
      this.unsigned(0);
      return;
    }
    if (
      typeof value === "number"
        ? Number.isSafeInteger(value) && Math.abs(value) < 2 ** 50
        : value < SMALL && value > -SMALL
    ) {
      const n = Number(value);
      this.unsigned((n >= 0 ? n * 2 : -n * 2 - 1) + 1);
      return;
    }
    const big = BigInt(value);
    this.unsigned((big >= 0n ? big << 1n : (-big << 1n) - 1n) + 1n);
  }

  bytes(value: Uint8Array): void {
    this.unsigned(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  /** A copy of what was written, or null when nothing was. */
  finish(): Uint8Array | null {
    return this.length === 0 ? null : this.buffer.slice(0, this.length);
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

/** Reads what a PackWriter wrote; throws on a truncated value (a corrupt index). */
export class PackReader {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  unsigned(): bigint {
    const bytes = this.bytes;
    let small = 0;
    let multiplier = 1;
    for (let i = 0; i < 7; i++) {
      const b = this.next();
      small += (b & 127) * multiplier;
      if (b < 128) return BigInt(small);
      multiplier *= 128;
    }
    // Past 49 bits: continue exactly in bigint.
    let value = BigInt(small);
    let shift = 49n;
    for (;;) {
      const b = this.next();
      value |= BigInt(b & 127) << shift;
      if (b < 128) return value;
      shift += 7n;
      if (shift > 140n) throw new RangeError(`varint too long in a packed list of ${bytes.length} bytes`);
    }
  }

  /** An unsigned value known to be small (counts, lengths, tags). */
  count(): number {
    return Number(this.unsigned());
  }

  signed(): bigint {
    const z = this.unsigned();
    return (z & 1n) === 0n ? z >> 1n : -((z + 1n) >> 1n);
  }

  nullableSigned(): bigint | null {
    const z = this.unsigned();
    if (z === 0n) return null;
    return ((z - 1n) & 1n) === 0n ? (z - 1n) >> 1n : -(z >> 1n);
  }

  bytesValue(): Uint8Array {
    const length = this.count();
    if (this.pos + length > this.bytes.length) throw new RangeError("packed bytes run past the end");
    const value = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return value;
  }

  private next(): number {
    if (this.pos >= this.bytes.length) throw new RangeError("packed varint runs past the end");
    return this.bytes[this.pos++]!;
  }
}

/** Writes an hbar transfer list: its length, then per entry the account (approval flag folded in) and amount. */
function writeHbarTransfers(writer: PackWriter, transfers: readonly HbarTransfer[]): void {
  writer.unsigned(transfers.length);
  for (const { accountId, amount, isApproval } of transfers) {
    if (accountId >= 0n && accountId < SMALL) {
      writer.unsigned(Number(accountId) * 4 + (isApproval ? 1 : 0));
    } else {
      const zigzag = accountId >= 0n ? accountId << 1n : (-accountId << 1n) - 1n;
      writer.unsigned((zigzag << 1n) | (isApproval ? 1n : 0n));
    }
    writer.signed(amount);
  }
}

function readHbarTransfers(reader: PackReader): HbarTransfer[] {
  const out: HbarTransfer[] = [];
  for (let n = reader.count(); n > 0; n--) {
    const key = reader.unsigned();
    const zigzag = key >> 1n;
    const accountId = (zigzag & 1n) === 0n ? zigzag >> 1n : -((zigzag + 1n) >> 1n);
    out.push({ accountId, amount: reader.signed(), isApproval: (key & 1n) === 1n });
  }
  return out;
}

/** True when the extras hold nothing (no section to write). */
function isEmpty(extras: TransactionExtras): boolean {
  return (
    extras.stakingRewardTransfers.length === 0 &&
    extras.assessedCustomFees.length === 0 &&
    extras.maxCustomFees.length === 0 &&
    extras.batchKey === null &&
    extras.highVolumePricingMultiplier === 0n &&
    extras.innerTransactions.length === 0
  );
}

function writeExtras(writer: PackWriter, extras: TransactionExtras): void {
  if (extras.stakingRewardTransfers.length > 0) {
    writer.unsigned(SECTION_STAKING_REWARDS);
    writer.unsigned(extras.stakingRewardTransfers.length);
    for (const { accountId, amount } of extras.stakingRewardTransfers) {
      writer.signed(accountId);
      writer.signed(amount);
    }
  }
  if (extras.assessedCustomFees.length > 0) {
    writer.unsigned(SECTION_ASSESSED_FEES);
    writer.unsigned(extras.assessedCustomFees.length);
    for (const fee of extras.assessedCustomFees) {
      writer.signed(fee.amount);
      writer.signed(fee.collectorId);
      // 0 stands for hbar: token 0.0.0 names no token.
      writer.signed(fee.tokenId ?? 0n);
      writer.unsigned(fee.effectivePayerIds.length);
      for (const payer of fee.effectivePayerIds) writer.signed(payer);
    }
  }
  if (extras.maxCustomFees.length > 0) {
    writer.unsigned(SECTION_MAX_CUSTOM_FEES);
    writer.unsigned(extras.maxCustomFees.length);
    for (const limit of extras.maxCustomFees) writer.bytes(limit);
  }
  if (extras.batchKey !== null) {
    writer.unsigned(SECTION_BATCH_KEY);
    writer.bytes(extras.batchKey);
  }
  if (extras.highVolumePricingMultiplier !== 0n) {
    writer.unsigned(SECTION_PRICING_MULTIPLIER);
    writer.signed(extras.highVolumePricingMultiplier);
  }
  if (extras.innerTransactions.length > 0) {
    writer.unsigned(SECTION_INNER_TRANSACTIONS);
    writer.unsigned(extras.innerTransactions.length);
    for (const { payerId, validStartNs } of extras.innerTransactions) {
      writer.signed(payerId);
      writer.signed(validStartNs);
    }
  }
}

/** Reads the extras sections that follow in `reader` (to its end). */
function readExtras(reader: PackReader): TransactionExtras {
  if (reader.done) return NO_EXTRAS;
  const extras: TransactionExtras = {
    stakingRewardTransfers: [],
    assessedCustomFees: [],
    maxCustomFees: [],
    batchKey: null,
    highVolumePricingMultiplier: 0n,
    innerTransactions: [],
  };
  while (!reader.done) {
    const section = reader.count();
    switch (section) {
      case SECTION_STAKING_REWARDS:
        for (let n = reader.count(); n > 0; n--) {
          extras.stakingRewardTransfers.push({ accountId: reader.signed(), amount: reader.signed() });
        }
        break;
      case SECTION_ASSESSED_FEES:
        for (let n = reader.count(); n > 0; n--) {
          const amount = reader.signed();
          const collectorId = reader.signed();
          const token = reader.signed();
          const effectivePayerIds: bigint[] = [];
          for (let p = reader.count(); p > 0; p--) effectivePayerIds.push(reader.signed());
          extras.assessedCustomFees.push({
            amount,
            collectorId,
            tokenId: token === 0n ? null : token,
            effectivePayerIds,
          });
        }
        break;
      case SECTION_MAX_CUSTOM_FEES:
        for (let n = reader.count(); n > 0; n--) extras.maxCustomFees.push(reader.bytesValue());
        break;
      case SECTION_BATCH_KEY:
        extras.batchKey = reader.bytesValue();
        break;
      case SECTION_PRICING_MULTIPLIER:
        extras.highVolumePricingMultiplier = reader.signed();
        break;
      case SECTION_INNER_TRANSACTIONS:
        for (let n = reader.count(); n > 0; n--) {
          extras.innerTransactions.push({ payerId: reader.signed(), validStartNs: reader.signed() });
        }
        break;
      default:
        throw new RangeError(`unknown section ${section} in packed transaction extras`);
    }
  }
  return extras;
}

/** The columns of a transaction row kept packed in `transaction.details`, and its lists. */
export type TransactionDetails = {
  chargedFee: bigint;
  maxFee: bigint;
  validDurationSeconds: bigint | null;
  nodeId: bigint | null;
  entityId: bigint | null;
  parentNs: bigint | null;
  /** Empty when the body has no memo. */
  memo: Uint8Array;
  transfers: HbarTransfer[];
  extras: TransactionExtras;
};

type DetailsInput = {
  chargedFee: bigint | number;
  maxFee: bigint | number;
  validDurationSeconds: bigint | number | null;
  nodeId: bigint | number | null;
  entityId: bigint | number | null;
  parentNs: bigint | null;
  memo: Uint8Array | null;
  transfers: readonly HbarTransfer[];
  extras: TransactionExtras | null;
};

/**
 * Packs a transaction's details: charged fee, max fee, then nullable valid duration, node, entity and parent
 * (as its distance back from the consensus time), the memo's bytes, the hbar transfers, and the extras sections
 * to the end. One blob instead of a column each: a row reads as fast as it writes.
 */
export function packDetails(writer: PackWriter, consensusNs: bigint, details: DetailsInput): Uint8Array {
  writer.reset();
  writer.signed(details.chargedFee);
  writer.signed(details.maxFee);
  writer.nullableSigned(details.validDurationSeconds);
  writer.nullableSigned(details.nodeId);
  writer.nullableSigned(details.entityId);
  writer.nullableSigned(details.parentNs === null ? null : consensusNs - details.parentNs);
  writer.bytes(details.memo ?? EMPTY);
  writeHbarTransfers(writer, details.transfers);
  if (details.extras !== null && !isEmpty(details.extras)) writeExtras(writer, details.extras);
  return writer.finish() ?? EMPTY;
}

export function unpackDetails(consensusNs: bigint, blob: Uint8Array): TransactionDetails {
  const reader = new PackReader(blob);
  const chargedFee = reader.signed();
  const maxFee = reader.signed();
  const validDurationSeconds = reader.nullableSigned();
  const nodeId = reader.nullableSigned();
  const entityId = reader.nullableSigned();
  const parentBack = reader.nullableSigned();
  const memo = reader.bytesValue();
  const transfers = readHbarTransfers(reader);
  const extras = readExtras(reader);
  return {
    chargedFee,
    maxFee,
    validDurationSeconds,
    nodeId,
    entityId,
    parentNs: parentBack === null ? null : consensusNs - parentBack,
    memo,
    transfers,
    extras,
  };
}

const EMPTY = new Uint8Array(0);
