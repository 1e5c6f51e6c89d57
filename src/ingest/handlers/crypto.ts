/**
 * CryptoCreate, CryptoUpdate and CryptoDelete: the account fields of the entity table, each change a new version,
 * as upstream's `CryptoCreateTransactionHandler` / `CryptoUpdateTransactionHandler` and the CRUD base set them.
 */
import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import { timestampToNs } from "../../time.ts";
import { aliasToEvmAddress, EVM_ADDRESS_BYTES } from "./alias.ts";
import { type HandlerContext, hapiAtLeast } from "./context.ts";
import { keyBytes, publicKeyOfBytes } from "./keys.ts";
import { epochDay, NO_NODE, NO_STAKE_PERIOD } from "./staking.ts";

/**
 * The account columns a version carries before anything sets them: upstream's column defaults for an account
 * row that a transaction names before (or without) a creation the mirror saw.
 */
export const ACCOUNT_DEFAULTS = {
  type: "ACCOUNT",
  created_ns: null,
  deleted: false,
  memo: "",
  key: null,
  public_key: null,
  auto_renew_account_id: null,
  auto_renew_period: null,
  expiration_ns: null,
  alias: null,
  evm_address: null,
  max_automatic_token_associations: null,
  receiver_sig_required: null,
  decline_reward: false,
  staked_account_id: null,
  staked_node_id: NO_NODE,
  stake_period_start: NO_STAKE_PERIOD,
  ethereum_nonce: 0n,
} as const;

/**
 * The version of an account known only from the starting state (a balance snapshot, or the treasury at
 * genesis): upstream's balance initialization inserts such rows with the entity type's default, UNKNOWN, so
 * they are listed by `/balances` but not by `/accounts`, until a CryptoUpdate makes them accounts.
 */
export const START_STATE_ACCOUNT = { ...ACCOUNT_DEFAULTS, type: "UNKNOWN" } as const;

/** CryptoCreate, including the child records of accounts created automatically for an alias. */
export function handleCryptoCreate({ item, store, hapiVersion }: HandlerContext): void {
  const body = item.body.cryptoCreateAccount!;
  const accountId = entityIdOf(item.record.receipt?.accountID);
  if (accountId === null) return;
  const t = item.consensusNs;
  const alias = nonEmpty(item.record.alias) ?? nonEmpty(body.alias);
  const bodyKey = body.key == null ? null : keyBytes(body.key);
  // An account created for a key alias has no key of its own in the body: the alias bytes are its key.
  const key =
    bodyKey !== null && bodyKey.length > 0
      ? bodyKey
      : alias !== null && alias.length > EVM_ADDRESS_BYTES
        ? alias
        : null;
  const row: Record<string, unknown> = {
    ...ACCOUNT_DEFAULTS,
    created_ns: t,
    memo: body.memo ?? "",
    key,
    public_key: publicKeyOfBytes(key),
    auto_renew_period: body.autoRenewPeriod ? toBigInt(body.autoRenewPeriod.seconds) : null,
    alias,
    evm_address: nonEmpty(item.record.evmAddress) ?? (alias === null ? null : aliasToEvmAddress(alias)),
    max_automatic_token_associations: body.maxAutomaticTokenAssociations ?? 0,
    receiver_sig_required: body.receiverSigRequired ?? false,
  };
  // Staking fields exist from HAPI 0.27 on; older records keep the defaults.
  if (hapiAtLeast(hapiVersion, 0, 27)) {
    row.decline_reward = body.declineReward ?? false;
    if (isStaking(body)) {
      Object.assign(row, stakedTo(body));
      row.stake_period_start = epochDay(t);
    }
  }
  store.entity.create([accountId], t, row);
  store.hbar.open(t, accountId);
}

export function handleCryptoUpdate({ item, store, hapiVersion }: HandlerContext): void {
  const body = item.body.cryptoUpdateAccount!;
  const accountId = entityIdOf(body.accountIDToUpdate);
  if (accountId === null) return;
  const patch: Record<string, unknown> = { type: "ACCOUNT", deleted: false };
  if (body.autoRenewPeriod) patch.auto_renew_period = toBigInt(body.autoRenewPeriod.seconds);
  if (body.expirationTime) patch.expiration_ns = timestampToNs(body.expirationTime);
  if (body.key) {
    const key = keyBytes(body.key);
    patch.key = key;
    patch.public_key = publicKeyOfBytes(key);
  }
  if (body.maxAutomaticTokenAssociations) {
    patch.max_automatic_token_associations = body.maxAutomaticTokenAssociations.value ?? 0;
  }
  if (body.memo) patch.memo = body.memo.value ?? "";
  if (body.receiverSigRequiredWrapper) {
    patch.receiver_sig_required = body.receiverSigRequiredWrapper.value ?? false;
  } else if (body.receiverSigRequired === true) {
    // The deprecated plain field of old transactions: only a true value is read.
    patch.receiver_sig_required = true;
  }
  if (hapiAtLeast(hapiVersion, 0, 27)) {
    if (body.declineReward) patch.decline_reward = body.declineReward.value ?? false;
    if (isStaking(body)) {
      // Staking to a node clears the staked account (to 0) and the other way round (to -1).
      Object.assign(patch, { staked_account_id: 0n, staked_node_id: NO_NODE }, stakedTo(body));
    }
    // A new staking election, or a change of heart about rewards, starts a new staking period.
    if (isStaking(body) || body.declineReward) patch.stake_period_start = epochDay(item.consensusNs);
  }
  changeAccount(store, accountId, item.consensusNs, patch);
}

export function handleCryptoDelete({ item, store }: HandlerContext): void {
  const accountId = entityIdOf(item.body.cryptoDelete!.deleteAccountID);
  if (accountId !== null)
    changeAccount(store, accountId, item.consensusNs, { type: "ACCOUNT", deleted: true });
}

/**
 * Applies a change to an account as a new version. An account the mirror never saw created (it existed before
 * the stream began) gets its first version from the change alone, on upstream's column defaults, as the mirror
 * node's partial entity upsert does.
 */
function changeAccount(
  store: HandlerContext["store"],
  accountId: bigint,
  atNs: bigint,
  patch: Record<string, unknown>,
): void {
  if (!store.entity.change([accountId], atNs, patch)) {
    store.entity.create([accountId], atNs, { ...ACCOUNT_DEFAULTS, ...patch });
  }
}

/** The staked node or account of a create or update body whose `stakedId` is set. */
function stakedTo(body: StakingBody) {
  if (body.stakedNodeId != null) return { staked_node_id: toBigInt(body.stakedNodeId) };
  return { staked_account_id: entityIdOf(body.stakedAccountId) ?? 0n };
}

type StakingBody = proto.ICryptoCreateTransactionBody | proto.ICryptoUpdateTransactionBody;

/** Whether the body's `staked_id` oneof is set (read from its members, whatever decoded the body). */
function isStaking(body: StakingBody): boolean {
  return body.stakedNodeId != null || body.stakedAccountId != null;
}

function nonEmpty(bytes: Uint8Array | null | undefined): Uint8Array | null {
  return bytes != null && bytes.length > 0 ? bytes : null;
}
