/**
 * Ethereum log blooms, as the mirror node's block transformers compute them for the logs a block's EVM trace
 * data lists (record files carried the node's blooms; blocks leave them to the reader): 2048 bits, three per
 * hashed value (the log's address and each topic, left-padded to 32 bytes; never the data), each taken from a
 * pair of bytes of the value's Keccak-256.
 */

import { keccak256 } from "./keccak.ts";
import { toBigInt } from "./long.ts";
import type { proto } from "./proto.ts";

export const BLOOM_BYTES = 256;
const TOPIC_BYTES = 32;
const EVM_ADDRESS_BYTES = 20;

/**
 * The 20-byte address a contract id stands for: its EVM address when it names one, otherwise the long-zero form
 * of its number (the mirror node's `Utils.asAddress` leaves shard and realm out).
 */
export function contractEvmAddress(id: proto.IContractID): Uint8Array {
  if (id.evmAddress != null && id.evmAddress.length > 0) return id.evmAddress;
  const address = new Uint8Array(EVM_ADDRESS_BYTES);
  new DataView(address.buffer).setBigUint64(12, BigInt.asUintN(64, toBigInt(id.contractNum)));
  return address;
}

/** The bloom of one log: its address and its topics. */
export function logBloom(address: Uint8Array, topics: readonly Uint8Array[]): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES);
  addToBloom(bloom, address);
  for (const topic of topics) addToBloom(bloom, leftPad(topic, TOPIC_BYTES));
  return bloom;
}

/** ORs `bloom` into `into` (both `BLOOM_BYTES` long). */
export function orBloom(into: Uint8Array, bloom: Uint8Array): void {
  for (let i = 0; i < BLOOM_BYTES; i++) into[i] = into[i]! | bloom[i]!;
}

function addToBloom(bloom: Uint8Array, value: Uint8Array): void {
  const hash = keccak256(value);
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i]! & 0x07) << 8) | hash[i + 1]!;
    const at = BLOOM_BYTES - 1 - (bit >>> 3);
    bloom[at] = bloom[at]! | (1 << (bit & 7));
  }
}

function leftPad(bytes: Uint8Array, length: number): Uint8Array {
  if (bytes.length >= length) return bytes;
  const padded = new Uint8Array(length);
  padded.set(bytes, length - bytes.length);
  return padded;
}
