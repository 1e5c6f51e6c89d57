/**
 * The blocks a block stream folder holds after the tip, without listing a node's flat folder on every look.
 * A node's folder (`<number>.blk.zstd` and `<number>.mf` side by side) is never pruned: a block every 2 s is
 * 2.6 million names a month. Its names are kept as record folders keep theirs (record-folder.ts: file events add
 * names, a full listing at the first look and then rarely, with a doubling interval), so that a look costs in
 * proportion to the blocks after the tip. A bucket's nested layout is walked as before (block-files.ts): its
 * walk already reads only the folders where numbers after the tip can be, and events do not reach below its top.
 *
 * The layout is told by the top folder: it is flat once a full listing or an event found a block file or marker
 * there (a bucket's top folder holds only its four-digit folders).
 */
import { type BlockEntry, flatBlockName, listBlocks, newestBlock } from "./block-files.ts";
import { createOrderedFolder, type FolderNames, type RecordFolderOptions } from "./record-folder.ts";

export type BlockFolder = {
  /** A file event in the top folder: `name` appeared or changed. */
  noted(name: string): void;
  /** The block files numbered `from` or more, in number order, at most `limit` (see `listBlocks`). */
  list(from: bigint, limit: number, withSizes: boolean): BlockEntry[];
  /** The highest-numbered block file (complete or not) when it is numbered `from` or more; else null. */
  newest(from: bigint): { path: string; number: bigint } | null;
  /** Asks for a full listing at the next look (after a failure, say). */
  relist(): void;
  /** How many full listings of the top folder were made so far. */
  readonly fullListings: number;
};

/** The widest block number a name carries (block-files.ts reads up to 36 digits). */
const KEY_DIGITS = 36;

/** A block's digits as a key that sorts as its number does, whatever the padding. */
function numberKey(digits: string): string {
  return digits.replace(/^0+(?=\d)/, "").padStart(KEY_DIGITS, "0");
}

const BLOCK_NAMES: FolderNames = {
  orderKey(name) {
    const parsed = flatBlockName(name);
    return parsed === null ? null : numberKey(parsed.digits);
  },
  sized: (name) => flatBlockName(name)?.marker === false,
};

/** The key below which every name is before `from` (null: none is). */
const keyBefore = (from: bigint): string | null => (from <= 0n ? null : numberKey((from - 1n).toString()));

const byNumber = (a: BlockEntry, b: BlockEntry): number =>
  a.number < b.number ? -1 : a.number > b.number ? 1 : 0;

export function createBlockFolder(dir: string, options: RecordFolderOptions = {}): BlockFolder {
  const names = createOrderedFolder(dir, BLOCK_NAMES, options);
  let notedBlockName = false;
  const flat = (): boolean => notedBlockName || names.lastListingMatched > 0;

  /** The flat folder's block entries numbered `from` or more (all of them: a few after the tip). */
  const flatEntries = (from: bigint, withSizes: boolean): BlockEntry[] => {
    const listed = names.after(keyBefore(from), withSizes);
    const markers = new Set<string>();
    for (const entry of listed) {
      const parsed = flatBlockName(entry.name)!;
      if (parsed.marker) markers.add(numberKey(parsed.digits));
    }
    const entries: BlockEntry[] = [];
    for (const entry of listed) {
      const parsed = flatBlockName(entry.name)!;
      if (parsed.marker) continue;
      const block: BlockEntry = {
        path: entry.name,
        number: BigInt(parsed.digits),
        size: entry.size,
        marked: markers.has(numberKey(parsed.digits)),
      };
      if (entry.modifiedMs !== undefined) block.modifiedMs = entry.modifiedMs;
      entries.push(block);
    }
    return entries.sort(byNumber);
  };

  return {
    noted(name) {
      if (flatBlockName(name) === null) return; // a bucket's folder, or a file no block is read from
      notedBlockName = true;
      names.noted(name);
    },
    list(from, limit, withSizes) {
      const entries = flatEntries(from, withSizes);
      return flat() ? entries.slice(0, limit) : listBlocks(dir, from, limit, withSizes);
    },
    newest(from) {
      // Looked at first: the layout is known once the top folder was listed (the first look may ask this first).
      const entries = flatEntries(from, false);
      if (!flat()) {
        const newest = newestBlock(dir);
        return newest === null || newest.number < from ? null : newest;
      }
      const newest = entries.at(-1);
      return newest === undefined ? null : { path: newest.path, number: newest.number };
    },
    relist: () => names.relist(),
    get fullListings() {
      return names.fullListings;
    },
  };
}
