/**
 * Cuts simulated transactions into record files and writes them as a node does: a new file whenever
 * consensus time enters a new period of `blockSeconds`, named after its first transaction, numbered
 * consecutively, each file's start running hash the previous file's end hash (48 zero bytes for the first),
 * each `.rcd.gz` followed by its `.rcd_sig`.
 */
import type { KeyObject } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HapiVersion, RecordItem } from "../types.ts";
import { writeRecordFileV6 } from "../write-record-file.ts";
import { writeSignatureFileV6 } from "../write-signature-file.ts";
import type { ScenarioRun } from "./engine.ts";
import { formatNs, streamFileStem } from "./pb.ts";
import type { StreamItem } from "./simulator.ts";
import type { BlockSummary, LedgerSummary } from "./summary.ts";

const NANOS_PER_SECOND = 1_000_000_000n;
const HASH_LENGTH = 48;

export type PlannedFile = { blockNumber: bigint; firstNs: bigint; lastNs: bigint; items: RecordItem[] };

/**
 * Groups transactions into files by consensus period. A user transaction and its preceding children always
 * share a file (the group's first timestamp decides).
 */
export function planRecordFiles(
  groups: StreamItem[][],
  blockSeconds: bigint,
  firstBlock: bigint,
): PlannedFile[] {
  const periodNs = blockSeconds * NANOS_PER_SECOND;
  const files: PlannedFile[] = [];
  let current: PlannedFile | undefined;
  let currentPeriod = -1n;
  let lastNs = -1n;
  for (const group of groups) {
    const first = group[0];
    if (first === undefined) continue;
    const period = first.consensusNs / periodNs;
    if (current === undefined || period !== currentPeriod) {
      current = {
        blockNumber: firstBlock + BigInt(files.length),
        firstNs: first.consensusNs,
        lastNs: 0n,
        items: [],
      };
      files.push(current);
      currentPeriod = period;
    }
    for (const { consensusNs, item } of group) {
      if (consensusNs <= lastNs)
        throw new Error(`consensus timestamps must increase: ${formatNs(consensusNs)}`);
      lastNs = consensusNs;
      current.items.push(item);
      current.lastNs = consensusNs;
    }
  }
  return files;
}

export type WriteOptions = {
  hapiVersion: HapiVersion;
  /** The node key that signs each file; without it no `.rcd_sig` files are written. */
  signingKey: KeyObject | null;
  /** Running hash the first file starts from; 48 zero bytes for a new stream. */
  startRunningHash?: Uint8Array;
};

/**
 * Writes record files one after another into a directory, chaining the running hash. Creating it removes
 * the stream files already in the directory, so a regenerated stream is exactly what was written.
 */
export class RecordFileWriter {
  private readonly dir: string;
  private readonly options: WriteOptions;
  private runningHash: Uint8Array;
  readonly blocks: BlockSummary[] = [];

  constructor(dir: string, options: WriteOptions) {
    this.dir = dir;
    this.options = options;
    this.runningHash = options.startRunningHash ?? new Uint8Array(HASH_LENGTH);
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (name.endsWith(".rcd.gz") || name.endsWith(".rcd_sig") || name.endsWith(".rcd"))
        rmSync(join(dir, name));
    }
  }

  /** Writes one file (and its signature file); returns its summary. */
  write(file: PlannedFile): BlockSummary {
    const written = writeRecordFileV6({
      hapiVersion: this.options.hapiVersion,
      blockNumber: file.blockNumber,
      startRunningHash: this.runningHash,
      items: file.items,
    });
    const stem = streamFileStem(file.firstNs);
    writeFileSync(join(this.dir, `${stem}.rcd.gz`), written.gzipBytes);
    if (this.options.signingKey !== null) {
      const signature = writeSignatureFileV6({
        fileHash: written.fileHash,
        metadataHash: written.metadataHash,
        privateKey: this.options.signingKey,
      });
      writeFileSync(join(this.dir, `${stem}.rcd_sig`), signature);
    }
    const block: BlockSummary = {
      number: file.blockNumber.toString(),
      name: `${stem}.rcd.gz`,
      count: file.items.length,
      from: formatNs(file.firstNs),
      to: formatNs(file.lastNs),
      previousHash: Buffer.from(this.runningHash).toString("hex"),
      hash: Buffer.from(written.endRunningHash).toString("hex"),
    };
    this.blocks.push(block);
    this.runningHash = written.endRunningHash;
    return block;
  }
}

/** Writes planned files into `dir` (see `RecordFileWriter`); returns one summary per file. */
export function writeRecordFiles(files: PlannedFile[], dir: string, options: WriteOptions): BlockSummary[] {
  const writer = new RecordFileWriter(dir, options);
  for (const file of files) writer.write(file);
  return writer.blocks;
}

/**
 * Writes a simulated scenario as `<dir>/record0.0.3/*.rcd.gz` + `.rcd_sig` and `<dir>/expected.json`.
 * Returns the summary written to expected.json.
 */
export function writeScenarioStream(run: ScenarioRun, dir: string, signingKey: KeyObject): LedgerSummary {
  const { settings } = run;
  const files = planRecordFiles(run.groups, settings.blockSeconds, settings.firstBlock);
  const blocks = writeRecordFiles(files, join(dir, "record0.0.3"), {
    hapiVersion: settings.hapiVersion,
    signingKey,
  });
  const summary: LedgerSummary = { ...run.summary, blocks };
  writeFileSync(join(dir, "expected.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
