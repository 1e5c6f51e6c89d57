/**
 * Field numbers of the block stream protobufs this reader uses, pinned to HAPI 0.73–0.75 (the `.proto` files in
 * `proto/block-stream/` are the full definitions; test/streams/block-proto.test.ts checks these numbers against
 * them).
 */

/** `BlockItem.item` members. */
export const ITEM = {
  blockHeader: 1,
  eventHeader: 2,
  roundHeader: 3,
  signedTransaction: 4,
  transactionResult: 5,
  transactionOutput: 6,
  stateChanges: 7,
  filteredItemHash: 8,
  blockProof: 9,
  recordFile: 10,
  traceData: 11,
  blockFooter: 12,
} as const;

/** `Block.items`. */
export const BLOCK_ITEMS = 1;

/** `BlockHeader`. */
export const HEADER = {
  hapiProtoVersion: 1,
  softwareVersion: 2,
  number: 3,
  blockTimestamp: 4,
  hashAlgorithm: 5,
} as const;

/** `BlockFooter`. */
export const FOOTER = {
  previousBlockRootHash: 1,
  rootHashOfAllBlockHashesTree: 2,
  startOfBlockStateRootHash: 3,
} as const;

/** `BlockProof`: the block number and, of its `proof` oneof, the TSS-signed form. */
export const PROOF = { block: 1, signedBlockProof: 2 } as const;

/** `TransactionResult`. */
export const RESULT = {
  status: 1,
  consensusTimestamp: 2,
  parentConsensusTimestamp: 3,
  scheduleRef: 5,
  transactionFeeCharged: 6,
  transferList: 7,
  tokenTransferLists: 8,
  automaticTokenAssociations: 9,
  paidStakingRewards: 10,
  congestionPricingMultiplier: 11,
  assessedCustomFees: 12,
  highVolumePricingMultiplier: 13,
} as const;

/** `TransactionOutput.transaction` members, and the fields of the outputs read. */
export const OUTPUT = {
  cryptoTransfer: 1,
  utilPrng: 2,
  contractCall: 3,
  ethereumCall: 4,
  contractCreate: 5,
  createSchedule: 6,
  signSchedule: 7,
  accountCreate: 8,
} as const;

/** `StateChanges`, `StateChange`, `MapUpdateChange`, `MapChangeKey`, `MapChangeValue`. */
export const STATE = {
  changesConsensusTimestamp: 1,
  changesList: 2,
  changeStateId: 1,
  changeMapUpdate: 5,
  mapUpdateKey: 1,
  mapUpdateValue: 2,
  mapUpdateIdentical: 3,
  keyAccountId: 1,
  keyEntityNumber: 3,
  keyFileId: 4,
  keyTokenId: 11,
  keyTopicId: 12,
  valueAccount: 1,
  valueFile: 4,
  valueToken: 11,
  valueTopic: 13,
  valueNode: 14,
  valuePendingAirdrop: 15,
  keyPendingAirdropId: 14,
} as const;

/** `StateIdentifier` values read (state ids are plain integers on the wire). */
export const STATE_ID = {
  accounts: 2,
  files: 6,
  tokens: 7,
  nodes: 20,
  topics: 21,
  pendingAirdrops: 25,
  /** Contract storage slots: `SlotKey` → `SlotValue`. */
  storage: 4,
  /** Contract runtime bytecode: `ContractID` → `Bytecode`. */
  bytecode: 5,
} as const;

/** The contract members of `MapChangeKey`/`MapChangeValue` and their messages (`SlotKey`, `SlotValue`, `Bytecode`). */
export const CONTRACT_STATE = {
  mapDelete: 6,
  keySlotKey: 10,
  keyContractId: 13,
  valueBytecode: 3,
  valueSlotValue: 9,
  slotKeyContractId: 1,
  slotKeyKey: 2,
  slotValueValue: 1,
  bytecodeCode: 1,
} as const;

/** `TraceData.data` members (EVM trace data, submit message trace data), and `SubmitMessageTraceData`. */
export const TRACE = { evmTraceData: 1, submitMessage: 4, sequenceNumber: 1, runningHash: 2 } as const;

/** `BlockHashAlgorithm.SHA2_384`, the only one defined. */
export const SHA2_384 = 0;
