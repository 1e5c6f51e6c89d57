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

/**
 * A type's rule: it decodes what it reads only (the body, or the record for its receipt), when it reads it, so that
 * a rule answered by the receipt leaves the body undecoded and one answered by the body the record.
 */
type Rule = (item: DecodedItem) => bigint | null;

const receiptOf = (item: DecodedItem): proto.ITransactionReceipt => item.record.receipt ?? {};

const RULES: Readonly<Record<string, Rule>> = {
  consensusCreateTopic: (i) => of(receiptOf(i).topicID),
  consensusUpdateTopic: (i) => of(i.body.consensusUpdateTopic?.topicID),
  consensusDeleteTopic: (i) => of(i.body.consensusDeleteTopic?.topicID),
  contractCall: (i) => of(receiptOf(i).contractID) ?? of(i.body.contractCall?.contractID),
  contractCreateInstance: (i) => of(receiptOf(i).contractID),
  contractUpdateInstance: (i) => of(i.body.contractUpdateInstance?.contractID) ?? of(receiptOf(i).contractID),
  contractDeleteInstance: (i) => of(receiptOf(i).contractID) ?? of(i.body.contractDeleteInstance?.contractID),
  cryptoAddLiveHash: (i) => of(i.body.cryptoAddLiveHash?.liveHash?.accountId),
  cryptoCreateAccount: (i) => of(receiptOf(i).accountID),
  cryptoDelete: (i) => of(i.body.cryptoDelete?.deleteAccountID),
  cryptoDeleteLiveHash: (i) => of(i.body.cryptoDeleteLiveHash?.accountOfLiveHash),
  cryptoUpdateAccount: (i) => of(i.body.cryptoUpdateAccount?.accountIDToUpdate),
  ethereumTransaction: (i) => of((i.record.contractCreateResult ?? i.record.contractCallResult)?.contractID),
  fileAppend: (i) => of(i.body.fileAppend?.fileID),
  fileCreate: (i) => of(receiptOf(i).fileID),
  fileDelete: (i) => of(i.body.fileDelete?.fileID),
  fileUpdate: (i) => of(i.body.fileUpdate?.fileID),
  freeze: (i) => of(i.body.freeze?.updateFile),
  nodeCreate: (i) => of(i.body.nodeCreate?.accountId),
  nodeUpdate: (i) => of(i.body.nodeUpdate?.accountId),
  scheduleCreate: (i) => of(receiptOf(i).scheduleID),
  scheduleDelete: (i) => of(i.body.scheduleDelete?.scheduleID),
  scheduleSign: (i) => of(i.body.scheduleSign?.scheduleID),
  systemDelete: (i) => of(i.body.systemDelete?.contractID ?? i.body.systemDelete?.fileID),
  systemUndelete: (i) => of(i.body.systemUndelete?.contractID ?? i.body.systemUndelete?.fileID),
  tokenAssociate: (i) => of(i.body.tokenAssociate?.account),
  tokenBurn: (i) => of(i.body.tokenBurn?.token),
  tokenCreation: (i) => of(receiptOf(i).tokenID),
  tokenDeletion: (i) => of(i.body.tokenDeletion?.token),
  tokenDissociate: (i) => of(i.body.tokenDissociate?.account),
  tokenFeeScheduleUpdate: (i) => of(i.body.tokenFeeScheduleUpdate?.tokenId),
  tokenFreeze: (i) => of(i.body.tokenFreeze?.account),
  tokenGrantKyc: (i) => of(i.body.tokenGrantKyc?.account),
  tokenMint: (i) => of(i.body.tokenMint?.token),
  tokenPause: (i) => of(i.body.tokenPause?.token),
  tokenReject: (i) => (i.body.tokenReject?.owner ? of(i.body.tokenReject.owner) : nonZero(i.payerId)),
  tokenRevokeKyc: (i) => of(i.body.tokenRevokeKyc?.account),
  tokenUnfreeze: (i) => of(i.body.tokenUnfreeze?.account),
  tokenUnpause: (i) => of(i.body.tokenUnpause?.token),
  tokenUpdateNfts: (i) => of(i.body.tokenUpdateNfts?.token),
  tokenUpdate: (i) => of(i.body.tokenUpdate?.token),
  tokenWipe: (i) => of(i.body.tokenWipe?.token),
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
  return rule(item);
}
