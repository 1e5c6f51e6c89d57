/**
 * Parsers for the contents of system files: 0.0.101/0.0.102 (`NodeAddressBook`), 0.0.111
 * (`CurrentAndNextFeeSchedule`) and 0.0.112 (`ExchangeRateSet`).
 *
 * Whether bytes "parse" decides which version of a file upstream serves (a version that does not parse is
 * skipped), so the test must match Java's `parseFrom`, which is stricter than protobufjs's decoder: it refuses
 * field number 0, wire types 6 and 7, an end-group tag without its start, over-long varints, truncated values,
 * invalid UTF-8 in proto3 `string` fields, and any of these inside a known sub-message. Unknown fields and
 * fields whose wire type does not match their declaration are skipped, as Java keeps them as unknown fields.
 * `checkWireFormat` walks the bytes with that rulebook before protobufjs decodes them.
 */
import { proto } from "./proto.ts";

/** What the wire check needs to know of a message: its sub-message and string fields, by number. */
type Layout = { readonly [field: number]: "string" | Layout };

const TIMESTAMP_SECONDS: Layout = {};
const EXCHANGE_RATE: Layout = { 3: TIMESTAMP_SECONDS };
const EXCHANGE_RATE_SET: Layout = { 1: EXCHANGE_RATE, 2: EXCHANGE_RATE };
const FEE_COMPONENTS: Layout = {};
const FEE_DATA: Layout = { 1: FEE_COMPONENTS, 2: FEE_COMPONENTS, 3: FEE_COMPONENTS };
const TRANSACTION_FEE_SCHEDULE: Layout = { 2: FEE_DATA, 3: FEE_DATA };
const FEE_SCHEDULE: Layout = { 1: TRANSACTION_FEE_SCHEDULE, 2: TIMESTAMP_SECONDS };
const CURRENT_AND_NEXT_FEE_SCHEDULE: Layout = { 1: FEE_SCHEDULE, 2: FEE_SCHEDULE };
const ACCOUNT_ID: Layout = {};
const SERVICE_ENDPOINT: Layout = { 3: "string" };
const NODE_ADDRESS: Layout = { 4: "string", 6: ACCOUNT_ID, 8: SERVICE_ENDPOINT, 9: "string" };
const NODE_ADDRESS_BOOK: Layout = { 1: NODE_ADDRESS };

/** Java's default recursion limit for nested messages and groups. */
const MAX_DEPTH = 100;
const utf8 = new TextDecoder("utf-8", { fatal: true });

class WireError extends Error {}

/** True when Java's `parseFrom` would accept `bytes` as the message `layout` describes. */
export function checkWireFormat(bytes: Uint8Array, layout: Layout): boolean {
  try {
    walk(bytes, 0, bytes.length, layout, 0, null);
    return true;
  } catch (error) {
    if (error instanceof WireError) return false;
    throw error;
  }
}

function readVarint(bytes: Uint8Array, at: number, end: number): [bigint, number] {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (at >= end) throw new WireError("truncated varint");
    const byte = bytes[at++] ?? 0;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if ((byte & 0x80) === 0) return [BigInt.asUintN(64, value), at];
  }
  throw new WireError("malformed varint");
}

/**
 * Walks fields in [at, end); with `group` set, stops at that group's end tag (returning the position after
 * it). Returns the end position.
 */
function walk(
  bytes: Uint8Array,
  start: number,
  end: number,
  layout: Layout,
  depth: number,
  group: number | null,
): number {
  if (depth > MAX_DEPTH) throw new WireError("recursion limit");
  let at = start;
  while (at < end) {
    const [tag, afterTag] = readVarint(bytes, at, end);
    at = afterTag;
    if (tag > 0xffffffffn) throw new WireError("invalid tag");
    const field = Number(tag >> 3n);
    const wireType = Number(tag & 7n);
    if (field === 0) throw new WireError("invalid tag (zero)");
    switch (wireType) {
      case 0:
        at = readVarint(bytes, at, end)[1];
        break;
      case 1:
        at += 8;
        if (at > end) throw new WireError("truncated fixed64");
        break;
      case 5:
        at += 4;
        if (at > end) throw new WireError("truncated fixed32");
        break;
      case 2: {
        const [length, afterLength] = readVarint(bytes, at, end);
        if (length > BigInt(end - afterLength)) throw new WireError("truncated length-delimited field");
        const valueEnd = afterLength + Number(length);
        const declared = layout[field];
        if (declared === "string") {
          try {
            utf8.decode(bytes.subarray(afterLength, valueEnd));
          } catch {
            throw new WireError("invalid UTF-8");
          }
        } else if (declared !== undefined) {
          walk(bytes, afterLength, valueEnd, declared, depth + 1, null);
        }
        at = valueEnd;
        break;
      }
      case 3:
        // An unknown group: skipped up to its matching end tag.
        at = walk(bytes, at, end, {}, depth + 1, field);
        break;
      case 4:
        if (group !== field) throw new WireError("unexpected end-group tag");
        return at;
      default:
        throw new WireError("invalid wire type");
    }
  }
  if (group !== null) throw new WireError("truncated group");
  return at;
}

/** Decodes with protobufjs once the wire check passed; any decoder complaint still counts as "does not parse". */
function decodeChecked<T>(bytes: Uint8Array, layout: Layout, decode: (b: Uint8Array) => T): T | undefined {
  if (!checkWireFormat(bytes, layout)) return undefined;
  try {
    return decode(bytes);
  } catch {
    return undefined;
  }
}

/** 0.0.112 contents, or undefined when they do not parse. */
export function parseExchangeRateSet(bytes: Uint8Array): proto.ExchangeRateSet | undefined {
  return decodeChecked(bytes, EXCHANGE_RATE_SET, (b) => proto.ExchangeRateSet.decode(b));
}

/** 0.0.111 contents, or undefined when they do not parse. */
export function parseFeeSchedule(bytes: Uint8Array): proto.CurrentAndNextFeeSchedule | undefined {
  return decodeChecked(bytes, CURRENT_AND_NEXT_FEE_SCHEDULE, (b) =>
    proto.CurrentAndNextFeeSchedule.decode(b),
  );
}

/** 0.0.101 / 0.0.102 contents, or undefined when they do not parse. */
export function parseNodeAddressBook(bytes: Uint8Array): proto.NodeAddressBook | undefined {
  return decodeChecked(bytes, NODE_ADDRESS_BOOK, (b) => proto.NodeAddressBook.decode(b));
}
