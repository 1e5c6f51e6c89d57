/**
 * The chain between blocks, and the cutover from record files. A block's footer names the previous block's root
 * hash, which must be the root recomputed for the block before it, and each block's number is the previous
 * number + 1. The first block read may be any block (a mirror may start anywhere). The first block after record
 * files must be numbered the last record file's block + 1; its footer names the previous *wrapped record block's*
 * root, which record files cannot give, so it is not checked, and the mirror node reports the last record file's
 * hash as its previous hash.
 */
import { ChainBreakError } from "../errors.ts";
import { BLOCK_STREAM_VERSION, type BlockFile } from "./block-file.ts";
import type { ChainTip } from "./chain.ts";
import { bytesEqual, toHex } from "./hex.ts";

/**
 * Throws `ChainBreakError` unless `block` continues after `tip` (null: nothing indexed yet); returns the hash
 * the blocks API answers as the block's `previous_hash`.
 */
export function checkBlockChain(
  tip: ChainTip | null,
  block: Pick<BlockFile, "name" | "number" | "previousHash">,
): Uint8Array {
  if (tip === null) return block.previousHash;
  const expected = tip.blockNumber + 1n;
  if (block.number !== expected) {
    const what = block.number > expected ? "blocks are missing" : "a block number must not repeat or go back";
    throw new ChainBreakError(
      block.name,
      `is block ${block.number} but ${tip.name} was block ${tip.blockNumber}; expected block ${expected} (${what})`,
    );
  }
  if (tip.version !== BLOCK_STREAM_VERSION) return tip.hash;
  if (!bytesEqual(block.previousHash, tip.hash)) {
    throw new ChainBreakError(
      block.name,
      `names previous block root ${toHex(block.previousHash)} but block ${tip.blockNumber} (${tip.name}) has root ${toHex(tip.hash)}`,
    );
  }
  return block.previousHash;
}
