/**
 * The mirror node's transaction type ids and names. An id is the field number of the body in HAPI's
 * `TransactionBody` oneof, which protobufjs exposes only by name (`body.data`), hence this table. Names are the
 * ones the REST API prints (`TOKENMINT`, `CRYPTOTRANSFER`, ...). Bodies the mirror node does not know map to
 * UNKNOWN (-1).
 */
const TYPES: Record<string, readonly [number, string]> = {
  contractCall: [7, "CONTRACTCALL"],
  contractCreateInstance: [8, "CONTRACTCREATEINSTANCE"],
  contractUpdateInstance: [9, "CONTRACTUPDATEINSTANCE"],
  cryptoAddLiveHash: [10, "CRYPTOADDLIVEHASH"],
  cryptoCreateAccount: [11, "CRYPTOCREATEACCOUNT"],
  cryptoDelete: [12, "CRYPTODELETE"],
  cryptoDeleteLiveHash: [13, "CRYPTODELETELIVEHASH"],
  cryptoTransfer: [14, "CRYPTOTRANSFER"],
  cryptoUpdateAccount: [15, "CRYPTOUPDATEACCOUNT"],
  fileAppend: [16, "FILEAPPEND"],
  fileCreate: [17, "FILECREATE"],
  fileDelete: [18, "FILEDELETE"],
  fileUpdate: [19, "FILEUPDATE"],
  systemDelete: [20, "SYSTEMDELETE"],
  systemUndelete: [21, "SYSTEMUNDELETE"],
  contractDeleteInstance: [22, "CONTRACTDELETEINSTANCE"],
  freeze: [23, "FREEZE"],
  consensusCreateTopic: [24, "CONSENSUSCREATETOPIC"],
  consensusUpdateTopic: [25, "CONSENSUSUPDATETOPIC"],
  consensusDeleteTopic: [26, "CONSENSUSDELETETOPIC"],
  consensusSubmitMessage: [27, "CONSENSUSSUBMITMESSAGE"],
  uncheckedSubmit: [28, "UNCHECKEDSUBMIT"],
  tokenCreation: [29, "TOKENCREATION"],
  tokenFreeze: [31, "TOKENFREEZE"],
  tokenUnfreeze: [32, "TOKENUNFREEZE"],
  tokenGrantKyc: [33, "TOKENGRANTKYC"],
  tokenRevokeKyc: [34, "TOKENREVOKEKYC"],
  tokenDeletion: [35, "TOKENDELETION"],
  tokenUpdate: [36, "TOKENUPDATE"],
  tokenMint: [37, "TOKENMINT"],
  tokenBurn: [38, "TOKENBURN"],
  tokenWipe: [39, "TOKENWIPE"],
  tokenAssociate: [40, "TOKENASSOCIATE"],
  tokenDissociate: [41, "TOKENDISSOCIATE"],
  scheduleCreate: [42, "SCHEDULECREATE"],
  scheduleDelete: [43, "SCHEDULEDELETE"],
  scheduleSign: [44, "SCHEDULESIGN"],
  tokenFeeScheduleUpdate: [45, "TOKENFEESCHEDULEUPDATE"],
  tokenPause: [46, "TOKENPAUSE"],
  tokenUnpause: [47, "TOKENUNPAUSE"],
  cryptoApproveAllowance: [48, "CRYPTOAPPROVEALLOWANCE"],
  cryptoDeleteAllowance: [49, "CRYPTODELETEALLOWANCE"],
  ethereumTransaction: [50, "ETHEREUMTRANSACTION"],
  nodeStakeUpdate: [51, "NODESTAKEUPDATE"],
  utilPrng: [52, "UTILPRNG"],
  tokenUpdateNfts: [53, "TOKENUPDATENFTS"],
  nodeCreate: [54, "NODECREATE"],
  nodeUpdate: [55, "NODEUPDATE"],
  nodeDelete: [56, "NODEDELETE"],
  tokenReject: [57, "TOKENREJECT"],
  tokenAirdrop: [58, "TOKENAIRDROP"],
  tokenCancelAirdrop: [59, "TOKENCANCELAIRDROP"],
  tokenClaimAirdrop: [60, "TOKENCLAIMAIRDROP"],
  atomicBatch: [74, "ATOMICBATCH"],
  hookStore: [75, "HOOKSTORE"],
  ledgerIdPublication: [77, "LEDGERIDPUBLICATION"],
  registeredNodeCreate: [101, "REGISTEREDNODECREATE"],
  registeredNodeUpdate: [102, "REGISTEREDNODEUPDATE"],
  registeredNodeDelete: [103, "REGISTEREDNODEDELETE"],
};

export const UNKNOWN_TYPE = -1;

/** The type id for a `TransactionBody` oneof case name (`body.data`), or -1. */
export function transactionTypeId(bodyCase: string | undefined): number {
  return bodyCase === undefined ? UNKNOWN_TYPE : (TYPES[bodyCase]?.[0] ?? UNKNOWN_TYPE);
}

const NAMES = new Map<number, string>(Object.values(TYPES).map(([id, name]) => [id, name]));

/** The REST name of a type id (`UNKNOWN` for ids the mirror node does not name). */
export function transactionTypeName(id: number): string {
  return NAMES.get(id) ?? "UNKNOWN";
}

const IDS_BY_NAME = new Map<string, number>(Object.values(TYPES).map(([id, name]) => [name, id]));

/** Every REST type name (`CRYPTOTRANSFER`, …), the names `transactiontype` filters accept. */
export function transactionTypeNames(): string[] {
  return [...IDS_BY_NAME.keys()];
}

/** The type id of a REST type name (upper case), or -1. */
export function transactionTypeIdOfName(name: string): number {
  return IDS_BY_NAME.get(name) ?? UNKNOWN_TYPE;
}
