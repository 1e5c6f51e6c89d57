/**
 * System files "as of" timestamp bounds, rebuilt from the stored FileCreate/FileUpdate/FileAppend contents the
 * way upstream's Java service does (`FileDataRepository.getFileAtTimestamp`, `FileServiceImpl`; api.md §3.1):
 *
 * 1. the newest FileCreate, or FileUpdate with non-empty contents, with lowerNs ≤ t ≤ upperNs starts the file;
 * 2. its contents and those of every later row up to upperNs (empty FileUpdates skipped; in practice the
 *    appends) are concatenated in time order;
 * 3. the file's timestamp is the last concatenated row's.
 * When the bytes do not parse, the lookup is repeated with upperNs = that timestamp − 1, at most 10 attempts in
 * all; after that, or when nothing is found, there is no file.
 */
import type { Db } from "./db.ts";

/** Inclusive consensus-time bounds in ns (`lowerNs ≤ t ≤ upperNs`). */
export type SystemFileBounds = { readonly lowerNs: bigint; readonly upperNs: bigint };

/** Rebuilt contents of a file and the timestamp of its last part. */
export type SystemFileContents = { bytes: Uint8Array; consensusNs: bigint };

/** How many versions a lookup tries before it gives up, as upstream (one attempt and nine retries). */
export const SYSTEM_FILE_ATTEMPTS = 10;

export type SystemFileQueries = {
  /** The file as rebuilt for the bounds, parsed or not; undefined when no version starts within them. */
  fileAsOf(fileId: bigint, bounds: SystemFileBounds): SystemFileContents | undefined;
  /** Consensus time of the newest stored part of the file (any create, update or append); null when none. */
  latestChangeNs(fileId: bigint): bigint | null;
  /**
   * The newest version within the bounds whose bytes `parse` accepts (returns a value other than undefined),
   * falling back to earlier versions as upstream does; undefined when none of the attempts parses.
   * `fileId` is the encoded entity id (e.g. `encodeEntityId(0n, 0n, 112n)`).
   */
  parseSystemFileAsOf<T>(
    fileId: bigint,
    bounds: SystemFileBounds,
    parse: (bytes: Uint8Array) => T | undefined,
  ): { value: T; consensusNs: bigint } | undefined;
};

export function createSystemFileQueries(db: Db): SystemFileQueries {
  const selectStart = db
    .prepare(
      `SELECT consensus_ns FROM file_data
       WHERE file_id = ? AND consensus_ns >= ? AND consensus_ns <= ?
         AND (type = 17 OR (type = 19 AND length(contents) > 0))
       ORDER BY consensus_ns DESC LIMIT 1`,
    )
    .pluck();
  const selectParts = db.prepare(
    `SELECT consensus_ns, contents FROM file_data
     WHERE file_id = ? AND consensus_ns >= ? AND consensus_ns <= ? AND (type <> 19 OR length(contents) > 0)
     ORDER BY consensus_ns`,
  );

  const selectLatest = db.prepare("SELECT max(consensus_ns) FROM file_data WHERE file_id = ?").pluck();

  function fileAsOf(fileId: bigint, bounds: SystemFileBounds): SystemFileContents | undefined {
    if (bounds.lowerNs > bounds.upperNs) return undefined;
    const start = selectStart.get(fileId, bounds.lowerNs, bounds.upperNs) as bigint | undefined;
    if (start === undefined) return undefined;
    const parts = selectParts.all(fileId, start, bounds.upperNs) as Array<{
      consensus_ns: bigint;
      contents: Uint8Array;
    }>;
    const last = parts.at(-1);
    if (last === undefined) return undefined;
    return {
      bytes: parts.length === 1 ? last.contents : Buffer.concat(parts.map((p) => p.contents)),
      consensusNs: last.consensus_ns,
    };
  }

  return {
    fileAsOf,
    latestChangeNs: (fileId) => (selectLatest.get(fileId) as bigint | null | undefined) ?? null,
    parseSystemFileAsOf(fileId, bounds, parse) {
      let upperNs = bounds.upperNs;
      for (let attempt = 0; attempt < SYSTEM_FILE_ATTEMPTS; attempt++) {
        const file = fileAsOf(fileId, { lowerNs: bounds.lowerNs, upperNs });
        if (file === undefined) return undefined;
        const value = parse(file.bytes);
        if (value !== undefined) return { value, consensusNs: file.consensusNs };
        upperNs = file.consensusNs - 1n;
      }
      return undefined;
    },
  };
}
