import type { WriteStore } from "../store/write-store.ts";
import { BLOCK_STREAM_VERSION } from "../streams/block-file.ts";
import { toBigInt } from "../streams/long.ts";
import type { PreparedBlockHead } from "../streams/prepared-block.ts";
import { RECORD_PARTS } from "../streams/record-fields.ts";
import type { SidecarRecords } from "../streams/sidecar-file.ts";
import type { HapiVersion, RecordFile } from "../streams/types.ts";
import { type DecodedItem, DecodeError, decodeItem } from "./decode.ts";
import { applyAccountFacts } from "./handlers/account-facts.ts";
import { applyContractFacts } from "./handlers/contract-result.ts";
import { applyHbarTransfers } from "./handlers/hbar-transfers.ts";
import { applyHookChanges } from "./handlers/hooks.ts";
import { HANDLERS } from "./handlers/index.ts";
import { applyRecordRelations } from "./handlers/record-relations.ts";
import { applyScheduleExecution } from "./handlers/schedule.ts";
import { applySyntheticLogs } from "./handlers/synthetic-logs.ts";
import { indexTransaction } from "./handlers/transaction-index.ts";
import { applyRecordTransfers } from "./handlers/transfers.ts";

export type AppliedFile = {
  name: string;
  blockNumber: bigint;
  transactions: number;
  consensusStart: bigint;
  consensusEnd: bigint;
};

const BLOOM_BYTES = 256;

/**
 * Writes one record file (rows, block row, cursor) inside a transaction the caller holds. The store may hold
 * rows back: the caller calls `store.flush()` before it commits. When this throws, the caller must roll the
 * transaction back and `store.reset()`. `shouldStop` is asked every 64 transactions: true throws AbandonedError
 * (shutdown mid-file), which the caller handles like any failure, so the file is never half applied.
 */
export function writeRecordFile(
  store: WriteStore,
  file: RecordFile,
  blockNumber: bigint,
  shouldStop?: () => boolean,
  sidecars?: SidecarRecords,
): AppliedFile {
  const items = file.items.map((item, index) => {
    try {
      return decodeItem(item);
    } catch (cause) {
      throw new DecodeError(`item ${index} does not decode: ${(cause as Error).message}`, { cause });
    }
  });
  const consensusStart = items[0]?.consensusNs ?? 0n;
  const consensusEnd = items.at(-1)?.consensusNs ?? 0n;
  return writeBlockRows(
    store,
    {
      name: file.name,
      version: file.version,
      hapiVersion: file.hapiVersion,
      hash: file.hash,
      previousHash: file.previousHash,
      sizeBytes: file.sizeBytes,
      consensusStart,
      consensusEnd,
    },
    items,
    blockNumber,
    shouldStop,
    sidecars,
  );
}

/**
 * Writes one block stream block (rows, block row, cursor) like `writeRecordFile`: `items` are its transactions
 * as the records the record path would have read (streams/prepared-block.ts, `decodeSerializedRecords`). `previousHash` is what the blocks
 * API answers for it: the footer's previous block root, or at the cutover the last record file's hash.
 */
export function writeBlockFile(
  store: WriteStore,
  block: PreparedBlockHead,
  items: readonly DecodedItem[],
  previousHash: Uint8Array,
  shouldStop?: () => boolean,
  sidecars?: SidecarRecords,
): AppliedFile {
  const applied = writeBlockRows(
    store,
    {
      name: block.name,
      version: BLOCK_STREAM_VERSION,
      hapiVersion: block.hapiVersion,
      hash: block.hash,
      previousHash,
      sizeBytes: block.sizeBytes,
      consensusStart: block.consensusStart,
      consensusEnd: block.consensusEnd,
    },
    items,
    block.number,
    shouldStop,
    sidecars,
  );
  store.insertBlockProof({ number: block.number, kind: block.proof.kind, verified: block.proof.verified });
  return applied;
}

/** What the block row and the cursor say about a file, whatever its format. */
type BlockMeta = {
  name: string;
  version: number;
  hapiVersion: HapiVersion | null;
  hash: Uint8Array;
  previousHash: Uint8Array;
  sizeBytes: number;
  consensusStart: bigint;
  consensusEnd: bigint;
};

function writeBlockRows(
  store: WriteStore,
  meta: BlockMeta,
  items: readonly DecodedItem[],
  blockNumber: bigint,
  shouldStop?: () => boolean,
  sidecars?: SidecarRecords,
): AppliedFile {
  const { consensusStart, consensusEnd } = meta;
  let gasUsed = 0n;
  let bloom: Uint8Array | null = null;
  let applied = 0;
  // The last top-level transaction: the parent of the child records that follow it (upstream's
  // RecordItem.getParent, for the records that name its consensus time).
  let topLevel: DecodedItem | undefined;
  for (const item of items) {
    const index = applied;
    if ((applied++ & 63) === 63 && shouldStop?.()) throw new AbandonedError(meta.name);
    const parentNs = item.recordFields.parentConsensusNs;
    if (parentNs === null) topLevel = item;
    const parent = parentNs !== null && topLevel?.consensusNs === parentNs ? topLevel : undefined;
    applyItem({ store, hapiVersion: meta.hapiVersion, item, parent, index, blockNumber, sidecars });
    const result =
      (item.recordFields.parts & RECORD_PARTS.contractResult) === 0
        ? null
        : (item.record.contractCallResult ?? item.record.contractCreateResult);
    // Block gas and bloom count top-level transactions (nonce 0) only, as the mirror node does; any such
    // contract result starts the block's bloom, even one whose own bloom is empty.
    if (result && item.nonce === 0) {
      gasUsed += toBigInt(result.gasUsed);
      bloom ??= new Uint8Array(BLOOM_BYTES);
      if (result.bloom && result.bloom.length === BLOOM_BYTES) orBloom(bloom, result.bloom);
    }
  }
  // Hbar balance rows are cut per record file (not per commit group), so the index is the same whichever files
  // happened to share a commit: a resumed catch-up writes exactly the rows an uninterrupted one does.
  store.hbar.flush();
  store.cutTransactionFile();
  store.insertRecordFile({
    number: blockNumber,
    name: meta.name,
    version: meta.version,
    hapiMajor: meta.hapiVersion?.major ?? null,
    hapiMinor: meta.hapiVersion?.minor ?? null,
    hapiPatch: meta.hapiVersion?.patch ?? null,
    hash: Buffer.from(meta.hash).toString("hex"),
    previousHash: Buffer.from(meta.previousHash).toString("hex"),
    consensusStart,
    consensusEnd,
    count: items.length,
    size: meta.sizeBytes,
    gasUsed,
    logsBloom: bloom ?? new Uint8Array(),
  });
  store.setCursor({
    fileName: meta.name,
    version: meta.version,
    hash: meta.hash,
    blockNumber,
    consensusEnd,
  });
  return { name: meta.name, blockNumber, transactions: items.length, consensusStart, consensusEnd };
}

type ItemInFile = {
  store: WriteStore;
  hapiVersion: HapiVersion | null;
  item: DecodedItem;
  /** The top-level record a child record follows, if any. */
  parent: DecodedItem | undefined;
  index: number;
  blockNumber: bigint;
  sidecars: SidecarRecords | undefined;
};

function applyItem({ store, hapiVersion, item, parent, index, blockNumber, sidecars }: ItemInFile): void {
  const ctx = { item, store, hapiVersion, parent };
  const transfers = indexTransaction(ctx);
  if (item.successful && item.bodyCase !== undefined) HANDLERS[item.bodyCase]?.(ctx);
  applyScheduleExecution(ctx);
  applyHookChanges(ctx);
  applySyntheticLogs(ctx, index);
  applyContractFacts(ctx, { index, blockNumber, sidecars: sidecars?.get(item.consensusNs) ?? [] });
  applyAccountFacts(ctx);
  applyRecordTransfers(ctx);
  applyHbarTransfers(ctx, transfers);
  applyRecordRelations(ctx);
}

function orBloom(into: Uint8Array, bloom: Uint8Array): void {
  for (let i = 0; i < BLOOM_BYTES; i++) into[i] = (into[i] ?? 0) | (bloom[i] ?? 0);
}

/** A file abandoned part-way because ingestion is stopping; its transaction rolled back. */
export class AbandonedError extends Error {
  constructor(readonly file: string) {
    super(`abandoned ${file} to stop`);
  }
}
