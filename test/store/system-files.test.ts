/**
 * The system-file store read side on real ingests: files rebuilt "as of" bounds (`fileAsOf`,
 * `parseSystemFileAsOf`, the function the fee engines use), on the `network` scenario and on the real v6
 * stream's FileUpdate of 0.0.121.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeEntityId } from "../../src/ids.ts";
import { type Db, openReader } from "../../src/store/db.ts";
import { createReadStore, type ReadStore } from "../../src/store/read-store.ts";
import { SYSTEM_FILE_ATTEMPTS } from "../../src/store/system-files.ts";
import { proto } from "../../src/streams/proto.ts";
import { parseExchangeRateSet } from "../../src/streams/system-file-contents.ts";
import { expectedLedger, fixtureStream, stepTime } from "../helpers/fixtures.ts";
import { copyStream, REAL_STREAMS, startTestService } from "../helpers/service.ts";

const ALL = { lowerNs: 0n, upperNs: 9223372036854775807n };
const fileId = (num: bigint) => encodeEntityId(0n, 0n, num);
const ns = (timestamp: string) => BigInt(timestamp.replace(".", ""));

/** Ingests a stream into an SQLite file of the test's own and opens the API's read store on it. */
function ingested(source: string): { store: () => ReadStore } {
  let db: Db | undefined;
  let remove: (() => void) | undefined;
  beforeAll(async () => {
    const stream = copyStream(source);
    remove = stream.remove;
    const path = join(stream.dir, "..", "index.db");
    const service = await startTestService({ recordsDir: stream.dir, db: path });
    await service.ingest.settled;
    await service.stop();
    db = openReader(path);
  });
  afterAll(() => {
    db?.close();
    remove?.();
  });
  return {
    store: () => {
      if (db === undefined) throw new Error("ingested in beforeAll");
      return createReadStore(db);
    },
  };
}

describe("system files of the network scenario", () => {
  const { store } = ingested(fixtureStream("network"));
  const ledger = expectedLedger("network");

  it("keeps every file's contents with its time: system files and, since the contracts group, user files (bytecode, offloaded call data)", () => {
    const file150 = store().systemFiles.fileAsOf(fileId(150n), ALL);
    expect(Buffer.from(file150!.bytes).toString()).toBe("system file one fifty");
    expect(file150!.consensusNs).toBe(ns(stepTime(ledger, "file-150")));
    expect(store().systemFiles.fileAsOf(fileId(1001n), ALL)).toBeDefined();
  });

  it("concatenates the update and its appends; the file's time is the last part's", () => {
    const fees = store().systemFiles.fileAsOf(fileId(111n), ALL)!;
    expect(fees.consensusNs).toBe(ns(stepTime(ledger, "fees-part-3")));
    expect(
      proto.CurrentAndNextFeeSchedule.decode(fees.bytes).currentFeeSchedule?.transactionFeeSchedule,
    ).toHaveLength(15);
    // As of part 2, only the update and the first append.
    const partial = store().systemFiles.fileAsOf(fileId(111n), {
      lowerNs: 0n,
      upperNs: ns(stepTime(ledger, "fees-part-2")),
    })!;
    expect(partial.bytes.length).toBe(4096);
  });

  it("falls back past versions that do not parse, and gives up after 10 attempts", () => {
    const rates = store().systemFiles.parseSystemFileAsOf(fileId(112n), ALL, parseExchangeRateSet);
    expect(rates?.consensusNs).toBe(ns(stepTime(ledger, "rates-1")));
    expect(rates?.value.currentRate?.centEquiv).toBe(360000);
    let attempts = 0;
    const never = store().systemFiles.parseSystemFileAsOf(fileId(112n), ALL, () => {
      attempts++;
      return undefined;
    });
    expect(never).toBeUndefined();
    // garbage-2, rates-1, then the first garbage: the empty update is never a start.
    expect(attempts).toBe(3);
    expect(attempts).toBeLessThanOrEqual(SYSTEM_FILE_ATTEMPTS);
  });
});

describe("system files of a real v6 stream", () => {
  const { store } = ingested(join(REAL_STREAMS, "v6/record0.0.3"));

  it("holds the FileUpdate of 0.0.121 (application properties) as the body carried it", () => {
    const file = store().systemFiles.parseSystemFileAsOf(fileId(121n), ALL, (bytes) => {
      try {
        return proto.ServicesConfigurationList.decode(bytes);
      } catch {
        return undefined;
      }
    });
    expect(file?.consensusNs).toBe(1_657_701_968_041_986_003n);
    expect(file?.value.nameValue?.[0]?.name).toBe("contracts.maxGasPerSec");
  });
});
