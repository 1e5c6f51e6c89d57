import { CorruptFileError } from "../errors.ts";

/**
 * A big-endian cursor over a signature file (Java `DataInputStream` layout) that reports every shortfall
 * or unexpected value as a `CorruptFileError` naming the file and the field.
 */
export class SignatureByteReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(
    private readonly file: string,
    private readonly bytes: Uint8Array,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  fail(message: string): CorruptFileError {
    return new CorruptFileError(this.file, message);
  }

  private take(count: number, field: string): number {
    if (count > this.remaining) {
      throw this.fail(
        `truncated ${field}: needs ${count} bytes at offset ${this.offset}, ${this.remaining} left`,
      );
    }
    const at = this.offset;
    this.offset += count;
    return at;
  }

  readByte(field: string): number {
    return this.view.getUint8(this.take(1, field));
  }

  readInt(field: string): number {
    return this.view.getInt32(this.take(4, field));
  }

  readLong(field: string): bigint {
    return this.view.getBigUint64(this.take(8, field));
  }

  readBytes(count: number, field: string): Uint8Array {
    const at = this.take(count, field);
    // A copy, so the result does not pin or alias the caller's buffer.
    return this.bytes.slice(at, at + count);
  }

  expectByte(expected: number, field: string): void {
    const actual = this.readByte(field);
    if (actual !== expected) throw this.fail(`${field} is ${actual}, expected ${expected}`);
  }

  expectInt(expected: number, field: string): void {
    const actual = this.readInt(field);
    if (actual !== expected) throw this.fail(`${field} is ${actual}, expected ${expected}`);
  }

  expectLong(expected: bigint, field: string): void {
    const actual = this.readLong(field);
    if (actual !== expected) {
      throw this.fail(`${field} is 0x${actual.toString(16)}, expected 0x${expected.toString(16)}`);
    }
  }

  /** Reads an int length in [min, max], then that many bytes. */
  readLengthAndBytes(min: number, max: number, field: string): Uint8Array {
    const length = this.readInt(`${field} length`);
    if (length < min || length > max) {
      throw this.fail(`${field} length is ${length}, expected ${min === max ? min : `${min} to ${max}`}`);
    }
    return this.readBytes(length, field);
  }

  expectEnd(): void {
    if (this.remaining !== 0) throw this.fail(`${this.remaining} unexpected bytes after the last field`);
  }
}
