/**
 * The body of `POST /api/v1/contracts/call` (upstream's `ContractCallRequest`), read and checked as upstream's
 * Jackson binding and bean validation do: unknown fields ignored, `null` meaning the default, one
 * `<field> field <reason>` entry per violation. The result is plain data for the read worker.
 */
import { web3Error, web3ValidationErrors } from "./errors.ts";

/** Which block the call runs at. `earliest` is the first block indexed; the other tags all mean the latest. */
export type BlockSpec =
  | { kind: "latest" }
  | { kind: "earliest" }
  | { kind: "number"; number: bigint }
  /** 64 or 96 lower-case hex digits. */
  | { kind: "hash"; hash: string };

export type ContractCallRequest = {
  block: BlockSpec;
  /** Lower-case hex without `0x` (even length). */
  data: string;
  estimate: boolean;
  /** 40 lower-case hex digits, or null (the zero address). */
  from: string | null;
  gas: bigint;
  gasPrice: bigint;
  /** 40 lower-case hex digits, or null when absent or empty (then a contract creation). */
  to: string | null;
  /** Tinybars. */
  value: bigint;
};

/** Upstream's `maxGasLimit` and the default `gas`. */
export const MAX_CALL_GAS = 15_000_000n;
const MIN_GAS = 21_000n;
/** The validator's bound on `data`: 1,048,576 hex digits (0.154's `@Hex` on `data`). */
export const MAX_DATA_DIGITS = 1_048_576;
const ADDRESS_DIGITS = 40;
const INT64_MAX = (1n << 63n) - 1n;

const TAGS: Readonly<Record<string, BlockSpec>> = {
  earliest: { kind: "earliest" },
  latest: { kind: "latest" },
  pending: { kind: "latest" },
  safe: { kind: "latest" },
  finalized: { kind: "latest" },
};

const HEX_DIGITS = /^[0-9a-fA-F]*$/;

/** A malformed body, or a value of the wrong type: Spring's `HttpMessageNotReadableException` (400). */
const unreadable = (detail: string) => web3Error(400, `JSON parse error: ${detail}`);

/** `block`: a tag, a decimal number, a `0x` hex number, or a 64/96-digit block hash. */
export function parseBlock(raw: unknown): BlockSpec {
  if (raw === undefined || raw === null || raw === "") return { kind: "latest" };
  const text = typeof raw === "number" && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof text !== "string" || text.length > 98) throw unreadable(`Invalid block value: ${String(raw)}`);
  const tag = TAGS[text.toLowerCase()];
  if (tag !== undefined) return tag;
  if (/^\d{1,20}$/.test(text)) {
    const number = BigInt(text);
    if (number > INT64_MAX) throw unreadable(`Invalid block value: ${text}`);
    return { kind: "number", number };
  }
  const digits = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  if (digits.length > 0 && HEX_DIGITS.test(digits)) {
    if (digits.length === 64 || digits.length === 96) return { kind: "hash", hash: digits.toLowerCase() };
    const number = BigInt(`0x${digits}`);
    if (number <= INT64_MAX) return { kind: "number", number };
  }
  throw unreadable(`Invalid block value: ${text}`);
}

/** A Java `long` field: a JSON integer or a decimal string of one; null/absent gives the default. */
function readLong(body: Record<string, unknown>, name: string, fallback: bigint): bigint {
  const raw = body[name];
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw === "number" && Number.isSafeInteger(raw)) return BigInt(raw);
  if (typeof raw === "string" && /^[+-]?\d{1,19}$/.test(raw.trim())) {
    const value = BigInt(raw.trim());
    if (value >= -INT64_MAX - 1n && value <= INT64_MAX) return value;
  }
  throw unreadable(`Cannot deserialize value of type \`long\` from ${JSON.stringify(raw) ?? "value"}`);
}

function readBoolean(body: Record<string, unknown>, name: string): boolean {
  const raw = body[name];
  if (raw === undefined || raw === null) return false;
  if (typeof raw === "boolean") return raw;
  if (raw === "true" || raw === "false") return raw === "true";
  throw unreadable(`Cannot deserialize value of type \`boolean\` from ${JSON.stringify(raw) ?? "value"}`);
}

function readString(body: Record<string, unknown>, name: string): string | null {
  const raw = body[name];
  if (raw === undefined || raw === null) return null;
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
  throw unreadable(
    `Cannot deserialize value of type \`java.lang.String\` from ${Array.isArray(raw) ? "Array" : "Object"} value`,
  );
}

/** Whether `value` passes `@Hex(minLength, maxLength, allowEmpty)`. */
function isHex(value: string, min: number, max: number, allowEmpty: boolean): boolean {
  if ((min === 0 || allowEmpty) && value === "") return true;
  const digits = value.startsWith("0x") ? value.slice(2) : value;
  return digits.length >= min && digits.length <= max && HEX_DIGITS.test(digits);
}

const stripPrefix = (hex: string) => (hex.startsWith("0x") ? hex.slice(2) : hex).toLowerCase();

/** Whether `data` starts like Solidity init code (`PUSH1 0x80 PUSH1 0x40 MSTORE`, upstream's check). */
function looksLikeInitCode(data: string | null): boolean {
  return data !== null && stripPrefix(data).startsWith("6080604052");
}

/** Reads and checks the JSON text of a call request. */
export function readContractCallRequest(text: string): ContractCallRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw unreadable((error as Error).message);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw unreadable("Cannot deserialize value of type `ContractCallRequest`");
  }
  const body = parsed as Record<string, unknown>;
  const block = parseBlock(body.block);
  const data = readString(body, "data");
  const estimate = readBoolean(body, "estimate");
  const from = readString(body, "from");
  const gas = readLong(body, "gas", MAX_CALL_GAS);
  const gasPrice = readLong(body, "gasPrice", 0n);
  const to = readString(body, "to");
  const value = readLong(body, "value", 0n);

  const violations: string[] = [];
  if (data !== null && !isHex(data, 0, MAX_DATA_DIGITS, false))
    violations.push("data field invalid hexadecimal string");
  if (from !== null && !isHex(from, ADDRESS_DIGITS, ADDRESS_DIGITS, false)) {
    violations.push("from field invalid hexadecimal string");
  }
  if (value > 0n && from === null) violations.push("from field must not be empty");
  if (gas < MIN_GAS) violations.push(`gas field must be greater than or equal to ${MIN_GAS}`);
  if (gasPrice < 0n) violations.push("gasPrice field must be greater than or equal to 0");
  if (to !== null && !isHex(to, ADDRESS_DIGITS, ADDRESS_DIGITS, true)) {
    violations.push("to field invalid hexadecimal string");
  }
  const toGiven = to !== null && to !== "";
  if (!(looksLikeInitCode(data) || value <= 0n || from === null || toGiven)) {
    violations.push("to field must not be empty");
  }
  if (value < 0n) violations.push("value field must be greater than or equal to 0");
  if (violations.length > 0) throw web3ValidationErrors(violations);
  if (gas > MAX_CALL_GAS) throw web3Error(400, `gas field must be less than or equal to ${MAX_CALL_GAS}`);
  const dataHex = data === null ? "" : stripPrefix(data);
  if (dataHex.length % 2 !== 0) {
    throw web3Error(400, `data field '${data}' contains invalid odd length characters`);
  }
  return {
    block,
    data: dataHex,
    estimate,
    from: from === null ? null : stripPrefix(from),
    gas,
    gasPrice,
    to: toGiven ? stripPrefix(to) : null,
    value,
  };
}
