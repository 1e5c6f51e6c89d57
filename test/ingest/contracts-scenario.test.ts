import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, REPO_ROOT, startTestService, type TestService } from "../helpers/service.ts";

/**
 * The `contracts` scenario (fixtures/scenarios/contracts.yaml) through the real service from its record files and
 * sidecars, read back from the index: every fact the scenario states must be where the contracts endpoints read it.
 */
const expected = expectedLedger("contracts");
const compiled = JSON.parse(readFileSync(join(REPO_ROOT, "fixtures/contracts/compiled.json"), "utf8")) as {
  contracts: Record<string, { initcode: string; runtime: string }>;
};

function nsOf(label: string): bigint {
  const step = expected.steps.find((s) => s.label === label);
  if (step === undefined) throw new Error(`no step ${label}`);
  const [seconds, nanos] = step.consensusTimestamp.split(".");
  return BigInt(seconds!) * 1_000_000_000n + BigInt(nanos!);
}

const idOf = (name: string) => BigInt(expected.accounts[name]!.id.split(".")[2]!);

describe("the contracts scenario from record files with sidecars", () => {
  let service: TestService;
  let db: Database.Database;
  let remove: () => void;

  beforeAll(async () => {
    const stream = copyStream(fixtureStream("contracts"));
    remove = stream.remove;
    const dbPath = join(stream.dir, "..", "index.db");
    service = await startTestService({ recordsDir: stream.dir, db: dbPath });
    await service.ingest.settled;
    db = new Database(dbPath, { readonly: true });
    db.defaultSafeIntegers(true);
  });
  afterAll(async () => {
    db?.close();
    await service?.stop();
    remove?.();
  });

  const one = (sql: string, ...params: unknown[]) =>
    db.prepare(sql).get(...params) as Record<string, unknown>;
  const all = (sql: string, ...params: unknown[]) =>
    db.prepare(sql).all(...params) as Array<Record<string, unknown>>;
  const hex = (value: unknown) => Buffer.from(value as Uint8Array).toString("hex");

  it("ingests every file", async () => {
    const readiness = (await service.get("/health/readiness")).body as { status: string };
    expect(readiness.status).toBe("ready");
  });

  it("writes one result per call, create and Ethereum transaction, and one for the contract the factory made", () => {
    const results = all(
      "SELECT contract_id, type, transaction_nonce FROM contract_result ORDER BY consensus_ns",
    );
    expect(results).toHaveLength(15);
    expect(results.filter((r) => r.type === 50n)).toHaveLength(5);
    expect(results.filter((r) => r.transaction_nonce === 1n).map((r) => r.contract_id)).toEqual([
      idOf("child"),
    ]);
  });

  it("keeps a transfer's result, call data, log with three topics and storage writes", () => {
    const t = nsOf("transfer-1");
    const result = one("SELECT * FROM contract_result WHERE consensus_ns = ?", t);
    expect(result.contract_id).toBe(idOf("token"));
    expect(result.sender_id).toBe(idOf("alice"));
    expect(hex(result.function_parameters)).toBe(
      `a9059cbb${"0".repeat(64 - 3)}${idOf("bob").toString(16)}${"0".repeat(62)}64`,
    );
    expect(hex(result.call_result)).toBe(`${"0".repeat(63)}1`);
    expect((result.bloom as Uint8Array).length).toBe(256);
    expect(result.gas_used).toBe(52000n);
    expect(result.gas_consumed).toBe(52000n); // HAPI 0.70: gas consumed is gas used
    const log = one('SELECT * FROM contract_log WHERE consensus_ns = ? AND "index" = 0', t);
    expect(hex(log.topic0)).toBe("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
    expect(hex(log.topic1)).toBe(idOf("alice").toString(16).padStart(4, "0"));
    expect(hex(log.topic2)).toBe(idOf("bob").toString(16).padStart(4, "0"));
    expect(log.topic3).toBeNull();
    expect(log.root_contract_id).toBe(idOf("token"));
    expect(hex(log.transaction_hash)).toBe(hex(result.transaction_hash));
    const writes = all(
      "SELECT hex(value_read) r, hex(value_written) w FROM contract_state_change WHERE consensus_ns = ? ORDER BY r",
      t,
    );
    expect(writes).toEqual([
      { r: "", w: "64" },
      { r: "2710", w: "26AC" },
    ]);
  });

  it("answers a slot's value at any instant with one row of its history", () => {
    const token = idOf("token");
    const aliceSlot = one(
      "SELECT slot FROM contract_state WHERE contract_id = ? AND hex(value) = '2710' AND slot <> ?",
      token,
      Buffer.alloc(32, 0).fill(1, 31),
    ).slot;
    const at = (t: bigint) =>
      hex(
        one(
          "SELECT value FROM contract_state WHERE contract_id = ? AND slot = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)",
          token,
          aliceSlot,
          t,
          t,
        ).value,
      );
    expect(at(nsOf("create-token"))).toBe("2710");
    expect(at(nsOf("transfer-1") - 1n)).toBe("2710");
    expect(at(nsOf("transfer-1"))).toBe("26ac");
    expect(at(nsOf("delete-reverter"))).toBe("26ac");
  });

  it("keeps a revert's status, reason and no logs; its storage read only", () => {
    const t = nsOf("transfer-reverted");
    const result = one("SELECT * FROM contract_result WHERE consensus_ns = ?", t);
    expect(result.transaction_result).toBe(33n); // CONTRACT_REVERT_EXECUTED
    expect(result.error_message).toMatch(/^0x08c379a0/);
    expect(Buffer.from((result.error_message as string).slice(2), "hex").toString("latin1")).toContain(
      "insufficient balance",
    );
    expect((result.bloom as Uint8Array).length).toBe(0);
    expect(one("SELECT count(*) n FROM contract_log WHERE consensus_ns = ?", t).n).toBe(0n);
    const action = one("SELECT * FROM contract_action WHERE consensus_ns = ?", t);
    expect(action.result_data_type).toBe(12n); // revert reason
  });

  it("keeps logs with 0 to 4 topics", () => {
    const logs = all(
      'SELECT topic0, topic1, topic2, topic3 FROM contract_log WHERE consensus_ns = ? ORDER BY "index"',
      nsOf("logs-0-to-4"),
    );
    expect(
      logs.map((l) => [l.topic0, l.topic1, l.topic2, l.topic3].filter((t) => t !== null).length),
    ).toEqual([0, 1, 2, 3, 4]);
  });

  it("creates the factory's child from its child record, with the bytecode of its sidecar", () => {
    const child = idOf("child");
    const make = nsOf("factory-make");
    const entity = one("SELECT * FROM entity WHERE id = ? AND valid_to IS NULL", child);
    expect(entity.type).toBe("CONTRACT");
    expect(entity.created_ns).toBe(make + 1n);
    const code = one("SELECT * FROM contract WHERE id = ?", child);
    expect(hex(code.runtime_bytecode)).toBe(compiled.contracts.Child!.runtime);
    expect(hex(code.initcode)).toBe(compiled.contracts.Child!.initcode);
    expect(one("SELECT created_contract_ids c FROM contract_result WHERE consensus_ns = ?", make).c).toBe(
      `["${child}"]`,
    );
    const actions = all(
      'SELECT call_depth, call_type FROM contract_action WHERE consensus_ns = ? ORDER BY "index"',
      make,
    );
    expect(actions).toEqual([
      { call_depth: 0n, call_type: 1n },
      { call_depth: 1n, call_type: 2n },
    ]);
    expect(
      one("SELECT hex(value) v FROM contract_state WHERE contract_id = ? AND valid_to IS NULL", child).v,
    ).toBe("07");
  });

  it("keeps a created contract's body initcode and sidecar runtime bytecode, and its versions", () => {
    const token = idOf("token");
    const code = one("SELECT * FROM contract WHERE id = ?", token);
    expect(hex(code.initcode)).toBe(compiled.contracts.Token!.initcode);
    expect(hex(code.runtime_bytecode)).toBe(compiled.contracts.Token!.runtime);
    const versions = all(
      "SELECT memo, auto_renew_period, valid_to FROM entity WHERE id = ? ORDER BY valid_from",
      token,
    );
    expect(versions.map((v) => v.memo)).toEqual(["an ERC-20", "renamed ERC-20"]);
    expect(versions[0]!.valid_to).toBe(nsOf("update-token"));
    expect(versions[1]!.auto_renew_period).toBe(2592000n);
    const deleted = one("SELECT * FROM entity WHERE id = ? AND valid_to IS NULL", idOf("reverter"));
    expect(deleted.deleted).toBe(1n);
    expect(deleted.obtainer_id).toBe(idOf("bob"));
  });

  it("decodes each Ethereum transaction type, its hash found in the hash index", () => {
    const rows = all("SELECT * FROM ethereum_transaction ORDER BY consensus_ns");
    expect(rows.map((r) => r.type)).toEqual([0n, 1n, 2n, 4n, 2n]);
    for (const row of rows) {
      const hit = one("SELECT consensus_ns FROM contract_transaction_hash WHERE hash = ?", row.hash);
      expect(hit.consensus_ns).toBe(row.consensus_ns);
      const result = one(
        "SELECT transaction_hash, sender_id FROM contract_result WHERE consensus_ns = ?",
        row.consensus_ns,
      );
      expect(hex(result.transaction_hash)).toBe(hex(row.hash));
      expect(result.sender_id).toBe(idOf("carol"));
    }
    const legacy = rows[0]!;
    expect(hex(legacy.chain_id)).toBe("012a");
    expect(legacy.signature_v).not.toBeNull();
    expect(rows[2]!.nonce).toBe(2n);
    expect(hex(rows[2]!.value)).toBe("0de0b6b3a7640000"); // 1 hbar in weibar
    expect(
      one("SELECT amount FROM contract_result WHERE consensus_ns = ?", rows[2]!.consensus_ns).amount,
    ).toBe(100_000_000n);
    // Call data offloaded to file 0.0.1009: none in the RLP, the file named, the hash that of the whole transaction.
    const offloaded = rows[4]!;
    expect((offloaded.call_data as Uint8Array).length).toBe(0);
    expect(offloaded.call_data_id).toBe(1009n);
  });
});
