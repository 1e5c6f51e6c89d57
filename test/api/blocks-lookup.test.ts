/**
 * `GET /api/v1/blocks/{hashOrNumber}`: the spellings the mirror node accepts, its 400 and 404 answers (the
 * cases of `rest/__tests__/specs/blocks/{id}/*.json` on generated blocks), and the hash-prefix query on its
 * own, including a prefix that names two blocks.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WrittenBlock, writeBlockStream } from "../../bench/blocks.ts";
import { createBlockQueries } from "../../src/store/blocks.ts";
import { openWriter } from "../../src/store/db.ts";
import { createWriteStore } from "../../src/store/write-store.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { type RawResponse, rawRequest } from "../helpers/raw-http.ts";
import { startTestService, type TestResponse, type TestService, tempDir } from "../helpers/service.ts";

/**
 * A GET with exactly these headers. (`fetch` turns a conditional request into `Cache-Control: no-cache`,
 * which makes servers answer it in full.)
 */
function rawGet(service: TestService, path: string, headers: Record<string, string>): Promise<RawResponse> {
  return rawRequest(`${service.baseUrl}${path}`, { headers });
}

describe("GET /api/v1/blocks/{hashOrNumber}", () => {
  let service: TestService;
  let written: WrittenBlock[];
  let remove: () => void;

  beforeAll(async () => {
    const temp = tempDir();
    remove = temp.remove;
    const dir = join(temp.dir, "record0.0.3");
    written = writeBlockStream(dir, {
      firstBlockNumber: 0n,
      firstConsensusNs: 1_676_540_001_234_390_000n,
      blocks: 3,
    });
    service = await startTestService({ recordsDir: dir, waitSignatures: false });
    const deadline = Date.now() + 30_000;
    while ((service.ingest.status().lastBlock ?? -1n) < 2n) {
      if (Date.now() > deadline) throw new Error("block 2 was not applied");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    await service?.stop();
    remove?.();
  });

  async function get(path: string, headers?: Record<string, string>): Promise<TestResponse> {
    const response = await service.get(path, headers);
    validateResponse({ path, status: response.status, body: response.body });
    return response;
  }

  async function expectBlock(path: string, block: WrittenBlock): Promise<void> {
    const response = await get(path);
    expect(response.status, path).toBe(200);
    expect((response.body as { number: number }).number, path).toBe(Number(block.number));
    expect((response.body as { hash: string }).hash, path).toBe(`0x${block.hash}`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=600");
    expect(response.headers.get("link")).toBeNull();
  }

  it("finds block 0 and a block by number (number)", async () => {
    await expectBlock("/api/v1/blocks/0", written[0]!);
    await expectBlock("/api/v1/blocks/2", written[2]!);
    await expectBlock("/api/v1/blocks/2/", written[2]!);
    await expectBlock("/api/v1/blocks/0002", written[2]!);
  });

  it("finds a block by its 96-hex hash with or without 0x, in any case (hash-96)", async () => {
    const hex = written[1]!.hash;
    for (const spelling of [hex, `0x${hex}`, `0x${hex.toUpperCase()}`, hex.toUpperCase()]) {
      await expectBlock(`/api/v1/blocks/${spelling}`, written[1]!);
    }
  });

  it("finds a block by the first 32 bytes of its hash (hash-64)", async () => {
    const hex = written[1]!.hash.slice(0, 64);
    for (const spelling of [hex, `0x${hex}`, hex.toUpperCase(), `0x${hex.toUpperCase()}`]) {
      await expectBlock(`/api/v1/blocks/${spelling}`, written[1]!);
    }
  });

  it("decodes a percent-encoded path segment as Express does", async () => {
    await expectBlock(`/api/v1/blocks/%30x${written[2]!.hash}`, written[2]!);
  });

  const notFound = {
    "a number past the last block": "/api/v1/blocks/3",
    "the largest int64": "/api/v1/blocks/9223372036854775807",
    "an unknown 96-hex hash": `/api/v1/blocks/0x${"ab".repeat(48)}`,
    "an unknown 64-hex prefix": `/api/v1/blocks/${"0".repeat(64)}`,
    // Hash is tried first: 64 decimal digits are a hash prefix, not a number.
    "64 decimal digits": `/api/v1/blocks/${"1".repeat(64)}`,
  };

  it.each(Object.entries(notFound))("answers 404 for %s", async (_label, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ _status: { messages: [{ message: "Not found" }] } });
  });

  const invalid = {
    "a word": "invalidnumber",
    "digits then letters": "1test",
    "a negative number": "-1",
    "a number past int64": "9223372036854775808",
    "20 digits": "00000000000000000001",
    "a 63-hex hash": "a".repeat(63),
    "a 95-hex hash": "a".repeat(95),
    "a 65-hex hash": "a".repeat(65),
    "0X in upper case": `0X${"a".repeat(96)}`,
    "a hex number": "0x10",
  };

  it.each(Object.entries(invalid))(
    "answers 400 Invalid parameter: hashOrNumber for %s",
    async (_label, value) => {
      const response = await get(`/api/v1/blocks/${value}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        _status: { messages: [{ message: "Invalid parameter: hashOrNumber" }] },
      });
    },
  );

  it("reports unknown query parameters first, once per name, and nothing else", async () => {
    const one = await get("/api/v1/blocks/1?limit=1");
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ _status: { messages: [{ message: "Unknown query parameter: limit" }] } });
    const several = await get("/api/v1/blocks/invalidnumber?x=1&y=2&x=3");
    expect(several.body).toEqual({
      _status: {
        messages: [{ message: "Unknown query parameter: x" }, { message: "Unknown query parameter: y" }],
      },
    });
  });

  it("answers a matching If-None-Match with 304", async () => {
    const first = await get("/api/v1/blocks/1");
    const etag = first.headers.get("etag")!;
    const again = await rawGet(service, "/api/v1/blocks/1", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
  });
});

describe("the hash-prefix query", () => {
  it("finds a block by any prefix and gives up on a prefix two blocks share", () => {
    const temp = tempDir();
    const db = openWriter(join(temp.dir, "index.db"), { durable: false });
    try {
      const store = createWriteStore(db);
      const shared = "ab".repeat(32);
      const hashes = [`${shared}${"01".repeat(16)}`, `${shared}${"02".repeat(16)}`, "cd".repeat(48)];
      hashes.forEach((hash, index) => {
        store.insertRecordFile({
          number: BigInt(index),
          name: `block-${index}.rcd.gz`,
          version: 6,
          hapiMajor: 0,
          hapiMinor: 47,
          hapiPatch: 0,
          hash,
          previousHash: index === 0 ? "00".repeat(48) : hashes[index - 1]!,
          consensusStart: BigInt(index) * 10n,
          consensusEnd: BigInt(index) * 10n + 1n,
          count: 1,
          size: 100,
          gasUsed: 0n,
          logsBloom: new Uint8Array(),
        });
      });
      const blocks = createBlockQueries(db);
      expect(blocks.getBlockByHashPrefix(hashes[0]!)?.number).toBe(0n);
      expect(blocks.getBlockByHashPrefix(hashes[1]!)?.number).toBe(1n);
      // The mirror node reads at most one row: a prefix of two blocks is not found.
      expect(blocks.getBlockByHashPrefix(shared)).toBeUndefined();
      expect(blocks.getBlockByHashPrefix("cd".repeat(32))?.hash).toBe(hashes[2]);
      expect(blocks.getBlockByHashPrefix("ce".repeat(32))).toBeUndefined();
      expect(blocks.latestBlockNumber()).toBe(2n);
    } finally {
      db.close();
      temp.remove();
    }
  });
});
