/**
 * Index rows → the protobuf messages the gRPC API streams (grpc.md §3.3, §3.7, §4.3). Runs in the read workers,
 * which return the encoded bytes; the main thread only frames and writes them.
 */
import { decodeEntityId } from "../ids.ts";
import type { NetworkNodeRow } from "../store/network.ts";
import type { ServiceEndpointValue } from "../store/network-writes.ts";
import type { TopicMessageRecord, TopicStreamRow } from "../store/topics.ts";
import { proto } from "../streams/proto.ts";
import type { PageWriter } from "./page-frame.ts";
import { ProtoWriter, putVarint, varintSize } from "./wire.ts";

const NS_PER_SECOND = 1_000_000_000n;

/** Writers reused from message to message (a worker encodes one page at a time). */
const scratch = {
  timestamp: new ProtoWriter(32),
  chunk: new ProtoWriter(128),
  transactionId: new ProtoWriter(64),
  account: new ProtoWriter(32),
  endpoint: new ProtoWriter(64),
};

/** `proto.Timestamp` of a consensus time in ns (floor division, so nanos stay in 0–999999999). */
function timestampOf(writer: ProtoWriter, ns: bigint): ProtoWriter {
  let seconds = ns / NS_PER_SECOND;
  let nanos = ns % NS_PER_SECOND;
  if (nanos < 0n) {
    nanos += NS_PER_SECOND;
    seconds -= 1n;
  }
  return writer.reset().uint(1, seconds).uint(2, Number(nanos));
}

/** `proto.AccountID` {shardNum, realmNum, accountNum} of an encoded entity id. */
function accountIdOf(writer: ProtoWriter, encoded: bigint): ProtoWriter {
  const { shard, realm, num } = decodeEntityId(encoded);
  return writer.reset().uint(1, shard).uint(2, realm).uint(3, num);
}

/** Whether stored `TransactionID` bytes parse (upstream falls back to payer and valid start when they do not). */
function parsesAsTransactionId(bytes: Uint8Array): boolean {
  try {
    proto.TransactionID.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** `chunkInfo.initialTransactionID`: the body's own, else the chunk's payer and valid start, else none (§3.7). */
function initialTransactionIdOf(record: TopicMessageRecord): Uint8Array | null {
  const stored = record.initialTransactionId;
  if (stored !== null && stored.length > 0 && parsesAsTransactionId(stored)) return stored;
  if (record.validStartNs === null) return null;
  const account = accountIdOf(scratch.account, record.payerId);
  const validStart = timestampOf(scratch.timestamp, record.validStartNs);
  return scratch.transactionId.reset().message(1, validStart).message(2, account).view();
}

/** One `ConsensusTopicResponse` into `out` (reset first). */
export function encodeTopicResponse(out: ProtoWriter, record: TopicMessageRecord): Buffer {
  out.reset();
  out.message(1, timestampOf(scratch.timestamp, record.consensusNs));
  out.base64(2, record.messageBase64);
  out.base64(3, record.runningHashBase64);
  out.uint(4, record.sequenceNumber);
  out.uint(5, record.runningHashVersion);
  if (record.chunkNum !== null) {
    const initial = initialTransactionIdOf(record);
    const chunk = scratch.chunk.reset();
    if (initial !== null) chunk.bytes(1, initial);
    chunk.uint(2, BigInt.asIntN(32, record.chunkTotal ?? 0n)).uint(3, BigInt.asIntN(32, record.chunkNum));
    out.message(6, chunk);
  }
  return out.view();
}

/** Tag bytes of the fields `encodeCommonRow` writes (field number × 8 + wire type). */
const TAG_TIMESTAMP = 0x0a;
const TAG_SECONDS = 0x08;
const TAG_NANOS = 0x10;
const TAG_MESSAGE = 0x12;
const TAG_RUNNING_HASH = 0x1a;
const TAG_SEQUENCE = 0x20;
/** Field 5, `runningHashVersion`, with the value 3 (every row that is not special). */
const VERSION_3 = [0x28, 0x03] as const;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Whether a page row can take the short path of `encodeCommonRow`: not special (version 3, not a chunk), and its
 * time and sequence number small enough to be written through a `number` exactly.
 */
export function isCommonRow(row: TopicStreamRow): boolean {
  return row[2] === null && row[0] >= 0n && row[1] >= 0n && row[1] <= MAX_SAFE;
}

/**
 * A common row's `ConsensusTopicResponse` (the same bytes `encodeTopicResponse` gives), written straight into its
 * frame of the page: sizes first, then each field once, no intermediate message. This is the replay's hot path.
 */
export function encodeCommonRow(page: PageWriter, row: TopicStreamRow): void {
  const [consensusNs, sequence, , runningHashBase64, messageBase64] = row;
  // Below 2^63 ns the seconds stay below 2^34: exact as a number.
  const seconds = Number(consensusNs / NS_PER_SECOND);
  const nanos = Number(consensusNs % NS_PER_SECOND);
  const sequenceNumber = Number(sequence);
  const timestampSize =
    (seconds === 0 ? 0 : 1 + varintSize(seconds)) + (nanos === 0 ? 0 : 1 + varintSize(nanos));
  const messageSize = Buffer.byteLength(messageBase64, "base64");
  const hashSize = Buffer.byteLength(runningHashBase64, "base64");
  const size =
    2 +
    timestampSize +
    (messageSize === 0 ? 0 : 1 + varintSize(messageSize) + messageSize) +
    (hashSize === 0 ? 0 : 1 + varintSize(hashSize) + hashSize) +
    (sequenceNumber === 0 ? 0 : 1 + varintSize(sequenceNumber)) +
    VERSION_3.length;
  const { buffer, at: start } = page.frameSpace(size);
  let at = start;
  buffer[at++] = TAG_TIMESTAMP;
  buffer[at++] = timestampSize;
  if (seconds !== 0) {
    buffer[at++] = TAG_SECONDS;
    at = putVarint(buffer, at, seconds);
  }
  if (nanos !== 0) {
    buffer[at++] = TAG_NANOS;
    at = putVarint(buffer, at, nanos);
  }
  if (messageSize !== 0) {
    buffer[at++] = TAG_MESSAGE;
    at = putVarint(buffer, at, messageSize);
    at += buffer.write(messageBase64, at, messageSize, "base64");
  }
  if (hashSize !== 0) {
    buffer[at++] = TAG_RUNNING_HASH;
    at = putVarint(buffer, at, hashSize);
    at += buffer.write(runningHashBase64, at, hashSize, "base64");
  }
  if (sequenceNumber !== 0) {
    buffer[at++] = TAG_SEQUENCE;
    at = putVarint(buffer, at, sequenceNumber);
  }
  buffer[at++] = VERSION_3[0];
  buffer[at++] = VERSION_3[1];
  // Stored base64 is canonical (written by the ingest from bytes), so the sizes above are what was written.
  if (at - start !== size) throw new Error(`topic message at ${consensusNs} encoded to an unexpected size`);
  page.commit(consensusNs, sequence, size);
}

/** The 4 bytes of a dotted IPv4 text; empty bytes for anything else (grpc.md §4.3). */
export function ipv4Bytes(text: string): Uint8Array {
  const parts = text.split(".");
  if (parts.length !== 4) return new Uint8Array();
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!;
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return new Uint8Array();
    bytes[i] = Number(part);
  }
  return bytes;
}

/** Endpoints in mirrorlite's order: IPv4 text, then port, then domain name (the `/network/nodes` order). */
function sortedEndpoints(endpoints: readonly ServiceEndpointValue[]): ServiceEndpointValue[] {
  return endpoints
    .map((e) => ({
      domain_name: e.domain_name ?? "",
      ip_address_v4: e.ip_address_v4 ?? "",
      port: e.port ?? 0,
    }))
    .sort((a, b) => {
      if (a.ip_address_v4 !== b.ip_address_v4) return a.ip_address_v4 < b.ip_address_v4 ? -1 : 1;
      if (a.port !== b.port) return a.port - b.port;
      if (a.domain_name !== b.domain_name) return a.domain_name < b.domain_name ? -1 : 1;
      return 0;
    });
}

/** One `proto.NodeAddress` of an address book entry (grpc.md §4.3) into `out` (reset first). */
export function encodeNodeAddress(out: ProtoWriter, row: NetworkNodeRow): Buffer {
  out.reset();
  if (row.memo !== null) out.bytes(3, Buffer.from(row.memo, "utf8"));
  out.string(4, row.publicKey);
  out.uint(5, row.nodeId);
  const account = row.hasNode && row.nodeAccountId !== null ? row.nodeAccountId : row.entryAccountId;
  out.message(6, accountIdOf(scratch.account, account));
  if (row.nodeCertHash !== null) out.bytes(7, row.nodeCertHash);
  for (const endpoint of sortedEndpoints(row.serviceEndpoints)) {
    const e = scratch.endpoint.reset();
    e.bytes(1, ipv4Bytes(endpoint.ip_address_v4));
    e.uint(2, BigInt.asIntN(32, BigInt(endpoint.port)));
    e.string(3, endpoint.domain_name);
    out.message(8, e);
  }
  out.string(9, row.description);
  out.uint(10, row.stake?.stake ?? 0n);
  return out.view();
}
