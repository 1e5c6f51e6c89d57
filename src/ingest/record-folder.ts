/**
 * The names a stream folder holds after the tip, kept without listing the whole folder on every look (a record
 * folder here; a node's flat block folder in block-folder.ts, on the same mechanism).
 * A node never prunes its folder (a record file every 2 s is 1.3 million names a month), so listing it four
 * times a second costs a core. Instead:
 *
 * - file events (the watcher) add the names they report;
 * - the folder is listed in full at the first look, and then again only now and then: the interval doubles
 *   from `minFullListMs` up to `maxFullListMs` while full listings find nothing the events had not reported,
 *   and drops back to the minimum when one does (events are being missed, as on some network mounts);
 * - between full listings a look costs in proportion to the names after the tip (usually a file or two).
 *
 * The file system and the clock are inputs, so that a test can count what a look costs.
 */
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DirEntry } from "./files.ts";
import { isRecordFile, streamOrderKey } from "./files.ts";

/** The file-system calls a record folder needs (tests count them). */
export type FolderFs = {
  /** The names of the regular files in `dir`. */
  listFiles(dir: string): string[];
  /** Size and modification time of a file, or null when it is not there. */
  stat(path: string): { size: number; mtimeMs: number } | null;
};

export const nodeFolderFs: FolderFs = {
  listFiles: (dir) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((dirent: Dirent) => dirent.isFile())
      .map((dirent) => dirent.name),
  stat(path) {
    try {
      const stats = statSync(path);
      return { size: stats.size, mtimeMs: stats.mtimeMs };
    } catch {
      return null;
    }
  },
};

export type RecordFolderOptions = {
  fs?: FolderFs;
  now?: () => number;
  /** The shortest interval between two full listings, in ms (the worker passes its poll interval). */
  minFullListMs?: number;
  /** The longest interval between two full listings, in ms. */
  maxFullListMs?: number;
};

export const DEFAULT_MAX_FULL_LIST_MS = 60_000;

export type RecordFolder = {
  /** A file event: `name` appeared or changed in the folder. */
  noted(name: string): void;
  /**
   * The files after `tipName` (every name, record files and signatures alike), listing the folder in full when
   * that is due. With `withSizes`, each record file carries its size and modification time.
   */
  after(tipName: string | null, withSizes: boolean): DirEntry[];
  /** Asks for a full listing at the next look (after a failure, say). */
  relist(): void;
  /** How many full listings were made so far. */
  readonly fullListings: number;
};

/** What a folder's names mean: their order, and which need sizes. */
export type FolderNames = {
  /** The key names sort by (after the tip: greater than the tip's), or null for a name the folder ignores. */
  orderKey(name: string): string | null;
  /** Whether a look `withSizes` reads this name's size and modification time. */
  sized(name: string): boolean;
};

/** The folder of `createRecordFolder`, over any kind of names, with the tip given as an order key. */
export type OrderedFolder = Omit<RecordFolder, "after"> & {
  /** The names whose order key is greater than `afterKey` (null: every name); see `RecordFolder.after`. */
  after(afterKey: string | null, withSizes: boolean): DirEntry[];
  /** How many names the last full listing found that the folder does not ignore (the tip's and earlier too). */
  readonly lastListingMatched: number;
};

const RECORD_NAMES: FolderNames = { orderKey: streamOrderKey, sized: isRecordFile };

export function createRecordFolder(dir: string, options: RecordFolderOptions = {}): RecordFolder {
  const folder = createOrderedFolder(dir, RECORD_NAMES, options);
  return {
    noted: (name) => folder.noted(name),
    after: (tipName, withSizes) => folder.after(tipName === null ? null : streamOrderKey(tipName), withSizes),
    relist: () => folder.relist(),
    get fullListings() {
      return folder.fullListings;
    },
  };
}

export function createOrderedFolder(
  dir: string,
  names: FolderNames,
  options: RecordFolderOptions = {},
): OrderedFolder {
  const fs = options.fs ?? nodeFolderFs;
  const now = options.now ?? Date.now;
  const minMs = options.minFullListMs ?? 250;
  const maxMs = Math.max(minMs, options.maxFullListMs ?? DEFAULT_MAX_FULL_LIST_MS);
  /** Names after the tip as known (by the last full listing and the events since). */
  let known = new Set<string>();
  let nextFullAt = Number.NEGATIVE_INFINITY;
  let intervalMs = minMs;
  let fullListings = 0;
  let lastListingMatched = 0;

  const fullList = (after: string | null): void => {
    const found = new Set<string>();
    let missed = false;
    let matched = 0;
    for (const name of fs.listFiles(dir)) {
      const key = names.orderKey(name);
      if (key === null) continue;
      matched += 1;
      if (after !== null && key <= after) continue;
      found.add(name);
      if (fullListings > 0 && !known.has(name)) missed = true;
    }
    fullListings += 1;
    lastListingMatched = matched;
    known = found;
    intervalMs = missed ? minMs : Math.min(maxMs, fullListings === 1 ? minMs : intervalMs * 2);
    nextFullAt = now() + intervalMs;
  };

  return {
    noted(name) {
      if (names.orderKey(name) !== null) known.add(name);
    },
    after(after, withSizes) {
      if (now() >= nextFullAt) fullList(after);
      const entries: DirEntry[] = [];
      for (const name of known) {
        if (after !== null && names.orderKey(name)! <= after) {
          known.delete(name); // applied since
          continue;
        }
        // Sizes matter only for the files themselves (a signature's or marker's presence is all that counts).
        if (!withSizes || !names.sized(name)) {
          entries.push({ name, size: 0 });
          continue;
        }
        const stats = fs.stat(join(dir, name));
        if (stats === null) {
          known.delete(name); // removed: a later full listing would not find it either
          continue;
        }
        entries.push({ name, size: stats.size, modifiedMs: stats.mtimeMs });
      }
      return entries;
    },
    relist() {
      nextFullAt = Number.NEGATIVE_INFINITY;
    },
    get fullListings() {
      return fullListings;
    },
    get lastListingMatched() {
      return lastListingMatched;
    },
  };
}
