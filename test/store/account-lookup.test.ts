import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { openReader } from "../../src/store/db.ts";
import { createReadStore, type ReadStore } from "../../src/store/read-store.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService, type TestService, tempDir } from "../helpers/service.ts";

const SCENARIO = "accounts-and-nfts";
const ledger = expectedLedger(SCENARIO);
const keys = new KeyRing(SCENARIO);
const num = (name: string) => BigInt(ledger.accounts[name]!.id.split(".")[2]!);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

let service: TestService;
let store: ReadStore;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  const stream = copyStream(fixtureStream(SCENARIO));
  cleanups.push(stream.remove);
  const dbDir = tempDir();
  cleanups.push(dbDir.remove);
  const db = join(dbDir.dir, "index.db");
  service = await startTestService({ recordsDir: stream.dir, db });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");
  const reader = openReader(db);
  cleanups.push(() => reader.close());
  store = createReadStore(reader);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("account lookups by EVM address and alias", () => {
  it("finds an account created with an EVM address alias, by address and by alias", () => {
    const ivan = hex(keys.ecdsaKey("ivan").evmAddress);
    expect(store.accounts.idByEvmAddress(ivan)).toBe(num("ivan"));
    expect(store.accounts.idByAlias(ivan)).toBe(num("ivan"));
  });

  it("finds accounts auto-created for key aliases: by the key bytes, and an ECDSA one by its address", () => {
    const kimAlias = hex(keys.resolve({ ed25519: "kim" }).bytes);
    expect(store.accounts.idByAlias(kimAlias)).toBe(num("kim"));
    const leoAlias = hex(keys.resolve({ ecdsa: "leo" }).bytes);
    expect(store.accounts.idByAlias(leoAlias)).toBe(num("leo"));
    expect(store.accounts.idByEvmAddress(hex(keys.ecdsaKey("leo").evmAddress))).toBe(num("leo"));
  });

  it("finds nobody for unknown bytes", () => {
    expect(store.accounts.idByEvmAddress("c3e5f0a0d1b2c3d4e5f60718293a4b5c6d7e8f90")).toBeNull();
    expect(store.accounts.idByAlias("1220aabbccdd")).toBeNull();
  });

  it("seeks on an index, never scanning the entity table", () => {
    for (const sql of [
      "SELECT id FROM entity WHERE evm_address = ? AND valid_to IS NULL AND deleted = 0 LIMIT 2",
      "SELECT id FROM entity WHERE alias = ? AND valid_to IS NULL AND deleted IS NOT 1 LIMIT 2",
    ]) {
      const plan = store.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(Buffer.alloc(20))
        .map((row) => (row as { detail: string }).detail)
        .join("; ");
      expect(plan).toMatch(/SEARCH entity USING INDEX entity_current_(evm_address|alias)/);
    }
  });
});
