/**
 * The raw signed Ethereum transaction of an EthereumTransaction body (`ethereumData`), decoded into the fields the
 * mirror node stores (contracts.md §3.3, upstream's `*EthereumTransactionParser`): legacy (a 9-item RLP list),
 * EIP-2930 (0x01 + 11 items), EIP-1559 (0x02 + 12 items) and EIP-7702 (0x04 + 13 items). Byte fields are the RLP
 * bytes as sent; nothing is validated beyond the shape (the node did that), and anything else decodes to null.
 * RLP is read and written with ethers' implementation.
 */
import { decodeRlp, encodeRlp, getBytes, hexlify, type RlpStructuredData } from "ethers/utils";
import { keccak256 } from "./keccak.ts";

export type EthereumTransactionFields = {
  type: 0 | 1 | 2 | 4;
  chainId: Uint8Array | null;
  nonce: bigint;
  gasPrice: Uint8Array | null;
  maxFeePerGas: Uint8Array | null;
  maxPriorityFeePerGas: Uint8Array | null;
  gasLimit: bigint;
  toAddress: Uint8Array;
  /** The value in weibar, unsigned. */
  value: bigint;
  callData: Uint8Array;
  /** The access list item's content bytes (its list header removed); null for legacy. */
  accessList: Uint8Array | null;
  /** Type 4: the authorizations as JSON; else null. */
  authorizationList: string | null;
  signatureV: Uint8Array | null;
  recoveryId: number;
  signatureR: Uint8Array;
  signatureS: Uint8Array;
  /** keccak-256 of the whole raw transaction. */
  hash: Uint8Array;
};

const LEGACY_ITEMS = 9;
const ITEMS_BY_TYPE: Readonly<Record<number, number>> = { 1: 11, 2: 12, 4: 13 };
/** An RLP list's first byte is at least 0xc0. */
const RLP_LIST = 0xc0;
/** EIP-155: v = chain_id * 2 + 35 or 36. */
const EIP155_OFFSET = 35n;

/** Decodes raw `ethereumData`; null when it is no transaction of a known type and shape. */
export function decodeEthereumTransaction(raw: Uint8Array): EthereumTransactionFields | null {
  if (raw.length < 2) return null;
  const first = raw[0]!;
  try {
    if (first >= RLP_LIST) return legacy(raw);
    const count = ITEMS_BY_TYPE[first];
    if (count === undefined) return null;
    const items = decodeRlp(raw.subarray(1));
    if (!Array.isArray(items) || items.length !== count) return null;
    return typed(first as 1 | 2 | 4, items, raw);
  } catch {
    return null;
  }
}

function legacy(raw: Uint8Array): EthereumTransactionFields | null {
  const items = decodeRlp(raw);
  if (!Array.isArray(items) || items.length !== LEGACY_ITEMS) return null;
  const [nonce, gasPrice, gasLimit, to, value, data, v, r, s] = items.map(bytesOf);
  const vNumber = unsigned(v!);
  return {
    type: 0,
    chainId: vNumber > 34n ? twosComplement((vNumber - EIP155_OFFSET) >> 1n) : null,
    nonce: int64(nonce!),
    gasPrice: gasPrice!,
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
    gasLimit: int64(gasLimit!),
    toAddress: to!,
    value: unsigned(value!),
    callData: data!,
    accessList: null,
    authorizationList: null,
    signatureV: v!,
    recoveryId: vNumber % 2n === 1n ? 0 : 1,
    signatureR: r!,
    signatureS: s!,
    hash: keccak256(raw),
  };
}

function typed(type: 1 | 2 | 4, items: RlpStructuredData[], raw: Uint8Array): EthereumTransactionFields {
  const at = (i: number) => bytesOf(items[i]!);
  // Type 1 has one gas price where types 2 and 4 have two fee caps: the later positions shift by one.
  const fees = type === 1 ? 1 : 2;
  const gasLimitAt = 2 + fees;
  const accessAt = gasLimitAt + 4;
  const signatureAt = type === 4 ? accessAt + 2 : accessAt + 1;
  return {
    type,
    chainId: at(0),
    nonce: int64(at(1)),
    gasPrice: type === 1 ? at(2) : null,
    maxPriorityFeePerGas: type === 1 ? null : at(2),
    maxFeePerGas: type === 1 ? null : at(3),
    gasLimit: int64(at(gasLimitAt)),
    toAddress: at(gasLimitAt + 1),
    value: unsigned(at(gasLimitAt + 2)),
    callData: at(gasLimitAt + 3),
    accessList: listContent(items[accessAt]!),
    authorizationList: type === 4 ? authorizationsJson(items[accessAt + 1]!) : null,
    signatureV: null,
    recoveryId: Number(unsigned(at(signatureAt))),
    signatureR: at(signatureAt + 1),
    signatureS: at(signatureAt + 2),
    hash: keccak256(raw),
  };
}

/**
 * The hash the transaction would have had with `callData` in place of its own (call data offloaded to a file):
 * keccak-256 of the re-encoded transaction. Null when it cannot be rebuilt exactly (a non-empty access list, as
 * upstream also gives up there) or does not decode.
 */
export function hashWithCallData(raw: Uint8Array, callData: Uint8Array): Uint8Array | null {
  try {
    const first = raw[0]!;
    const legacyShape = first >= RLP_LIST;
    const items = decodeRlp(legacyShape ? raw : raw.subarray(1));
    if (!Array.isArray(items)) return null;
    const dataAt = legacyShape ? 5 : first === 1 ? 6 : 7;
    if (!legacyShape && Array.isArray(items[dataAt + 1]) && (items[dataAt + 1] as unknown[]).length > 0)
      return null;
    const replaced = [...items];
    replaced[dataAt] = hexlify(callData);
    const body = getBytes(encodeRlp(replaced));
    if (legacyShape) return keccak256(body);
    const typedBytes = new Uint8Array(body.length + 1);
    typedBytes[0] = first;
    typedBytes.set(body, 1);
    return keccak256(typedBytes);
  } catch {
    return null;
  }
}

/** An RLP byte string item (a list where a string belongs is not a transaction). */
function bytesOf(item: RlpStructuredData): Uint8Array {
  if (typeof item !== "string") throw new Error("expected an RLP string");
  return getBytes(item);
}

/** The content bytes of an RLP list item: its encoding without the list header. */
function listContent(item: RlpStructuredData): Uint8Array {
  if (!Array.isArray(item)) throw new Error("expected an RLP list");
  const encoded = getBytes(encodeRlp(item));
  const header = encoded[0]! <= 0xf7 ? 1 : 1 + (encoded[0]! - 0xf7);
  return encoded.subarray(header);
}

function authorizationsJson(item: RlpStructuredData): string {
  if (!Array.isArray(item)) throw new Error("expected an RLP list");
  const list = item.map((entry) => {
    if (!Array.isArray(entry) || entry.length !== 6) throw new Error("expected a 6-item authorization");
    const [chainId, address, nonce, yParity, r, s] = entry.map(bytesOf);
    return {
      chain_id: hexlify(chainId!),
      address: hexlify(address!),
      nonce: unsigned(nonce!).toString(),
      y_parity: Number(unsigned(yParity!)),
      r: hexlify(r!),
      s: hexlify(s!),
    };
  });
  return JSON.stringify(list);
}

export function unsigned(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(hexlify(bytes));
}

/** An integer of an RLP field as upstream's Java long reads it (the low 64 bits, signed). */
function int64(bytes: Uint8Array): bigint {
  return BigInt.asIntN(64, unsigned(bytes));
}

/**
 * The minimal two's-complement big-endian bytes of a non-negative integer (Java's BigInteger.toByteArray): a
 * leading zero byte whenever the top bit would be set, and one zero byte for zero.
 */
export function twosComplement(value: bigint): Uint8Array {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return Buffer.from(hex, "hex");
}
