import { encodeEntityId } from "../ids.ts";
import type { EvmExchangeRates, EvmStateQueries } from "../store/evm-state.ts";
import { addressHex, longZeroAddress, longZeroParts } from "./address.ts";
import { createHtsLedger, type HtsLedger } from "./hts/ledger.ts";
import { tokenProxyCode } from "./hts/token-proxy.ts";

/** Hedera keeps hbar in tinybars; the EVM sees weibars: 1 tinybar = 10^10 weibar (HIP-410). */
export const WEIBARS_PER_TINYBAR = 10_000_000_000n;

/** An address as the ledger held it at the view's instant. */
export type ViewAccount = {
  /** The entity behind the address. */
  id: bigint;
  /** `CONTRACT`, `ACCOUNT`, `TOKEN`, … (a token's address is its ERC facade, answered by the token service). */
  type: string;
  balanceWei: bigint;
  nonce: bigint;
  /** Runtime bytecode: a contract's own, a token's facade (HIP-719); empty otherwise. */
  code: Uint8Array;
};

/**
 * The ledger as of one instant (the end of the block asked), read lazily from the index and memoized for the
 * call: each address and slot is read at most once, whatever the EVM does with it. Never writes.
 */
export type StateView = {
  readonly atNs: bigint;
  account(address: Uint8Array): ViewAccount | undefined;
  /** A slot's 32-byte key → its value bytes (left-trimmed as stored; empty when zero or never written). */
  storage(contractId: bigint, key: Uint8Array): Uint8Array;
  /** File 0.0.112's current and next rates at the view's instant (undefined when the index has none). */
  exchangeRates(): EvmExchangeRates | undefined;
  /** The token reads of the token service (0x167), at the view's instant. */
  tokenLedger(): HtsLedger;
};

function codeOf(queries: EvmStateQueries, id: bigint, type: string): Uint8Array {
  if (type === "CONTRACT") return queries.runtimeBytecode(id);
  if (type === "TOKEN") return tokenProxyCode(longZeroAddress(id));
  return new Uint8Array(0);
}

export function createStateView(queries: EvmStateQueries, atNs: bigint): StateView {
  const accounts = new Map<string, ViewAccount | undefined>();
  const slots = new Map<string, Uint8Array>();
  let rates: { value: EvmExchangeRates | undefined } | undefined;
  let ledger: HtsLedger | undefined;

  const resolve = (address: Uint8Array): ViewAccount | undefined => {
    let id: bigint | null = null;
    const parts = longZeroParts(address);
    if (parts !== null) {
      const candidate = encodeEntityId(parts.shard, parts.realm, parts.num);
      if (queries.entityAt(candidate, atNs) !== undefined) id = candidate;
    }
    id ??= queries.idByEvmAddress(address);
    if (id === null) return undefined;
    const entity = queries.entityAt(id, atNs);
    if (entity === undefined) return undefined;
    const hasBalance = entity.type === "ACCOUNT" || entity.type === "CONTRACT";
    return {
      id,
      type: entity.type,
      balanceWei: hasBalance ? queries.tinybarsAt(id, atNs) * WEIBARS_PER_TINYBAR : 0n,
      nonce: entity.nonce,
      code: codeOf(queries, id, entity.type),
    };
  };

  return {
    atNs,
    account(address) {
      const key = addressHex(address);
      if (!accounts.has(key)) accounts.set(key, resolve(address));
      return accounts.get(key);
    },
    storage(contractId, key) {
      const memo = `${contractId}:${addressHex(key)}`;
      let value = slots.get(memo);
      if (value === undefined) {
        value = queries.slotAt(contractId, key, atNs);
        slots.set(memo, value);
      }
      return value;
    },
    exchangeRates() {
      rates ??= { value: queries.exchangeRatesAt(atNs) };
      return rates.value;
    },
    tokenLedger() {
      ledger ??= createHtsLedger(queries, atNs);
      return ledger;
    },
  };
}
