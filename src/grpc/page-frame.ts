/**
 * How a read worker hands a page of encoded messages to the main thread: one buffer (moved, not copied) holding,
 * per message, its consensus time (int64), its sequence number (uint64), its length (uint32) and its bytes. The
 * main thread needs the two numbers to decide which subscriber a live message is new for, and never decodes the
 * message itself.
 */

const HEADER_BYTES = 20;

/** One framed message: its consensus time and sequence number, and the encoded response (a view of the page). */
export type FramedMessage = {
  readonly consensusNs: bigint;
  readonly sequenceNumber: bigint;
  readonly bytes: Buffer;
};

/** Collects framed messages into one growing buffer. */
export class PageWriter {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  count = 0;

  add(consensusNs: bigint, sequenceNumber: bigint, message: Uint8Array): void {
    const needed = this.length + HEADER_BYTES + message.length;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.buffer.writeBigInt64BE(consensusNs, this.length);
    this.buffer.writeBigUInt64BE(BigInt.asUintN(64, sequenceNumber), this.length + 8);
    this.buffer.writeUInt32BE(message.length, this.length + 16);
    this.buffer.set(message, this.length + HEADER_BYTES);
    this.length = needed;
    this.count += 1;
  }

  /** The page in an `ArrayBuffer` of its own (transferable to another thread). */
  finish(): Uint8Array {
    const page = Buffer.allocUnsafeSlow(this.length);
    this.buffer.copy(page, 0, 0, this.length);
    return page;
  }
}

/** The messages of a page, as views of its buffer. */
export function readPage(page: Uint8Array): FramedMessage[] {
  const buffer = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  const messages: FramedMessage[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= buffer.length) {
    const consensusNs = buffer.readBigInt64BE(at);
    const sequenceNumber = buffer.readBigUInt64BE(at + 8);
    const length = buffer.readUInt32BE(at + 16);
    const start = at + HEADER_BYTES;
    messages.push({ consensusNs, sequenceNumber, bytes: buffer.subarray(start, start + length) });
    at = start + length;
  }
  return messages;
}
