/**
 * The block reader thread prepares blocks ahead of the ingest thread: what it hands over must be exactly what
 * preparing the block in place gives, a block that does not read must surface as the same error naming the same
 * file, and blocks taken out of the planned order must still come back right.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { writeBlockStream } from "../../fixtures/writer/write-block-stream.ts";
import { CorruptFileError } from "../../src/errors.ts";
import { type BlockReader, createBlockReader } from "../../src/ingest/block-reader.ts";
import { readAndPrepareBlock } from "../../src/ingest/block-reader-worker.ts";
import { deserializeRecords } from "../../src/streams/block-record-bytes.ts";
import type { PreparedBlock } from "../../src/streams/prepared-block.ts";
import { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { FIXTURE_STREAMS, tempDir } from "../helpers/service.ts";

const LIMITS = { maxFileBytes: 64 * 1024 * 1024, maxBlockBytes: 64 * 1024 * 1024 };

function writeDemoBlocks(dir: string, count: number): string[] {
  const records = join(FIXTURE_STREAMS, "demo", "record0.0.3");
  const names = readdirSync(records)
    .filter((n) => n.endsWith(".rcd.gz"))
    .sort()
    .slice(0, count);
  const files = names.map((name) => readRecordFile(name, readFileSync(join(records, name))));
  const written = writeBlockStream(
    files,
    files[0]!.hapiVersion!,
    files.map((f) => f.blockNumber!),
    dir,
    { compression: "zstd", layout: "flat", markers: true },
  );
  return written.map((w) => w.path);
}

/** A prepared block in comparable form: its head, and its records decoded as the ingest thread decodes them. */
function comparable(block: PreparedBlock) {
  const { records, ...head } = block;
  if (records instanceof Error) return { head, error: records.message };
  return {
    head,
    records: deserializeRecords(block.name, records).map((r) => ({
      body: Buffer.from(r.bodyBytes).toString("hex"),
      bodyCase: r.bodyCase,
      record: Buffer.from(proto.TransactionRecord.encode(r.record).finish()).toString("hex"),
      nonce: r.accountEthereumNonce,
    })),
  };
}

describe("the block reader", () => {
  let reader: BlockReader | undefined;
  let remove: (() => void) | undefined;
  afterEach(() => {
    reader?.close();
    reader = undefined;
    remove?.();
  });

  function setUp(count: number, thread = true) {
    const temp = tempDir();
    remove = temp.remove;
    const dir = join(temp.dir, "block-0.0.3");
    const paths = writeDemoBlocks(dir, count);
    const warnings: string[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => warnings.push(line) });
    reader = createBlockReader({ dir, ...LIMITS, log, thread });
    return { dir, paths, warnings, reader };
  }

  it("hands over, in order, exactly the blocks prepared in place, from its own thread", () => {
    const { dir, paths, warnings, reader } = setUp(8);
    expect(paths.length).toBe(8);
    reader.plan(paths);
    for (const path of paths) {
      expect(comparable(reader.take(path))).toEqual(comparable(readAndPrepareBlock(dir, path, LIMITS)));
    }
    // No fallback to the ingest thread was logged: the thread prepared them.
    expect(warnings).toEqual([]);
  });

  it("serves blocks taken out of the planned order, and a new plan", () => {
    const { dir, paths, warnings, reader } = setUp(7);
    reader.plan(paths);
    const order = [paths[0]!, paths[3]!, paths[4]!, paths[1]!, paths[6]!];
    for (const path of order) {
      expect(comparable(reader.take(path))).toEqual(comparable(readAndPrepareBlock(dir, path, LIMITS)));
    }
    reader.plan(paths.slice(2));
    expect(comparable(reader.take(paths[2]!))).toEqual(
      comparable(readAndPrepareBlock(dir, paths[2]!, LIMITS)),
    );
    expect(warnings).toEqual([]);
  });

  it.each([true, false])(
    "reports a block that does not read as reading it in place does (thread: %s)",
    (thread) => {
      const { dir, paths, warnings, reader } = setUp(5, thread);
      const damaged = join(dir, paths[2]!);
      const bytes = readFileSync(damaged);
      writeFileSync(damaged, bytes.subarray(0, bytes.length - 30));
      let inPlace: unknown;
      try {
        readAndPrepareBlock(dir, paths[2]!, LIMITS);
      } catch (error) {
        inPlace = error;
      }
      expect(inPlace).toBeInstanceOf(CorruptFileError);
      reader.plan(paths);
      reader.take(paths[0]!);
      reader.take(paths[1]!);
      let taken: unknown;
      try {
        reader.take(paths[2]!);
      } catch (error) {
        taken = error;
      }
      expect(taken).toBeInstanceOf(CorruptFileError);
      expect((taken as CorruptFileError).file).toBe(paths[2]);
      expect((taken as CorruptFileError).message).toBe((inPlace as CorruptFileError).message);
      // The blocks after it are still served when asked for (a repaired file, a retry).
      expect(comparable(reader.take(paths[3]!))).toEqual(
        comparable(readAndPrepareBlock(dir, paths[3]!, LIMITS)),
      );
      expect(warnings).toEqual([]);
    },
  );
});
