import { isSettled, type Settling } from "./settle.ts";

/**
 * Pure rules about the files in a node's record-stream directory: which are record files, in what order they
 * come, and when one is complete enough to read.
 */

/** `modifiedMs`: last modification time (ms since the epoch), when known. */
export type DirEntry = { name: string; size: number; modifiedMs?: number };

const RECORD_FILE = /\.rcd(\.gz)?$/;

export function isRecordFile(name: string): boolean {
  return RECORD_FILE.test(name);
}

/** `X.rcd` and `X.rcd.gz` are both signed by `X.rcd_sig`. */
export function signatureNameOf(recordName: string): string {
  return `${recordName.replace(/\.gz$/, "")}_sig`;
}

/** Stream order is name order (names start with the consensus time), compared without the `.gz` suffix. */
export function streamOrderKey(recordName: string): string {
  return recordName.replace(/\.gz$/, "");
}

export type Completeness =
  /** A node writes the record file, then its signature: the signature's presence means the record is whole. */
  | { mode: "signature" }
  /** Replays without signatures: a file is whole once it has looked the same for the quiet period (settle.ts). */
  | ({ mode: "stable-size" } & Settling);

/**
 * The record files after `afterName` (in stream order) that can be read now. The list stops at the first file
 * that is not complete yet: a later file must never be applied before an earlier one.
 */
export function readyRecordFiles(
  entries: readonly DirEntry[],
  afterName: string | null,
  completeness: Completeness,
): DirEntry[] {
  const names = new Set(entries.map((e) => e.name));
  const after = afterName === null ? null : streamOrderKey(afterName);
  const candidates = entries
    .filter((e) => isRecordFile(e.name) && (after === null || streamOrderKey(e.name) > after))
    .sort((a, b) => (streamOrderKey(a.name) < streamOrderKey(b.name) ? -1 : 1));
  const ready: DirEntry[] = [];
  for (const entry of candidates) {
    const complete =
      completeness.mode === "signature"
        ? names.has(signatureNameOf(entry.name))
        : isSettled(entry.name, entry.size, entry.modifiedMs, completeness);
    if (!complete) break;
    ready.push(entry);
  }
  return ready;
}
