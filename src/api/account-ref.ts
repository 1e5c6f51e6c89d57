import type { AccountRef } from "../store/account-lookup.ts";
import type { ReadStore } from "../store/read-store.ts";
import { HttpError, notFound } from "./http-errors.ts";

/** Upstream's 404 message for an alias that names no live account (`EntityService.missingAccountAlias`). */
export const NO_ACCOUNT_WITH_ALIAS = "No account with a matching alias found";

/**
 * The entity ID a parsed `{idOrAliasOrEvmAddress}` names. An ID is returned as it is (whether anything has it
 * is the route's question); an EVM address that names no live entity is a 404 `Not found`, an alias that
 * names none a 404 `No account with a matching alias found`, as upstream answers.
 */
export function resolveAccountRef(store: ReadStore, ref: AccountRef): bigint {
  switch (ref.kind) {
    case "id":
      return ref.id;
    case "evm": {
      const id = store.accounts.idByEvmAddress(ref.evmAddress);
      if (id === null) throw notFound();
      return id;
    }
    case "alias": {
      const id = store.accounts.idByAlias(ref.alias);
      if (id === null) throw new HttpError(404, [NO_ACCOUNT_WITH_ALIAS]);
      return id;
    }
  }
}

/** Like `resolveAccountRef`, but null instead of a 404 (filters, where naming nobody matches nothing). */
export function findAccountRef(store: ReadStore, ref: AccountRef): bigint | null {
  switch (ref.kind) {
    case "id":
      return ref.id;
    case "evm":
      return store.accounts.idByEvmAddress(ref.evmAddress);
    case "alias":
      return store.accounts.idByAlias(ref.alias);
  }
}
