/**
 * Where the Java service's account routes meet the index: upstream `EntityService.lookup` turns the path's
 * account reference into an entity ID, looking up only addresses and aliases.
 */
import type { AccountRef } from "../../store/account-lookup.ts";
import type { ReadStore } from "../../store/read-store.ts";
import { javaNotFound } from "./errors.ts";

/** An ID as it is (never looked up: an unknown one simply owns nothing); an address or alias to its live entity, or 404. */
export function lookupJavaAccount(store: ReadStore, ref: AccountRef): bigint {
  const id =
    ref.kind === "id"
      ? ref.id
      : ref.kind === "evm"
        ? store.accounts.idByEvmAddress(ref.evmAddress)
        : store.accounts.idByAlias(ref.alias);
  if (id === null) throw javaNotFound("No account found for the given ID");
  return id;
}

/** The request's path without its query: the base of the Java service's `links.next`. */
export const pathOfUrl = (url: string): string => url.split("?", 1)[0] ?? url;
