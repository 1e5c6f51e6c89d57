/**
 * The contract between the engine and the per-transaction step handlers. A handler reads its step's
 * arguments, resolves names against the ledger and returns the typed part of the transaction body, who must
 * sign, what the network charges, and an `execute` that checks the ledger (throwing `TxFailure` before it
 * changes anything) and then applies the transaction through `Effects`.
 */
import type { proto } from "../proto.ts";
import type { Args } from "./args.ts";
import type { Effects } from "./effects.ts";
import type { KeyRing, ResolvedKey } from "./keys.ts";
import { type Account, type Ledger, type Token, TxFailure } from "./ledger.ts";

export type HandlerContext = {
  ledger: Ledger;
  keys: KeyRing;
  payer: Account;
  /** Consensus time of the transaction. */
  consensusNs: bigint;
};

export type Prepared = {
  /** The typed body, e.g. `{ tokenMint: {...} }`; the engine adds the common fields. */
  body: proto.ITransactionBody;
  /** Keys that sign besides the payer's (their ED25519 leaves do). */
  signers: ResolvedKey[];
  feeTinybars: bigint;
  maxFeeTinybars?: bigint;
  /** A CryptoTransfer's record keeps zero net token amounts; other records drop them. */
  isCryptoTransfer?: boolean;
  execute(fx: Effects): void;
};

export type StepHandler = (args: Args, ctx: HandlerContext) => Prepared;

/** A token a transaction may act on: it exists, is not deleted and not paused. */
export function requireUsableToken(token: Token): void {
  if (token.deleted) throw new TxFailure("TOKEN_WAS_DELETED", token.handle);
  if (token.paused) throw new TxFailure("TOKEN_IS_PAUSED", token.handle);
}

export function requireLiveAccount(account: Account): void {
  if (account.deleted) throw new TxFailure("ACCOUNT_DELETED", account.name);
}

/** The token's key for `role`, or the failure a node returns when the token has none. */
export function requireTokenKey(token: Token, role: keyof Token["keys"], status: string): ResolvedKey {
  const key = token.keys[role];
  if (key === undefined) throw new TxFailure(status, `${token.handle} has no ${role} key`);
  return key;
}
