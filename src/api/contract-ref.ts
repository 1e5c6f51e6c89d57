import type { AccountRef } from "../store/account-lookup.ts";
import type { ReadStore } from "../store/read-store.ts";
import { resolveAccountRef } from "./account-ref.ts";
import { HttpError } from "./http-errors.ts";
import type { ContractRef } from "./params/contract-specs.ts";

/** Upstream's 404 for an EVM address that names no live contract (`ContractService.computeContractIdFromString`). */
export function noContractWithAddress(typed: string): HttpError {
  return new HttpError(404, [`No contract with the given evm address 0x${typed} has been found.`]);
}

/**
 * The contract id a parsed `{contractIdOrAddress}` (or `contract.id`) names: an id as it is; an address of a
 * live contract its id; any other address a 404 with upstream's message.
 */
export function resolveContractRef(store: ReadStore, ref: ContractRef): bigint {
  if (ref.kind === "id") return ref.id;
  const id = store.contracts.contractIdByEvmAddress(Buffer.from(ref.evmAddress, "hex"));
  if (id === null) throw noContractWithAddress(ref.typed);
  return id;
}

/** `from` values: ids as they are, an address of no live entity a 404 `Not found`. */
export function resolveSenders(store: ReadStore, refs: readonly AccountRef[]): bigint[] {
  return refs.map((ref) => resolveAccountRef(store, ref));
}
