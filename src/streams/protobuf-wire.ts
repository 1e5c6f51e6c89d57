/**
 * Just enough of the protobuf wire format to walk a message field by field and to write one.
 *
 * The readers use this instead of the generated decoders because they must hand ingestion the exact bytes
 * of each embedded `Transaction` and `TransactionRecord` (the running hash is computed over those bytes,
 * and re-encoding a decoded object is not guaranteed to reproduce them), and because slicing is cheaper
 * than decoding: every byte slice is a `subarray` view of the input.
 */
import { CorruptFileError } from "../errors.ts";

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LENGTH_DELIMITED = 2;
export const WIRE_FIXED32 = 5;

/**
 * Reads fields within explicit bounds. Nested messages are walked in place by passing their end offset
 * (from `lengthDelimitedEnd`) instead of allocating a reader per message.
 */
export class WireReader {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** What is being read, for error messages, e.g. "RecordStreamFile". */
  context: string;
  pos: number;

  constructor(name: string, bytes: Uint8Array, context: string, pos = 0) {
    this.name = name;
    this.bytes = bytes;
    this.context = context;
    this.pos = pos;
  }

  fail(problem: string): never {
    throw new CorruptFileError(this.name, `undecodable protobuf in ${this.context}: ${problem}`);
  }

  /** The next field's tag (`field << 3 | wireType`), validated; the caller checks `pos < end` first. */
  tag(end: number): number {
    const at = this.pos;
    const tag = this.uint32(end);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 0) this.fail(`field number 0 at offset ${at}`);
    // Groups (wire types 3 and 4) are deprecated and unused by HAPI; anything else is not protobuf.
    const known =
      wireType === WIRE_VARINT ||
      wireType === WIRE_FIXED64 ||
      wireType === WIRE_LENGTH_DELIMITED ||
      wireType === WIRE_FIXED32;
    if (!known) this.fail(`unsupported wire type ${wireType} at offset ${at}`);
    return tag;
  }

  /** A varint truncated to its low 32 bits as an unsigned number (how protobuf reads int32/uint32/enum). */
  uint32(end: number): number {
    const bytes = this.bytes;
    let value = 0;
    for (let shift = 0, i = 0; i < 10; i++, shift += 7) {
      if (this.pos >= end) this.fail(`varint runs past the end at offset ${this.pos}`);
      const b = bytes[this.pos++]!;
      if (shift < 32) value |= (b & 0x7f) << shift;
      if (b < 0x80) return value >>> 0;
    }
    return this.fail(`varint longer than 10 bytes ending at offset ${this.pos}`);
  }

  /** A varint read as a signed int32 (negative int32 values are written sign-extended to 10 bytes). */
  int32(end: number): number {
    return this.uint32(end) | 0;
  }

  /** A varint read as a signed int64. */
  int64(end: number): bigint {
    const bytes = this.bytes;
    // Most varints (timestamps, amounts, ids) end within 7 bytes, 49 bits: a double holds them exactly, so
    // they cost one BigInt instead of one per byte. Longer ones (negative values are 10 bytes) start over.
    const start = this.pos;
    let small = 0;
    for (let i = 0, scale = 1; i < 7 && this.pos < end; i++, scale *= 128) {
      const b = bytes[this.pos++]!;
      small += (b & 0x7f) * scale;
      if (b < 0x80) return BigInt(small);
    }
    this.pos = start;
    let value = 0n;
    for (let shift = 0n, i = 0; i < 10; i++, shift += 7n) {
      if (this.pos >= end) this.fail(`varint runs past the end at offset ${this.pos}`);
      const b = bytes[this.pos++]!;
      value |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asIntN(64, value);
    }
    return this.fail(`varint longer than 10 bytes ending at offset ${this.pos}`);
  }

  /** Reads a length prefix and returns the end offset of the payload, leaving `pos` at its start. */
  lengthDelimitedEnd(end: number): number {
    const at = this.pos;
    const length = this.uint32(end);
    if (length > end - this.pos) {
      this.fail(`length ${length} at offset ${at} runs past the end (${end - this.pos} bytes left)`);
    }
    return this.pos + length;
  }

  /** A length-delimited payload as a view of the input. */
  lengthDelimited(end: number): Uint8Array {
    const payloadEnd = this.lengthDelimitedEnd(end);
    const view = this.bytes.subarray(this.pos, payloadEnd);
    this.pos = payloadEnd;
    return view;
  }

  /** Skips the value of a field with the given wire type. */
  skip(wireType: number, end: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.uint32(end);
        return;
      case WIRE_FIXED64:
        this.advance(8, end);
        return;
      case WIRE_LENGTH_DELIMITED:
        this.pos = this.lengthDelimitedEnd(end);
        return;
      case WIRE_FIXED32:
        this.advance(4, end);
        return;
      default:
        this.fail(`unsupported wire type ${wireType}`);
    }
  }

  /** Throws unless the field has the wire type its schema declares. */
  expectWireType(tag: number, wireType: number): void {
    if ((tag & 7) !== wireType) {
      this.fail(`field ${tag >>> 3} has wire type ${tag & 7}, expected ${wireType}`);
    }
  }

  private advance(count: number, end: number): void {
    if (end - this.pos < count) this.fail(`fixed-width value runs past the end at offset ${this.pos}`);
    this.pos += count;
  }
}

/**
 * Walks the top-level fields of `bytes` and throws `CorruptFileError` unless they form a well-formed
 * message: valid tags and wire types, varints and lengths that stay within the bytes. It cannot know the
 * schema, so it does not look inside nested messages; it catches truncation and misaligned bytes cheaply.
 */
export function assertWellFormedMessage(name: string, bytes: Uint8Array, context: string): void {
  const reader = new WireReader(name, bytes, context);
  const end = bytes.length;
  while (reader.pos < end) {
    const tag = reader.tag(end);
    reader.skip(tag & 7, end);
  }
}

/** Builds a protobuf message from fields written in order (fixtures only, so clarity over speed). */
export class WireWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  /** A varint field; proto3 omits zero values, so callers skip zero themselves when they mean "unset". */
  varintField(field: number, value: number | bigint): this {
    this.rawVarint(BigInt(field) << 3n);
    this.rawVarint(value);
    return this;
  }

  /** A length-delimited field (bytes, string or an embedded message's encoding). */
  bytesField(field: number, value: Uint8Array): this {
    this.rawVarint((BigInt(field) << 3n) | BigInt(WIRE_LENGTH_DELIMITED));
    this.rawVarint(value.length);
    this.push(value);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }

  private rawVarint(value: number | bigint): void {
    // Negative int32/int64 values are written as their 64-bit two's complement, 10 bytes long.
    let rest = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (rest >= 0x80n) {
      out.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    out.push(Number(rest));
    this.push(Uint8Array.from(out));
  }

  private push(part: Uint8Array): void {
    this.parts.push(part);
    this.size += part.length;
  }
}
