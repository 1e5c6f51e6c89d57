/**
 * A small, fast protobuf writer for the bulk generator: one growing buffer, varints from numbers (bigint only
 * when a value is beyond 2^53), and nested messages written in place (`begin` reserves the length byte,
 * `end` patches it, moving the body when the length needs more than one byte). It writes exactly what a
 * proto3 encoder writes for the fields it is given, so callers control field order and omit defaults.
 */

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;

export class ProtoWriter {
  private buf: Uint8Array;
  private pos = 0;
  private readonly starts: number[] = [];

  constructor(initialSize = 1024) {
    this.buf = new Uint8Array(initialSize);
  }

  /** Starts a new message, keeping the buffer. */
  reset(): this {
    this.pos = 0;
    this.starts.length = 0;
    return this;
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** An unsigned varint of a non-negative safe integer. */
  private rawVarint(value: number): void {
    this.ensure(10);
    const buf = this.buf;
    let pos = this.pos;
    while (value >= 0x80) {
      buf[pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    buf[pos++] = value;
    this.pos = pos;
  }

  /** A varint of a signed 64-bit value: negative values are written as 10-byte two's complement. */
  private rawInt64(value: number | bigint): void {
    if (typeof value === "number" && value >= 0) {
      this.rawVarint(value);
      return;
    }
    const big = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    // Split into two 32-bit halves so the loop runs on numbers.
    let lo = Number(big & 0xffffffffn);
    let hi = Number(big >> 32n);
    while (hi > 0 || lo >= 0x80) {
      this.buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = (lo >>> 7) | ((hi & 0x7f) << 25);
      lo >>>= 0;
      hi = Math.floor(hi / 0x80);
    }
    this.buf[this.pos++] = lo;
  }

  /** A varint field (int32, int64, uint, bool, enum). Callers omit zero values themselves. */
  int(field: number, value: number | bigint): this {
    this.rawVarint(field * 8 + WIRE_VARINT);
    if (typeof value === "bigint" && value >= 0n && value < 2n ** 53n) this.rawVarint(Number(value));
    else this.rawInt64(value);
    return this;
  }

  /** A ZigZag varint field (sint32, sint64), as `AccountAmount.amount` is. */
  sint(field: number, value: number | bigint): this {
    this.rawVarint(field * 8 + WIRE_VARINT);
    const big = BigInt(value);
    const zigzag = big >= 0n ? big * 2n : -big * 2n - 1n;
    if (zigzag < 2n ** 53n) this.rawVarint(Number(zigzag));
    else this.rawInt64(zigzag);
    return this;
  }

  /** A packed repeated int64 field. */
  packedInts(field: number, values: readonly (number | bigint)[]): this {
    this.begin(field);
    for (const value of values) {
      if (typeof value === "bigint" && value >= 0n && value < 2n ** 53n) this.rawVarint(Number(value));
      else this.rawInt64(value);
    }
    return this.end();
  }

  bytes(field: number, value: Uint8Array): this {
    this.rawVarint(field * 8 + WIRE_LENGTH_DELIMITED);
    this.rawVarint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, "utf8"));
  }

  /** Opens an embedded message field; close it with `end()`. */
  begin(field: number): this {
    this.rawVarint(field * 8 + WIRE_LENGTH_DELIMITED);
    this.ensure(1);
    this.starts.push(this.pos);
    this.pos++; // one length byte reserved; `end` makes room if the body turns out longer
    return this;
  }

  end(): this {
    const start = this.starts.pop();
    if (start === undefined) throw new Error("end() without begin()");
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return this;
    }
    let lengthBytes = 1;
    for (let rest = length; rest >= 0x80; rest = Math.floor(rest / 0x80)) lengthBytes++;
    this.ensure(lengthBytes - 1);
    this.buf.copyWithin(start + lengthBytes, start + 1, this.pos);
    this.pos += lengthBytes - 1;
    let rest = length;
    for (let i = 0; i < lengthBytes; i++) {
      this.buf[start + i] = i < lengthBytes - 1 ? (rest % 0x80) | 0x80 : rest;
      rest = Math.floor(rest / 0x80);
    }
    return this;
  }

  /** `AccountID`/`TokenID` style message: only the number (field 3); 0 writes an empty message. */
  entity(field: number, num: number | bigint): this {
    this.begin(field);
    if (num !== 0 && num !== 0n) this.int(3, num);
    return this.end();
  }

  /** `Timestamp` from nanoseconds since the epoch. */
  timestamp(field: number, ns: bigint): this {
    const seconds = ns / 1_000_000_000n;
    const nanos = Number(ns % 1_000_000_000n);
    this.begin(field);
    if (seconds !== 0n) this.int(1, seconds);
    if (nanos !== 0) this.int(2, nanos);
    return this.end();
  }

  /** A copy of what was written. */
  finish(): Uint8Array {
    if (this.starts.length > 0) throw new Error("unclosed embedded message");
    // Buffer.from copies (from Node's slab for small sizes), faster than TypedArray slice.
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}
