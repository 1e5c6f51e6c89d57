import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import type { HandlerContext } from "./context.ts";

/**
 * Moves hbar as the record's transfer list says, whatever the transaction and its status: a failed transaction
 * still charges its fee, and the list holds every hbar movement of the record (fee shares included). `transfers`
 * is that list already read (the transaction index reads it first); without it the record is read here.
 */
export function applyHbarTransfers(
  { item, store }: HandlerContext,
  transfers?: readonly { readonly accountId: bigint; readonly amount: bigint }[],
): void {
  // Without a starting state the ledger still tracks the accounts created in the stream (it decides which).
  const t = item.consensusNs;
  if (transfers !== undefined) {
    for (const { accountId, amount } of transfers) {
      // A zero amount changes no balance (and must not count as a change of an unreleased account).
      if (amount !== 0n) store.hbar.add(t, accountId, amount);
    }
    return;
  }
  const amounts = item.record.transferList?.accountAmounts;
  if (amounts == null || amounts.length === 0) return;
  for (const entry of amounts) {
    const amount = toBigInt(entry.amount);
    if (amount === 0n) continue;
    const accountId = entityIdOf(entry.accountID);
    if (accountId !== null) store.hbar.add(t, accountId, amount);
  }
}
