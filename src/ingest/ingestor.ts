import { closeSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CorruptFileError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { WriteStore } from "../store/write-store.ts";
import { checkBlockChain } from "../streams/block-chain.ts";
import { BLOCK_STREAM_VERSION } from "../streams/block-file.ts";
import { deserializeSidecars } from "../streams/block-record-bytes.ts";
import { BLOCK_START_PREFIX_BYTES, blockStartTimeNs } from "../streams/block-start-time.ts";
import { type ChainTip, checkChain, nextBlockNumber } from "../streams/chain.ts";
import { MAX_DECOMPRESSED_BYTES } from "../streams/decompress.ts";
import { groupSidecarRecords } from "../streams/sidecar-file.ts";
import type { RecordFile } from "../streams/types.ts";
import { AbandonedError, type AppliedFile, writeBlockFile, writeRecordFile } from "./apply.ts";
import { blockDisplayName, blockNumberOf, readyBlocks } from "./block-files.ts";
import { createBlockFolder } from "./block-folder.ts";
import { createFileReader, type FileReader } from "./block-reader.ts";
import { type DecodedItem, DecodeError, decodeSerializedRecords } from "./decode.ts";
import { type DirEntry, isRecordFile, readyRecordFiles, signatureNameOf, streamOrderKey } from "./files.ts";
import { recordFileOf } from "./prepared-record-file.ts";
import { createRecordFolder, type FolderFs, type RecordFolder } from "./record-folder.ts";
import { DEFAULT_SETTLE_MS, type Look, nextLooks } from "./settle.ts";
import { decodeSidecarContents, type SidecarMode } from "./sidecars.ts";

/** Checks a record file against its signature file before it is applied (see `--verify-signatures`). */
export type SignatureCheck = (file: RecordFile, signatureBytes: Uint8Array, signatureName: string) => void;

export type IngestorOptions = {
  /** The record stream folder (null: blocks only). */
  dir: string | null;
  /**
   * The block stream folder (null: records only). With both, record files are applied first; blocks follow
   * once no record file after the tip is left, and then record files are no longer read.
   */
  blocksDir?: string | null;
  /** The largest uncompressed block accepted, in bytes (default `maxFileBytes`). */
  maxBlockBytes?: number;
  /**
   * Prepare files (blocks: read, decompress, root hash, transform; record files: read with their signature and
   * sidecar files, gunzip, hashes) on a reader thread a few files ahead of the one being applied (default), or on
   * the ingest thread itself (the index is the same either way).
   */
  readerThread?: boolean;
  store: WriteStore;
  waitSignatures: boolean;
  log: Logger;
  checkSignature?: SignatureCheck | null;
  onCommitted?: (applied: AppliedFile, durationMs: number) => void;
  /**
   * Told which files a pass is about to apply, in order, and how many files after the tip the same look at the
   * folders found (those a first look found too recent to take are left all the same): progress. With a block
   * folder, also the newest block on disk (its name as indexed, and its start when its header reads).
   */
  onPlanned?: (names: readonly string[], pending: number, newestBlock?: NewestBlock) => void;
  /**
   * Asked before each file and every few transactions: true abandons the pass (a file being applied rolls
   * back with AbandonedError, so the index still ends at a whole file).
   */
  shouldStop?: () => boolean;
  /** Called once before the first file of an empty index is applied (hbar balances pick their start there). */
  beforeFirstFile?: (file: RecordFile, blockNumber: bigint) => void;
  /** The same for a block stream block: its first transaction (if any), number and previous hash. */
  beforeFirstBlock?: (first: DecodedItem | undefined, blockNumber: bigint, previousHash: Uint8Array) => void;
  /**
   * Without signatures (or `.mf` markers), a file is complete once its size and modification time have stayed
   * the same for this long, in ms (default `DEFAULT_SETTLE_MS`; `--settle-ms`).
   */
  settleMs?: number;
  /** The clock the quiet period is measured on, in ms (default `Date.now`; tests pass their own). */
  now?: () => number;
  /** The stream folders' file-system calls (tests count them; default the real ones). */
  folderFs?: FolderFs;
  /**
   * The record folder and a node's flat block folder are listed in full at the first look, then at intervals
   * doubling from `minFullListMs` (default 250) up to `maxFullListMs` (default 60 s); file events (`noted`,
   * `notedBlock`) fill in between.
   */
  minFullListMs?: number;
  maxFullListMs?: number;
  /** The most bytes a record file may hold, on disk or decompressed (default `MAX_DECOMPRESSED_BYTES`). */
  maxFileBytes?: number;
  /**
   * Sidecar files of v6 record files (`--sidecars`): `optional` (default) reads those present, `required` stops on a
   * missing one, `off` reads none. A corrupt or hash-mismatched sidecar stops ingestion unless off.
   */
  sidecars?: SidecarMode;
  /** The most transactions one commit may hold while catching up (default `GROUP_MAX_TRANSACTIONS`). */
  commitTransactions?: number;
  /**
   * The longest a commit may wait for more files, in ms (default `GROUP_MAX_MS`), so that readers see progress;
   * with no reader (a one-shot ingest) it can be unbounded.
   */
  commitMs?: number;
};

/** The newest block in the block folder: its name as it will be indexed, and its header's block timestamp. */
export type NewestBlock = { name: string; startNs: bigint | null };

export type Ingestor = {
  /**
   * Applies, in order, every record file that is complete now. Throws the fatal error of the first file that
   * cannot be applied (corrupt, out of chain, badly signed); everything before it stays committed.
   */
  ingestReady(): AppliedFile[];
  /** How many record files after the tip the folder holds now, complete or not. */
  pendingFiles(): number;
  tip(): ChainTip | null;
  /** A file event in the record folder: `name` appeared or changed (the folder is listed in full only now and then). */
  noted(name: string): void;
  /** The same in the block folder (a node's flat folder is listed in full only now and then too). */
  notedBlock(name: string): void;
  /** Ends the reader thread, if one was started. */
  close(): void;
};

/**
 * Catching up, several files share one SQLite transaction: a commit writes every page it dirtied once, and the
 * same index pages (balances, token relationships) change in file after file. The limits keep a commit's
 * memory bounded and let readers see progress at least a few times a second.
 */
export const GROUP_MAX_TRANSACTIONS = 20_000;
/** The most blocks one pass plans (a bucket of years is walked a slice at a time). */
const BLOCKS_PER_PASS = 1000;
const GROUP_MAX_MS = 1000;

export function createIngestor(options: IngestorOptions): Ingestor {
  const { dir, store, log } = options;
  const db = store.db;
  const groupMaxTransactions = options.commitTransactions ?? GROUP_MAX_TRANSACTIONS;
  const groupMaxMs = options.commitMs ?? GROUP_MAX_MS;
  const maxFileBytes = options.maxFileBytes ?? MAX_DECOMPRESSED_BYTES;

  let tip = readCursor(store);
  const now = options.now ?? Date.now;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  let recordLooks = new Map<string, Look>();

  const blocksDir = options.blocksDir ?? null;
  let blockLooks = new Map<string, Look>();
  /** Once a block is indexed the stream has moved to blocks: record files are not read any more. */
  const onBlocks = () => tip !== null && tip.version === BLOCK_STREAM_VERSION;

  const folderOptions = {
    now,
    ...(options.folderFs === undefined ? {} : { fs: options.folderFs }),
    ...(options.minFullListMs === undefined ? {} : { minFullListMs: options.minFullListMs }),
    ...(options.maxFullListMs === undefined ? {} : { maxFullListMs: options.maxFullListMs }),
  };
  const recordFolder = dir === null ? null : createRecordFolder(dir, folderOptions);
  const blockFolder = blocksDir === null ? null : createBlockFolder(blocksDir, folderOptions);

  /** The record folder's files after the tip (sizes only when completeness is judged by a stable size). */
  function listDir(folder: RecordFolder): DirEntry[] {
    return folder.after(tip?.name ?? null, !options.waitSignatures);
  }

  function ready(entries: DirEntry[]): DirEntry[] {
    if (options.waitSignatures) return readyRecordFiles(entries, tip?.name ?? null, { mode: "signature" });
    const nowMs = now();
    const result = readyRecordFiles(entries, tip?.name ?? null, {
      mode: "stable-size",
      looks: recordLooks,
      nowMs,
      settleMs,
    });
    recordLooks = nextLooks(
      entries
        .filter((e) => e.size !== 0)
        .map((e) => ({ key: e.name, size: e.size, modifiedMs: e.modifiedMs })),
      recordLooks,
      nowMs,
    );
    return result;
  }

  let reader: FileReader | null = null;
  const readerOf = (): FileReader => {
    reader ??= createFileReader({
      recordsDir: dir,
      blocksDir,
      maxFileBytes,
      maxBlockBytes: options.maxBlockBytes ?? maxFileBytes,
      sidecars: options.sidecars ?? "optional",
      signatures: Boolean(options.checkSignature),
      log,
      ...(options.shouldStop === undefined ? {} : { shouldStop: options.shouldStop }),
      ...(options.readerThread === undefined ? {} : { thread: options.readerThread }),
    });
    return reader;
  };

  /**
   * Checks and writes one record file, prepared by the reader, inside the open group transaction; advances the
   * in-memory tip. What did not read is thrown where reading the file in one go would have met it.
   */
  function writeOne(name: string): AppliedFile {
    const prepared = readerOf().takeRecord(name);
    const parsed = recordFileOf(prepared);
    if (options.checkSignature) {
      const { signature } = prepared;
      if (signature instanceof Error) throw signature;
      options.checkSignature(parsed, signature ?? new Uint8Array(), signatureNameOf(name));
    }
    checkChain(tip, parsed);
    const blockNumber = nextBlockNumber(tip, parsed);
    if (tip === null) options.beforeFirstFile?.(parsed, blockNumber);
    const sidecars = decodeSidecarContents(prepared.sidecars);
    let applied: AppliedFile;
    try {
      applied = writeRecordFile(store, parsed, blockNumber, options.shouldStop, sidecars);
    } catch (error) {
      if (error instanceof DecodeError) throw new CorruptFileError(name, error.message, { cause: error });
      throw error;
    }
    tip = { name, version: parsed.version, hash: parsed.hash, blockNumber };
    return applied;
  }

  /** The same for a block stream block (`path` below the blocks folder), prepared by the block reader. */
  function writeBlock(path: string): AppliedFile {
    // A file that does not read is named by its path; the block is indexed (and chained) under the mirror node's
    // name for it.
    const block = readerOf().takeBlock(path);
    const previousHash = checkBlockChain(tip, block);
    // Records that could not be derived from the block's items: reported once the chain is known to hold.
    if (block.records instanceof Error) throw block.records;
    const items = decodeSerializedRecords(block.name, block.records);
    if (tip === null) options.beforeFirstBlock?.(items[0], block.number, previousHash);
    let applied: AppliedFile;
    try {
      const sidecars = groupSidecarRecords(deserializeSidecars(block.name, block.records));
      applied = writeBlockFile(store, block, items, previousHash, options.shouldStop, sidecars);
    } catch (error) {
      if (error instanceof DecodeError) throw new CorruptFileError(path, error.message, { cause: error });
      throw error;
    }
    tip = { name: block.name, version: BLOCK_STREAM_VERSION, hash: block.hash, blockNumber: block.number };
    return applied;
  }

  let newestSeen: (NewestBlock & { path: string }) | null = null;
  let reportedNewest: string | undefined;
  let reportedCount = -1;

  /**
   * How many blocks after the tip the folder holds, complete or not (block numbers have no gaps: a gap stops
   * ingestion), and the newest of them. `lowest` is where counting starts while nothing is indexed.
   */
  function blocksLeft(
    dir: string,
    lowest: bigint | null,
  ): { count: number; newest: NewestBlock | undefined } {
    const from = tip === null ? lowest : tip.blockNumber + 1n;
    const newest = from === null ? null : blockFolder!.newest(from);
    if (newest === null || from === null || newest.number < from) return { count: 0, newest: undefined };
    if (newestSeen?.path !== newest.path || newestSeen.startNs === null) {
      newestSeen = {
        path: newest.path,
        name: blockDisplayName(newest.path, newest.number),
        startNs: blockStartTimeNs(newest.path, readPrefix(join(dir, newest.path), BLOCK_START_PREFIX_BYTES)),
      };
    }
    return {
      count: Number(newest.number - from + 1n),
      newest: { name: newestSeen.name, startNs: newestSeen.startNs },
    };
  }

  /** The complete blocks after the tip, in order (at most `BLOCKS_PER_PASS`). */
  function readyBlockPaths(): { ready: string[]; lowest: bigint | null } {
    const from = tip === null ? 0n : tip.blockNumber + 1n;
    const entries = blockFolder!.list(from, BLOCKS_PER_PASS, !options.waitSignatures);
    const nowMs = now();
    const ready = options.waitSignatures
      ? readyBlocks(entries, { mode: "marker" })
      : readyBlocks(entries, { mode: "stable-size", looks: blockLooks, nowMs, settleMs });
    if (!options.waitSignatures) {
      blockLooks = nextLooks(
        entries.map((e) => ({ key: e.path, size: e.size, modifiedMs: e.modifiedMs })),
        blockLooks,
        nowMs,
      );
    }
    return { ready: ready.map((e) => e.path), lowest: entries[0]?.number ?? null };
  }

  /**
   * Applies `names[from..]` in one SQLite transaction until a group limit is reached (or `until`, exclusive).
   * Every file writes its own cursor and the store is flushed once, before the commit, so a commit always ends
   * at a file boundary. When the group fails, nothing of it happened; the files that were whole are then tried
   * once more as a group of their own (`retry`), without the failing file if one failed:
   *
   * - a file failed (corrupt, out of chain): the files before it commit, then its error is thrown;
   * - the flush or the commit failed (disk full, I/O error): the same files are tried again once, and if that
   *   fails too the first error is thrown. A commit is never retried more than once: a full disk stays full.
   */
  function applyGroup(
    write: (name: string) => AppliedFile,
    names: readonly string[],
    from: number,
    until = names.length,
    retry = true,
  ): AppliedFile[] {
    const groupStarted = performance.now();
    const tipBefore = tip;
    const group: Array<{ applied: AppliedFile; durationMs: number }> = [];
    let groupTransactions = 0;
    let next = from;
    let fileFailed = false;
    db.exec("BEGIN IMMEDIATE");
    try {
      while (next < until) {
        const started = performance.now();
        fileFailed = true;
        const applied = write(names[next]!);
        fileFailed = false;
        group.push({ applied, durationMs: performance.now() - started });
        groupTransactions += applied.transactions;
        next += 1;
        if (groupTransactions >= groupMaxTransactions) break;
        if (performance.now() - groupStarted >= groupMaxMs) break;
        // Stopping: commit the whole files written so far rather than start another.
        if (options.shouldStop?.()) break;
      }
      const commitStarted = performance.now();
      store.flush();
      db.exec("COMMIT");
      const last = group.at(-1);
      // Writing what the store held back, and the commit, are part of what the group's last file cost.
      if (last !== undefined) last.durationMs += performance.now() - commitStarted;
    } catch (error) {
      // Nothing of the group happened: forget what the store cached or held back, and where the chain stood.
      if (db.inTransaction) db.exec("ROLLBACK");
      store.reset();
      tip = tipBefore;
      // Not when stopping: an abandoned group is applied again by the next start.
      if (error instanceof AbandonedError || !retry || next === from) throw error;
      let retried: AppliedFile[] = [];
      try {
        for (let at = from; at < next; ) {
          const committed = applyGroup(write, names, at, next, false);
          retried = [...retried, ...committed];
          at += committed.length;
        }
      } catch {
        throw error;
      }
      if (fileFailed) throw error;
      return retried;
    }
    const committed: AppliedFile[] = [];
    for (const { applied, durationMs } of group) {
      const rounded = Math.round(durationMs * 100) / 100;
      log.info(
        {
          file: applied.name,
          blockNumber: applied.blockNumber.toString(),
          transactions: applied.transactions,
          durationMs: rounded,
        },
        applied.name.includes(".blk") ? "ingested block" : "ingested record file",
      );
      options.onCommitted?.(applied, rounded);
      committed.push(applied);
    }
    return committed;
  }

  /** Record files among `names` that come after the tip. */
  function countPending(names: readonly string[]): number {
    const after = tip === null ? null : streamOrderKey(tip.name);
    return names.filter((name) => isRecordFile(name) && (after === null || streamOrderKey(name) > after))
      .length;
  }

  /** Applies `names` in groups with `write`, until done or asked to stop. */
  function applyAll(write: (name: string) => AppliedFile, names: readonly string[]): AppliedFile[] {
    const applied: AppliedFile[] = [];
    while (applied.length < names.length && !options.shouldStop?.()) {
      applied.push(...applyGroup(write, names, applied.length));
    }
    return applied;
  }

  /**
   * Whether a file that did not read was still being written: it changed since the look that found it settled.
   * It is not corrupt, then: its quiet period starts again and it is read once it has settled.
   */
  function changedSinceLook(error: unknown): boolean {
    if (options.waitSignatures || !(error instanceof CorruptFileError)) return false;
    const looks = recordLooks.has(error.file) ? recordLooks : blockLooks;
    const folder = looks === recordLooks ? dir : blocksDir;
    const look = looks.get(error.file);
    if (look === undefined || folder === null) return false;
    const current = statEntry(folder, error.file);
    if (current.size === look.size && current.modifiedMs === look.modifiedMs) return false;
    looks.delete(error.file);
    log.info({ file: error.file }, "a file changed while it was read: waiting for it to settle");
    return true;
  }

  /** Runs `apply`, adding what it applied to `applied`; false when it met a file still being written. */
  function settledApply(applied: AppliedFile[], apply: () => AppliedFile[]): boolean {
    try {
      applied.push(...apply());
      return true;
    } catch (error) {
      if (changedSinceLook(error)) return false;
      throw error;
    }
  }

  /** One look at the folders: applies, in order, every file complete now (see `Ingestor.ingestReady`). */
  function ingestReadyNow(): AppliedFile[] {
    const applied: AppliedFile[] = [];
    if (dir !== null && recordFolder !== null && !onBlocks()) {
      const entries = listDir(recordFolder);
      const names = ready(entries).map((entry) => entry.name);
      const pending = countPending(entries.map((entry) => entry.name));
      // Blocks waiting behind the record files are left too, and the newest of them is the newest file.
      const blocks = blocksDir === null ? null : blocksLeft(blocksDir, null);
      if (names.length > 0) options.onPlanned?.(names, pending + (blocks?.count ?? 0), blocks?.newest);
      if (names.length > 0) readerOf().plan("record", names);
      if (!settledApply(applied, () => applyAll(writeOne, names))) return applied;
      // Records first: blocks wait while a record file after the tip is still to come.
      if (pending > names.length || options.shouldStop?.()) return applied;
    }
    if (blocksDir !== null) {
      const { ready: paths, lowest } = readyBlockPaths();
      const { count, newest } = blocksLeft(blocksDir, lowest);
      // Reported on every look, also when no block is ready: the folder may hold blocks that cannot be taken yet.
      if (paths.length > 0 || newest?.name !== reportedNewest || count !== reportedCount) {
        reportedNewest = newest?.name;
        reportedCount = count;
        options.onPlanned?.(
          paths.map((path) => blockDisplayName(path, blockNumberOf(path))),
          count,
          newest,
        );
      }
      if (paths.length > 0) readerOf().plan("block", paths);
      settledApply(applied, () => applyAll(writeBlock, paths));
    }
    return applied;
  }

  return {
    ingestReady() {
      try {
        return ingestReadyNow();
      } catch (error) {
        // Whatever failed (a file gone, the folder away), the next look lists the folder in full again.
        recordFolder?.relist();
        blockFolder?.relist();
        throw error;
      }
    },
    pendingFiles() {
      const records =
        recordFolder !== null && !onBlocks() ? countPending(listDir(recordFolder).map((e) => e.name)) : 0;
      if (blocksDir === null) return records;
      const lowest = tip === null ? (blockFolder!.list(0n, 1, false)[0]?.number ?? null) : null;
      return records + blocksLeft(blocksDir, lowest).count;
    },
    tip: () => tip,
    noted(name) {
      recordFolder?.noted(name);
    },
    notedBlock(name) {
      blockFolder?.noted(name);
    },
    close() {
      reader?.close();
    },
  };
}

function statEntry(dir: string, name: string): DirEntry {
  try {
    const stats = statSync(join(dir, name));
    return { name, size: stats.size, modifiedMs: stats.mtimeMs };
  } catch {
    return { name, size: -1 }; // removed between listing and stat: never "stable"
  }
}

function readCursor(store: WriteStore): ChainTip | null {
  const row = store.db
    .prepare("SELECT file_name, version, hash, block_number FROM ingest_cursor WHERE id = 1")
    .get() as { file_name: string; version: bigint; hash: Uint8Array; block_number: bigint } | undefined;
  if (row === undefined) return null;
  return {
    name: row.file_name,
    version: Number(row.version),
    hash: new Uint8Array(row.hash),
    blockNumber: row.block_number,
  };
}

/** The first `length` bytes of a file (fewer when it is shorter; none when it is gone). */
function readPrefix(path: string, length: number): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return new Uint8Array();
  }
  try {
    const buffer = new Uint8Array(length);
    return buffer.subarray(0, readSync(fd, buffer, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}
