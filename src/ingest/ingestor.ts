import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CorruptFileError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { WriteStore } from "../store/write-store.ts";
import { type ChainTip, checkChain, nextBlockNumber } from "../streams/chain.ts";
import { readRecordFile } from "../streams/read-record-file.ts";
import type { RecordFile } from "../streams/types.ts";
import { type AppliedFile, applyRecordFile, DecodeError } from "./apply.ts";
import { type DirEntry, isRecordFile, readyRecordFiles, signatureNameOf, streamOrderKey } from "./files.ts";

/** Checks a record file against its signature file before it is applied (see `--verify-signatures`). */
export type SignatureCheck = (file: RecordFile, signatureBytes: Uint8Array, signatureName: string) => void;

export type IngestorOptions = {
  dir: string;
  store: WriteStore;
  waitSignatures: boolean;
  log: Logger;
  checkSignature?: SignatureCheck | null;
  onCommitted?: (applied: AppliedFile, durationMs: number) => void;
  /** Told which record files a pass is about to apply, in order (progress reports). */
  onPlanned?: (names: readonly string[]) => void;
  /**
   * Asked before each file and every few transactions: true abandons the pass (a file being applied rolls
   * back with AbandonedError, so the index still ends at a whole file).
   */
  shouldStop?: () => boolean;
  /** Called once before the first file of an empty index is applied (hbar balances pick their start there). */
  beforeFirstFile?: (file: RecordFile, blockNumber: bigint) => void;
};

export type Ingestor = {
  /**
   * Applies, in order, every record file that is complete now. Throws the fatal error of the first file that
   * cannot be applied (corrupt, out of chain, badly signed); everything before it stays committed.
   */
  ingestReady(): AppliedFile[];
  tip(): ChainTip | null;
};

export function createIngestor(options: IngestorOptions): Ingestor {
  const { dir, store, log } = options;
  let tip = readCursor(store);
  let previousSizes = new Map<string, number>();

  function listDir(): DirEntry[] {
    const after = tip === null ? null : streamOrderKey(tip.name);
    const entries: DirEntry[] = [];
    for (const dirent of readdirSync(dir, { withFileTypes: true })) {
      if (!dirent.isFile()) continue;
      // Sizes matter only for record files not applied yet, and only when completeness is judged by a stable
      // size: a folder of 50,000 applied files must not cost 50,000 stats per look.
      const pending =
        !options.waitSignatures &&
        isRecordFile(dirent.name) &&
        (after === null || streamOrderKey(dirent.name) > after);
      entries.push({ name: dirent.name, size: pending ? statSize(join(dir, dirent.name)) : 0 });
    }
    return entries;
  }

  function ready(entries: DirEntry[]): DirEntry[] {
    if (options.waitSignatures) return readyRecordFiles(entries, tip?.name ?? null, { mode: "signature" });
    const result = readyRecordFiles(entries, tip?.name ?? null, { mode: "stable-size", previousSizes });
    previousSizes = new Map(entries.map((e) => [e.name, e.size]));
    return result;
  }

  function applyOne(name: string): AppliedFile {
    const started = performance.now();
    const path = join(dir, name);
    const parsed = readRecordFile(name, readFileSync(path));
    if (options.checkSignature) {
      const signatureName = signatureNameOf(name);
      options.checkSignature(parsed, readFileSync(join(dir, signatureName)), signatureName);
    }
    checkChain(tip, parsed);
    const blockNumber = nextBlockNumber(tip, parsed);
    if (tip === null) options.beforeFirstFile?.(parsed, blockNumber);
    let applied: AppliedFile;
    try {
      applied = applyRecordFile(store, parsed, blockNumber, options.shouldStop);
    } catch (error) {
      if (error instanceof DecodeError) throw new CorruptFileError(name, error.message, { cause: error });
      throw error;
    }
    tip = { name, version: parsed.version, hash: parsed.hash, blockNumber };
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    log.info(
      { file: name, blockNumber: blockNumber.toString(), transactions: applied.transactions, durationMs },
      "ingested record file",
    );
    options.onCommitted?.(applied, durationMs);
    return applied;
  }

  return {
    ingestReady() {
      const applied: AppliedFile[] = [];
      const planned = ready(listDir());
      if (planned.length > 0) options.onPlanned?.(planned.map((entry) => entry.name));
      for (const entry of planned) {
        if (options.shouldStop?.()) break;
        applied.push(applyOne(entry.name));
      }
      return applied;
    },
    tip: () => tip,
  };
}

function statSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1; // removed between listing and stat: never "stable"
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
