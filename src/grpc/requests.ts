/**
 * The two requests, from bytes to checked filters, with upstream's refusals (grpc.md §3.1, §3.2, §4.1): each
 * refusal is a status code and the exact description upstream sends. Pure: the caller passes the wall clock.
 */
import "../streams/long-setup.ts";
import { com } from "@hiero-ledger/proto";
import { decodeEntityId, encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from "../ids.ts";
import { toBigInt } from "../streams/long.ts";
import { type Refusal, Status } from "./status.ts";

const mirror = com.hedera.mirror.api.proto;

export type TopicFilter = {
  topicId: bigint;
  /** Inclusive start, ns since the epoch. */
  startNs: bigint;
  /** Exclusive end (null: none). */
  endNs: bigint | null;
  /** 0: no limit. */
  limit: bigint;
  /** The server's clock when the call arrived (T0). */
  t0Ns: bigint;
};

export type NodesFilter = { fileId: bigint; limit: number };

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
/** From this many seconds on, a timestamp is the largest instant (upstream's `ProtoUtil.fromTimestamp`). */
const MAX_SECONDS = 9_223_372_035n;

/** The request decoders grpc-js calls (a decode error becomes INTERNAL there). */
export const decodeTopicQuery = (bytes: Buffer) => mirror.ConsensusTopicQuery.decode(bytes);
export const decodeAddressBookQuery = (bytes: Buffer) => mirror.AddressBookQuery.decode(bytes);

type Timestamp = { seconds?: unknown; nanos?: number | null } | null | undefined;
type EntityParts = { shardNum?: unknown; realmNum?: unknown };

const int64 = (value: unknown): bigint => toBigInt(value as Parameters<typeof toBigInt>[0]);

/** A `proto.Timestamp` as ns, saturating like upstream (nanos added as sent, not limited to one second). */
export function timestampNs(timestamp: NonNullable<Timestamp>): bigint {
  const seconds = int64(timestamp.seconds);
  if (seconds >= MAX_SECONDS) return MAX_INT64;
  const ns = seconds * 1_000_000_000n + BigInt(timestamp.nanos ?? 0);
  if (ns > MAX_INT64) return MAX_INT64;
  if (ns < MIN_INT64) return seconds >= 0n ? MAX_INT64 : MIN_INT64;
  return ns;
}

/** Encodes an id, or refuses it as upstream's `EntityId.of` does (`Invalid entity ID: 0.0.-1`). */
function entityId(shard: bigint, realm: bigint, num: bigint): bigint | Refusal {
  if (shard < 0n || shard > MAX_SHARD || realm < 0n || realm > MAX_REALM || num < 0n || num > MAX_NUM) {
    return { code: Status.INVALID_ARGUMENT, details: `Invalid entity ID: ${shard}.${realm}.${num}` };
  }
  return encodeEntityId(shard, realm, num);
}

/** `shard.realm.num` of an encoded id, 0.0.0 included (upstream's `<id> does not exist`). */
export function entityText(encoded: bigint): string {
  const { shard, realm, num } = decodeEntityId(encoded);
  return `${shard}.${realm}.${num}`;
}

const isRefusal = (value: unknown): value is Refusal => typeof value === "object" && value !== null;

/** Violations joined as upstream's bean validation prints them, sorted by path (grpc.md §3.2 rule). */
function violations(method: string, lines: Array<[path: string, message: string]>): Refusal | null {
  if (lines.length === 0) return null;
  const text = lines
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([path, message]) => `${method}.filter.${path}: ${message}`)
    .join(", ");
  return { code: Status.INVALID_ARGUMENT, details: text };
}

type TopicQuery = ReturnType<typeof decodeTopicQuery>;

/** `ConsensusTopicQuery` → filter, or the first refusal (steps 1 and 2 of §3.2; step 3 needs the index). */
export function topicFilterOf(query: TopicQuery, t0Ns: bigint): TopicFilter | Refusal {
  let topicId: bigint | null = null;
  const topic = query.topicID as (EntityParts & { topicNum?: unknown }) | null;
  if (topic != null) {
    const id = entityId(int64(topic.shardNum), int64(topic.realmNum), int64(topic.topicNum));
    if (isRefusal(id)) return id;
    topicId = id;
  }
  const start = query.consensusStartTime as Timestamp;
  const end = query.consensusEndTime as Timestamp;
  const startNs = start == null ? t0Ns : timestampNs(start);
  const endNs = end == null ? null : timestampNs(end);
  const limit = BigInt.asIntN(64, int64(query.limit));
  const lines: Array<[string, string]> = [];
  if (limit < 0n) lines.push(["limit", "must be greater than or equal to 0"]);
  if (startNs < 0n) lines.push(["startTime", "must be greater than or equal to 0"]);
  if (topicId === null) lines.push(["topicId", "must not be null"]);
  if (endNs !== null && endNs <= startNs) lines.push(["validEndTime", "End time must be after start time"]);
  if (startNs > t0Ns) lines.push(["validStartTime", "Start time must be before the current time"]);
  const refused = violations("subscribeTopic", lines);
  if (refused !== null) return refused;
  return { topicId: topicId!, startNs, endNs, limit, t0Ns };
}

/** The encoded ids of the two address book files (0.0.101, 0.0.102: mirrorlite's network is shard 0, realm 0). */
const ADDRESS_BOOK_FILES = new Set([101n, 102n]);

type NodesQuery = ReturnType<typeof decodeAddressBookQuery>;

/** `AddressBookQuery` → filter, or the first refusal (§4.1 steps 1–3; step 4 needs the index). */
export function nodesFilterOf(query: NodesQuery): NodesFilter | Refusal {
  let fileId: bigint | null = null;
  const file = query.fileId as (EntityParts & { fileNum?: unknown }) | null;
  if (file != null) {
    const id = entityId(int64(file.shardNum), int64(file.realmNum), int64(file.fileNum));
    if (isRefusal(id)) return id;
    fileId = id;
  }
  const limit = query.limit ?? 0;
  const lines: Array<[string, string]> = [];
  if (fileId === null) lines.push(["fileId", "must not be null"]);
  if (limit < 0) lines.push(["limit", "must be greater than or equal to 0"]);
  const refused = violations("getNodes", lines);
  if (refused !== null) return refused;
  if (!ADDRESS_BOOK_FILES.has(fileId!)) {
    return { code: Status.INVALID_ARGUMENT, details: "Not a valid address book file" };
  }
  return { fileId: fileId!, limit };
}
