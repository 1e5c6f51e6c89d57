/**
 * A bounds-checked cursor over bytes written by Java's `DataOutputStream` (big-endian), as record stream
 * files v2 and v5 are. Every read that would run past the end throws `CorruptFileError` naming what was
 * being read, so a truncated file reports where it stops instead of yielding garbage.
 */
import { CorruptFileError } from "../errors.ts";

export class JavaStreamCursor {
  readonly name: string;
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  position: number;

  constructor(name: string, bytes: Uint8Array, position = 0) {
    this.name = name;
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.position = position;
  }

  get remaining(): number {
    return this.bytes.length - this.position;
  }

  /** Throws unless `count` more bytes are there; `what` names the field for the error. */
  require(count: number, what: string): void {
    if (this.remaining < count) {
      throw new CorruptFileError(
        this.name,
        `truncated: ${what} needs ${count} bytes at offset ${this.position} but only ${this.remaining} remain`,
      );
    }
  }

  byte(what: string): number {
    this.require(1, what);
    const value = this.bytes[this.position]!;
    this.position += 1;
    return value;
  }

  int32(what: string): number {
    this.require(4, what);
    const value = this.view.getInt32(this.position);
    this.position += 4;
    return value;
  }

  /** An int64 read as unsigned, which is how class ids (written as hex constants) compare. */
  uint64(what: string): bigint {
    this.require(8, what);
    const value = this.view.getBigUint64(this.position);
    this.position += 8;
    return value;
  }

  /** The next 8 bytes as an unsigned int64, without consuming them; null when fewer remain. */
  peekUint64(): bigint | null {
    return this.remaining < 8 ? null : this.view.getBigUint64(this.position);
  }

  /** A view (not a copy) of the next `count` bytes. */
  bytesView(count: number, what: string): Uint8Array {
    this.require(count, what);
    const view = this.bytes.subarray(this.position, this.position + count);
    this.position += count;
    return view;
  }

  /** Reads an int32 and throws unless it equals `expected`. */
  expectInt32(expected: number, what: string): void {
    const at = this.position;
    const value = this.int32(what);
    if (value !== expected) {
      throw new CorruptFileError(this.name, `${what} at offset ${at} is ${value}, expected ${expected}`);
    }
  }

  /** Reads one byte and throws unless it equals `expected`. */
  expectByte(expected: number, what: string): void {
    const at = this.position;
    const value = this.byte(what);
    if (value !== expected) {
      throw new CorruptFileError(this.name, `${what} at offset ${at} is ${value}, expected ${expected}`);
    }
  }

  /** An int32 length in [min, max] followed by that many bytes (returned as a view). */
  lengthPrefixed(min: number, max: number, what: string): Uint8Array {
    const at = this.position;
    const length = this.int32(`length of ${what}`);
    if (length < min || length > max) {
      throw new CorruptFileError(
        this.name,
        `length of ${what} at offset ${at} is ${length}, expected between ${min} and ${max}`,
      );
    }
    return this.bytesView(length, what);
  }
}
