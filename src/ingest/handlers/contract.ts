/**
 * ContractCreate, ContractUpdate and ContractDelete: contract entities (type CONTRACT) with history, as upstream's
 * `Contract{Create,Update,Delete}TransactionHandler` set them (contracts.md §2.4). Successful records only.
 */
import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import { proto } from "../../streams/proto.ts";
import { timestampToNs } from "../../time.ts";
import type { HandlerContext } from "./context.ts";
import { hapiAtLeast } from "./context.ts";
import { resolveContractId } from "./contract-ids.ts";
import { keyBytes, publicKeyOfBytes } from "./keys.ts";
import { epochDay, NO_NODE, NO_STAKE_PERIOD } from "./staking.ts";

/** The columns of a contract version before anything sets them (upstream's defaults for a contract row). */
export const CONTRACT_DEFAULTS = {
  type: "CONTRACT",
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
  ethereum_nonce: null,
  obtainer_id: null,
  permanent_removal: null,
  proxy_account_id: null,
} as const;

export function handleContractCreate({ item, store, hapiVersion }: HandlerContext): void {
  const body = item.body.contractCreateInstance!;
  const contractId = entityIdOf(item.record.receipt?.contractID);
  if (contractId === null) return;
  const t = item.consensusNs;
  const result = item.record.contractCreateResult;
  const evmAddress = result?.evmAddress?.value;
  // Without an admin key a contract is its own admin: upstream stores Key{contractID: itself}.
  const key =
    body.adminKey != null
      ? keyBytes(body.adminKey)
      : proto.Key.encode({ contractID: item.record.receipt!.contractID! }).finish();
  const row: Record<string, unknown> = {
    ...CONTRACT_DEFAULTS,
    created_ns: t,
    key,
    public_key: publicKeyOfBytes(key),
    memo: body.memo ?? "",
    auto_renew_period: body.autoRenewPeriod ? toBigInt(body.autoRenewPeriod.seconds) : null,
    evm_address: evmAddress != null && evmAddress.length > 0 ? evmAddress : null,
    max_automatic_token_associations: body.maxAutomaticTokenAssociations ?? 0,
    proxy_account_id: nonZero(entityIdOf(body.proxyAccountID)),
  };
  const autoRenew = nonZero(entityIdOf(body.autoRenewAccountId));
  if (autoRenew !== null) row.auto_renew_account_id = autoRenew;
  if (hapiAtLeast(hapiVersion, 0, 27)) {
    row.decline_reward = body.declineReward ?? false;
    if (body.stakedNodeId != null) {
      row.staked_node_id = toBigInt(body.stakedNodeId);
      row.stake_period_start = epochDay(t);
    } else if (body.stakedAccountId != null) {
      row.staked_account_id = entityIdOf(body.stakedAccountId) ?? 0n;
      row.stake_period_start = epochDay(t);
    }
  }
  store.entity.create([contractId], t, row);
  store.hbar.open(t, contractId);
  const initcode = body.initcode != null && body.initcode.length > 0 ? body.initcode : null;
  store.contracts.putCode({
    id: contractId,
    fileId: entityIdOf(body.fileID),
    initcode,
    runtimeBytecode: null,
  });
}

export function handleContractUpdate(ctx: HandlerContext): void {
  const { item, hapiVersion } = ctx;
  const body = item.body.contractUpdateInstance!;
  const contractId = contractOfRecord(ctx, body.contractID);
  if (contractId === null) return;
  const patch: Record<string, unknown> = {};
  if (body.expirationTime) patch.expiration_ns = timestampToNs(body.expirationTime);
  if (body.autoRenewAccountId) patch.auto_renew_account_id = nonZero(entityIdOf(body.autoRenewAccountId));
  if (body.autoRenewPeriod) patch.auto_renew_period = toBigInt(body.autoRenewPeriod.seconds);
  if (body.adminKey) {
    const key = keyBytes(body.adminKey);
    patch.key = key;
    patch.public_key = publicKeyOfBytes(key);
  }
  if (body.maxAutomaticTokenAssociations) {
    patch.max_automatic_token_associations = body.maxAutomaticTokenAssociations.value ?? 0;
  }
  if (body.memoWrapper) patch.memo = body.memoWrapper.value ?? "";
  else if (body.memo) patch.memo = body.memo;
  if (body.proxyAccountID) patch.proxy_account_id = nonZero(entityIdOf(body.proxyAccountID));
  if (hapiAtLeast(hapiVersion, 0, 27)) {
    if (body.declineReward) patch.decline_reward = body.declineReward.value ?? false;
    if (body.stakedNodeId != null) {
      Object.assign(patch, { staked_account_id: 0n, staked_node_id: toBigInt(body.stakedNodeId) });
    } else if (body.stakedAccountId != null) {
      Object.assign(patch, {
        staked_account_id: entityIdOf(body.stakedAccountId) ?? 0n,
        staked_node_id: NO_NODE,
      });
    }
    if (body.stakedNodeId != null || body.stakedAccountId != null || body.declineReward)
      patch.stake_period_start = epochDay(item.consensusNs);
  }
  changeContract(ctx, contractId, patch);
}

export function handleContractDelete(ctx: HandlerContext): void {
  const body = ctx.item.body.contractDeleteInstance!;
  const contractId = contractOfRecord(ctx, body.contractID);
  if (contractId === null) return;
  const obtainer = entityIdOf(body.transferAccountID) ?? entityIdOf(body.transferContractID);
  changeContract(ctx, contractId, {
    deleted: true,
    obtainer_id: obtainer,
    permanent_removal: body.permanentRemoval ?? false,
  });
}

/** The contract a call, update or delete names: the receipt's, else the body's (resolved if an EVM address). */
export function contractOfRecord(
  { item, store }: HandlerContext,
  bodyId: proto.IContractID | null | undefined,
): bigint | null {
  const fromReceipt = entityIdOf(item.record.receipt?.contractID);
  if (fromReceipt !== null && fromReceipt !== 0n) return fromReceipt;
  return bodyId == null ? null : resolveContractId(store, bodyId);
}

/** A new version of a contract; one the mirror never saw created starts from the contract defaults. */
function changeContract(ctx: HandlerContext, contractId: bigint, patch: Record<string, unknown>): void {
  const { store, item } = ctx;
  if (!store.entity.change([contractId], item.consensusNs, patch)) {
    store.entity.create([contractId], item.consensusNs, { ...CONTRACT_DEFAULTS, ...patch });
  }
}

function nonZero(id: bigint | null): bigint | null {
  return id === null || id === 0n ? null : id;
}
