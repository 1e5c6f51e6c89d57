/**
 * The hex encodings of the contracts group's answers (contracts.md §1.4). All output is lower case with `0x`.
 */
import { decodeEntityId } from "../../ids.ts";

/** Bytes, or their lower-case hex digits without `0x` as the store reads them (store/contract-results.ts `hexColumn`). */
type Bytes = Uint8Array | string | null | undefined;

const ZERO_WORD = "0".repeat(64);
const ZERO_BLOOM = `0x${"0".repeat(512)}`;

function hexOf(bytes: Uint8Array | string): string {
  if (typeof bytes === "string") return bytes;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** `0x` + the bytes; null or empty → `"0x"`. */
export function hex(bytes: Bytes): string {
  return bytes == null || bytes.length === 0 ? "0x" : `0x${hexOf(bytes)}`;
}

/** As `hex`, left-padded to at least 64 digits; null or empty → `"0x"`. */
export function hex32(bytes: Bytes): string {
  return bytes == null || bytes.length === 0 ? "0x" : `0x${hexOf(bytes).padStart(64, "0")}`;
}

/** A 32-byte word: null → null, empty → 64 zeros, else left-padded to 64 digits. */
export function uint256(bytes: Bytes): string | null {
  if (bytes == null) return null;
  return `0x${bytes.length === 0 ? ZERO_WORD : hexOf(bytes).padStart(64, "0")}`;
}

/** A quantity from bytes: `hex`, then one leading `0` after `0x` dropped when longer than 3 characters. */
export function qty(bytes: Bytes): string {
  const text = hex(bytes);
  return text.length > 3 && text[2] === "0" ? `0x${text.slice(3)}` : text;
}

/** `0x` + the integer in hex without leading zeros (`0x0` for zero). */
export function qtyInt(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** The long-zero EVM address of an entity id (its num in 20 bytes); id 0 or null → null. */
export function longZeroAddress(id: bigint | null | undefined): string | null {
  if (id == null || id === 0n) return null;
  return `0x${decodeEntityId(id).num.toString(16).padStart(40, "0")}`;
}

/** A bloom: null → `"0x"`, empty (stored for 256 zero bytes) → 512 zeros, else `hex`. */
export function bloomHex(bytes: Bytes): string {
  if (bytes == null) return "0x";
  return bytes.length === 0 ? ZERO_BLOOM : `0x${hexOf(bytes)}`;
}

/** The EVM address an entity shows: its own when set, else the long-zero one. */
export function entityAddress(evmAddress: Bytes, id: bigint | null): string | null {
  return evmAddress != null && evmAddress.length > 0 ? `0x${hexOf(evmAddress)}` : longZeroAddress(id);
}

/** Big-endian bytes read as an unsigned integer (empty → 0). */
export function unsignedOf(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${hexOf(bytes)}`);
}

/** Big-endian two's-complement bytes read as a signed integer (empty → 0). */
export function signedOf(bytes: Uint8Array): bigint {
  const value = unsignedOf(bytes);
  return bytes.length > 0 && (bytes[0] ?? 0) & 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value;
}
