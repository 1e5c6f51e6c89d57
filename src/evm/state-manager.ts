import type { AccountFields, StateManagerInterface, StorageDump } from "@ethereumjs/common";
import { Account, type Address, bytesToHex, KECCAK256_NULL } from "@ethereumjs/util";
import { keccak256 } from "../streams/keccak.ts";
import type { StateView } from "./state-view.ts";

type Layer = {
  /** Address (`0x…`) → account as the call changed it (undefined: deleted). */
  accounts: Map<string, Account | undefined>;
  code: Map<string, Uint8Array>;
  /** `address:key` → value (shortest form). */
  storage: Map<string, Uint8Array>;
  /** Addresses whose whole storage the call cleared (a contract created over an address). */
  cleared: Set<string>;
};

const emptyLayer = (): Layer => ({
  accounts: new Map(),
  code: new Map(),
  storage: new Map(),
  cleared: new Set(),
});

const copyLayer = (layer: Layer): Layer => ({
  accounts: new Map(
    [...layer.accounts].map(([key, account]) => [key, account === undefined ? undefined : copy(account)]),
  ),
  code: new Map(layer.code),
  storage: new Map(layer.storage),
  cleared: new Set(layer.cleared),
});

const copy = (account: Account): Account =>
  new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);

/** The value without its leading zero bytes, as the EVM's SSTORE writes it. */
function shortest(value: Uint8Array): Uint8Array {
  let start = 0;
  while (start < value.length && value[start] === 0) start++;
  return start === 0 ? value : value.subarray(start);
}

/**
 * The EVM's state during one call: the index's view at the block asked, under layers of the call's own writes
 * (one per checkpoint, so a reverted frame drops its writes). Nothing ever reaches the index.
 */
export class IndexStateManager implements StateManagerInterface {
  private readonly layers: Layer[] = [emptyLayer()];
  readonly originalStorageCache: StateManagerInterface["originalStorageCache"];
  /** Per call: the value of each slot before the call wrote it (SSTORE gas and refunds). */
  private readonly originals = new Map<string, Uint8Array>();

  constructor(private readonly view: StateView) {
    this.originalStorageCache = {
      get: async (address, key) => {
        const memo = `${address.toString()}:${bytesToHex(key)}`;
        let value = this.originals.get(memo);
        if (value === undefined) {
          value = this.baseStorage(address, key);
          this.originals.set(memo, value);
        }
        return value;
      },
      clear: () => this.originals.clear(),
    };
  }

  private get top(): Layer {
    return this.layers[this.layers.length - 1]!;
  }

  private baseStorage(address: Address, key: Uint8Array): Uint8Array {
    const account = this.view.account(address.bytes);
    if (account === undefined || account.type !== "CONTRACT") return new Uint8Array(0);
    return shortest(this.view.storage(account.id, key));
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = address.toString();
    if (this.top.accounts.has(key)) {
      const account = this.top.accounts.get(key);
      return account === undefined ? undefined : copy(account);
    }
    const base = this.view.account(address.bytes);
    if (base === undefined) return undefined;
    const codeHash = base.code.length === 0 ? KECCAK256_NULL : keccak256(base.code);
    return new Account(base.nonce, base.balanceWei, undefined, codeHash);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    this.top.accounts.set(address.toString(), account === undefined ? undefined : copy(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    this.top.accounts.set(address.toString(), undefined);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    if (fields.nonce !== undefined) account.nonce = fields.nonce;
    if (fields.balance !== undefined) account.balance = fields.balance;
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash;
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    this.top.code.set(address.toString(), value);
    await this.modifyAccountFields(address, { codeHash: keccak256(value) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = address.toString();
    const written = this.top.code.get(key);
    if (written !== undefined) return written;
    if (this.top.accounts.has(key) && this.top.accounts.get(key) === undefined) return new Uint8Array(0);
    return this.view.account(address.bytes)?.code ?? new Uint8Array(0);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const name = address.toString();
    const written = this.top.storage.get(`${name}:${bytesToHex(key)}`);
    if (written !== undefined) return written;
    if (this.top.cleared.has(name)) return new Uint8Array(0);
    return this.baseStorage(address, key);
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.top.storage.set(`${address.toString()}:${bytesToHex(key)}`, shortest(value));
  }

  async clearStorage(address: Address): Promise<void> {
    const name = address.toString();
    for (const key of [...this.top.storage.keys()]) {
      if (key.startsWith(`${name}:`)) this.top.storage.delete(key);
    }
    this.top.cleared.add(name);
  }

  async checkpoint(): Promise<void> {
    this.layers.push(copyLayer(this.top));
  }

  async commit(): Promise<void> {
    const top = this.layers.pop()!;
    this.layers[this.layers.length - 1] = top;
  }

  async revert(): Promise<void> {
    if (this.layers.length > 1) this.layers.pop();
  }

  async getStateRoot(): Promise<Uint8Array> {
    throw new Error("state roots are not kept: the index has no Merkle trie");
  }

  async setStateRoot(): Promise<void> {
    throw new Error("state roots are not kept: the index has no Merkle trie");
  }

  async hasStateRoot(): Promise<boolean> {
    return false;
  }

  async dumpStorage(): Promise<StorageDump> {
    return {};
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return new IndexStateManager(this.view);
  }
}
