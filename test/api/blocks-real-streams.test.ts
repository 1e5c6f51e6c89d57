/**
 * Every field of every block of real record streams (v2, v5, v6 and a v5 contract file), as served after real
 * ingestion, against values this test works out from the files itself: hashes recomputed with node:crypto,
 * items and consensus times read from the bytes, sizes from the file system.
 */
import { hash } from "node:crypto";
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proto } from "../../src/streams/proto.ts";
import { validateResponse } from "../helpers/openapi.ts";
import {
  copyStream,
  REAL_STREAMS,
  startTestService,
  type TestResponse,
  type TestService,
  tempDir,
} from "../helpers/service.ts";

const HASH_CLASS_ID = 0xf422da83a251741en;
const RECORD_STREAM_OBJECT_CLASS_ID = 0xe370929ba5429d8bn;
const ZERO_HASH = "00".repeat(48);

/** One block as the mirror node prints it. */
type ExpectedBlock = {
  count: number;
  hapi_version: string | null;
  hash: string;
  name: string;
  number: number;
  previous_hash: string;
  size: number;
  timestamp: { from: string; to: string };
  gas_used: number;
  logs_bloom: string;
};

type Item = { transactionBytes: Buffer; recordBytes: Buffer };

type ParsedFile = {
  hapiVersion: string | null;
  blockNumber: number | null;
  previousHash: string;
  hash: string;
  items: Item[];
};

/** An int64 protobuf field (a `Long`, or a number when small) as a JS number; every value here is small. */
const num = (value: unknown): number => Number(String(value ?? 0));

const sha384 = (...parts: Uint8Array[]) => hash("sha384", Buffer.concat(parts), "buffer");

function int32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeInt32BE(value);
  return out;
}

/** Class id and version of the platform `Hash`, little-endian, as the running hash folds them in. */
function hashPrefix(): Buffer {
  const out = Buffer.alloc(12);
  out.writeBigUInt64LE(HASH_CLASS_ID);
  out.writeInt32LE(1, 8);
  return out;
}

/** The running hash after each object hash: SHA-384(prefix ‖ running ‖ prefix ‖ objectHash). */
function foldRunningHash(start: Buffer, objectHashes: Buffer[]): Buffer {
  let running = start;
  for (const objectHash of objectHashes) running = sha384(hashPrefix(), running, hashPrefix(), objectHash);
  return running;
}

/** A record stream object as the platform serializes it: class id, version, record, transaction. */
function serializeRecordStreamObject({ transactionBytes, recordBytes }: Item): Buffer {
  const classId = Buffer.alloc(8);
  classId.writeBigUInt64BE(RECORD_STREAM_OBJECT_CLASS_ID);
  return Buffer.concat([
    classId,
    int32(1),
    int32(recordBytes.length),
    recordBytes,
    int32(transactionBytes.length),
    transactionBytes,
  ]);
}

/** v2: int32 2, int32 HAPI, byte 1, previous file hash, then (byte 2, int32 + Transaction, int32 + Record)*. */
function parseV2(bytes: Buffer): ParsedFile {
  const headerEnd = 4 + 4 + 1 + 48;
  expect(bytes.readInt32BE(0)).toBe(2);
  const items: Item[] = [];
  let at = headerEnd;
  while (at < bytes.length) {
    expect(bytes[at]).toBe(2);
    const transactionLength = bytes.readInt32BE(at + 1);
    const transactionBytes = bytes.subarray(at + 5, at + 5 + transactionLength);
    at += 5 + transactionLength;
    const recordLength = bytes.readInt32BE(at);
    const recordBytes = bytes.subarray(at + 4, at + 4 + recordLength);
    at += 4 + recordLength;
    items.push({ transactionBytes, recordBytes });
  }
  const fileHash = sha384(bytes.subarray(0, headerEnd), sha384(bytes.subarray(headerEnd)));
  return {
    hapiVersion: null,
    blockNumber: null,
    previousHash: bytes.subarray(9, headerEnd).toString("hex"),
    hash: fileHash.toString("hex"),
    items,
  };
}

/**
 * v5: int32 5, three int32 HAPI version parts, int32 object stream version, the start hash object, record
 * stream objects, the end hash object. A hash object is int64 class id, int32 version, int32 digest type,
 * int32 length, 48 bytes.
 */
function parseV5(bytes: Buffer): ParsedFile {
  expect(bytes.readInt32BE(0)).toBe(5);
  const hapiVersion = `${bytes.readInt32BE(4)}.${bytes.readInt32BE(8)}.${bytes.readInt32BE(12)}`;
  const readHashObject = (at: number) => {
    expect(bytes.readBigUInt64BE(at)).toBe(HASH_CLASS_ID);
    expect(bytes.readInt32BE(at + 16)).toBe(48);
    return bytes.subarray(at + 20, at + 68);
  };
  let at = 20;
  const start = readHashObject(at);
  at += 68;
  const objectHashes: Buffer[] = [];
  const items: Item[] = [];
  while (bytes.readBigUInt64BE(at) === RECORD_STREAM_OBJECT_CLASS_ID) {
    const objectStart = at;
    const recordLength = bytes.readInt32BE(at + 12);
    const recordBytes = bytes.subarray(at + 16, at + 16 + recordLength);
    at += 16 + recordLength;
    const transactionLength = bytes.readInt32BE(at);
    const transactionBytes = bytes.subarray(at + 4, at + 4 + transactionLength);
    at += 4 + transactionLength;
    // In a v5 file the object's bytes are exactly its serialization.
    objectHashes.push(sha384(bytes.subarray(objectStart, at)));
    items.push({ transactionBytes, recordBytes });
  }
  const end = readHashObject(at);
  expect(at + 68).toBe(bytes.length);
  expect(foldRunningHash(Buffer.from(start), objectHashes).toString("hex")).toBe(end.toString("hex"));
  return {
    hapiVersion,
    blockNumber: null,
    previousHash: start.toString("hex"),
    hash: end.toString("hex"),
    items,
  };
}

/** Protobuf wire fields of one message: field number to the raw bytes (or varint value) of each occurrence. */
function wireFields(bytes: Buffer): Array<{ field: number; bytes?: Buffer; varint?: bigint }> {
  const fields: Array<{ field: number; bytes?: Buffer; varint?: bigint }> = [];
  let at = 0;
  const varint = () => {
    let value = 0n;
    let shift = 0n;
    for (;;) {
      const byte = bytes[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const field = key >>> 3;
    if ((key & 7) === 0) {
      fields.push({ field, varint: varint() });
    } else if ((key & 7) === 2) {
      const length = Number(varint());
      fields.push({ field, bytes: bytes.subarray(at, at + length) });
      at += length;
    } else {
      throw new Error(`unexpected wire type ${key & 7}`);
    }
  }
  return fields;
}

/** v6: int32 6, then a `RecordStreamFile`; items keep their exact bytes for the running hash. */
function parseV6(gzipped: Buffer): ParsedFile {
  const bytes = gunzipSync(gzipped);
  expect(bytes.readInt32BE(0)).toBe(6);
  const message = bytes.subarray(4);
  const decoded = proto.RecordStreamFile.decode(message);
  const fields = wireFields(message);
  const items = fields
    .filter((f) => f.field === 3)
    .map((f) => {
      const parts = wireFields(f.bytes!);
      return {
        transactionBytes: parts.find((p) => p.field === 1)!.bytes!,
        recordBytes: parts.find((p) => p.field === 2)!.bytes!,
      };
    });
  const start = Buffer.from(decoded.startObjectRunningHash!.hash!);
  const end = Buffer.from(decoded.endObjectRunningHash!.hash!);
  const objectHashes = items.map((item) => sha384(serializeRecordStreamObject(item)));
  expect(foldRunningHash(start, objectHashes).toString("hex")).toBe(end.toString("hex"));
  const version = decoded.hapiProtoVersion!;
  return {
    hapiVersion: `${version.major ?? 0}.${version.minor ?? 0}.${version.patch ?? 0}`,
    blockNumber: num(decoded.blockNumber),
    previousHash: start.toString("hex"),
    hash: end.toString("hex"),
    items,
  };
}

function formatNs(seconds: number, nanos: number): string {
  return `${seconds}.${String(nanos).padStart(9, "0")}`;
}

/**
 * Gas and bloom as the mirror node's importer adds them up: over the top-level (nonce 0) records that carry
 * a contract call or create result. Any such result starts a 256-byte bloom; none leaves it empty.
 */
function contractTotals(records: proto.TransactionRecord[]): { gasUsed: number; bloom: string } {
  let gasUsed = 0;
  let bloom: Buffer | null = null;
  for (const record of records) {
    const result = record.contractCallResult ?? record.contractCreateResult;
    if (!result || (record.transactionID?.nonce ?? 0) !== 0) continue;
    gasUsed += num(result.gasUsed);
    bloom ??= Buffer.alloc(256);
    (result.bloom ?? new Uint8Array()).forEach((byte, i) => {
      bloom![i]! |= byte;
    });
  }
  return { gasUsed, bloom: bloom === null ? "0x" : `0x${bloom.toString("hex")}` };
}

/** The blocks a folder's record files make, numbered from 0 unless the files carry numbers (v6). */
function expectedBlocks(folder: string): ExpectedBlock[] {
  const names = readdirSync(folder)
    .filter((name) => /\.rcd(\.gz)?$/.test(name))
    .sort();
  return names.map((name, index) => {
    const path = join(folder, name);
    const bytes = readFileSync(path);
    const version = name.endsWith(".gz") ? 6 : bytes.readInt32BE(0);
    const parsed = version === 6 ? parseV6(bytes) : version === 5 ? parseV5(bytes) : parseV2(bytes);
    const records = parsed.items.map((item) => proto.TransactionRecord.decode(item.recordBytes));
    const times = records.map((record) => {
      const ts = record.consensusTimestamp!;
      return { seconds: num(ts.seconds), nanos: ts.nanos ?? 0 };
    });
    const first = times[0]!;
    const last = times.at(-1)!;
    const { gasUsed, bloom } = contractTotals(records);
    return {
      count: parsed.items.length,
      hapi_version: parsed.hapiVersion,
      hash: `0x${parsed.hash}`,
      name,
      number: parsed.blockNumber ?? index,
      previous_hash: `0x${parsed.previousHash}`,
      size: statSync(path).size,
      timestamp: { from: formatNs(first.seconds, first.nanos), to: formatNs(last.seconds, last.nanos) },
      gas_used: gasUsed,
      logs_bloom: bloom,
    };
  });
}

function checked(path: string, response: TestResponse): TestResponse {
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

const STREAMS = [
  { label: "v6 (gzipped, HAPI 0.28, a contract block)", folder: "v6/record0.0.3", contractBlocks: 1 },
  { label: "v5 (HAPI in the header)", folder: "v5/record0.0.3", contractBlocks: 0 },
  { label: "v2 (no HAPI version, file hash as block hash)", folder: "v2/record0.0.3", contractBlocks: 0 },
];

describe.each(STREAMS)("blocks of the real $label stream", ({ folder, contractBlocks }) => {
  let service: TestService;
  let stream: { dir: string; remove: () => void };
  const expected = expectedBlocks(join(REAL_STREAMS, folder));

  beforeAll(async () => {
    stream = copyStream(join(REAL_STREAMS, folder));
    service = await startTestService({ recordsDir: stream.dir });
    await service.ingest.settled;
    expect(service.ingest.status().state).toBe("ready");
  });
  afterAll(async () => {
    await service?.stop();
    stream?.remove();
  });

  it("works the expected blocks out of the files as a chain", () => {
    expect(expected.length).toBe(2);
    expect(expected[1]!.previous_hash).toBe(expected[0]!.hash);
    expect(expected[1]!.number).toBe(expected[0]!.number + 1);
    // Blocks without a top-level contract result have no gas and an empty bloom.
    const withContracts = expected.filter((block) => block.logs_bloom !== "0x");
    expect(withContracts.length).toBe(contractBlocks);
    for (const block of withContracts) {
      expect(block.gas_used).toBeGreaterThan(0);
      expect(block.logs_bloom).toMatch(/^0x[0-9a-f]{512}$/);
    }
    for (const block of expected.filter((b) => b.logs_bloom === "0x")) expect(block.gas_used).toBe(0);
  });

  it("lists every block with every field, newest first, then oldest first", async () => {
    const path = "/api/v1/blocks";
    const desc = checked(path, await service.get(path));
    expect(desc.status).toBe(200);
    expect(desc.body).toEqual({ blocks: [...expected].reverse(), links: { next: null } });
    const ascPath = "/api/v1/blocks?order=asc";
    const asc = checked(ascPath, await service.get(ascPath));
    expect(asc.body).toEqual({ blocks: expected, links: { next: null } });
  });

  it("prints the fields in the mirror node's order", async () => {
    const response = checked("/api/v1/blocks?limit=1", await service.get("/api/v1/blocks?limit=1"));
    const block = (response.body as { blocks: object[] }).blocks[0]!;
    expect(Object.keys(block)).toEqual([
      "count",
      "hapi_version",
      "hash",
      "name",
      "number",
      "previous_hash",
      "size",
      "timestamp",
      "gas_used",
      "logs_bloom",
    ]);
    expect(Object.keys((block as { timestamp: object }).timestamp)).toEqual(["from", "to"]);
  });

  it("finds each block by number, by its hash and by the first 32 bytes of its hash", async () => {
    for (const block of expected) {
      const hex = block.hash.slice(2);
      const spellings = [
        String(block.number),
        hex,
        `0x${hex}`,
        `0x${hex.toUpperCase()}`,
        hex.slice(0, 64),
        `0x${hex.slice(0, 64)}`,
        hex.slice(0, 64).toUpperCase(),
      ];
      for (const spelling of spellings) {
        const path = `/api/v1/blocks/${spelling}`;
        const response = checked(path, await service.get(path));
        expect(response.status, path).toBe(200);
        expect(response.body, path).toEqual(block);
        expect(response.headers.get("cache-control")).toBe("public, max-age=600");
        expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      }
    }
  });

  it("keeps the previous hash of the first block and answers 404 for it as a block", async () => {
    const first = expected[0]!;
    expect(first.previous_hash).not.toBe(first.hash);
    const path = `/api/v1/blocks/${first.previous_hash}`;
    const response = checked(path, await service.get(path));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ _status: { messages: [{ message: "Not found" }] } });
  });
});

describe("a real v5 contract file (the header's HAPI version is 0.0.0)", () => {
  let service: TestService;
  let stream: { dir: string; remove: () => void };
  const source = join(REAL_STREAMS, "v5-contracts/record0.0.3");
  // The two files of this folder are not consecutive: serve the first alone.
  const first = readdirSync(source)
    .filter((name) => name.endsWith(".rcd"))
    .sort()[0]!;

  beforeAll(async () => {
    stream = tempDir();
    for (const name of [first, `${first}_sig`]) cpSync(join(source, name), join(stream.dir, name));
    service = await startTestService({ recordsDir: stream.dir });
    await service.ingest.settled;
    expect(service.ingest.status().state).toBe("ready");
  });
  afterAll(async () => {
    await service?.stop();
    stream?.remove();
  });

  it("prints hapi_version 0.0.0 as the mirror node stores it, with the block's gas and bloom", async () => {
    const [expected] = expectedBlocks(stream.dir);
    expect(expected!.hapi_version).toBe("0.0.0");
    expect(expected!.gas_used).toBeGreaterThan(0);
    expect(expected!.logs_bloom).toMatch(/^0x[0-9a-f]{512}$/);
    expect(expected!.previous_hash).not.toBe(`0x${ZERO_HASH}`);
    const path = "/api/v1/blocks/0";
    const response = checked(path, await service.get(path));
    expect(response.body).toEqual(expected);
  });
});
