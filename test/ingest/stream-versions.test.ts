import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { writeRecordFileV6 } from "../../fixtures/writer/write-record-file.ts";
import { writeRecordFileV5 } from "../../fixtures/writer/write-record-file-v5.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { runCli } from "../helpers/cli.ts";
import { REAL_STREAMS, tempDir } from "../helpers/service.ts";

type BlockRow = {
  number: bigint;
  name: string;
  version: bigint;
  hash: string;
  previous_hash: string;
  count: bigint;
};

function blocks(dbFile: string): BlockRow[] {
  const db = new Database(dbFile, { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    return db
      .prepare("SELECT number, name, version, hash, previous_hash, count FROM record_file ORDER BY number")
      .all() as BlockRow[];
  } finally {
    db.close();
  }
}

function copyRecordFiles(from: string, to: string, only?: (name: string) => boolean): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name.endsWith(".rcd") || name.endsWith(".rcd.gz") || name.endsWith(".rcd_sig")) {
      if (!only || only(name)) copyFileSync(join(from, name), join(to, name));
    }
  }
}

describe("mirrorlite ingest across record stream versions", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  function workDir() {
    const temp = tempDir();
    cleanups.push(temp.remove);
    return { records: join(temp.dir, "record0.0.3"), db: join(temp.dir, "index.db") };
  }

  for (const version of ["v2", "v5", "v6"] as const) {
    it(`ingests the real ${version} files cleanly`, () => {
      const { records, db } = workDir();
      copyRecordFiles(join(REAL_STREAMS, version, "record0.0.3"), records);
      const result = runCli(["ingest", "--records", records, "--db", db, "--log-level", "warn"]);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const rows = blocks(db);
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => Number(r.version))).toEqual([
        Number(version.slice(1)),
        Number(version.slice(1)),
      ]);
      // Each file continues the previous one.
      expect(rows[1]!.previous_hash).toBe(rows[0]!.hash);
      expect(rows.map((r) => r.number)).toEqual(version === "v6" ? [5n, 6n] : [0n, 1n]);
    });
  }

  it("stops at a v5 file with a flipped byte and a truncated v2 file, keeping what came before", () => {
    for (const [version, damage] of [
      [
        "v5",
        (bytes: Buffer) => {
          bytes[Math.floor(bytes.length / 2)]! ^= 0x40;
          return bytes;
        },
      ],
      ["v2", (bytes: Buffer) => bytes.subarray(0, bytes.length - 100)],
    ] as const) {
      const { records, db } = workDir();
      copyRecordFiles(join(REAL_STREAMS, version, "record0.0.3"), records);
      const second = readdirSync(records)
        .filter((n) => n.endsWith(".rcd"))
        .sort()[1]!;
      writeFileSync(join(records, second), damage(readFileSync(join(records, second))));
      const result = runCli(["ingest", "--records", records, "--db", db, "--log-level", "silent"]);
      expect(result.status, version).toBe(1);
      expect(result.stderr).toContain(second);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(blocks(db)).toHaveLength(1);
    }
  });

  it("refuses v2 and v5 files out of chain order, naming both hashes", () => {
    for (const version of ["v2", "v5"]) {
      const { records, db } = workDir();
      const source = join(REAL_STREAMS, version, "record0.0.3");
      const [first, second] = readdirSync(source)
        .filter((n) => n.endsWith(".rcd"))
        .sort() as [string, string];
      // The first file renamed so that it sorts after the second: genuine files, broken chain.
      const late = "2030-01-01T00_00_00.000000000Z.rcd";
      copyRecordFiles(source, records, (n) => n.startsWith(second.replace(".rcd", "")));
      copyFileSync(join(source, first), join(records, late));
      writeFileSync(join(records, `${late}_sig`), "");
      const result = runCli(["ingest", "--records", records, "--db", db, "--log-level", "silent"]);
      expect(result.status, version).toBe(1);
      expect(result.stderr).toContain(late);
      const secondFile = readRecordFile(second, readFileSync(join(source, second)));
      expect(result.stderr).toContain(Buffer.from(secondFile.hash).toString("hex"));
    }
  });

  it("ingests each v5-contracts file on its own, and refuses the second after the first as a chain break", () => {
    const source = join(REAL_STREAMS, "v5-contracts", "record0.0.3");
    const [first, second] = readdirSync(source)
      .filter((n) => n.endsWith(".rcd"))
      .sort() as [string, string];
    for (const name of [first, second]) {
      const { records, db } = workDir();
      copyRecordFiles(source, records, (n) => n.startsWith(name.replace(".rcd", "")));
      expect(runCli(["ingest", "--records", records, "--db", db, "--log-level", "silent"]).status).toBe(0);
      expect(blocks(db)).toHaveLength(1);
    }
    const { records, db } = workDir();
    copyRecordFiles(source, records);
    const result = runCli(["ingest", "--records", records, "--db", db, "--log-level", "silent"]);
    expect(result.status).toBe(1);
    const firstFile = readRecordFile(first, readFileSync(join(source, first)));
    const secondFile = readRecordFile(second, readFileSync(join(source, second)));
    expect(result.stderr).toContain(second);
    expect(result.stderr).toContain(Buffer.from(firstFile.hash).toString("hex"));
    expect(result.stderr).toContain(Buffer.from(secondFile.previousHash).toString("hex"));
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    // The first file stays committed.
    expect(blocks(db).map((b) => b.name)).toEqual([first]);
  });

  it("reads one folder in order across the network upgrades v2 → v5 → v6", () => {
    const { records, db } = workDir();
    const v2 = join(REAL_STREAMS, "v2", "record0.0.3");
    copyRecordFiles(v2, records);
    const v2Files = readdirSync(v2)
      .filter((n) => n.endsWith(".rcd"))
      .sort();
    const lastV2 = readRecordFile(v2Files[1]!, readFileSync(join(v2, v2Files[1]!)));
    // The upgrade's first v5 file starts its running hash from the last v2 file hash.
    // Items of later real files, so consensus times keep increasing across the upgrades.
    const realItems = (dir: string) =>
      readdirSync(dir)
        .filter((n) => /\.rcd(\.gz)?$/.test(n))
        .sort()
        .flatMap((n) => readRecordFile(n, readFileSync(join(dir, n))).items);
    const v5Bytes = writeRecordFileV5(lastV2.hash, realItems(join(REAL_STREAMS, "v5", "record0.0.3")));
    const v5Name = "2021-01-01T00_00_00.000000000Z.rcd";
    writeFileSync(join(records, v5Name), v5Bytes);
    writeFileSync(join(records, "2021-01-01T00_00_00.000000000Z.rcd_sig"), "");
    const v5 = readRecordFile(v5Name, v5Bytes);
    const v6 = writeRecordFileV6({
      hapiVersion: { major: 0, minor: 28, patch: 0 },
      blockNumber: 40n,
      startRunningHash: v5.hash,
      items: realItems(join(REAL_STREAMS, "v6", "record0.0.3")),
    });
    writeFileSync(join(records, "2022-01-01T00_00_00.000000000Z.rcd.gz"), v6.gzipBytes);
    writeFileSync(join(records, "2022-01-01T00_00_00.000000000Z.rcd_sig"), "");

    const result = runCli(["ingest", "--records", records, "--db", db, "--log-level", "silent"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const rows = blocks(db);
    expect(rows.map((r) => [r.number, Number(r.version)])).toEqual([
      [0n, 2],
      [1n, 2],
      [2n, 5],
      [40n, 6],
    ]);
    expect(rows[2]!.previous_hash).toBe(rows[1]!.hash);
    expect(rows[3]!.previous_hash).toBe(rows[2]!.hash);
  });
});

describe("mirrorlite ingest --verify-signatures", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  const addressBook = join(REAL_STREAMS, "addressbooks", "test-v6-sidecar-4n.bin");

  for (const node of ["0.0.3", "0.0.4", "0.0.5", "0.0.6"]) {
    it(`accepts the real v6 files signed by node ${node}`, () => {
      const temp = tempDir();
      cleanups.push(temp.remove);
      const records = join(temp.dir, `record${node}`);
      copyRecordFiles(join(REAL_STREAMS, "v6", `record${node}`), records);
      const db = join(temp.dir, "index.db");
      const result = runCli([
        "ingest",
        "--records",
        records,
        "--db",
        db,
        "--verify-signatures",
        addressBook,
        "--log-level",
        "silent",
      ]);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(blocks(db)).toHaveLength(2);
    });
  }

  it("refuses a file whose signature was tampered with, and one signed by another node", () => {
    const temp = tempDir();
    cleanups.push(temp.remove);
    const records = join(temp.dir, "record0.0.3");
    copyRecordFiles(join(REAL_STREAMS, "v6", "record0.0.3"), records);
    const signature = readdirSync(records)
      .filter((n) => n.endsWith(".rcd_sig"))
      .sort()[1]!;
    const bytes = readFileSync(join(records, signature));
    bytes[bytes.length - 10]! ^= 0x01;
    writeFileSync(join(records, signature), bytes);
    const db = join(temp.dir, "index.db");
    const tampered = runCli([
      "ingest",
      "--records",
      records,
      "--db",
      db,
      "--verify-signatures",
      addressBook,
      "--log-level",
      "silent",
    ]);
    expect(tampered.status).toBe(1);
    expect(tampered.stderr).toContain(signature.replace(".rcd_sig", ".rcd.gz"));
    expect(blocks(db)).toHaveLength(1);

    // Node 0.0.4's signature in node 0.0.3's folder does not verify against 0.0.3's key.
    const other = tempDir();
    cleanups.push(other.remove);
    const mixed = join(other.dir, "record0.0.3");
    copyRecordFiles(join(REAL_STREAMS, "v6", "record0.0.4"), mixed);
    const refused = runCli([
      "ingest",
      "--records",
      mixed,
      "--db",
      join(other.dir, "i.db"),
      "--verify-signatures",
      addressBook,
    ]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/signature/i);
  });
});
