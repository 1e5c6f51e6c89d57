/**
 * A folder file system for listing-cost tests: the real folder's names plus `applied` names that only the listing
 * sees (a node's folder after months), with every listing, entry and `stat` counted.
 */
import { type FolderFs, nodeFolderFs } from "../../src/ingest/record-folder.ts";

export type FolderCounts = { listings: number; entries: number; stats: number };

export function countingFolderFs(applied: readonly string[]): { fs: FolderFs; counted: FolderCounts } {
  const counted: FolderCounts = { listings: 0, entries: 0, stats: 0 };
  const fs: FolderFs = {
    listFiles(folder) {
      const names = [...applied, ...nodeFolderFs.listFiles(folder)];
      counted.listings += 1;
      counted.entries += names.length;
      return names;
    },
    stat(path) {
      counted.stats += 1;
      return nodeFolderFs.stat(path);
    },
  };
  return { fs, counted };
}
