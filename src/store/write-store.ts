import { type AccountRelationWrites, createAccountRelationWrites } from "./account-relations-writes.ts";
import { createBatchInsert } from "./batch-insert.ts";
import { type ContractWrites, createContractWrites } from "./contract-writes.ts";
import type { Db } from "./db.ts";
import { createHbarLedger, type HbarLedger } from "./hbar-ledger.ts";
import { createNetworkWrites, type NetworkWrites } from "./network-writes.ts";
import { createTopicMessageWrites, type TopicMessageWrites } from "./topic-writes.ts";
import { createTransactionWrites, type TransactionIndexRow } from "./transaction-writes.ts";
import { createVersionedTable, type Row, type VersionedTable } from "./versioned.ts";

export type RecordFileRow = {
  number: bigint;
  name: string;
  version: number;
  hapiMajor: number | null;
  hapiMinor: number | null;
  hapiPatch: number | null;
  hash: string;
  previousHash: string;
  consensusStart: bigint;
  consensusEnd: bigint;
  count: number;
  size: number | null;
  gasUsed: bigint;
  logsBloom: Uint8Array;
};

export type CursorRow = {
  fileName: string;
  version: number;
  hash: Uint8Array;
  blockNumber: bigint;
  consensusEnd: bigint;
};

/** Freeze and KYC status a new token-account row starts with, decided by the token's keys. */
export type TokenAccountDefaults = { freezeStatus: string; kycStatus: string };

/**
 * Every write ingestion makes, as prepared statements opened once on the writer connection. Callers run these
 * inside the transaction of a commit group: one or more whole record files (each with its block row and cursor)
 * committed together.
 */
export type WriteStore = {
  db: Db;
  entity: VersionedTable;
  token: VersionedTable;
  customFee: VersionedTable;
  tokenAccount: VersionedTable;
  nft: VersionedTable;
  /** Hbar balances of every account, exact at every instant (written behind per file). */
  hbar: HbarLedger;
  /** System files, address books, nodes and stake (written through, nothing held back). */
  network: NetworkWrites;
  /** Consensus topics (migration 0012-topics). */
  topic: VersionedTable;
  /** Allowances, token airdrops and staking reward payouts (migration 0050). */
  accountRelations: AccountRelationWrites;
  /** Consensus messages (migration 0030-topic-messages). */
  topicMessages: TopicMessageWrites;
  /** Contract results, logs, state, actions, bytecode (migration 0100-contracts). */
  contracts: ContractWrites;
  insertRecordFile(row: RecordFileRow): void;
  /** The proof of a block stream block (recorded unverified: TSS signatures cannot be checked in Node yet). */
  insertBlockProof(row: { number: bigint; kind: string; verified: boolean }): void;
  setCursor(row: CursorRow): void;
  /** The transaction index (store/transaction-writes.ts). */
  insertTransaction(row: TransactionIndexRow): void;
  /** Ends a record file's transaction-index account rows (once per file, so commit groups change nothing). */
  cutTransactionFile(): void;
  insertTokenTransfer(
    consensusNs: bigint,
    tokenId: bigint,
    accountId: bigint,
    amount: bigint,
    isApproval: boolean,
  ): void;
  insertNftTransfer(
    consensusNs: bigint,
    tokenId: bigint,
    serial: bigint,
    senderId: bigint | null,
    receiverId: bigint | null,
    isApproval: boolean,
  ): void;
  /** Sets the token's total supply from `atNs` on. */
  setSupply(tokenId: bigint, atNs: bigint, totalSupply: bigint): void;
  currentSupply(tokenId: bigint): bigint | undefined;
  /**
   * Adds `delta` to an account's balance of a token at `atNs` and records the new balance in the history. An
   * account with no relationship to the token yet gets one (a transfer implies an association).
   */
  addBalance(
    tokenId: bigint,
    accountId: bigint,
    atNs: bigint,
    delta: bigint,
    defaults: () => TokenAccountDefaults,
  ): void;
  /** Current NFTs of a token owned by an account (for treasury moves). */
  serialsOwnedBy(tokenId: bigint, accountId: bigint): bigint[];
  /** Writes everything held back for batching; call before the group's transaction commits. */
  flush(): void;
  /** Forgets caches and unwritten rows; call when a group's transaction rolled back. */
  reset(): void;
};

export function createWriteStore(db: Db): WriteStore {
  const entity = createVersionedTable(
    db,
    "entity",
    ["id"],
    [
      "type",
      "created_ns",
      "deleted",
      "memo",
      "key",
      "public_key",
      "auto_renew_account_id",
      "auto_renew_period",
      "expiration_ns",
      "alias",
      "evm_address",
      // Account fields (migration 0040).
      "max_automatic_token_associations",
      "receiver_sig_required",
      "decline_reward",
      "staked_account_id",
      "staked_node_id",
      "stake_period_start",
      "ethereum_nonce",
      // Contract fields (migration 0100).
      "obtainer_id",
      "permanent_removal",
      "proxy_account_id",
    ],
  );
  const token = createVersionedTable(
    db,
    "token",
    ["id"],
    [
      "created_ns",
      "name",
      "symbol",
      "decimals",
      "initial_supply",
      "max_supply",
      "supply_type",
      "type",
      "treasury_id",
      "freeze_default",
      "freeze_key",
      "kyc_key",
      "wipe_key",
      "supply_key",
      "fee_schedule_key",
      "pause_key",
      "metadata_key",
      "metadata",
      "pause_status",
    ],
  );
  const customFee = createVersionedTable(db, "custom_fee", ["token_id"], ["fees"]);
  const tokenAccount = createVersionedTable(
    db,
    "token_account",
    ["token_id", "account_id"],
    [
      "associated",
      "automatic_association",
      "freeze_status",
      "kyc_status",
      "created_ns",
      "balance",
      "balance_ns",
    ],
  );
  const nft = createVersionedTable(
    db,
    "nft",
    ["token_id", "serial"],
    ["account_id", "created_ns", "deleted", "metadata", "spender", "delegating_spender"],
  );
  const topic = createVersionedTable(
    db,
    "topic",
    ["id"],
    [
      "created_ns",
      "deleted",
      "memo",
      "admin_key",
      "submit_key",
      "fee_schedule_key",
      "fee_exempt_keys",
      "custom_fees",
      "auto_renew_account_id",
      "auto_renew_period",
      "expiration_ns",
      "custom_fees_ns",
    ],
  );
  const topicMessages = createTopicMessageWrites(db);
  const contracts = createContractWrites(db);

  const insertRecordFile = db.prepare(
    `INSERT INTO record_file (number, name, version, hapi_major, hapi_minor, hapi_patch, hash, previous_hash,
       consensus_start, consensus_end, count, size, gas_used, logs_bloom)
     VALUES (@number, @name, @version, @hapiMajor, @hapiMinor, @hapiPatch, @hash, @previousHash,
       @consensusStart, @consensusEnd, @count, @size, @gasUsed, @logsBloom)`,
  );
  const insertBlockProof = db.prepare("INSERT INTO block_proof (number, kind, verified) VALUES (?, ?, ?)");
  const setCursor = db.prepare(
    `INSERT INTO ingest_cursor (id, file_name, version, hash, block_number, consensus_end)
     VALUES (1, @fileName, @version, @hash, @blockNumber, @consensusEnd)
     ON CONFLICT (id) DO UPDATE SET file_name = excluded.file_name, version = excluded.version,
       hash = excluded.hash, block_number = excluded.block_number, consensus_end = excluded.consensus_end`,
  );
  const transactions = createTransactionWrites(db);
  const tokenTransfers = createBatchInsert(db, "token_transfer", [
    "consensus_ns",
    "token_id",
    "account_id",
    "amount",
    "is_approval",
  ]);
  const nftTransfers = createBatchInsert(db, "nft_transfer", [
    "consensus_ns",
    "token_id",
    "serial",
    "sender_id",
    "receiver_id",
    "is_approval",
  ]);
  const balanceHistory = createBatchInsert(db, "token_balance", [
    "token_id",
    "account_id",
    "valid_from",
    "balance",
  ]);
  // The balance after each transaction, per (token, account, consensus time): several transfers of one
  // transaction to one account leave one history row.
  let pendingBalances = new Map<string, [bigint, bigint, bigint, bigint]>();
  const upsertSupply = db.prepare(
    `INSERT INTO token_supply (token_id, valid_from, total_supply) VALUES (?, ?, ?)
     ON CONFLICT (token_id, valid_from) DO UPDATE SET total_supply = excluded.total_supply`,
  );
  const selectSupply = db
    .prepare("SELECT total_supply FROM token_supply WHERE token_id = ? ORDER BY valid_from DESC LIMIT 1")
    .pluck();
  const selectSerialsOwnedBy = db
    .prepare(
      "SELECT serial FROM nft WHERE token_id = ? AND account_id = ? AND valid_to IS NULL ORDER BY serial",
    )
    .pluck();

  const hbar = createHbarLedger(db);
  const accountRelations = createAccountRelationWrites(db);

  return {
    db,
    hbar,
    entity,
    token,
    customFee,
    tokenAccount,
    nft,
    network: createNetworkWrites(db),
    topic,
    accountRelations,
    topicMessages,
    contracts,
    insertRecordFile: (row) => insertRecordFile.run(row),
    insertBlockProof: (row) => insertBlockProof.run(row.number, row.kind, row.verified ? 1 : 0),
    setCursor: (row) => setCursor.run(row),
    insertTransaction: (row) => transactions.insert(row),
    cutTransactionFile: () => transactions.cutFile(),
    insertTokenTransfer: (t, tokenId, accountId, amount, isApproval) =>
      tokenTransfers.add(t, tokenId, accountId, amount, isApproval ? 1 : 0),
    insertNftTransfer: (t, tokenId, serial, sender, receiver, isApproval) =>
      nftTransfers.add(t, tokenId, serial, sender, receiver, isApproval ? 1 : 0),
    setSupply: (tokenId, atNs, totalSupply) => upsertSupply.run(tokenId, atNs, totalSupply),
    currentSupply: (tokenId) => selectSupply.get(tokenId) as bigint | undefined,
    addBalance(tokenId, accountId, atNs, delta, defaults) {
      const key = [tokenId, accountId];
      const current = tokenAccount.current(key);
      let balance: bigint;
      if (current === undefined) {
        // A transfer implies an association the mirror never saw (e.g. before its first file).
        const { freezeStatus, kycStatus } = defaults();
        balance = delta;
        tokenAccount.create(key, atNs, {
          associated: true,
          automatic_association: false,
          freeze_status: freezeStatus,
          kyc_status: kycStatus,
          created_ns: atNs,
          balance,
          balance_ns: atNs,
        });
      } else {
        balance = (current.balance as bigint) + delta;
        tokenAccount.touch(key, { balance, balance_ns: atNs });
      }
      pendingBalances.set(`${tokenId}:${accountId}:${atNs}`, [tokenId, accountId, atNs, balance]);
    },
    serialsOwnedBy(tokenId, accountId) {
      // The query reads the table itself: write what the NFT versions hold back first.
      nft.flush();
      return selectSerialsOwnedBy.all(tokenId, accountId) as bigint[];
    },
    flush() {
      for (const row of pendingBalances.values()) balanceHistory.add(...row);
      pendingBalances = new Map();
      transactions.flush();
      for (const batch of [tokenTransfers, nftTransfers, balanceHistory, topicMessages]) batch.flush();
      for (const table of [entity, token, customFee, tokenAccount, nft, topic]) table.flush();
      accountRelations.flush();
      contracts.flush();
      hbar.flush();
    },
    reset() {
      pendingBalances = new Map();
      transactions.clear();
      for (const batch of [tokenTransfers, nftTransfers, balanceHistory, topicMessages]) batch.clear();
      for (const table of [entity, token, customFee, tokenAccount, nft, topic]) table.reset();
      accountRelations.reset();
      contracts.reset();
      hbar.reset();
    },
  };
}

export type { Row, TransactionIndexRow };
