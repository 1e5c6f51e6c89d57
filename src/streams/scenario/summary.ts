/**
 * `expected.json`: the simulator's own account of the ledger it built, so end-to-end tests can name things
 * (`tokens.GOLD.id`) and check results against what the simulator decided rather than against constants.
 * int64 values are strings; ids are `0.0.num`; timestamps are `seconds.nanos` as the REST API prints them.
 */
import type { Ledger, TokenKeyRole } from "./ledger.ts";
import { formatNs } from "./pb.ts";
import type { ScenarioSettings } from "./scenario-file.ts";

export type StepSummary = {
  index: number;
  type: string;
  label?: string;
  status: string;
  consensusTimestamp: string;
  transactionId: string;
  /** The account or token the transaction created. */
  entityId?: string;
  serialNumbers?: string[];
  /** Preceding child transactions (auto-created accounts), with the account each created. */
  children?: { consensusTimestamp: string; nonce: number; entityId?: string }[];
};

export type AccountSummary = {
  id: string;
  balance: string;
  deleted: boolean;
  memo: string;
  /** Hex of the account's protobuf `Key`. */
  key: string;
  evmAddress: string | null;
  alias: string | null;
};

export type TokenSummary = {
  id: string;
  type: "FUNGIBLE_COMMON" | "NON_FUNGIBLE_UNIQUE";
  name: string;
  symbol: string;
  memo: string;
  decimals: number;
  treasury: string;
  totalSupply: string;
  maxSupply: string;
  supplyType: "FINITE" | "INFINITE";
  deleted: boolean;
  paused: boolean;
  createdTimestamp: string;
  expirySeconds: string;
  autoRenewAccount: string | null;
  autoRenewPeriod: string;
  /** Hex of each key's protobuf `Key`, by role. */
  keys: Partial<Record<TokenKeyRole, string>>;
  customFeeCount: number;
  /** Associated accounts and their balance (units, or number of NFTs). */
  balances: Record<string, string>;
  /** Live NFTs by serial (burned and wiped ones are gone). */
  nfts?: Record<string, { owner: string; metadata: string; spender: string | null }>;
};

export type BlockSummary = {
  number: string;
  name: string;
  count: number;
  from: string;
  to: string;
  previousHash: string;
  hash: string;
};

export type LedgerSummary = {
  scenario: string;
  description: string;
  hapiVersion: string;
  operator: string;
  accounts: Record<string, AccountSummary>;
  tokens: Record<string, TokenSummary>;
  steps: StepSummary[];
  blocks?: BlockSummary[];
};

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const id = (num: bigint) => `0.0.${num}`;

export function summarizeLedger(
  settings: ScenarioSettings,
  ledger: Ledger,
  steps: StepSummary[],
): LedgerSummary {
  const accounts: Record<string, AccountSummary> = {};
  for (const account of ledger.accounts.values()) {
    accounts[account.name] = {
      id: id(account.num),
      balance: account.balance.toString(),
      deleted: account.deleted,
      memo: account.memo,
      key: hex(account.key.bytes),
      evmAddress: account.evmAddress === null ? null : `0x${hex(account.evmAddress)}`,
      alias: account.alias === null ? null : hex(account.alias),
    };
  }
  const tokens: Record<string, TokenSummary> = {};
  for (const token of ledger.tokens.values()) {
    const balances: Record<string, string> = {};
    for (const [account, tokenNum, rel] of ledger.allRels()) {
      if (tokenNum === token.num) balances[id(account)] = rel.balance.toString();
    }
    const keys: Partial<Record<TokenKeyRole, string>> = {};
    for (const [role, key] of Object.entries(token.keys)) keys[role as TokenKeyRole] = hex(key.bytes);
    const summary: TokenSummary = {
      id: id(token.num),
      type: token.type === "nft" ? "NON_FUNGIBLE_UNIQUE" : "FUNGIBLE_COMMON",
      name: token.name,
      symbol: token.symbol,
      memo: token.memo,
      decimals: token.decimals,
      treasury: id(token.treasury),
      totalSupply: token.totalSupply.toString(),
      maxSupply: token.maxSupply.toString(),
      supplyType: token.finite ? "FINITE" : "INFINITE",
      deleted: token.deleted,
      paused: token.paused,
      createdTimestamp: formatNs(token.createdNs),
      expirySeconds: token.expirySeconds.toString(),
      autoRenewAccount: token.autoRenewAccount === 0n ? null : id(token.autoRenewAccount),
      autoRenewPeriod: token.autoRenewPeriodSeconds.toString(),
      keys,
      customFeeCount: token.customFees.length,
      balances,
    };
    if (token.type === "nft") {
      summary.nfts = {};
      for (const [serial, nft] of token.nfts) {
        summary.nfts[serial.toString()] = {
          owner: id(nft.owner),
          metadata: Buffer.from(nft.metadata).toString("base64"),
          spender: nft.spender === 0n ? null : id(nft.spender),
        };
      }
    }
    tokens[token.handle] = summary;
  }
  const { major, minor, patch } = settings.hapiVersion;
  return {
    scenario: settings.name,
    description: settings.description,
    hapiVersion: `${major}.${minor}.${patch}`,
    operator: "0.0.2",
    accounts,
    tokens,
    steps,
  };
}
