import { entityIdOf } from "../../ids.ts";
import { toBigInt } from "../../streams/long.ts";
import type { HandlerContext } from "./context.ts";

/**
 * Moves hbar as the record's transfer list says, whatever the transaction and its status: a failed transaction
 * still charges its fee, and the list holds every hbar movement of the record (fee shares included).
 */
export function applyHbarTransfers({ item, store }: HandlerContext): void {
  const amounts = item.record.transferList?.accountAmounts;
  // Without a starting state the ledger still tracks the accounts created in the stream (it decides which).
  if (amounts == null || amounts.length === 0) return;
  const t = item.consensusNs;
  for (const entry of amounts) {
    const amount = toBigInt(entry.amount);
    // A zero amount changes no balance (and must not count as a change of an unreleased account).
    if (amount === 0n) continue;
    const accountId = entityIdOf(entry.accountID);
    if (accountId !== null) store.hbar.add(t, accountId, amount);
  }
}
