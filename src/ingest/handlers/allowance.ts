import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";
import { RECORD_PARTS } from "../../streams/record-fields.ts";
import { hasApprovedTransfers } from "../../streams/transaction-body-fields.ts";
import type { HandlerContext } from "./context.ts";
import { applyNftSerialAllowances } from "./nft.ts";

/**
 * CryptoApproveAllowance, as upstream's `CryptoApproveAllowanceTransactionHandler`: hbar and fungible token
 * allowances open a version with `amount` = `amount_granted` = the approved amount (0 revokes); an NFT allowance
 * with `approved_for_all` set opens an "approved for all" version (false revokes); serial allowances go on the
 * NFTs (`applyNftSerialAllowances`). Within one transaction the last entry for the same key wins. An unset owner
 * (or 0.0.0) is the payer; an owner given by alias is not resolved here and the entry is skipped.
 */
export function handleCryptoApproveAllowance(ctx: HandlerContext): void {
  const { item, store } = ctx;
  const body = item.body.cryptoApproveAllowance!;
  const t = item.consensusNs;
  const payer = item.payerId;
  const writes = store.accountRelations;

  for (const approval of lastPerKey(body.cryptoAllowances ?? [], payer, (a) => [a.spender])) {
    const amount = toBigInt(approval.entry.amount);
    writes.cryptoAllowance.create([approval.owner, approval.key[0]], t, {
      amount,
      amount_granted: amount,
      payer_id: payer,
    });
  }
  for (const approval of lastPerKey(body.tokenAllowances ?? [], payer, (a) => [a.spender, a.tokenId])) {
    const amount = toBigInt(approval.entry.amount);
    writes.tokenAllowance.create([approval.owner, ...approval.key], t, {
      amount,
      amount_granted: amount,
      payer_id: payer,
    });
  }
  const forAll = (body.nftAllowances ?? []).filter((a) => a.approvedForAll != null);
  for (const approval of lastPerKey(forAll, payer, (a) => [a.spender, a.tokenId])) {
    writes.nftAllowance.create([approval.owner, ...approval.key], t, {
      approved_for_all: approval.entry.approvedForAll?.value === true,
      payer_id: payer,
    });
  }
  applyNftSerialAllowances(ctx);
}

type ProtoId = Parameters<typeof entityIdOf>[0] & { alias?: Uint8Array | null };

/**
 * The entries to apply, walking the list from its end and keeping the first entry of each (owner, …key) as
 * upstream does; entries whose owner or key ids do not resolve are dropped.
 */
function lastPerKey<E extends { owner?: ProtoId | null }>(
  entries: readonly E[],
  payer: bigint,
  keyOf: (entry: E) => Array<ProtoId | null | undefined>,
): Array<{ entry: E; owner: bigint; key: bigint[] }> {
  const seen = new Set<string>();
  const out: Array<{ entry: E; owner: bigint; key: bigint[] }> = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const owner = ownerOf(entry.owner, payer);
    const key = keyOf(entry).map((id) => entityIdOf(id));
    if (owner === null || key.some((id) => id === null)) continue;
    const ids = key as bigint[];
    const text = [owner, ...ids].join(":");
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ entry, owner, key: ids });
  }
  return out;
}

/** The allowance's owner: the payer when unset; null for an alias (not resolved at ingestion). */
export function ownerOf(owner: ProtoId | null | undefined, payer: bigint): bigint | null {
  if (owner == null) return payer;
  if (owner.alias != null && owner.alias.length > 0) return null;
  const id = entityIdOf(owner);
  return id === null || id === 0n ? payer : id;
}

/**
 * Approved spends, as upstream's `EntityRecordItemListener` emits them: every entry of a CryptoTransfer body
 * marked `is_approval` with a negative amount lowers the remaining `amount` of the allowance the owner (that
 * entry's account) gave the spender, in place on the current version. The spender is the payer; for token
 * transfers of a contract call, the record's contract caller. Hbar spends count only for successful
 * transactions, token spends also for FAIL_INVALID ones (whose transfer lists a node committed), as upstream
 * does. A spend without a current allowance changes nothing.
 */
export function applyApprovedSpends({ item, store }: HandlerContext, tokenListsApply: boolean): void {
  if (item.bodyCase !== "cryptoTransfer") return;
  // Only an approved debit spends an allowance: most transfers have none, and their body is never decoded.
  const { bodyBytes, bodyFields } = item;
  if (bodyFields.dataStart < 0 || !hasApprovedTransfers(bodyBytes, bodyFields.dataStart, bodyFields.dataEnd))
    return;
  const transfer = item.body.cryptoTransfer;
  if (transfer == null) return;
  const writes = store.accountRelations;
  if (item.successful) {
    for (const aa of transfer.transfers?.accountAmounts ?? []) {
      const owner = approvedDebitor(aa);
      if (owner === null) continue;
      spend(writes.cryptoAllowance, [owner, item.payerId], toBigInt(aa.amount));
    }
  }
  if (!tokenListsApply) return;
  const caller =
    (item.recordFields.parts & RECORD_PARTS.contractResult) === 0
      ? null
      : entityIdOf(item.record.contractCallResult?.senderId);
  const spender = (transfer.tokenTransfers ?? []).length > 0 && caller !== null ? caller : item.payerId;
  for (const list of transfer.tokenTransfers ?? []) {
    const tokenId = entityIdOf(list.token);
    if (tokenId === null) continue;
    for (const aa of list.transfers ?? []) {
      const owner = approvedDebitor(aa);
      if (owner === null) continue;
      spend(writes.tokenAllowance, [owner, spender, tokenId], toBigInt(aa.amount));
    }
  }
}

/** The owner whose allowance an approved debit spends; null for other entries (and alias accounts). */
function approvedDebitor(aa: proto.IAccountAmount): bigint | null {
  if (aa.isApproval !== true || toBigInt(aa.amount) >= 0n) return null;
  const owner = entityIdOf(aa.accountID);
  return owner === null || owner === 0n ? null : owner;
}

function spend(
  table: HandlerContext["store"]["accountRelations"]["cryptoAllowance"],
  key: bigint[],
  delta: bigint,
): void {
  const current = table.current(key);
  if (current === undefined) return;
  table.touch(key, { amount: (current.amount as bigint) + delta });
}
