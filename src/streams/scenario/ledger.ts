/**
 * The simulator's ledger state: what a network remembers between transactions, reduced to what decides
 * receipts and transfer lists. Accounts and tokens draw their numbers from one counter, as on a network.
 */
import type { ResolvedKey } from "./keys.ts";

export const TOKEN_KEY_ROLES = [
  "admin",
  "kyc",
  "freeze",
  "wipe",
  "supply",
  "feeSchedule",
  "pause",
  "metadata",
] as const;
export type TokenKeyRole = (typeof TOKEN_KEY_ROLES)[number];

export type Account = {
  /** The scenario's name for the account. */
  name: string;
  num: bigint;
  key: ResolvedKey;
  balance: bigint;
  deleted: boolean;
  memo: string;
  /** -1 means unlimited (HIP-904). */
  maxAutoAssociations: number;
  usedAutoAssociations: number;
  alias: Uint8Array | null;
  evmAddress: Uint8Array | null;
};

export type TokenRel = { balance: bigint; frozen: boolean; kycGranted: boolean; automatic: boolean };

export type Nft = { owner: bigint; metadata: Uint8Array; spender: bigint };

/** A fixed amount in hbar (`denomination` 0) or in units of a fungible token. */
export type FixedAmount = { amount: bigint; denomination: bigint };

export type CustomFee = { collector: bigint; allCollectorsExempt: boolean } & (
  | ({ kind: "fixed" } & FixedAmount)
  | {
      kind: "fractional";
      numerator: bigint;
      denominator: bigint;
      minimum: bigint;
      maximum: bigint;
      netOfTransfers: boolean;
    }
  | { kind: "royalty"; numerator: bigint; denominator: bigint; fallback: FixedAmount | null }
);

export type TokenType = "fungible" | "nft";

export type Token = {
  /** The scenario's name for the token, e.g. `GOLD`. */
  handle: string;
  num: bigint;
  name: string;
  symbol: string;
  type: TokenType;
  decimals: number;
  treasury: bigint;
  keys: Partial<Record<TokenKeyRole, ResolvedKey>>;
  finite: boolean;
  maxSupply: bigint;
  totalSupply: bigint;
  freezeDefault: boolean;
  customFees: CustomFee[];
  paused: boolean;
  deleted: boolean;
  memo: string;
  autoRenewAccount: bigint;
  autoRenewPeriodSeconds: bigint;
  expirySeconds: bigint;
  metadata: Uint8Array;
  createdNs: bigint;
  nextSerial: bigint;
  nfts: Map<bigint, Nft>;
};

/** A transaction that a node would reject with `status` (a `ResponseCodeEnum` name). */
export class TxFailure extends Error {
  readonly status: string;
  constructor(status: string, detail: string) {
    super(`${status}: ${detail}`);
    this.status = status;
  }
}

/** A scenario that cannot be simulated as written (an unknown name, a bad value, an unexpected failure). */
export class ScenarioError extends Error {}

export class Ledger {
  private nextEntityNum: bigint;
  readonly accounts = new Map<bigint, Account>();
  readonly tokens = new Map<bigint, Token>();
  private readonly accountsByName = new Map<string, Account>();
  private readonly tokensByHandle = new Map<string, Token>();
  private readonly rels = new Map<string, TokenRel>();
  /** `owner/token/spender` for NFT "approved for all" allowances. */
  readonly approvedForAll = new Set<string>();

  constructor(firstEntityNum: bigint) {
    this.nextEntityNum = firstEntityNum;
  }

  /** The number the next new entity will get. */
  peekEntityNum(): bigint {
    return this.nextEntityNum;
  }

  allocateEntityNum(): bigint {
    return this.nextEntityNum++;
  }

  addAccount(account: Account): void {
    if (this.accountsByName.has(account.name) || this.tokensByHandle.has(account.name)) {
      throw new ScenarioError(`the name ${account.name} is already taken`);
    }
    this.accounts.set(account.num, account);
    this.accountsByName.set(account.name, account);
  }

  addToken(token: Token): void {
    if (this.tokensByHandle.has(token.handle) || this.accountsByName.has(token.handle)) {
      throw new ScenarioError(`the name ${token.handle} is already taken`);
    }
    this.tokens.set(token.num, token);
    this.tokensByHandle.set(token.handle, token);
  }

  hasAccount(name: string): boolean {
    return this.accountsByName.has(name);
  }

  account(name: string): Account {
    const account = this.accountsByName.get(name);
    if (account === undefined) throw new ScenarioError(`unknown account ${name}`);
    return account;
  }

  accountByNum(num: bigint): Account {
    const account = this.accounts.get(num);
    if (account === undefined) throw new ScenarioError(`unknown account 0.0.${num}`);
    return account;
  }

  token(handle: string): Token {
    const token = this.tokensByHandle.get(handle);
    if (token === undefined) throw new ScenarioError(`unknown token ${handle}`);
    return token;
  }

  rel(account: bigint, token: bigint): TokenRel | undefined {
    return this.rels.get(`${account}/${token}`);
  }

  setRel(account: bigint, token: bigint, rel: TokenRel): void {
    this.rels.set(`${account}/${token}`, rel);
  }

  deleteRel(account: bigint, token: bigint): void {
    this.rels.delete(`${account}/${token}`);
  }

  /** Every association, as `[account, token, rel]`. */
  *allRels(): Generator<[bigint, bigint, TokenRel]> {
    for (const [key, rel] of this.rels) {
      const [account, token] = key.split("/");
      yield [BigInt(account!), BigInt(token!), rel];
    }
  }

  /**
   * Remembers the whole state and returns a function that puts it back, into the same account and token
   * objects (the engine holds references to some). Used to try a transaction that is declared to fail.
   */
  snapshot(): () => void {
    const nextEntityNum = this.nextEntityNum;
    const accounts = [...this.accounts.values()].map((a) => [a, { ...a }] as const);
    const tokens = [...this.tokens.values()].map(
      (t) =>
        [
          t,
          {
            ...t,
            keys: { ...t.keys },
            customFees: [...t.customFees],
            nfts: new Map([...t.nfts].map(([serial, nft]) => [serial, { ...nft }])),
          },
        ] as const,
    );
    const rels = [...this.rels].map(([key, rel]) => [key, { ...rel }] as const);
    const approvedForAll = [...this.approvedForAll];
    return () => {
      this.nextEntityNum = nextEntityNum;
      this.accounts.clear();
      this.accountsByName.clear();
      for (const [account, saved] of accounts) {
        Object.assign(account, saved);
        this.accounts.set(account.num, account);
        this.accountsByName.set(account.name, account);
      }
      this.tokens.clear();
      this.tokensByHandle.clear();
      for (const [token, saved] of tokens) {
        Object.assign(token, saved);
        this.tokens.set(token.num, token);
        this.tokensByHandle.set(token.handle, token);
      }
      this.rels.clear();
      for (const [key, rel] of rels) this.rels.set(key, rel);
      this.approvedForAll.clear();
      for (const key of approvedForAll) this.approvedForAll.add(key);
    };
  }

  /**
   * The relation a fresh association creates, as a node sets it up: frozen if the token freezes by default,
   * KYC granted only if the token has no KYC key; except that the token's treasury is never frozen and
   * always KYC-granted when associated explicitly (automatic associations make no such exception).
   */
  static newRel(token: Token, automatic: boolean, isTreasury = false): TokenRel {
    const treasuryException = isTreasury && !automatic;
    return {
      balance: 0n,
      frozen: token.keys.freeze !== undefined && token.freezeDefault && !treasuryException,
      kycGranted: token.keys.kyc === undefined || treasuryException,
      automatic,
    };
  }
}
