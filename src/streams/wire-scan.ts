/**
 * Protobuf varints and field skipping over a byte array, without a reader object: the readers of the fields
 * ingestion needs from every transaction (`transaction-body-fields.ts`, `record-fields.ts`) walk messages by
 * offset, and every value they read ends at `cursor`. This runs several times for every record of a catch-up, so
 * nothing here allocates, and values that fit 49 bits come back as numbers (no bigint built).
 *
 * Malformed bytes throw `CorruptFileError` (through `WireReader.fail`), named as a transaction's.
 */
import {
  WIRE_FIXED32,
  WIRE_FIXED64,
  WIRE_LENGTH_DELIMITED,
  WIRE_VARINT,
  WireReader,
} from "./protobuf-wire.ts";

/** An int64 as a number when exact (|v| < 2^49 here), else a bigint. */
export type Int64 = number | bigint;

/** Where the last varint read ended (the readers below return their value and leave the position here). */
export let cursor = 0;

/** A varint's low 32 bits as an unsigned number (tags, lengths, bools, enums). */
export function varint32(bytes: Uint8Array, pos: number, end: number): number {
  let value = 0;
  for (let shift = 0; shift < 70; shift += 7) {
    if (pos >= end) malformed(bytes, "a varint runs past the end");
    const b = bytes[pos++]!;
    if (shift < 32) value |= (b & 0x7f) << shift;
    if (b < 0x80) {
      cursor = pos;
      return value >>> 0;
    }
  }
  return malformed(bytes, "a varint is longer than 10 bytes");
}

/** A varint as a signed int64: a number below 2^49, a bigint beyond (negative values take 10 bytes). */
export function int64At(bytes: Uint8Array, pos: number, end: number): Int64 {
  let value = 0;
  let scale = 1;
  const start = pos;
  for (let i = 0; i < 7; i++) {
    if (pos >= end) malformed(bytes, "a varint runs past the end");
    const b = bytes[pos++]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      cursor = pos;
      return value;
    }
    scale *= 128;
  }
  const reader = new WireReader("transaction", bytes, "TransactionBody", start);
  const big = reader.int64(end);
  cursor = reader.pos;
  return big;
}

/** A varint as an unsigned int64 (uint64 fields: fees, sequence numbers), exact. */
export function uint64At(bytes: Uint8Array, pos: number, end: number): Int64 {
  const value = int64At(bytes, pos, end);
  return typeof value === "number" ? value : BigInt.asUintN(64, value);
}

/** A zig-zag varint (sint64: AccountAmount amounts) as an exact bigint. */
export function sint64At(bytes: Uint8Array, pos: number, end: number): bigint {
  const raw = int64At(bytes, pos, end);
  if (typeof raw === "number") {
    // Below 2^49 the halving is exact in a double.
    return raw % 2 === 0 ? BigInt(raw / 2) : -BigInt((raw + 1) / 2);
  }
  const zigzag = BigInt.asUintN(64, raw);
  return (zigzag & 1n) === 0n ? zigzag >> 1n : -((zigzag + 1n) >> 1n);
}

/** Skips the value of a field with the given wire type at `pos`; returns the position after it. */
export function skip(bytes: Uint8Array, wireType: number, pos: number, end: number): number {
  switch (wireType) {
    case WIRE_VARINT:
      varint32(bytes, pos, end);
      return cursor;
    case WIRE_FIXED64:
      if (end - pos < 8) malformed(bytes, "a fixed64 runs past the end");
      return pos + 8;
    case WIRE_FIXED32:
      if (end - pos < 4) malformed(bytes, "a fixed32 runs past the end");
      return pos + 4;
    case WIRE_LENGTH_DELIMITED: {
      const length = varint32(bytes, pos, end);
      if (cursor + length > end) malformed(bytes, "a length runs past the end");
      return cursor + length;
    }
    default:
      return malformed(bytes, `unsupported wire type ${wireType}`);
  }
}

/** Reads a length prefix at `pos` and returns the payload's end; the payload starts at `cursor`. */
export function payloadEnd(bytes: Uint8Array, pos: number, end: number): number {
  const length = varint32(bytes, pos, end);
  const stop = cursor + length;
  if (stop > end) malformed(bytes, "a length runs past the end");
  return stop;
}

export function malformed(bytes: Uint8Array, problem: string): never {
  return new WireReader("transaction", bytes, "TransactionBody").fail(problem);
}
