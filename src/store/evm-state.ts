import { encodeEntityId } from "../ids.ts";
import { toBigInt } from "../streams/long.ts";
import type { proto } from "../streams/proto.ts";
import { parseExchangeRateSet } from "../streams/system-file-contents.ts";
import type { Db } from "./db.ts";
import { createEvmTokenQueries, type EvmTokenQueries } from "./evm-tokens.ts";
import { createHbarQueries } from "./hbar-balances.ts";
import { createSystemFileQueries } from "./system-files.ts";

/** One rate of file 0.0.112: `hbarEquiv` hbars are worth `centEquiv` cents until `expirationSeconds`. */
export type EvmExchangeRate = { hbarEquiv: bigint; centEquiv: bigint; expirationSeconds: bigint };

/** The current and next rates of file 0.0.112 as one version held them. */
export type EvmExchangeRates = { current: EvmExchangeRate; next: EvmExchangeRate };

const EXCHANGE_RATE_FILE = encodeEntityId(0n, 0n, 112n);

/** An absent rate reads as zeros, as Java's default instance does. */
function evmRate(rate: proto.IExchangeRate | null | undefined): EvmExchangeRate {
  return {
    hbarEquiv: BigInt(rate?.hbarEquiv ?? 0),
    centEquiv: BigInt(rate?.centEquiv ?? 0),
    expirationSeconds: toBigInt(rate?.expirationTime?.seconds),
  };
}

/** An account or contract as it stood at one instant, as the EVM sees it (before unit conversion). */
export type EvmEntityRow = {
  id: bigint;
  type: string;
  /** The entity's own EVM address (CREATE2, Ethereum-created, or an ECDSA account's alias), when it has one. */
  evmAddress: Uint8Array | null;
  /** The Ethereum nonce; the index keeps only its latest value (entity nonces are not versioned). */
  nonce: bigint;
};

/** A block of the index: what the EVM's block values and the state instant come from. */
export type EvmBlockRow = {
  number: bigint;
  consensusStart: bigint;
  consensusEnd: bigint;
  /** 96 lower-case hex digits. */
  hash: string;
};

/**
 * The reads contract execution makes of the index (the `evm` layer's state view), each one seek: an entity version
 * at an instant on the `entity` key, an address on the current-address index (addresses never change once set),
 * the hbar balance history, a contract's runtime bytecode, a slot's version on the `contract_state` key, and
 * blocks by number. Every read takes the instant explicitly: the view is "the ledger as of the end of one block".
 */
export type EvmStateQueries = {
  /** The entity's version valid at `atNs` (inclusive), if it existed then and was not deleted. */
  entityAt(id: bigint, atNs: bigint): EvmEntityRow | undefined;
  /** The id of the live entity whose `evm_address` or alias is these 20 bytes (current versions), if any. */
  idByEvmAddress(address: Uint8Array): bigint | null;
  /** The hbar balance in tinybars at `atNs` (0 when no balance is known). */
  tinybarsAt(id: bigint, atNs: bigint): bigint;
  /** The runtime bytecode a contract's sidecar (or block state change) recorded; empty when none. */
  runtimeBytecode(id: bigint): Uint8Array;
  /** A storage slot's value (32-byte key) at `atNs`: the raw stored bytes, empty when never written. */
  slotAt(contractId: bigint, slot: Uint8Array, atNs: bigint): Uint8Array;
  block(number: bigint): EvmBlockRow | undefined;
  latestBlock(): EvmBlockRow | undefined;
  earliestBlock(): EvmBlockRow | undefined;
  /**
   * File 0.0.112 as of `atNs`, rebuilt as `GET /network/exchangerate?timestamp=lte:atNs` does (the same system-file
   * lookup); undefined when the index holds no version by then.
   */
  exchangeRatesAt(atNs: bigint): EvmExchangeRates | undefined;
  /** The token reads of the token service (0x167) and the token facades. */
  tokens: EvmTokenQueries;
};

type EntityRow = {
  type: string;
  valid_to: bigint | null;
  deleted: bigint | null;
  evm_address: Uint8Array | null;
  alias: Uint8Array | null;
  ethereum_nonce: bigint | null;
};

type BlockRow = { number: bigint; consensus_start: bigint; consensus_end: bigint; hash: string };

const BLOCK_COLUMNS = "number, consensus_start, consensus_end, hash";

export function createEvmStateQueries(db: Db): EvmStateQueries {
  const entityVersion = db.prepare<[bigint, bigint], EntityRow>(
    `SELECT type, valid_to, deleted, evm_address, alias, ethereum_nonce FROM entity
     WHERE id = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const byEvmAddress = db
    .prepare<[Uint8Array], bigint>(
      "SELECT id FROM entity WHERE evm_address = ? AND valid_to IS NULL AND deleted IS NOT 1 LIMIT 1",
    )
    .pluck();
  const byAlias = db
    .prepare<[Uint8Array], bigint>(
      "SELECT id FROM entity WHERE alias = ? AND valid_to IS NULL AND deleted IS NOT 1 LIMIT 1",
    )
    .pluck();
  const code = db
    .prepare<[bigint], Uint8Array | null>("SELECT runtime_bytecode FROM contract WHERE id = ?")
    .pluck();
  const slotVersion = db.prepare<
    [bigint, Uint8Array, bigint],
    { value: Uint8Array; valid_to: bigint | null }
  >(
    `SELECT value, valid_to FROM contract_state
     WHERE contract_id = ? AND slot = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1`,
  );
  const blockByNumber = db.prepare<[bigint], BlockRow>(
    `SELECT ${BLOCK_COLUMNS} FROM record_file WHERE number = ?`,
  );
  const latest = db.prepare<[], BlockRow>(
    `SELECT ${BLOCK_COLUMNS} FROM record_file WHERE number = (SELECT max(number) FROM record_file)`,
  );
  const earliest = db.prepare<[], BlockRow>(
    `SELECT ${BLOCK_COLUMNS} FROM record_file WHERE number = (SELECT min(number) FROM record_file)`,
  );
  const hbar = createHbarQueries(db);
  const systemFiles = createSystemFileQueries(db);
  const tokens = createEvmTokenQueries(db);

  const toBlock = (row: BlockRow | undefined): EvmBlockRow | undefined =>
    row === undefined
      ? undefined
      : {
          number: row.number,
          consensusStart: row.consensus_start,
          consensusEnd: row.consensus_end,
          hash: row.hash,
        };

  return {
    entityAt(id, atNs) {
      const row = entityVersion.get(id, atNs);
      if (row === undefined || (row.valid_to !== null && row.valid_to <= atNs) || row.deleted === 1n) {
        return undefined;
      }
      const alias20 = row.alias !== null && row.alias.length === 20 ? row.alias : null;
      return { id, type: row.type, evmAddress: row.evm_address ?? alias20, nonce: row.ethereum_nonce ?? 0n };
    },
    idByEvmAddress(address) {
      return byEvmAddress.get(address) ?? byAlias.get(address) ?? null;
    },
    tinybarsAt: (id, atNs) => hbar.balanceAt(id, atNs) ?? 0n,
    runtimeBytecode: (id) => code.get(id) ?? new Uint8Array(0),
    slotAt(contractId, slot, atNs) {
      const row = slotVersion.get(contractId, slot, atNs);
      if (row === undefined || (row.valid_to !== null && row.valid_to <= atNs)) return new Uint8Array(0);
      return row.value;
    },
    block: (number) => toBlock(blockByNumber.get(number)),
    latestBlock: () => toBlock(latest.get()),
    earliestBlock: () => toBlock(earliest.get()),
    exchangeRatesAt(atNs) {
      const bounds = { lowerNs: 0n, upperNs: atNs };
      const file = systemFiles.parseSystemFileAsOf(EXCHANGE_RATE_FILE, bounds, parseExchangeRateSet);
      if (file === undefined) return undefined;
      return { current: evmRate(file.value.currentRate), next: evmRate(file.value.nextRate) };
    },
    tokens,
  };
}
