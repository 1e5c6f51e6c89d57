import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { copyStream, REAL_STREAMS, startTestService, type TestService } from "../helpers/service.ts";

/**
 * The real v6 files (block 6: a ContractCall by 0.0.2 to 0.0.1002 that creates 0.0.1003 in a child ContractCreate,
 * with a sidecar of state changes and bytecode; contracts.md §10) and the real v5 contract files, through the real
 * service, read back from the index it wrote.
 */
const V6 = join(REAL_STREAMS, "v6/record0.0.3");
const SIDECAR = "sidecar/2022-07-13T08_46_11.304284003Z_01.rcd.gz";
const V5_CONTRACTS = join(REAL_STREAMS, "v5-contracts/record0.0.3");
const CALL_NS = 1657701971304284003n;
const CREATE_NS = 1657701971304284004n;

type Readiness = { status: string; reason: string | null; file: string | null; lastBlock: number | null };

describe("contracts from real record streams", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function ingest(
    dir: string,
    sidecars?: "off" | "optional" | "required",
  ): Promise<{ service: TestService; db: Database.Database; readiness: Readiness }> {
    const dbPath = join(dir, "..", "index.db");
    const service = await startTestService({
      recordsDir: dir,
      db: dbPath,
      ...(sidecars === undefined ? {} : { sidecars }),
    });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    const readiness = (await service.get("/health/readiness")).body as Readiness;
    const db = new Database(dbPath, { readonly: true });
    db.defaultSafeIntegers(true);
    cleanups.push(() => {
      db.close();
    });
    return { service, db, readiness };
  }

  function stream(source: string) {
    const copy = copyStream(source);
    cleanups.push(copy.remove);
    return copy.dir;
  }

  it("writes the call's result, the created contract, its bytecode and the state changes of the sidecar", async () => {
    const { db, readiness } = await ingest(stream(V6));
    expect(readiness.status).toBe("ready");
    const results = db.prepare("SELECT * FROM contract_result ORDER BY consensus_ns").all() as Array<
      Record<string, unknown>
    >;
    expect(results.map((r) => [r.contract_id, r.consensus_ns, r.transaction_nonce])).toEqual([
      [1002n, CALL_NS, 0n],
      [1003n, CREATE_NS, 1n],
    ]);
    const call = results[0]!;
    expect(call.gas_used).toBe(800000n);
    expect(call.gas_limit).toBe(1000000n);
    expect(Buffer.from(call.function_parameters as Uint8Array).toString("hex")).toBe("efc81a8c");
    expect((call.call_result as Uint8Array).length).toBe(0);
    expect((call.bloom as Uint8Array).length).toBe(0); // 256 zero bytes are stored empty
    expect(call.created_contract_ids).toBe('["1003"]');
    expect(call.block_number).toBe(6n);
    expect(call.transaction_index).toBe(0n);
    expect(Buffer.from(call.transaction_hash as Uint8Array).toString("hex")).toBe(
      "3af126ef15641b785e3edb5018209959fc6c6b063deaa55a3331c5489cdbe31b",
    );
    // HAPI 0.28 without a CONTRACT_ACTION sidecar: gas consumed is unknown.
    expect(call.gas_consumed).toBeNull();
    expect(
      db
        .prepare("SELECT consensus_ns FROM contract_transaction_hash WHERE hash = ?")
        .pluck()
        .get(call.transaction_hash),
    ).toBe(CALL_NS);

    const contract = db.prepare("SELECT * FROM entity WHERE id = 1003 AND valid_to IS NULL").get() as Record<
      string,
      unknown
    >;
    expect(contract.type).toBe("CONTRACT");
    expect(contract.created_ns).toBe(CREATE_NS);
    expect(contract.memo).toBe("cellar door");
    expect(contract.auto_renew_period).toBe(7776000n);
    expect(contract.max_automatic_token_associations).toBe(10n);
    expect(contract.deleted).toBe(0n);
    const code = db.prepare("SELECT * FROM contract WHERE id = 1003").get() as Record<string, Uint8Array>;
    expect(Buffer.from(code.initcode!).toString("hex")).toMatch(/^6080604052600860005534801560/);
    expect(Buffer.from(code.runtime_bytecode!).toString("hex")).toMatch(/^608060405260043610603f57/);

    const changes = db
      .prepare(
        "SELECT consensus_ns, contract_id, hex(slot) slot, hex(value_read) r, hex(value_written) w FROM contract_state_change ORDER BY contract_id",
      )
      .all();
    expect(changes).toEqual([
      { consensus_ns: CALL_NS, contract_id: 1002n, slot: "", r: "", w: "03EB" },
      { consensus_ns: CALL_NS, contract_id: 1003n, slot: "", r: "", w: "08" },
    ]);
    const state = db
      .prepare(
        "SELECT contract_id, hex(slot) slot, hex(value) value, valid_from, valid_to FROM contract_state ORDER BY contract_id",
      )
      .all();
    expect(state).toEqual([
      { contract_id: 1002n, slot: "00".repeat(32), value: "03EB", valid_from: CALL_NS, valid_to: null },
      { contract_id: 1003n, slot: "00".repeat(32), value: "08", valid_from: CALL_NS, valid_to: null },
    ]);
  });

  it("reads no sidecar with --sidecars off", async () => {
    const { db, readiness } = await ingest(stream(V6), "off");
    expect(readiness.status).toBe("ready");
    expect(db.prepare("SELECT count(*) FROM contract_result").pluck().get()).toBe(2n);
    expect(db.prepare("SELECT count(*) FROM contract_state_change").pluck().get()).toBe(0n);
    expect(db.prepare("SELECT runtime_bytecode FROM contract WHERE id = 1003").pluck().get()).toBeNull();
  });

  it("skips a missing sidecar when optional, and stops naming it when required", async () => {
    const optional = stream(V6);
    rmSync(join(optional, SIDECAR));
    const skipped = await ingest(optional);
    expect(skipped.readiness.status).toBe("ready");
    expect(skipped.db.prepare("SELECT count(*) FROM contract_state_change").pluck().get()).toBe(0n);

    const required = stream(V6);
    rmSync(join(required, SIDECAR));
    const { readiness } = await ingest(required, "required");
    expect(readiness.status).toBe("stopped");
    expect(readiness.lastBlock).toBe(5);
    expect(readiness.reason).toContain(SIDECAR);
    expect(readiness.reason).toContain("missing sidecar 1");
  });

  it("stops at a sidecar whose content does not match its record file's hash, naming it", async () => {
    const dir = stream(V6);
    const path = join(dir, SIDECAR);
    const content = gunzipSync(readFileSync(path));
    content[content.length - 1]! ^= 0x01;
    writeFileSync(path, gzipSync(content));
    const { readiness } = await ingest(dir);
    expect(readiness.status).toBe("stopped");
    expect(readiness.lastBlock).toBe(5);
    expect(readiness.reason).toContain(SIDECAR);
    expect(readiness.reason).toContain("sidecar hash mismatch");
  });

  it("stops at a sidecar that is not gzip, naming it", async () => {
    const dir = stream(V6);
    writeFileSync(join(dir, SIDECAR), Buffer.from("not a gzip stream"));
    const { readiness } = await ingest(dir);
    expect(readiness.status).toBe("stopped");
    expect(readiness.reason).toContain(SIDECAR);
    expect(readiness.reason).toContain("bad gzip");
  });

  it("writes the results of the real v5 contract files", async () => {
    const dir = stream(V5_CONTRACTS);
    // The two files are not consecutive: the first alone is a stream.
    rmSync(join(dir, "2022-04-28T15_28_40.210859000Z.rcd"));
    rmSync(join(dir, "2022-04-28T15_28_40.210859000Z.rcd_sig"));
    const { db, readiness } = await ingest(dir);
    expect(readiness.status).toBe("ready");
    const results = db.prepare("SELECT count(*) FROM contract_result").pluck().get() as bigint;
    const transactions = db
      .prepare('SELECT count(*) FROM "transaction" WHERE type IN (7, 8, 50)')
      .pluck()
      .get() as bigint;
    expect(results).toBeGreaterThan(0n);
    expect(results).toBeGreaterThanOrEqual(transactions);
  });
});
