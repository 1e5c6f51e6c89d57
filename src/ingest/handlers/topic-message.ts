import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import type { HandlerContext } from "./context.ts";

/** The running hash version every current node writes; the index stores it as NULL. */
const CURRENT_RUNNING_HASH_VERSION = 3;

/**
 * A successful ConsensusSubmitMessage becomes one message row. Sequence number and running hash come from the
 * record's receipt (block streams supply the same receipt fields), the rest from the body, as the mirror node's
 * importer takes them: a version 0 in the receipt (records older than versioned hashes) counts as version 1.
 */
export function handleConsensusSubmitMessage({ item, store }: HandlerContext): void {
  const body = item.body.consensusSubmitMessage!;
  const topicId = entityIdOf(body.topicID);
  const receipt = item.record.receipt;
  if (topicId === null || receipt == null) return;
  const version = Number(toBigInt(receipt.topicRunningHashVersion));
  const chunkInfo = body.chunkInfo ?? null;
  const initialId = chunkInfo?.initialTransactionID ?? null;
  store.topicMessages.add({
    consensusNs: item.consensusNs,
    topicId,
    sequenceNumber: toBigInt(receipt.topicSequenceNumber),
    payerId: item.payerId,
    runningHashVersion: version === CURRENT_RUNNING_HASH_VERSION ? null : version === 0 ? 1 : version,
    runningHash: receipt.topicRunningHash ?? new Uint8Array(),
    message: body.message ?? new Uint8Array(),
    chunk: chunkInfo === null ? null : { number: chunkInfo.number ?? 0, total: chunkInfo.total ?? 0 },
    initialTransactionId: initialId === null ? null : proto.TransactionID.encode(initialId).finish(),
    validStartNs: chunkInfo !== null && initialId === null ? item.validStartNs : null,
  });
}
