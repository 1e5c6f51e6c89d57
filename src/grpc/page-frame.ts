/**
 * How a read worker hands a page of encoded messages to the main thread: one buffer (moved, not copied) holding
 * the messages already framed as gRPC sends them (a 0 flag byte, a 4-byte big-endian length, the message), back
 * to back, so that any run of consecutive messages is one contiguous slice the main thread writes to a call in
 * one go — it never encodes, copies or frames a message itself. Before the frames, an index gives per message
 * its consensus time (int64) and sequence number (uint64), which decide which subscriber a message is new for,
 * and where its frame ends.
 *
 * Layout: `count` (u32), `break` (u32: the first index whose sequence number is not its predecessor's + 1, or
 * `count`), then `count` index entries of 20 bytes (time, sequence, frame end), then the frames.
 */

const PAGE_HEADER_BYTES = 8;
const INDEX_ENTRY_BYTES = 20;
/** gRPC's length prefix: a compression flag (0: none) and the message length. */
export const FRAME_HEADER_BYTES = 5;

/** Collects framed messages (written by the caller into `frameSpace`) and their index entries. */
export class PageWriter {
  private frames = Buffer.allocUnsafe(64 * 1024);
  private framesLength = 0;
  private index = Buffer.allocUnsafe(INDEX_ENTRY_BYTES * 256);
  private lastSequence: bigint | null = null;
  private breakAt: number | null = null;
  count = 0;

  /**
   * Room for one message of `length` bytes: the caller writes the message at `[at, at + length)` of the returned
   * buffer, then calls `commit`. (Valid until the next call.)
   */
  frameSpace(length: number): { buffer: Buffer; at: number } {
    const needed = this.framesLength + FRAME_HEADER_BYTES + length;
    if (needed > this.frames.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.frames.length * 2));
      this.frames.copy(grown, 0, 0, this.framesLength);
      this.frames = grown;
    }
    return { buffer: this.frames, at: this.framesLength + FRAME_HEADER_BYTES };
  }

  /** Frames the message just written into `frameSpace(length)`, with its index entry. */
  commit(consensusNs: bigint, sequenceNumber: bigint, length: number): void {
    const at = this.framesLength;
    this.frames[at] = 0;
    this.frames.writeUInt32BE(length, at + 1);
    this.framesLength = at + FRAME_HEADER_BYTES + length;
    const entry = this.count * INDEX_ENTRY_BYTES;
    if (entry + INDEX_ENTRY_BYTES > this.index.length) {
      const grown = Buffer.allocUnsafe(this.index.length * 2);
      this.index.copy(grown, 0, 0, entry);
      this.index = grown;
    }
    this.index.writeBigInt64BE(consensusNs, entry);
    this.index.writeBigUInt64BE(BigInt.asUintN(64, sequenceNumber), entry + 8);
    this.index.writeUInt32BE(this.framesLength, entry + 16);
    if (this.breakAt === null && this.lastSequence !== null && sequenceNumber !== this.lastSequence + 1n) {
      this.breakAt = this.count;
    }
    this.lastSequence = sequenceNumber;
    this.count += 1;
  }

  /** Copies an encoded message in (for callers that encode elsewhere). */
  add(consensusNs: bigint, sequenceNumber: bigint, message: Uint8Array): void {
    const { buffer, at } = this.frameSpace(message.length);
    buffer.set(message, at);
    this.commit(consensusNs, sequenceNumber, message.length);
  }

  /** The page in an `ArrayBuffer` of its own (transferable to another thread). */
  finish(): Uint8Array {
    const indexBytes = this.count * INDEX_ENTRY_BYTES;
    const page = Buffer.allocUnsafeSlow(PAGE_HEADER_BYTES + indexBytes + this.framesLength);
    page.writeUInt32BE(this.count, 0);
    page.writeUInt32BE(this.breakAt ?? this.count, 4);
    this.index.copy(page, PAGE_HEADER_BYTES, 0, indexBytes);
    this.frames.copy(page, PAGE_HEADER_BYTES + indexBytes, 0, this.framesLength);
    return page;
  }
}

/** A page as the main thread reads it: times and sequence numbers on demand, frames as slices. */
export class FramePage {
  readonly count: number;
  /** The first index whose sequence number does not follow its predecessor's (`count` when all do). */
  readonly sequenceBreak: number;
  private readonly buffer: Buffer;
  private readonly framesAt: number;

  constructor(page: Uint8Array) {
    this.buffer = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
    if (this.buffer.length < PAGE_HEADER_BYTES) {
      this.count = 0;
      this.sequenceBreak = 0;
      this.framesAt = 0;
      return;
    }
    this.count = this.buffer.readUInt32BE(0);
    this.sequenceBreak = this.buffer.readUInt32BE(4);
    this.framesAt = PAGE_HEADER_BYTES + this.count * INDEX_ENTRY_BYTES;
  }

  static empty(): FramePage {
    return new FramePage(new Uint8Array());
  }

  consensusNs(i: number): bigint {
    return this.buffer.readBigInt64BE(PAGE_HEADER_BYTES + i * INDEX_ENTRY_BYTES);
  }

  sequenceNumber(i: number): bigint {
    return this.buffer.readBigUInt64BE(PAGE_HEADER_BYTES + i * INDEX_ENTRY_BYTES + 8);
  }

  /**
   * The first index after `from` whose sequence number does not follow its predecessor's (`count` when none does).
   * Pages of the index have none; looking past the page's first break is a scan, taken only after one.
   */
  sequenceBreakAfter(from: number): number {
    if (this.sequenceBreak > from) return this.sequenceBreak;
    for (let i = from + 1; i < this.count; i++) {
      if (this.sequenceNumber(i) !== BigInt.asUintN(64, this.sequenceNumber(i - 1) + 1n)) return i;
    }
    return this.count;
  }

  /** Where message `i`'s frame ends, from the start of the frames. */
  private frameEnd(i: number): number {
    return i < 0 ? 0 : this.buffer.readUInt32BE(PAGE_HEADER_BYTES + i * INDEX_ENTRY_BYTES + 16);
  }

  /** Messages `[from, to)`, framed, as one slice of the page. */
  frames(from: number, to: number): Buffer {
    return this.buffer.subarray(
      this.framesAt + this.frameEnd(from - 1),
      this.framesAt + this.frameEnd(to - 1),
    );
  }

  /** Message `i` without its frame header. */
  message(i: number): Buffer {
    return this.frames(i, i + 1).subarray(FRAME_HEADER_BYTES);
  }

  /** The first index whose consensus time is after `ns` (`count` when none is); times ascend. */
  firstAfter(ns: bigint): number {
    return this.search((i) => this.consensusNs(i) > ns);
  }

  /** The first index whose consensus time is at or after `ns` (`count` when none is). */
  firstAtOrAfter(ns: bigint): number {
    return this.search((i) => this.consensusNs(i) >= ns);
  }

  /** The first index for which `past` holds, `past` being false then true along the page. */
  private search(past: (i: number) => boolean): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (past(middle)) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}
