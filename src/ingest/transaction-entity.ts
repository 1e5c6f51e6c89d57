/**
 * The `entity_id` of a transaction, as the mirror node's importer picks it per type (each
 * `transactionhandler/*TransactionHandler.getEntity`): the entity the transaction created (from the receipt) or
 * acts on (from the body). Types not listed have none. Id 0 is none.
 *
 * ConsensusSubmitMessage, most of a network's traffic, is read off the wire; the rarer types read the decoded
 * body. EVM-address forms of contract ids name no number here (the importer resolves them against its entity
 * table, which this index does not keep), so they give none.
 */
import { entityIdOf } from "../ids.ts";
import type { proto } from "../streams/proto.ts";
import { type BodyFields, entityIdAt, type Int64, nestedAt } from "../streams/transaction-body-fields.ts";
import type { DecodedItem } from "./decode.ts";

type Id = Parameters<typeof entityIdOf>[0];

const nonZero = (id: bigint | null): bigint | null => (id === 0n ? null : id);
const of = (id: Id): bigint | null => nonZero(entityIdOf(id));

type Rule = (
  body: proto.TransactionBody,
  receipt: proto.ITransactionReceipt,
  item: DecodedItem,
) => bigint | null;

const RULES: Readonly<Record<string, Rule>> = {
  consensusCreateTopic: (_b, receipt) => of(receipt.topicID),
  consensusUpdateTopic: (b) => of(b.consensusUpdateTopic?.topicID),
  consensusDeleteTopic: (b) => of(b.consensusDeleteTopic?.topicID),
  contractCall: (b, receipt) => of(receipt.contractID) ?? of(b.contractCall?.contractID),
  contractCreateInstance: (_b, receipt) => of(receipt.contractID),
  contractUpdateInstance: (b, receipt) => of(b.contractUpdateInstance?.contractID) ?? of(receipt.contractID),
  contractDeleteInstance: (b, receipt) => of(receipt.contractID) ?? of(b.contractDeleteInstance?.contractID),
  cryptoAddLiveHash: (b) => of(b.cryptoAddLiveHash?.liveHash?.accountId),
  cryptoCreateAccount: (_b, receipt) => of(receipt.accountID),
  cryptoDelete: (b) => of(b.cryptoDelete?.deleteAccountID),
  cryptoDeleteLiveHash: (b) => of(b.cryptoDeleteLiveHash?.accountOfLiveHash),
  cryptoUpdateAccount: (b) => of(b.cryptoUpdateAccount?.accountIDToUpdate),
  ethereumTransaction: (_b, _receipt, item) =>
    of((item.record.contractCreateResult ?? item.record.contractCallResult)?.contractID),
  fileAppend: (b) => of(b.fileAppend?.fileID),
  fileCreate: (_b, receipt) => of(receipt.fileID),
  fileDelete: (b) => of(b.fileDelete?.fileID),
  fileUpdate: (b) => of(b.fileUpdate?.fileID),
  freeze: (b) => of(b.freeze?.updateFile),
  nodeCreate: (b) => of(b.nodeCreate?.accountId),
  nodeUpdate: (b) => of(b.nodeUpdate?.accountId),
  scheduleCreate: (_b, receipt) => of(receipt.scheduleID),
  scheduleDelete: (b) => of(b.scheduleDelete?.scheduleID),
  scheduleSign: (b) => of(b.scheduleSign?.scheduleID),
  systemDelete: (b) => of(b.systemDelete?.contractID ?? b.systemDelete?.fileID),
  systemUndelete: (b) => of(b.systemUndelete?.contractID ?? b.systemUndelete?.fileID),
  tokenAssociate: (b) => of(b.tokenAssociate?.account),
  tokenBurn: (b) => of(b.tokenBurn?.token),
  tokenCreation: (_b, receipt) => of(receipt.tokenID),
  tokenDeletion: (b) => of(b.tokenDeletion?.token),
  tokenDissociate: (b) => of(b.tokenDissociate?.account),
  tokenFeeScheduleUpdate: (b) => of(b.tokenFeeScheduleUpdate?.tokenId),
  tokenFreeze: (b) => of(b.tokenFreeze?.account),
  tokenGrantKyc: (b) => of(b.tokenGrantKyc?.account),
  tokenMint: (b) => of(b.tokenMint?.token),
  tokenPause: (b) => of(b.tokenPause?.token),
  tokenReject: (b, _receipt, item) =>
    b.tokenReject?.owner ? of(b.tokenReject.owner) : nonZero(item.payerId),
  tokenRevokeKyc: (b) => of(b.tokenRevokeKyc?.account),
  tokenUnfreeze: (b) => of(b.tokenUnfreeze?.account),
  tokenUnpause: (b) => of(b.tokenUnpause?.token),
  tokenUpdateNfts: (b) => of(b.tokenUpdateNfts?.token),
  tokenUpdate: (b) => of(b.tokenUpdate?.token),
  tokenWipe: (b) => of(b.tokenWipe?.token),
};

/** The entity id of a transaction; `fields` locate its typed body in `bodyBytes`. */
export function transactionEntityId(
  item: DecodedItem,
  bodyBytes: Uint8Array,
  fields: BodyFields,
): Int64 | null {
  const bodyCase = item.bodyCase;
  if (bodyCase === undefined) return null;
  if (bodyCase === "consensusSubmitMessage") {
    // ConsensusSubmitMessageTransactionBody.topicID is field 1.
    if (fields.dataStart < 0) return null;
    const topic = nestedAt(bodyBytes, fields.dataStart, fields.dataEnd, 1);
    return topic === null ? null : entityIdAt(bodyBytes, topic[0], topic[1]);
  }
  const rule = RULES[bodyCase];
  if (rule === undefined) return null;
  return rule(item.body, item.record.receipt ?? {}, item);
}
