/**
 * The little of the Solidity ABI the token service's read functions need: static words (unsigned and signed
 * integers, booleans, addresses) and one dynamic `string` or `bytes`, encoded as headlong (which the consensus
 * node uses) encodes them, and arguments decoded as strictly as headlong decodes a call.
 */

const WORD = 32;
const UINT256 = 1n << 256n;

/** A value of one ABI word, a dynamic byte string (`string`/`bytes`), or a tuple of values (a struct). */
export type AbiValue =
  | { word: bigint }
  | { bytes: Uint8Array }
  | { tuple: readonly AbiValue[] }
  /** A dynamic array `T[]` of values of one type. */
  | { array: readonly AbiValue[] };

export const uintWord = (value: bigint): AbiValue => ({ word: value });
/** int32/int64: two's complement over the whole word, as Solidity sign-extends. */
export const intWord = (value: bigint): AbiValue => ({ word: value < 0n ? UINT256 + value : value });
export const boolWord = (value: boolean): AbiValue => ({ word: value ? 1n : 0n });
export const addressWord = (address: Uint8Array): AbiValue => ({
  word: BigInt(`0x${Buffer.from(address).toString("hex") || "0"}`),
});
export const stringValue = (text: string): AbiValue => ({ bytes: new TextEncoder().encode(text) });
export const bytesValue = (bytes: Uint8Array): AbiValue => ({ bytes });
export const tupleValue = (...members: AbiValue[]): AbiValue => ({ tuple: members });
export const arrayValue = (elements: readonly AbiValue[]): AbiValue => ({ array: elements });

/** Whether a value is encoded in the tail (with an offset in the head), as ABI's dynamic types are. */
function isDynamic(value: AbiValue): boolean {
  if ("word" in value) return false;
  if ("bytes" in value || "array" in value) return true;
  return value.tuple.some(isDynamic);
}

function wordBytes(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, "0"), "hex");
}

/** One value's own encoding: a word, a length-prefixed padded byte string, or a tuple's heads and tails. */
function encodeValue(value: AbiValue): Buffer {
  if ("word" in value) return wordBytes(value.word);
  if ("tuple" in value) return encodeMembers(value.tuple);
  if ("array" in value)
    return Buffer.concat([wordBytes(BigInt(value.array.length)), encodeMembers(value.array)]);
  const padded = Buffer.alloc(Math.ceil(value.bytes.length / WORD) * WORD);
  padded.set(value.bytes);
  return Buffer.concat([wordBytes(BigInt(value.bytes.length)), padded]);
}

function encodeMembers(values: readonly AbiValue[]): Buffer {
  const heads: Buffer[] = [];
  const tails: Buffer[] = [];
  let tailOffset = values.reduce(
    (size, value) => size + (isDynamic(value) ? WORD : encodeValue(value).length),
    0,
  );
  for (const value of values) {
    if (!isDynamic(value)) {
      heads.push(encodeValue(value));
      continue;
    }
    heads.push(wordBytes(BigInt(tailOffset)));
    const tail = encodeValue(value);
    tails.push(tail);
    tailOffset += tail.length;
  }
  return Buffer.concat([...heads, ...tails]);
}

/** The ABI encoding of a tuple of `values` (heads, static tuples inline, then the tails of the dynamic ones). */
export function encodeTuple(values: readonly AbiValue[]): Uint8Array {
  return Uint8Array.from(encodeMembers(values));
}

/** The selector of a function signature's first four bytes, as a number. */
export function selectorOf(data: Uint8Array): number {
  return Buffer.from(data.buffer, data.byteOffset, 4).readUInt32BE(0);
}

/** The kinds of static argument the read functions take. */
export type ArgKind = "address" | "uint256";

/**
 * The static arguments after a selector, or null where headlong refuses the call: a length other than one word
 * per argument, or an address word with bits above its 20 bytes.
 */
export function decodeArgs(data: Uint8Array, kinds: readonly ArgKind[]): Array<bigint | Uint8Array> | null {
  const body = data.subarray(4);
  if (body.length !== kinds.length * WORD) return null;
  const args: Array<bigint | Uint8Array> = [];
  for (const [index, kind] of kinds.entries()) {
    const word = body.subarray(index * WORD, (index + 1) * WORD);
    if (kind === "address") {
      if (word.subarray(0, 12).some((byte) => byte !== 0)) return null;
      args.push(Uint8Array.from(word.subarray(12)));
    } else {
      args.push(BigInt(`0x${Buffer.from(word).toString("hex")}`));
    }
  }
  return args;
}
