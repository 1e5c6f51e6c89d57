import { encodeEntityId, MAX_NUM } from "../../ids.ts";
import { readSubmitMessage } from "../../streams/submit-message-body.ts";
import type { HandlerContext } from "./context.ts";

/** The running hash version every current node writes; the index stores it as NULL. */
const CURRENT_RUNNING_HASH_VERSION = 3;

/**
 * A successful ConsensusSubmitMessage becomes one message row. Sequence number and running hash come from the
 * record's receipt (block streams supply the same receipt fields), the rest from the body, as the mirror node's
 * importer takes them: a version 0 in the receipt (records older than versioned hashes) counts as version 1.
 * The body's few fields are read from its bytes (`readSubmitMessage`), never decoded whole.
 */
export function handleConsensusSubmitMessage({ item, store }: HandlerContext): void {
  const body = readSubmitMessage(item.bodyBytes);
  const receipt = item.recordFields;
  if (body === null || body.topic === null || !receipt.hasReceipt) return;
  const { shard, realm, num } = body.topic;
  const topicId =
    shard === 0n && realm === 0n && num >= 0n && num <= MAX_NUM ? num : encodeEntityId(shard, realm, num);
  const version = Number(receipt.topicRunningHashVersion);
  const chunk = body.chunk;
  store.topicMessages.add({
    consensusNs: item.consensusNs,
    topicId,
    sequenceNumber: receipt.topicSequenceNumber,
    payerId: item.payerId,
    runningHashVersion: version === CURRENT_RUNNING_HASH_VERSION ? null : version === 0 ? 1 : version,
    runningHash: receipt.topicRunningHash,
    message: body.message,
    chunk: chunk === null ? null : { number: chunk.number, total: chunk.total },
    initialTransactionId: chunk?.initialTransactionId ?? null,
    validStartNs: chunk !== null && chunk.initialTransactionId === null ? item.validStartNs : null,
  });
}
