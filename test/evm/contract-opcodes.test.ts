import { request } from "node:http";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpcodeEntry } from "../../src/evm/opcodes/tracer.ts";
import { createContractOpcodesQueries } from "../../src/store/contract-opcodes.ts";
import { expectedLedger, fixtureStream, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { copyStream, startTestService, type TestService } from "../helpers/service.ts";

/**
 * `GET /api/v1/contracts/results/{transactionIdOrHash}/opcodes` over the `contracts` scenario
 * (fixtures/scenarios/contracts.yaml), served with `opcodes: true` (`--opcodes on`): recorded transactions of the
 * compiled fixtures/contracts/Contracts.sol replayed on the state just before them. The trace's storage writes must
 * be the state changes the sidecar recorded, its return value the recorded result. A second service with the
 * default (off) answers upstream's 404. Every 200 body is checked against the OpenAPI document.
 */
const expected = expectedLedger("contracts");
const GZIP = { "Accept-Encoding": "gzip" };

const step = (label: string) => expected.steps.find((s) => s.label === label)!;
const transactionId = (label: string) => step(label).transactionId!;

type Opcode = OpcodeEntry;
type OpcodesBody = {
  address: string;
  contract_id: string | null;
  gas: number;
  failed: boolean;
  return_value: string;
  opcodes: Opcode[];
};
type ContractResultBody = {
  call_result: string;
  gas_limit: number;
  hash: string;
  error_message: string | null;
  state_changes: Array<{ address: string; slot: string; value_read: string; value_written: string | null }>;
};

/** The long-zero EVM address of a `0.0.n` id. */
const longZero = (id: string) => `0x${BigInt(id.split(".")[2]!).toString(16).padStart(40, "0")}`;
const word = (hex: string) => `0x${hex.replace(/^0x/, "").padStart(64, "0")}`;

/** A GET with exactly these headers (fetch would add its own `Accept-Encoding`). */
function get(service: TestService, path: string, headers: Record<string, string> = GZIP) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(service.baseUrl + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on("error", reject);
    req.end();
  });
}

const errorBody = (message: string, detail: string) => ({
  _status: { messages: [{ message, detail, data: "" }] },
});

describe("GET /contracts/results/{id}/opcodes with --opcodes on", () => {
  const scenario = useScenario("contracts", { indexFile: true, config: { opcodes: true } });

  async function trace(id: string, query = "") {
    const path = `/api/v1/contracts/results/${id}/opcodes${query}`;
    const { status, body } = await get(scenario.service, path);
    expect(status, JSON.stringify(body)).toBe(200);
    validateResponse({ path, status, body });
    return body as OpcodesBody;
  }

  async function recorded(id: string) {
    const { status, body } = await get(scenario.service, `/api/v1/contracts/results/${id}`);
    expect(status).toBe(200);
    return body as ContractResultBody;
  }

  it("replays transfer(bob, 100): its SSTOREs are the recorded state changes, its output the recorded result", async () => {
    const id = transactionId("transfer-1");
    const body = await trace(id, "?storage=true&memory=true");
    const result = await recorded(id);
    expect(body.failed).toBe(false);
    expect(body.return_value).toBe(result.call_result);
    expect(body.contract_id).toBe(expected.accounts.token!.id);
    expect(body.address).toBe(longZero(expected.accounts.token!.id));
    // Hedera charges at least 80% of the gas limit; the run itself stays within the limit.
    expect(body.gas).toBeGreaterThanOrEqual((result.gas_limit * 80) / 100);
    expect(body.gas).toBeLessThanOrEqual(result.gas_limit);

    // Each SSTORE's key and value are the two top stack items before it: the entry before the SSTORE shows them.
    const writes = new Map<string, string>();
    body.opcodes.forEach((opcode, i) => {
      if (opcode.op !== "SSTORE") return;
      const before = body.opcodes[i - 1]!.stack;
      writes.set(before[before.length - 1]!, before[before.length - 2]!);
    });
    const recordedWrites = new Map(
      result.state_changes
        .filter((change) => change.value_written !== null)
        .map((change) => [word(change.slot), word(change.value_written!)]),
    );
    expect(writes).toEqual(recordedWrites);
    expect(writes.size).toBe(2);

    // With storage=true the last entry holds every slot the run touched, at its final value.
    const last = body.opcodes[body.opcodes.length - 1]!;
    for (const [slot, value] of recordedWrites) expect(last.storage[slot]).toBe(value);
    expect(last.op).toBe("RETURN");
    expect(body.opcodes[0]).toMatchObject({ pc: 2, op: "PUSH1", depth: 0, gas_cost: 3, reason: null });
    expect(body.opcodes[0]!.stack).toEqual([word("80")]);
    for (const opcode of body.opcodes) {
      for (const item of [...opcode.stack, ...opcode.memory]) expect(item).toMatch(/^0x[0-9a-f]{64}$/);
    }
  });

  it("replays emitLogs: one LOG per recorded log, with its topic count, in order", async () => {
    const id = transactionId("logs-0-to-4");
    const body = await trace(id);
    const result = await recorded(id);
    const time = step("logs-0-to-4").consensusTimestamp;
    const { body: logs } = await get(
      scenario.service,
      `/api/v1/contracts/results/logs?timestamp=${time}&order=asc`,
    );
    expect(body.failed).toBe(false);
    expect(body.return_value).toBe(result.call_result);
    expect(body.contract_id).toBe(expected.accounts.logger!.id);
    const topicCounts = (logs as { logs: Array<{ topics: string[] }> }).logs.map((log) => log.topics.length);
    expect(topicCounts).toEqual([0, 1, 2, 3, 4]);
    const logOps = body.opcodes.filter((o) => o.op.startsWith("LOG"));
    expect(logOps.map((o) => Number(o.op.slice(3)))).toEqual(topicCounts);
  });

  it("replays an Ethereum transaction (type 4) as its ECDSA signer: the recorded revert", async () => {
    const id = transactionId("eth-7702");
    const body = await trace(id);
    const result = await recorded(id);
    expect(body.failed).toBe(true);
    expect(body.contract_id).toBe(expected.accounts.reverter!.id);
    expect(body.return_value).toBe(result.error_message);
    expect(body.opcodes[body.opcodes.length - 1]).toMatchObject({ op: "REVERT", reason: body.return_value });
  });

  it("replays make(7): the CREATE suspended before the child's operations at depth 1, the child's SSTORE recorded", async () => {
    const id = transactionId("factory-make");
    const body = await trace(id);
    const result = await recorded(id);
    expect(body.failed).toBe(false);
    const at = body.opcodes.findIndex((o) => o.op === "CREATE");
    expect(at).toBeGreaterThan(0);
    const create = body.opcodes[at]!;
    expect(create.depth).toBe(0);
    // Recorded as Besu traces a suspended frame: its own pc, the gas left after its whole cost.
    expect(create.gas).toBe(body.opcodes[at - 1]!.gas - create.gas_cost);
    // Its cost holds the gas given to the child (all but 1/64 of what is left), far above CREATE's 32,000.
    expect(create.gas).toBeLessThan(create.gas_cost / 63);
    const back = body.opcodes.findIndex((o, i) => i > at && o.depth === 0);
    const child = body.opcodes.slice(at + 1, back);
    expect(child.length).toBeGreaterThan(0);
    expect(child.every((o) => o.depth === 1)).toBe(true);
    expect(child[child.length - 1]!.op).toBe("RETURN");
    // The operation after the CREATE (the same pc + 1) has the child's unused gas back.
    expect(body.opcodes[back]!.gas).toBeGreaterThan(create.gas);
    const sstore = child.findIndex((o) => o.op === "SSTORE");
    const before = child[sstore - 1]!.stack;
    const childAddress = longZero(expected.accounts.child!.id);
    const childChange = result.state_changes.find((c) => c.address === childAddress)!;
    expect([before[before.length - 1], before[before.length - 2]]).toEqual([
      word(childChange.slot),
      word(childChange.value_written!),
    ]);
  });

  it("finds the transaction by id with one index seek", () => {
    const db = new Database(scenario.indexPath, { readonly: true });
    try {
      const texts: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => {
        texts.push(sql);
        return prepare(sql);
      }) as typeof db.prepare;
      createContractOpcodesQueries(db);
      expect(texts.length).toBe(1);
      const plan = prepare(`EXPLAIN QUERY PLAN ${texts[0]}`).all(0, 0, 0, 0) as Array<{ detail: string }>;
      // The consensus range is on the index entries' rowid: no row is read past the first, no sort.
      expect(plan.map((step) => step.detail)).toEqual([
        "SEARCH transaction USING INDEX transaction_id (valid_start_ns=? AND payer_id=? AND rowid>? AND rowid<?)",
      ]);
    } finally {
      db.close();
    }
  });

  it("finds the same transaction by its hash", async () => {
    const id = transactionId("transfer-1");
    const result = await recorded(id);
    const byId = await trace(id);
    const byHash = await trace(result.hash);
    expect(byHash).toEqual(byId);
    // Defaults: the stack, no memory, no storage.
    expect(byId.opcodes.some((o) => o.stack.length > 0)).toBe(true);
    expect(byId.opcodes.every((o) => o.memory.length === 0 && Object.keys(o.storage).length === 0)).toBe(
      true,
    );
    const bare = await trace(id, "?stack=false");
    expect(bare.opcodes.every((o) => o.stack.length === 0)).toBe(true);
    expect(bare.opcodes.map((o) => [o.pc, o.op, o.gas, o.gas_cost])).toEqual(
      byId.opcodes.map((o) => [o.pc, o.op, o.gas, o.gas_cost]),
    );
  });

  it("replays a revert: failed, the revert data returned and the REVERT's reason", async () => {
    const id = transactionId("transfer-reverted");
    const body = await trace(id);
    const result = await recorded(id);
    expect(body.failed).toBe(true);
    const last = body.opcodes[body.opcodes.length - 1]!;
    expect(last.op).toBe("REVERT");
    expect(last.reason).toBe(body.return_value);
    // Error(string) "insufficient balance", as the record's error message holds it.
    expect(body.return_value.startsWith("0x08c379a0")).toBe(true);
    expect(result.error_message).toBe(body.return_value);
    expect(body.opcodes.filter((o) => o.op === "SSTORE")).toEqual([]);
  });

  it("answers upstream's errors", async () => {
    const base = "/api/v1/contracts/results";
    const notFound = await get(scenario.service, `${base}/0.0.1001-1754049597-000000001/opcodes`);
    validateResponse({ path: `${base}/0.0.1001-1754049597-000000001/opcodes`, ...notFound });
    expect(await get(scenario.service, `${base}/0.0.1001-1754049597-1234567890/opcodes`)).toMatchObject({
      status: 400,
      body: errorBody("Bad Request", "Unsupported ID format: '0.0.1001-1754049597-1234567890'"),
    });
    expect(
      await get(scenario.service, `${base}/${transactionId("transfer-1")}/opcodes?memory=maybe`),
    ).toMatchObject({
      status: 400,
      body: errorBody("Bad Request", "Invalid boolean value 'maybe'"),
    });
    expect(await get(scenario.service, `${base}/${transactionId("transfer-1")}/opcodes`, {})).toMatchObject({
      status: 400,
      body: errorBody(
        "Bad Request",
        "Required request header 'Accept-Encoding' for method parameter type String is not present",
      ),
    });
    expect(
      await get(scenario.service, `${base}/${transactionId("transfer-1")}/opcodes`, {
        "Accept-Encoding": "br",
      }),
    ).toMatchObject({
      status: 406,
      body: errorBody("Not Acceptable", "Accept-Encoding: gzip header is required"),
    });
    expect(await get(scenario.service, `${base}/0.0.1001-1754049597-000000001/opcodes`)).toMatchObject({
      status: 404,
      body: errorBody(
        "Not Found",
        "Transaction not found: TransactionIdParameter[payerAccountId=0.0.1001, validStart=2025-08-01T11:59:57.000000001Z]",
      ),
    });
    const hash = "ab".repeat(32);
    expect(await get(scenario.service, `${base}/0x${hash}/opcodes`)).toMatchObject({
      status: 404,
      body: errorBody(
        "Not Found",
        `Contract transaction hash not found: TransactionHashParameter[hash=0x${hash}]`,
      ),
    });
    // A transaction without a contract result: found, then no result at its time.
    const create = step("create-alice");
    const ns = create.consensusTimestamp.replace(".", "");
    expect(await get(scenario.service, `${base}/${create.transactionId}/opcodes`)).toMatchObject({
      status: 404,
      body: errorBody("Not Found", `Contract result not found: ${BigInt(ns)}`),
    });
    // A shape upstream's ingress does not send to web3: the Node service's 404.
    expect(await get(scenario.service, `${base}/xyz/opcodes`)).toMatchObject({
      status: 404,
      body: { _status: { messages: [{ message: "Not found" }] } },
    });
  });
});

describe("GET /contracts/results/{id}/opcodes off (the default)", () => {
  let service: TestService;
  let remove: () => void;

  beforeAll(async () => {
    // The smallest stream: the answer needs no data, only the request read as upstream reads it.
    const stream = copyStream(fixtureStream("contracts"));
    remove = stream.remove;
    service = await startTestService({ recordsDir: stream.dir, db: join(stream.dir, "..", "index.db") });
  });
  afterAll(async () => {
    await service?.stop();
    remove?.();
  });

  it("answers 404 once the id, flags and header read right, and their 400s before", async () => {
    const path = `/api/v1/contracts/results/${transactionId("transfer-1")}/opcodes`;
    expect(await get(service, path)).toMatchObject({
      status: 404,
      body: errorBody("Not Found", "404 NOT_FOUND"),
    });
    expect(await get(service, path, { "Accept-Encoding": "identity" })).toMatchObject({ status: 404 });
    expect(await get(service, path, {})).toMatchObject({ status: 400 });
    expect(await get(service, `${path}?stack=2`)).toMatchObject({
      status: 400,
      body: errorBody("Bad Request", "Invalid boolean value '2'"),
    });
  });
});
