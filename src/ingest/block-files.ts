/**
 * Where block files are in a block stream folder, and when one is complete. Two layouts:
 * - a node's folder (`blockStreams/block-0.0.3/`): flat, `<number>.blk[.gz|.zst|.zstd]` with the number padded
 *   (36 digits as nodes write them; any padding is read), and `<number>.mf` written once the block is whole;
 * - a bucket's nested layout: 19 digits split into four folders of 4 and a file of 3
 *   (`0000/0000/0000/0000/007.blk.zstd`).
 * A block's number is the decimal its digits spell, whatever the padding.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isSettled, type Settling } from "./settle.ts";

export type BlockEntry = {
  /** The path below the folder, e.g. `000…007.blk.zstd` or `0000/0000/0000/0000/007.blk.zstd`. */
  path: string;
  number: bigint;
  size: number;
  modifiedMs?: number;
  /** Whether the `.mf` marker of this block exists beside it. */
  marked: boolean;
};

const BLOCK_FILE = /^(\d{1,36})\.blk(?:\.gz|\.zst|\.zstd)?$/;
const MARKER_FILE = /^(\d{1,36})\.mf$/;
const BUCKET_DIR = /^\d{4}$/;
const BUCKET_DEPTH = 4;
const BUCKET_DIGITS = 19;

/** What a name in a node's flat folder is: a block file or a block's marker, and the block's digits; else null. */
export function flatBlockName(name: string): { digits: string; marker: boolean } | null {
  const block = BLOCK_FILE.exec(name);
  if (block !== null) return { digits: block[1]!, marker: false };
  const marker = MARKER_FILE.exec(name);
  return marker === null ? null : { digits: marker[1]!, marker: true };
}

/** How a listing judges completeness (see `readyBlocks`). */
export type BlockCompleteness = { mode: "marker" } | ({ mode: "stable-size" } & Settling);

/**
 * The block files numbered `from` or more, in number order, at most `limit` of them (a bucket is walked only
 * where such numbers can be). Sizes are read only when `withSizes` (completeness by stable size).
 */
export function listBlocks(dir: string, from: bigint, limit: number, withSizes: boolean): BlockEntry[] {
  const found: BlockEntry[] = [];
  const visit = (relative: string, digits: string, depth: number): void => {
    let dirents: import("node:fs").Dirent[];
    try {
      dirents = readdirSync(join(dir, relative), { withFileTypes: true });
    } catch {
      return; // a folder removed meanwhile
    }
    const markers = new Set<bigint>();
    const files: Array<{ name: string; number: bigint }> = [];
    const folders: string[] = [];
    for (const dirent of dirents) {
      if (dirent.isDirectory()) {
        if (depth < BUCKET_DEPTH && BUCKET_DIR.test(dirent.name)) folders.push(dirent.name);
        continue;
      }
      const marker = MARKER_FILE.exec(dirent.name);
      if (marker !== null) {
        markers.add(BigInt(digits + marker[1]!));
        continue;
      }
      const block = BLOCK_FILE.exec(dirent.name);
      if (block === null) continue;
      const number = BigInt(digits + block[1]!);
      if (number >= from) files.push({ name: dirent.name, number });
    }
    files.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
    for (const file of files) {
      const path = relative === "" ? file.name : `${relative}/${file.name}`;
      const entry: BlockEntry = { path, number: file.number, size: 0, marked: markers.has(file.number) };
      if (withSizes) {
        try {
          const stats = statSync(join(dir, path));
          entry.size = stats.size;
          entry.modifiedMs = stats.mtimeMs;
        } catch {
          entry.size = -1; // removed between listing and stat: never complete
        }
      }
      found.push(entry);
    }
    folders.sort();
    for (const folder of folders) {
      if (found.length >= limit) return;
      const prefix = digits + folder;
      // Every number below this folder is at most the prefix followed by nines.
      if (BigInt(prefix.padEnd(BUCKET_DIGITS, "9")) < from) continue;
      visit(relative === "" ? folder : `${relative}/${folder}`, prefix, depth + 1);
    }
  };
  visit("", "", 0);
  found.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  return found.slice(0, limit);
}

/**
 * The highest-numbered block file in the folder, complete or not (null: none), found by walking down the
 * highest-numbered folder at each level of a bucket (a few listings, however many blocks it holds).
 */
export function newestBlock(dir: string): { path: string; number: bigint } | null {
  const visit = (
    relative: string,
    digits: string,
    depth: number,
  ): { path: string; number: bigint } | null => {
    let dirents: import("node:fs").Dirent[];
    try {
      dirents = readdirSync(join(dir, relative), { withFileTypes: true });
    } catch {
      return null; // a folder removed meanwhile
    }
    let best: { path: string; number: bigint } | null = null;
    const folders: string[] = [];
    for (const dirent of dirents) {
      if (dirent.isDirectory()) {
        if (depth < BUCKET_DEPTH && BUCKET_DIR.test(dirent.name)) folders.push(dirent.name);
        continue;
      }
      const block = BLOCK_FILE.exec(dirent.name);
      if (block === null) continue;
      const number = BigInt(digits + block[1]!);
      if (best === null || number > best.number)
        best = { path: relative === "" ? dirent.name : `${relative}/${dirent.name}`, number };
    }
    // Deeper folders hold higher numbers than any file beside them only in a bucket, where files lie at the
    // bottom; an empty highest folder (just created) sends the walk to the next one down.
    folders.sort().reverse();
    for (const folder of folders) {
      const found = visit(relative === "" ? folder : `${relative}/${folder}`, digits + folder, depth + 1);
      if (found !== null) return best === null || found.number > best.number ? found : best;
    }
    return best;
  };
  return visit("", "", 0);
}

/**
 * The leading blocks of `entries` (in number order) that are complete: marked by their `.mf`, or, without
 * markers, unchanged for the quiet period (settle.ts). Stops at the first that is not,
 * so a later block is never applied before an earlier one.
 */
export function readyBlocks(entries: readonly BlockEntry[], completeness: BlockCompleteness): BlockEntry[] {
  const ready: BlockEntry[] = [];
  for (const entry of entries) {
    const complete =
      completeness.mode === "marker"
        ? entry.marked
        : isSettled(entry.path, entry.size, entry.modifiedMs, completeness);
    if (!complete) break;
    ready.push(entry);
  }
  return ready;
}

/** The block number a listed path spells (a bucket's folders and file name together). */
export function blockNumberOf(path: string): bigint {
  const digits = path.split("/").join("");
  return BigInt(digits.slice(0, digits.indexOf(".")));
}

/** The digits of a block's name as the mirror node gives it (`BlockFile.getFilename`, 0.154: 19). */
const NAME_DIGITS = 19;

/**
 * The name a block is shown by (the blocks API's `name`), as the mirror node's importer names a block it reads,
 * whatever the file is called and wherever it lies (a node's flat folder, a bucket): the block number padded to
 * 19 digits, then `.blk.zstd` for a compressed file (gzip or zstd alike: upstream names every block file it
 * downloads so) and `.blk` for one written uncompressed (as blocks streamed from a block node are named).
 */
export function blockDisplayName(path: string, number: bigint): string {
  const suffix = path.endsWith(".blk") ? ".blk" : ".blk.zstd";
  return `${number.toString().padStart(NAME_DIGITS, "0")}${suffix}`;
}
