/**
 * The fields of a ConsensusSubmitMessage read straight from its `TransactionBody` bytes: consensus messages are
 * most of a real network's transactions, and decoding each whole body (transaction id, node, fee, memo, every
 * nested message as an object) would cost ingestion more than the rest of the message's indexing. Slices are
 * views of the input; as protobuf decoders do, the last occurrence of a scalar wins and repeated message fields
 * merge (a repeated initial transaction id is kept whole, the last one: it is stored as bytes).
 */
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, WireReader } from "./protobuf-wire.ts";

/** `TransactionBody.consensusSubmitMessage`. */
const BODY_SUBMIT_MESSAGE = 27;
/** `ConsensusSubmitMessageTransactionBody`: topicID, message, chunkInfo. */
const SUBMIT_TOPIC = 1;
const SUBMIT_MESSAGE = 2;
const SUBMIT_CHUNK_INFO = 3;
/** `TopicID`: shardNum, realmNum, topicNum. */
const TOPIC_SHARD = 1;
const TOPIC_REALM = 2;
const TOPIC_NUM = 3;
/** `ConsensusMessageChunkInfo`: initialTransactionID, total, number. */
const CHUNK_INITIAL_ID = 1;
const CHUNK_TOTAL = 2;
const CHUNK_NUMBER = 3;

export type SubmitMessageFields = {
  /** The topic, or null when the body names none. */
  topic: { shard: bigint; realm: bigint; num: bigint } | null;
  message: Uint8Array;
  /** Null for a message sent whole. `initialTransactionId` is the `TransactionID` bytes, when given. */
  chunk: { number: number; total: number; initialTransactionId: Uint8Array | null } | null;
};

/** Reads a ConsensusSubmitMessage body; null when the body holds none. Throws `CorruptFileError` on bad bytes. */
export function readSubmitMessage(bodyBytes: Uint8Array): SubmitMessageFields | null {
  const reader = new WireReader("transaction", bodyBytes, "TransactionBody");
  let fields: SubmitMessageFields | null = null;
  while (reader.pos < bodyBytes.length) {
    const tag = reader.tag(bodyBytes.length);
    if (tag >>> 3 === BODY_SUBMIT_MESSAGE && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      // A message field that occurs twice merges, as protobuf decoders merge it.
      fields ??= { topic: null, message: new Uint8Array(), chunk: null };
      readSubmitFields(reader, reader.lengthDelimitedEnd(bodyBytes.length), fields);
    } else reader.skip(tag & 7, bodyBytes.length);
  }
  return fields;
}

function readSubmitFields(reader: WireReader, end: number, fields: SubmitMessageFields): void {
  const context = reader.context;
  reader.context = "ConsensusSubmitMessageTransactionBody";
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field === SUBMIT_TOPIC && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      fields.topic = readTopicId(reader, reader.lengthDelimitedEnd(end), fields.topic);
    } else if (field === SUBMIT_MESSAGE && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      fields.message = reader.lengthDelimited(end);
    } else if (field === SUBMIT_CHUNK_INFO && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      fields.chunk = readChunkInfo(reader, reader.lengthDelimitedEnd(end), fields.chunk);
    } else reader.skip(tag & 7, end);
  }
  reader.context = context;
}

function readTopicId(
  reader: WireReader,
  end: number,
  previous: SubmitMessageFields["topic"],
): SubmitMessageFields["topic"] {
  const topic = previous ?? { shard: 0n, realm: 0n, num: 0n };
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if ((tag & 7) !== WIRE_VARINT || field < TOPIC_SHARD || field > TOPIC_NUM) {
      reader.skip(tag & 7, end);
      continue;
    }
    const value = reader.int64(end);
    if (field === TOPIC_SHARD) topic.shard = value;
    else if (field === TOPIC_REALM) topic.realm = value;
    else topic.num = value;
  }
  return topic;
}

function readChunkInfo(
  reader: WireReader,
  end: number,
  previous: SubmitMessageFields["chunk"],
): NonNullable<SubmitMessageFields["chunk"]> {
  const chunk = previous ?? { number: 0, total: 0, initialTransactionId: null };
  while (reader.pos < end) {
    const tag = reader.tag(end);
    const field = tag >>> 3;
    if (field === CHUNK_INITIAL_ID && (tag & 7) === WIRE_LENGTH_DELIMITED) {
      chunk.initialTransactionId = reader.lengthDelimited(end);
    } else if (field === CHUNK_TOTAL && (tag & 7) === WIRE_VARINT) chunk.total = reader.int32(end);
    else if (field === CHUNK_NUMBER && (tag & 7) === WIRE_VARINT) chunk.number = reader.int32(end);
    else reader.skip(tag & 7, end);
  }
  return chunk;
}
