/**
 * A small protobuf writer for the two answers the gRPC API sends (`ConsensusTopicResponse`, `NodeAddress`): the
 * read workers encode thousands of them per page, straight from index rows, so no message object is built and
 * int64 fields go from bigint to varint without a `Long`. Only what those messages use is here: varints,
 * length-delimited fields and nested messages (written into a scratch writer, then copied with their length).
 */
const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;

/** Bytes of a varint holding `value` (a non-negative integer below 2^53). */
export function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 128)) size += 1;
  return size;
}

/** Writes `value` (a non-negative integer below 2^53) as a varint at `at`; returns where it ends. */
export function putVarint(buffer: Buffer, at: number, value: number): number {
  let v = value;
  let i = at;
  while (v >= 0x80) {
    buffer[i++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  buffer[i++] = v;
  return i;
}

export class ProtoWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(initialBytes = 256) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  get byteLength(): number {
    return this.length;
  }

  /** Forgets what was written (the buffer is kept for the next message). */
  reset(): this {
    this.length = 0;
    return this;
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + extra));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  private rawVarint(value: number): void {
    this.ensure(10);
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.length++] = v;
  }

  /** A non-negative number below 2^53, or a bigint (negative ones as their 64-bit two's complement, 10 bytes). */
  private varint(value: number | bigint): void {
    if (typeof value === "number") {
      this.rawVarint(value);
      return;
    }
    let v = BigInt.asUintN(64, value);
    if (v < 0x20000000000000n) {
      this.rawVarint(Number(v));
      return;
    }
    this.ensure(10);
    while (v >= 0x80n) {
      this.buffer[this.length++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buffer[this.length++] = Number(v);
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(field * 8 + wireType);
  }

  /** An integer field (int32, int64, uint64, enum); a zero is the default and not written (proto3). */
  uint(field: number, value: number | bigint): this {
    if (value === 0 || value === 0n) return this;
    this.tag(field, WIRE_VARINT);
    this.varint(value);
    return this;
  }

  /** A bytes field; empty bytes are the default and not written. */
  bytes(field: number, value: Uint8Array): this {
    if (value.length === 0) return this;
    this.tag(field, WIRE_LENGTH_DELIMITED);
    this.rawVarint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }

  /** Bytes given as base64 text, decoded straight into the buffer. */
  base64(field: number, text: string): this {
    if (text.length === 0) return this;
    const size = Buffer.byteLength(text, "base64");
    this.tag(field, WIRE_LENGTH_DELIMITED);
    this.rawVarint(size);
    this.ensure(size);
    this.length += this.buffer.write(text, this.length, size, "base64");
    return this;
  }

  /** A string field; an empty one is the default and not written. */
  string(field: number, value: string): this {
    if (value.length === 0) return this;
    const size = Buffer.byteLength(value);
    this.tag(field, WIRE_LENGTH_DELIMITED);
    this.rawVarint(size);
    this.ensure(size);
    this.length += this.buffer.write(value, this.length, size, "utf8");
    return this;
  }

  /** A nested message, written even when empty (a present message is not a default value). */
  message(field: number, nested: ProtoWriter): this {
    this.tag(field, WIRE_LENGTH_DELIMITED);
    this.rawVarint(nested.length);
    this.ensure(nested.length);
    nested.buffer.copy(this.buffer, this.length, 0, nested.length);
    this.length += nested.length;
    return this;
  }

  /** What was written, as a view (valid until the next write or reset). */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
