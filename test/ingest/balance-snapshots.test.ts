import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeRecordFileV6 } from "../../fixtures/writer/write-record-file.ts";
import { parseCommand } from "../../src/cli/args.ts";
import { BalanceFileReadError } from "../../src/errors.ts";
import { instantOfName } from "../../src/ingest/balance-folder.ts";
import { demoBalancesDir } from "../../src/runtime/assets.ts";
import { openReader } from "../../src/store/db.ts";
import { createHbarQueries } from "../../src/store/hbar-balances.ts";
import { parseBalanceFile } from "../../src/streams/balance-file.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { runCli } from "../helpers/cli.ts";
import { expectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import {
  balancesAt,
  readHbarMoves,
  supplyAt,
  supplyPoints,
  TOTAL_SUPPLY,
  ts,
} from "../helpers/hbar-replay.ts";
import { validateResponse } from "../helpers/openapi.ts";
import {
  copyStream,
  FIXTURE_STREAMS,
  REAL_STREAMS,
  startTestService,
  type TestService,
  tempDir,
} from "../helpers/service.ts";

const REAL = join(REAL_STREAMS, "balances");
const V1_DIR = join(REAL, "v1/balance0.0.3");
const V1_OLDER = "2019-08-30T18_15_00.016002001Z_Balances.csv";
const V1_NEWER = "2019-08-30T18_30_00.010147001Z_Balances.csv";
const V2 = join(REAL, "v2/balance0.0.3/2020-09-22T04_25_00.083212003Z_Balances.csv");
const PB = join(REAL, "proto/2021-03-08T20_15_00Z_Balances.pb.gz");

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Serves `scenario`'s records with a balance folder holding exactly `files`. */
async function serve(
  scenario: string,
  files: string[] | null,
): Promise<{ service: TestService; records: string; balancesDir: string | null }> {
  const stream = copyStream(fixtureStream(scenario));
  cleanups.push(stream.remove);
  let balancesDir: string | null = null;
  if (files !== null) {
    const folder = tempDir();
    cleanups.push(folder.remove);
    for (const file of files) copyFileSync(file, join(folder.dir, file.split("/").at(-1)!));
    balancesDir = folder.dir;
  }
  const service = await startTestService({ recordsDir: stream.dir, balancesDir });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");
  return { service, records: stream.dir, balancesDir };
}

type Readiness = {
  balances: {
    start: { source: string; timestamp: string } | null;
    snapshotsChecked: number;
    snapshotsDisagreeing: number;
    recentChecks: Array<{ file: string; differences: number }>;
  };
};

async function readiness(service: TestService): Promise<Readiness["balances"]> {
  const response = await service.get("/health/readiness");
  validateResponse({ path: "/health/readiness", status: response.status, body: response.body });
  return (response.body as Readiness).balances;
}

async function supply(service: TestService, query = "") {
  const path = `/api/v1/network/supply${query}`;
  const response = await service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

/** Checks the supply now, at the start and at every change against the replay from `startFile`. */
async function expectSupplyFrom(service: TestService, records: string, startFile: string) {
  const snapshot = parseBalanceFile(startFile, readFileSync(startFile));
  const points = supplyPoints(
    {
      consensusNs: snapshot.consensusNs,
      balances: snapshot.accounts.map((a) => [a.accountId, a.hbarTinybars]),
    },
    readHbarMoves(records),
  );
  expect(points.length).toBeGreaterThan(3);
  for (const at of [
    snapshot.consensusNs,
    ...points.map((p) => p.consensusNs + 1n),
    9_000_000_000_000_000_000n,
  ]) {
    const expected = supplyAt(points, at)!;
    const response = await supply(service, `?timestamp=${ts(at)}`);
    expect(response.body).toEqual({
      released_supply: expected.released.toString(),
      timestamp: ts(expected.consensusNs),
      total_supply: TOTAL_SUPPLY.toString(),
    });
  }
  expect((await supply(service, `?timestamp=${ts(snapshot.consensusNs - 1n)}`)).status).toBe(404);
  return snapshot;
}

describe("starting from a real balance file", () => {
  it("v1 CSV: the newest snapshot at or before the first record is the start; an older one is not checked", async () => {
    const { service, records } = await serve("network-supply", [
      join(V1_DIR, V1_OLDER),
      join(V1_DIR, V1_NEWER),
    ]);
    const snapshot = await expectSupplyFrom(service, records, join(V1_DIR, V1_NEWER));
    expect(await readiness(service)).toEqual({
      start: { source: V1_NEWER, timestamp: ts(snapshot.consensusNs) },
      snapshotsChecked: 0,
      snapshotsDisagreeing: 0,
      recentChecks: [],
    });
  });

  it("v2 CSV: hbar and token balances of every listed account start their histories", async () => {
    const { service, records } = await serve("network-supply", [V2]);
    const snapshot = await expectSupplyFrom(service, records, V2);
    expect((await readiness(service)).start?.source).toBe(V2.split("/").at(-1));
    // 0.0.2 held 900 of token 0.0.1004 in the file: the token balance history starts there too.
    for (const query of ["", `&timestamp=${ts(snapshot.consensusNs)}`]) {
      const path = `/api/v1/tokens/0.0.1004/balances?account.id=0.0.2${query}`;
      const response = await service.get(path);
      expect(response.status, response.text).toBe(200);
      validateResponse({ path, status: 200, body: response.body });
      expect((response.body as { balances: unknown[] }).balances).toEqual([
        { account: "0.0.2", balance: 900, decimals: null },
      ]);
    }
    const before = `/api/v1/tokens/0.0.1004/balances?account.id=0.0.2&timestamp=${ts(snapshot.consensusNs - 1n)}`;
    expect(((await service.get(before)).body as { balances: unknown[] }).balances).toEqual([]);
  });

  it("AllAccountBalances .pb.gz: the start, with its token balances", async () => {
    const { service, records } = await serve("network-supply", [PB]);
    await expectSupplyFrom(service, records, PB);
    const snapshot = parseBalanceFile(PB, readFileSync(PB));
    const holder = snapshot.accounts[0]!;
    const token = holder.tokens[0]!;
    const path = `/api/v1/tokens/0.0.${token.tokenId}/balances?account.id=0.0.${holder.accountId}`;
    const response = await service.get(path);
    expect(response.status).toBe(200);
    expect(
      (response.body as { balances: Array<{ balance: number }> }).balances.map((b) => BigInt(b.balance)),
    ).toEqual([token.balance]);
  });
});

describe("without a balance file at or before the first record", () => {
  it("a stream from genesis starts with the treasury holding all 50 billion hbar", async () => {
    const { service, records } = await serve("demo", null);
    const moves = readHbarMoves(records);
    const genesisNs = moves[0]!.consensusNs - 1n;
    const points = supplyPoints({ consensusNs: genesisNs, balances: [[2n, TOTAL_SUPPLY]] }, moves);
    expect((await readiness(service)).start).toEqual({ source: "genesis", timestamp: ts(genesisNs) });
    for (const point of points) {
      const response = await supply(service, `?timestamp=${ts(point.consensusNs)}`);
      expect(response.body).toMatchObject({ released_supply: point.released.toString() });
    }
    expect((await supply(service, `?timestamp=${ts(genesisNs - 1n)}`)).status).toBe(404);
  });

  it("a stream that does not begin at genesis has no supply: 404, and later snapshots are not checked", async () => {
    const ledger = expectedLedger("network-supply") as unknown as {
      balanceSnapshots: Array<{ file: string }>;
    };
    const later = ledger.balanceSnapshots
      .slice(1)
      .map((s) => join(FIXTURE_STREAMS, "network-supply/balance0.0.3", s.file));
    const { service } = await serve("network-supply", later);
    const response = await supply(service);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      _status: { messages: [{ message: "Not Found", detail: "Network supply not found" }] },
    });
    expect(await readiness(service)).toMatchObject({ start: null, snapshotsChecked: 0 });
  });

  it("the tokens scenario (block 5000, no folder) has no supply either", async () => {
    const { service } = await serve("tokens", null);
    expect((await supply(service, "?q=circulating")).status).toBe(404);
  });
});

describe("a start that rolls back", () => {
  it("is not reported: readiness names a start only once it is committed", async () => {
    // The demo's first file (block 0, from genesis) rewritten with its second record undecodable: the genesis
    // start is taken before the file is applied, then the file fails and everything rolls back.
    const stream = copyStream(fixtureStream("demo"));
    cleanups.push(stream.remove);
    const first = expectedLedger("demo").blocks[0]!.name;
    const file = readRecordFile(first, readFileSync(join(stream.dir, first)));
    expect(file.items.length).toBeGreaterThanOrEqual(2);
    const items = file.items.map((item, index) =>
      index === 1 ? { ...item, recordBytes: Uint8Array.of(0x08, 0x05) } : item,
    );
    const written = writeRecordFileV6({
      hapiVersion: file.hapiVersion!,
      blockNumber: 0n,
      startRunningHash: new Uint8Array(48),
      items,
    });
    writeFileSync(join(stream.dir, first), written.gzipBytes);
    const service = await startTestService({ recordsDir: stream.dir, waitSignatures: false });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    expect(service.ingest.status().state).toBe("stopped");
    expect(service.ingest.status().file).toBe(first);
    expect((await readiness(service)).start).toBeNull();
    expect((await supply(service)).status).toBe(404);
  });
});

describe("the bundled demo", () => {
  it("defaults --balances to its own folder, which starts the balances and agrees later", async () => {
    const command = parseCommand(["serve"], {});
    expect(command.name === "serve" && command.config.balancesDir).toBe(demoBalancesDir());
    const demo = await startTestService({
      recordsDir: fixtureStream("demo"),
      balancesDir: demoBalancesDir(),
    });
    cleanups.push(() => demo.stop());
    await demo.ingest.settled;
    const balances = await readiness(demo);
    expect(balances.start?.source).toMatch(/_Balances\.pb\.gz$/);
    expect(balances.snapshotsChecked).toBe(1);
    expect(balances.snapshotsDisagreeing).toBe(0);
    expect((await supply(demo)).status).toBe(200);
  });

  it("takes --balances over MIRRORLITE_BALANCES, and no default once --records is given", () => {
    const config = (argv: string[], env: NodeJS.ProcessEnv) => {
      const command = parseCommand(argv, env);
      return command.name === "serve" || command.name === "ingest" ? command.config.balancesDir : null;
    };
    expect(config(["serve", "--balances", "/a"], { MIRRORLITE_BALANCES: "/b" })).toBe("/a");
    expect(config(["serve"], { MIRRORLITE_BALANCES: "/b" })).toBe("/b");
    expect(config(["serve", "--records", "/r"], {})).toBeNull();
    expect(config(["ingest", "--records", "/r", "--db", "x.db", "--balances", "/c"], {})).toBe("/c");
  });
});

describe("a resumed index", () => {
  it("continues the balances exactly after a restart mid-stream and reports its snapshots again", async () => {
    const folder = tempDir();
    cleanups.push(folder.remove);
    const db = join(folder.dir, "index.db");
    const balancesDir = join(FIXTURE_STREAMS, "network-supply/balance0.0.3");
    const source = fixtureStream("network-supply");
    // The first half of the stream, ingested by one process...
    const records = join(folder.dir, "record0.0.3");
    mkdirSync(records);
    const names = readdirSync(source).sort();
    const half = names.slice(0, Math.floor(names.length / 2) & ~1);
    for (const name of half) copyFileSync(join(source, name), join(records, name));
    const result = runCli(["ingest", "--records", records, "--db", db, "--balances", balancesDir]);
    expect(result.status, result.stderr).toBe(0);
    // ...the rest by the next one, which starts with empty caches.
    for (const name of names.slice(half.length)) copyFileSync(join(source, name), join(records, name));
    const service = await startTestService({ recordsDir: records, db, balancesDir });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    const balances = await readiness(service);
    expect(balances.start?.source).toMatch(/_Balances\.pb\.gz$/);
    expect(balances).toMatchObject({ snapshotsChecked: 2, snapshotsDisagreeing: 1 });
    await expectSupplyFrom(service, records, join(balancesDir, balances.start!.source));
  });
});

describe("instantOfName", () => {
  it.each([
    ["2019-08-30T18_15_00.016002001Z_Balances.csv", 1567188900016002001n],
    ["2021-03-08T20_15_00Z_Balances.pb.gz", 1615234500000000000n],
    ["2021-03-08T20_15_00.5Z_Balances.pb", 1615234500500000000n],
    ["balances_Balances.csv", null],
    ["2021-13-08T20_15_00Z_Balances.csv", null],
  ])("%s → %s", (name, instant) => {
    expect(instantOfName(name)).toBe(instant);
  });
});

describe("snapshots written after start-up", () => {
  it("are compared once seen, and a malformed one is logged without stopping ingestion", async () => {
    const later = (
      expectedLedger("network-supply") as unknown as {
        balanceSnapshots: Array<{ label: string; file: string }>;
      }
    ).balanceSnapshots.filter((s) => s.label !== "start");
    const source = join(FIXTURE_STREAMS, "network-supply/balance0.0.3");
    const started = await serve("network-supply", [join(source, startFileOf().file)]);
    const { service } = started;
    const balancesDir = started.balancesDir!;
    expect(await readiness(service)).toMatchObject({
      start: { source: startFileOf().file },
      snapshotsChecked: 0,
    });
    // The node writes two more balance files (and one that is cut short) while mirrorlite runs.
    for (const { file } of later) copyFileSync(join(source, file), join(balancesDir, file));
    writeFileSync(
      join(balancesDir, "2024-07-01T09_00_14.000000000Z_Balances.csv"),
      "TimeStamp:2024-07-01T09:00:14Z\n0,0",
    );
    const deadline = Date.now() + 30_000;
    while ((await readiness(service)).snapshotsChecked < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const balances = await readiness(service);
    expect(balances).toMatchObject({ snapshotsChecked: 2, snapshotsDisagreeing: 1 });
    expect(service.ingest.status().state).toBe("ready");
  });
});

describe("a balance folder that only grows (a node writes a snapshot every 15 minutes)", () => {
  const demoBalances = readdirSync(demoBalancesDir()).sort();
  const [DEMO_START, DEMO_LATER] = demoBalances as [string, string];

  /** A copy of the demo's balance folder plus `extra` files (name → content). */
  function demoFolder(extra: Record<string, string>): string {
    const folder = tempDir();
    cleanups.push(folder.remove);
    for (const name of demoBalances) copyFileSync(join(demoBalancesDir(), name), join(folder.dir, name));
    for (const [name, content] of Object.entries(extra)) writeFileSync(join(folder.dir, name), content);
    return folder.dir;
  }

  it("costs start-up no reading: only the starting snapshot is read, later ones when they are compared", async () => {
    expect(DEMO_START).toMatch(/_Balances\.pb\.gz$/);
    // Malformed snapshots a node never wrote: one inside the stream's time (compared, and so read, once the
    // index covers it) and one after it (never needed, never read).
    const inside = "2024-06-01T08_00_30.000000000Z_Balances.csv";
    const after = "2024-06-01T09_00_00.000000000Z_Balances.csv";
    const balancesDir = demoFolder({ [inside]: "not a balance file", [after]: "nor this" });
    const service = await startTestService({ recordsDir: fixtureStream("demo"), balancesDir });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    expect(service.ingest.status().state).toBe("ready");
    expect(await readiness(service)).toMatchObject({
      start: { source: DEMO_START },
      snapshotsChecked: 1,
      snapshotsDisagreeing: 0,
      recentChecks: [{ file: DEMO_LATER }],
    });
  });

  it("compares snapshots once the catch-up is done, not between its commits", () => {
    const db = join(tempDir().dir, "index.db");
    const result = runCli([
      "ingest",
      "--records",
      fixtureStream("demo"),
      "--db",
      db,
      "--balances",
      demoBalancesDir(),
      "--log-format",
      "json",
      "--commit-transactions",
      "1",
    ]);
    expect(result.status, result.stderr).toBe(0);
    const messages = result.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    const agrees = messages.indexOf("balance snapshot agrees with the indexed balances");
    expect(agrees).toBeGreaterThan(0);
    expect(messages.lastIndexOf("ingested record file")).toBeLessThan(agrees);
  });

  it("does not read a snapshot again after a restart: the index keeps how each compared", async () => {
    const balancesDir = demoFolder({});
    const records = copyStream(fixtureStream("demo"));
    cleanups.push(records.remove);
    const db = join(dirname(records.dir), "index.db");
    const first = runCli(["ingest", "--records", records.dir, "--db", db, "--balances", balancesDir]);
    expect(first.status, first.stderr).toBe(0);
    // Both snapshots were read by the first run; damaged now, a second run must not need them.
    for (const name of [DEMO_START, DEMO_LATER]) writeFileSync(join(balancesDir, name), "damaged");
    const service = await startTestService({ recordsDir: records.dir, db, balancesDir });
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    expect(service.ingest.status().state).toBe("ready");
    expect(await readiness(service)).toMatchObject({
      start: { source: DEMO_START },
      snapshotsChecked: 1,
      snapshotsDisagreeing: 0,
      recentChecks: [{ file: DEMO_LATER, differences: 0 }],
    });
  });
});

describe("the hbar balance history", () => {
  it("holds every account's balance at every instant, inside record files too, as the transfer lists say", async () => {
    const folder = tempDir();
    cleanups.push(folder.remove);
    const db = join(folder.dir, "index.db");
    const records = fixtureStream("network-supply");
    const start = join(FIXTURE_STREAMS, "network-supply/balance0.0.3", startFileOf().file);
    const result = runCli(["ingest", "--records", records, "--db", db, "--balances", dirname(start)]);
    expect(result.status, result.stderr).toBe(0);
    const reader = openReader(db);
    cleanups.push(() => reader.close());
    const hbar = createHbarQueries(reader);
    const snapshot = parseBalanceFile(start, readFileSync(start));
    const initial = snapshot.accounts.map((a): [bigint, bigint] => [a.accountId, a.hbarTinybars]);
    const moves = readHbarMoves(records);
    const accounts = new Set([
      ...initial.map(([id]) => id),
      ...moves.flatMap((m) => m.amounts.map(([id]) => id)),
    ]);
    // Several transactions share each file, so fee accounts change many times inside one file.
    expect(moves.length).toBeGreaterThan(readdirSync(records).length / 2);
    let compared = 0;
    for (const at of [snapshot.consensusNs, ...moves.flatMap((m) => [m.consensusNs - 1n, m.consensusNs])]) {
      const expected = balancesAt(initial, moves, snapshot.consensusNs, at);
      for (const account of accounts) {
        expect(hbar.balanceAt(account, at), `0.0.${account} at ${ts(at)}`).toBe(expected.get(account) ?? 0n);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(200);
    expect(hbar.balanceAt(2n, snapshot.consensusNs - 1n)).toBeNull();
  });
});

/** The scenario's starting balance file. */
function startFileOf() {
  const ledger = expectedLedger("network-supply") as unknown as {
    balanceSnapshots: Array<{ label: string; file: string }>;
  };
  return ledger.balanceSnapshots.find((s) => s.label === "start")!;
}

describe("a malformed balance file", () => {
  it("as the starting snapshot stops ingestion with one line naming the file and what is wrong", () => {
    const folder = tempDir();
    cleanups.push(folder.remove);
    // Just before the demo's first transaction (2024-06-01T08:00:00.063259037Z): the snapshot it starts from.
    const bad = join(folder.dir, "2024-06-01T07_59_59.900000000Z_Balances.csv");
    writeFileSync(
      bad,
      "TimeStamp:2024-06-01T07:59:59.9Z\nshardNum,realmNum,accountNum,balance\n0,0,2,5\n0,0,3\n",
    );
    const db = join(folder.dir, "index.db");
    const result = runCli([
      "ingest",
      "--records",
      fixtureStream("demo"),
      "--db",
      db,
      "--balances",
      folder.dir,
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `mirrorlite: ingestion stopped: balance file ${bad} at line 4: expected 4 comma-separated fields, found 3\n`,
    );
  });

  it("stops the service's ingestion too; a folder that cannot be listed, or an ambiguous one, its start", async () => {
    const folder = tempDir();
    cleanups.push(folder.remove);
    cpSync(PB, join(folder.dir, "2021-03-08T20_15_00Z_Balances.pb.gz"));
    const broken = join(folder.dir, "2021-03-09T00_00_00Z_Balances.pb.gz");
    writeFileSync(broken, "not gzip");
    const start = (balancesDir: string) =>
      startTestService({ recordsDir: fixtureStream("demo"), balancesDir });
    const service = await start(folder.dir);
    cleanups.push(() => service.stop());
    await service.ingest.settled;
    expect(service.ingest.status()).toMatchObject({ state: "stopped", file: broken, lastBlock: null });
    expect(service.ingest.status().reason).toMatch(`balance file ${broken} does not gunzip: `);
    // Two files of one instant (say a CSV and a protobuf): which one is the state would be a guess.
    const same = tempDir();
    cleanups.push(same.remove);
    const csv = "TimeStamp:2021-03-08T20:15:00Z\nshardNum,realmNum,accountNum,balance\n0,0,2,5\n";
    writeFileSync(join(same.dir, "2021-03-08T20_15_00Z_Balances.csv"), csv);
    cpSync(PB, join(same.dir, "2021-03-08T20_15_00Z_Balances.pb.gz"));
    await expect(start(same.dir)).rejects.toThrow(BalanceFileReadError);
    await expect(start(same.dir)).rejects.toThrow(
      `balance file ${join(same.dir, "2021-03-08T20_15_00Z_Balances.pb.gz")} has the same timestamp as ` +
        "2021-03-08T20_15_00Z_Balances.csv",
    );
    const unnamed = tempDir();
    cleanups.push(unnamed.remove);
    writeFileSync(join(unnamed.dir, "latest_Balances.csv"), csv);
    await expect(start(unnamed.dir)).rejects.toThrow(
      `balance file ${join(unnamed.dir, "latest_Balances.csv")}: the name carries no instant`,
    );
    const missing = join(folder.dir, "nope");
    await expect(start(missing)).rejects.toThrow(`balance folder ${missing} cannot be read: `);
  });
});
