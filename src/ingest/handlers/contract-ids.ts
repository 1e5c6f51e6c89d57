/**
 * A HAPI `ContractID` as an entity id: its number, or an EVM address (long-zero: the number in its last 8 bytes;
 * any other: the current entity with that `evm_address`), as upstream's `EntityIdService.lookup` resolves it.
 */
import type Database from "better-sqlite3";
import { encodeEntityId, entityIdOf } from "../../ids.ts";
import type { WriteStore } from "../../store/write-store.ts";
import { toBigInt } from "../../streams/long.ts";
import type { proto } from "../../streams/proto.ts";

const EVM_ADDRESS_BYTES = 20;
const LONG_ZERO_PREFIX = 12;

const lookups = new WeakMap<WriteStore, Database.Statement>();

/** The entity id a ContractID names; null when it names none the index knows. */
export function resolveContractId(store: WriteStore, id: proto.IContractID): bigint | null {
  const address = id.evmAddress;
  if (address == null || address.length === 0) return entityIdOf(id);
  if (address.length !== EVM_ADDRESS_BYTES) return null;
  if (address.subarray(0, LONG_ZERO_PREFIX).every((b) => b === 0)) {
    const num = Buffer.from(address).readBigUInt64BE(LONG_ZERO_PREFIX);
    try {
      return encodeEntityId(toBigInt(id.shardNum ?? 0), toBigInt(id.realmNum ?? 0), num);
    } catch {
      return null;
    }
  }
  return entityByEvmAddress(store, address);
}

/** The current entity with that EVM address (rows held back by the writer are written first). */
export function entityByEvmAddress(store: WriteStore, address: Uint8Array): bigint | null {
  let statement = lookups.get(store);
  if (statement === undefined) {
    statement = store.db
      .prepare("SELECT id FROM entity WHERE evm_address = ? AND valid_to IS NULL LIMIT 1")
      .pluck();
    lookups.set(store, statement);
  }
  store.entity.flush();
  return (statement.get(address) as bigint | undefined) ?? null;
}
