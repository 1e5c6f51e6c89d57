import type { Db } from "./db.ts";

/**
 * An account as a request names it: its ID, or an EVM address or alias that the index maps to an ID. Plain data
 * (it crosses from the HTTP front's thread to the thread that reads the index).
 */
export type AccountRef =
  | { readonly kind: "id"; readonly id: bigint }
  /** 40 lower-case hex digits, no `0x`: not a long-zero address (those are IDs). */
  | { readonly kind: "evm"; readonly evmAddress: string }
  /** The alias bytes as lower-case hex (a key alias is the protobuf `Key`; an EVM address alias 20 bytes). */
  | { readonly kind: "alias"; readonly alias: string };

/**
 * Maps EVM addresses and aliases to entity IDs, as upstream's `EntityService` does: among current entity
 * versions, the one not deleted whose `evm_address` (resp. `alias`) is the given bytes. Each is one seek on a
 * partial index of current versions (migration 0040).
 */
export type AccountLookup = {
  /** The entity whose EVM address this is and whose `deleted` is false; null when none. */
  idByEvmAddress(evmAddressHex: string): bigint | null;
  /** The entity with this alias that is not deleted (a NULL `deleted` counts as not deleted); null when none. */
  idByAlias(aliasHex: string): bigint | null;
};

/** Two live entities sharing one address or alias: the index is inconsistent (upstream answers 500 too). */
export class AmbiguousAccountError extends Error {}

export function createAccountLookup(db: Db): AccountLookup {
  const byEvm = db
    .prepare("SELECT id FROM entity WHERE evm_address = ? AND valid_to IS NULL AND deleted = 0 LIMIT 2")
    .pluck();
  const byAlias = db
    .prepare("SELECT id FROM entity WHERE alias = ? AND valid_to IS NULL AND deleted IS NOT 1 LIMIT 2")
    .pluck();
  const one = (ids: unknown[], what: string): bigint | null => {
    if (ids.length > 1) throw new AmbiguousAccountError(`Multiple alive entities matching ${what}`);
    return (ids[0] as bigint | undefined) ?? null;
  };
  return {
    idByEvmAddress: (hex) => one(byEvm.all(Buffer.from(hex, "hex")), "evm address"),
    idByAlias: (hex) => one(byAlias.all(Buffer.from(hex, "hex")), "alias"),
  };
}
