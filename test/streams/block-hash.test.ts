/**
 * The block root's hashing against a plain reference: leaves, internal nodes and the streaming sub-trees written
 * the obvious way with `createHash`, for every tree size up to a few dozen leaves, leaves larger than the
 * hasher's scratch buffer, and footer values of odd lengths (a footer may leave one out).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { blockRootHash, StreamingTreeHasher } from "../../src/streams/block-hash.ts";

const sha384 = (...parts: Uint8Array[]): Uint8Array => {
  const hash = createHash("sha384");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};
const leaf = (data: Uint8Array): Uint8Array => sha384(Uint8Array.of(0), data);
const node = (left: Uint8Array, right?: Uint8Array): Uint8Array =>
  right === undefined ? sha384(Uint8Array.of(1), left) : sha384(Uint8Array.of(2), left, right);

/** The streaming tree's root, folded the way the importer's `IncrementalStreamingHasher` folds it. */
function referenceRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha384(Uint8Array.of(0));
  // Complete sub-trees, largest first, as the binary digits of the leaf count say; then folded right to left.
  const subtrees: Uint8Array[] = [];
  let at = 0;
  for (let size = 2 ** Math.floor(Math.log2(leaves.length)); size >= 1; size /= 2) {
    if (leaves.length - at < size) continue;
    let level: Uint8Array[] = leaves.slice(at, at + size).map(leaf);
    while (level.length > 1) {
      const next: Uint8Array[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(node(level[i]!, level[i + 1]!));
      level = next;
    }
    subtrees.push(level[0]!);
    at += size;
  }
  let root = subtrees.at(-1)!;
  for (let i = subtrees.length - 2; i >= 0; i--) root = node(subtrees[i]!, root);
  return root;
}

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);
const hex = (value: Uint8Array) => Buffer.from(value).toString("hex");

describe("block root hashing", () => {
  it("builds every streaming tree as the reference does, big leaves included", () => {
    for (let count = 0; count <= 40; count++) {
      const leaves = Array.from({ length: count }, (_, i) =>
        bytes(i === 5 ? 70_000 : 1 + ((i * 37) % 600), i),
      );
      const hasher = new StreamingTreeHasher();
      for (const data of leaves) hasher.addLeaf(data);
      expect(Buffer.from(hasher.root(), "latin1").toString("hex"), `${count} leaves`).toBe(
        hex(referenceRoot(leaves)),
      );
    }
  });

  it("combines footer values of any length with the sub-tree roots", () => {
    const roots = [3, 0, 1, 2, 7].map((n) => {
      const hasher = new StreamingTreeHasher();
      for (let i = 0; i < n; i++) hasher.addLeaf(bytes(100 + i, n));
      return hasher.root();
    });
    const timestamp = bytes(12, 9);
    for (const previous of [bytes(48, 1), new Uint8Array(), bytes(60, 2)]) {
      const footer = [previous, bytes(48, 3), new Uint8Array()];
      const eight = [...footer, ...roots.map((r) => new Uint8Array(Buffer.from(r, "latin1")))];
      let level: Uint8Array[] = eight;
      while (level.length > 1) {
        const next: Uint8Array[] = [];
        for (let i = 0; i < level.length; i += 2) next.push(node(level[i]!, level[i + 1]!));
        level = next;
      }
      const expected = node(leaf(timestamp), node(level[0]!));
      const actual = blockRootHash({
        blockTimestampBytes: timestamp,
        previousBlockRoot: footer[0]!,
        allPreviousBlocksRoot: footer[1]!,
        startOfBlockStateRoot: footer[2]!,
        consensusHeaders: roots[0]!,
        inputs: roots[1]!,
        outputs: roots[2]!,
        stateChanges: roots[3]!,
        traceData: roots[4]!,
      });
      expect(hex(actual)).toBe(hex(expected));
    }
  });
});
