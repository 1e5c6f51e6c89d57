import { keccak256 } from "../../streams/keccak.ts";

/** The 4-byte selector of a function signature, as a number. */
export function selector(signature: string): number {
  return Buffer.from(keccak256(Buffer.from(signature))).readUInt32BE(0);
}
