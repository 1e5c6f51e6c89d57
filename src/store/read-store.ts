import { type AccountTokenQueries, createAccountTokenQueries } from "./account-tokens.ts";
import { type AccountQueries, createAccountQueries } from "./accounts.ts";
import { type AirdropQueries, createAirdropQueries } from "./airdrops.ts";
import { type AllowanceQueries, createAllowanceQueries } from "./allowances.ts";
import { type BalanceQueries, createBalanceQueries } from "./balances.ts";
import { type BlockQueries, createBlockQueries } from "./blocks.ts";
import { createStatementCache, DEFAULT_CACHED_STATEMENTS, type StatementCache } from "./conditions.ts";
import { type ContractLogQueries, createContractLogQueries } from "./contract-logs.ts";
import { type ContractResultQueries, createContractResultQueries } from "./contract-results.ts";
import { type ContractStateQueries, createContractStateQueries } from "./contract-state.ts";
import { type ContractQueries, createContractQueries } from "./contracts.ts";
import type { Db } from "./db.ts";
import { createEntityExists } from "./entity-exists.ts";
import { createFeeFactQueries, type FeeFactQueries } from "./fee-facts.ts";
import { createHbarQueries, type HbarQueries } from "./hbar-balances.ts";
import { createHookQueries, type HookQueries } from "./hooks.ts";
import { createNetworkQueries, type NetworkQueries } from "./network.ts";
import { createNftQueries, type NftQueries } from "./nfts.ts";
import { createScheduleQueries, type ScheduleQueries } from "./schedules.ts";
import { createStakingRewardQueries, type StakingRewardQueries } from "./staking-rewards.ts";
import { createSystemFileQueries, type SystemFileQueries } from "./system-files.ts";
import { createTokenListQueries, type TokenListQueries } from "./token-lists.ts";
import { createTokenQueries, type TokenQueries } from "./tokens.ts";
import { createTopicQueries, type TopicQueries } from "./topics.ts";
import { createTransactionQueries, type TransactionQueries } from "./transactions.ts";

/** Every read query the API uses, prepared once on the read-only connection. */
export type ReadStore = {
  db: Db;
  /** The prepared list statements, by SQL text (bounded: input decides the text). */
  statements: StatementCache;
  tokens: TokenQueries;
  blocks: BlockQueries;
  tokenLists: TokenListQueries;
  balances: BalanceQueries;
  nfts: NftQueries;
  hbar: HbarQueries;
  systemFiles: SystemFileQueries;
  network: NetworkQueries;
  feeFacts: FeeFactQueries;
  /** Accounts and balances; `{idOrAliasOrEvmAddress}` lookups (`idByEvmAddress`, `idByAlias`). */
  accounts: AccountQueries;
  /** The transaction index: lists (also an account's embedded list) and lookups by id or hash. */
  transactions: TransactionQueries;
  /** Whether an entity with this ID was ever indexed (account relations' 404s). */
  entityExists: (id: bigint) => boolean;
  /** An account's token relationships and NFTs. */
  accountTokens: AccountTokenQueries;
  allowances: AllowanceQueries;
  airdrops: AirdropQueries;
  stakingRewards: StakingRewardQueries;
  topics: TopicQueries;
  schedules: ScheduleQueries;
  /** Hooks, hook storage and registered nodes. */
  hooks: HookQueries;
  /** Contract entities and EVM addresses of contracts. */
  contracts: ContractQueries;
  contractResults: ContractResultQueries;
  contractLogs: ContractLogQueries;
  /** Contract storage (current and as of a time) and call traces. */
  contractState: ContractStateQueries;
};

/** Every read query the API uses, prepared on the read-only connection; list queries share one bounded cache. */
export function createReadStore(db: Db, maxStatements = DEFAULT_CACHED_STATEMENTS): ReadStore {
  const statements = createStatementCache(db, maxStatements);
  return {
    db,
    statements,
    tokens: createTokenQueries(db),
    blocks: createBlockQueries(db),
    tokenLists: createTokenListQueries(db, statements),
    balances: createBalanceQueries(db, statements),
    nfts: createNftQueries(db, statements),
    hbar: createHbarQueries(db),
    systemFiles: createSystemFileQueries(db),
    network: createNetworkQueries(db),
    feeFacts: createFeeFactQueries(db),
    accounts: createAccountQueries(db, statements),
    transactions: createTransactionQueries(db, statements),
    entityExists: createEntityExists(db),
    accountTokens: createAccountTokenQueries(db, statements),
    allowances: createAllowanceQueries(db, statements),
    airdrops: createAirdropQueries(db, statements),
    stakingRewards: createStakingRewardQueries(db, statements),
    topics: createTopicQueries(db, statements),
    schedules: createScheduleQueries(db, statements),
    hooks: createHookQueries(db, statements),
    contracts: createContractQueries(db, statements),
    contractResults: createContractResultQueries(db, statements),
    contractLogs: createContractLogQueries(db, statements),
    contractState: createContractStateQueries(db, statements),
  };
}
