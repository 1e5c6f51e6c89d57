/**
 * `GET /api/v1/blocks` on generated v6 streams (the real writer, the real watcher, SQLite and HTTP): the
 * cases of the mirror node's `rest/__tests__/specs/blocks/*.json` rebuilt on blocks 16..21, paging, the
 * limit cap, and every kind of 400.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WrittenBlock, writeBlockStream } from "../../bench/blocks.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { type RawResponse, rawRequest } from "../helpers/raw-http.ts";
import { startTestService, type TestResponse, type TestService, tempDir } from "../helpers/service.ts";

const FIRST_NS = 1_676_540_001_234_390_000n;
const SPACING_NS = 2_000_000_000n;

function bloomWith(...bytes: Array<[number, number]>): Uint8Array {
  const bloom = new Uint8Array(256);
  for (const [at, value] of bytes) bloom[at] = value;
  return bloom;
}
const BLOOM_A = bloomWith([0, 0x80], [100, 0x01], [255, 0x10]);
const BLOOM_B = bloomWith([0, 0x01], [100, 0x01], [200, 0xff]);
const BLOOM_CHILD = bloomWith([50, 0xff]);

/** Blocks 16..21: plain transfers, and contract calls whose gas and blooms the blocks must add up. */
const BLOCKS = [
  [{}],
  [{}, { contract: { gasUsed: 1000n, bloom: BLOOM_A } }, {}],
  [
    { contract: { gasUsed: 2000n, bloom: BLOOM_B } },
    { contract: { gasUsed: 500n, bloom: BLOOM_CHILD, child: true } },
    { contract: { gasUsed: 300n, bloom: BLOOM_A } },
  ],
  // A top-level call whose result has no bloom still gives the block a (zero) bloom, as upstream does.
  [{ contract: { gasUsed: 700n } }],
  [{}, {}],
  [{}],
];
/** Gas and bloom of the top-level contract results per block (children do not count). */
const CONTRACT_TOTALS: Record<number, { gas: number; bloom: Uint8Array }> = {
  17: { gas: 1000, bloom: BLOOM_A },
  18: { gas: 2300, bloom: BLOOM_B.map((byte, i) => byte | BLOOM_A[i]!) },
  19: { gas: 700, bloom: new Uint8Array(256) },
};

function formatNs(ns: bigint): string {
  return `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`;
}

/** The block as the mirror node prints it, from what the writer wrote. */
function expectedBlock(block: WrittenBlock) {
  const contract = CONTRACT_TOTALS[Number(block.number)];
  return {
    count: block.count,
    hapi_version: "0.47.0",
    hash: `0x${block.hash}`,
    name: block.name,
    number: Number(block.number),
    previous_hash: `0x${block.previousHash}`,
    size: block.sizeBytes,
    timestamp: { from: formatNs(block.consensusStartNs), to: formatNs(block.consensusEndNs) },
    gas_used: contract?.gas ?? 0,
    logs_bloom: contract === undefined ? "0x" : `0x${Buffer.from(contract.bloom).toString("hex")}`,
  };
}

/**
 * A GET with exactly these headers. (`fetch` turns a conditional request into `Cache-Control: no-cache`,
 * which makes servers answer it in full.)
 */
function rawGet(service: TestService, path: string, headers: Record<string, string>): Promise<RawResponse> {
  return rawRequest(`${service.baseUrl}${path}`, { headers });
}

async function serveStream(
  blocks: Parameters<typeof writeBlockStream>[1]["blocks"],
  firstBlockNumber: bigint,
): Promise<{ service: TestService; written: WrittenBlock[]; stop: () => Promise<void> }> {
  const temp = tempDir();
  const written = writeBlockStream(join(temp.dir, "record0.0.3"), {
    firstBlockNumber,
    firstConsensusNs: FIRST_NS,
    blockSpacingNs: SPACING_NS,
    blocks,
  });
  const service = await startTestService({
    recordsDir: join(temp.dir, "record0.0.3"),
    waitSignatures: false,
  });
  const last = written.at(-1)!.number;
  const deadline = Date.now() + 30_000;
  while ((service.ingest.status().lastBlock ?? -1n) < last) {
    if (Date.now() > deadline) throw new Error(`block ${last} was not applied`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    service,
    written,
    stop: async () => {
      await service.stop();
      temp.remove();
    },
  };
}

describe("GET /api/v1/blocks on blocks 16..21", () => {
  let service: TestService;
  let stop: () => Promise<void>;
  let byNumber: Map<number, ReturnType<typeof expectedBlock>>;
  let blocks: WrittenBlock[];

  beforeAll(async () => {
    const served = await serveStream(BLOCKS, 16n);
    service = served.service;
    stop = served.stop;
    blocks = served.written;
    byNumber = new Map(blocks.map((block) => [Number(block.number), expectedBlock(block)]));
  });
  afterAll(async () => {
    await stop?.();
  });

  async function get(path: string): Promise<TestResponse> {
    const response = await service.get(path);
    validateResponse({ path, status: response.status, body: response.body });
    return response;
  }

  /** Expects a 200 page with exactly these blocks and this next link. */
  async function expectPage(path: string, numbers: number[], next: string | null): Promise<TestResponse> {
    const response = await get(path);
    expect(response.status, path).toBe(200);
    expect(response.body, path).toEqual({ blocks: numbers.map((n) => byNumber.get(n)), links: { next } });
    expect(response.headers.get("link"), path).toBe(next === null ? null : `<${next}>; rel="next"`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    return response;
  }

  const end = (number: number) => formatNs(blocks[number - 16]!.consensusEndNs);
  const start = (number: number) => formatNs(blocks[number - 16]!.consensusStartNs);

  it("adds up gas and blooms of top-level contract results only", async () => {
    const response = await get("/api/v1/blocks?block.number=gte:17&block.number=lte:18&order=asc");
    const [b17, b18] = (response.body as { blocks: Array<{ gas_used: number; logs_bloom: string }> }).blocks;
    expect(b17!.gas_used).toBe(1000);
    expect(b18!.gas_used).toBe(2300);
    expect(b18!.logs_bloom).toBe(`0x${Buffer.from(CONTRACT_TOTALS[18]!.bloom).toString("hex")}`);
    expect(b18!.logs_bloom.slice(2, 4)).toBe("81");
    const b19 = (await get("/api/v1/blocks/19")).body as { gas_used: number; logs_bloom: string };
    expect(b19.gas_used).toBe(700);
    expect(b19.logs_bloom).toBe(`0x${"0".repeat(512)}`);
  });

  it("lists newest first by default, with no link on a short page (no-params)", async () => {
    await expectPage("/api/v1/blocks", [21, 20, 19, 18, 17, 16], null);
  });

  it("pages with limit, links on block.number, and ends with an empty page (limit-param)", async () => {
    await expectPage("/api/v1/blocks?limit=2", [21, 20], "/api/v1/blocks?limit=2&block.number=lt:20");
    await expectPage(
      "/api/v1/blocks?limit=2&block.number=lt:20",
      [19, 18],
      "/api/v1/blocks?limit=2&block.number=lt:18",
    );
    await expectPage(
      "/api/v1/blocks?limit=2&block.number=lt:18",
      [17, 16],
      "/api/v1/blocks?limit=2&block.number=lt:16",
    );
    await expectPage("/api/v1/blocks?limit=2&block.number=lt:16", [], null);
    await expectPage(
      "/api/v1/blocks?limit=2&block.number=gt:17&order=desc",
      [21, 20],
      "/api/v1/blocks?limit=2&block.number=gt:17&block.number=lt:20&order=desc",
    );
    // gt:19 and the new lt:20 leave no block number between them: no link.
    await expectPage("/api/v1/blocks?limit=2&block.number=gt:19&order=desc", [21, 20], null);
  });

  it("pages oldest first with order=asc (limit-order-asc, null-hapi-version)", async () => {
    await expectPage(
      "/api/v1/blocks?order=asc&limit=1",
      [16],
      "/api/v1/blocks?order=asc&limit=1&block.number=gt:16",
    );
    await expectPage(
      "/api/v1/blocks?order=asc&limit=1&block.number=gt:16",
      [17],
      "/api/v1/blocks?order=asc&limit=1&block.number=gt:17",
    );
    await expectPage(
      "/api/v1/blocks?order=ASC&limit=3",
      [16, 17, 18],
      "/api/v1/blocks?order=asc&limit=3&block.number=gt:18",
    );
  });

  it("filters on block.number with every accepted operator, in decimal or hex (block.number-*)", async () => {
    await expectPage("/api/v1/blocks?block.number=17", [17], null);
    await expectPage("/api/v1/blocks?block.number=eq:17", [17], null);
    await expectPage("/api/v1/blocks?block.number=0x11", [17], null);
    await expectPage("/api/v1/blocks?block.number=lt:0x12&order=asc", [16, 17], null);
    await expectPage("/api/v1/blocks?block.number=lt:18&order=asc", [16, 17], null);
    await expectPage("/api/v1/blocks?block.number=lte:18&order=asc", [16, 17, 18], null);
    await expectPage("/api/v1/blocks?block.number=gt:17&block.number=gte:18", [21, 20, 19, 18], null);
    await expectPage("/api/v1/blocks?block.number=gte:20", [21, 20], null);
    await expectPage("/api/v1/blocks?block.number=gt:16&block.number=lt:19", [18, 17], null);
    await expectPage("/api/v1/blocks?block.number=0", [], null);
    await expectPage("/api/v1/blocks?block.number=9223372036854775807", [], null);
  });

  it("filters timestamp on the block's last transaction, with every operator (timestamp-*)", async () => {
    // Block 17 holds three transactions: only its end matches eq.
    await expectPage(`/api/v1/blocks?timestamp=${end(17)}`, [17], null);
    await expectPage(`/api/v1/blocks?timestamp=eq:${end(17)}`, [17], null);
    await expectPage(`/api/v1/blocks?timestamp=${start(17)}`, [], null);
    await expectPage(`/api/v1/blocks?timestamp=gt:${end(19)}`, [21, 20], null);
    await expectPage(`/api/v1/blocks?timestamp=gte:${end(19)}`, [21, 20, 19], null);
    await expectPage(
      `/api/v1/blocks?timestamp=gt:${end(16)}&timestamp=gte:${end(18)}`,
      [21, 20, 19, 18],
      null,
    );
    await expectPage(`/api/v1/blocks?timestamp=lt:${end(18)}&order=asc`, [16, 17], null);
    await expectPage(`/api/v1/blocks?timestamp=lte:${end(18)}&order=asc`, [16, 17, 18], null);
    await expectPage(`/api/v1/blocks?timestamp=ne:${end(18)}&timestamp=lt:${end(20)}`, [19, 17, 16], null);
    // Seconds only, and a fraction padded on the right: 1676540001.2 is 1676540001.200000000.
    await expectPage("/api/v1/blocks?timestamp=lt:1676540001.2", [], null);
    await expectPage("/api/v1/blocks?timestamp=lt:1676540002&order=asc", [16], null);
  });

  it("compares timestamps beyond int64 as greater than every stored one", async () => {
    await expectPage("/api/v1/blocks?timestamp=lt:9999999999.999999999", [21, 20, 19, 18, 17, 16], null);
    await expectPage("/api/v1/blocks?timestamp=gte:9999999999.999999999", [], null);
    await expectPage("/api/v1/blocks?timestamp=ne:9999999999&block.number=16", [16], null);
  });

  it("combines block.number and timestamp, linking on block.number (all-params-together)", async () => {
    await expectPage(
      `/api/v1/blocks?block.number=gt:16&timestamp=lt:${end(18)}&order=asc&limit=1`,
      [17],
      `/api/v1/blocks?timestamp=lt:${end(18)}&order=asc&limit=1&block.number=gt:17`,
    );
    await expectPage(
      `/api/v1/blocks?block.number=gt:16&block.number=lt:19&timestamp=lt:${end(18)}`,
      [17],
      null,
    );
    // Sorted on the consensus end when timestamp comes first: the same order.
    await expectPage(
      `/api/v1/blocks?timestamp=gte:${end(17)}&block.number=lte:20&limit=2`,
      [20, 19],
      // A single anchor value in the paging direction is dropped and the bound goes last.
      `/api/v1/blocks?timestamp=gte:${end(17)}&limit=2&block.number=lt:19`,
    );
  });

  it("has no next link when the bound left by the page is empty", async () => {
    await expectPage("/api/v1/blocks?block.number=gte:20&block.number=lte:21&limit=2", [21, 20], null);
    await expectPage(
      "/api/v1/blocks?block.number=gte:19&block.number=lte:21&limit=2",
      [21, 20],
      "/api/v1/blocks?block.number=gte:19&block.number=lt:20&limit=2",
    );
  });

  it("answers a repeated request from the same rendered page, and a conditional one with 304", async () => {
    const first = await get("/api/v1/blocks?limit=3");
    const second = await get("/api/v1/blocks?limit=3");
    expect(second.text).toBe(first.text);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    expect(second.headers.get("etag")).toBe(etag);
    const conditional = await rawGet(service, "/api/v1/blocks?limit=3", { "If-None-Match": etag });
    expect(conditional.status).toBe(304);
    expect(conditional.body).toBe("");
    // As in Express, a client that asks for no cache gets the page again.
    const noCache = await rawGet(service, "/api/v1/blocks?limit=3", {
      "If-None-Match": etag,
      "Cache-Control": "no-cache",
    });
    expect(noCache.status).toBe(200);
    expect(noCache.body).toBe(first.text);
  });

  it("sends the same headers and body with a conditional header that does not match", async () => {
    for (const path of ["/api/v1/blocks?limit=2", `/api/v1/blocks/${blocks[1]!.hash}`, "/api/v1/blocks/17"]) {
      const fast = await get(path);
      // A conditional request that does not match is answered 200, exactly like a plain one.
      const viaExpress = await service.get(path, { "If-None-Match": '"nothing"' });
      validateResponse({ path, status: viaExpress.status, body: viaExpress.body });
      expect(viaExpress.status).toBe(200);
      expect(viaExpress.text).toBe(fast.text);
      const headers = (response: TestResponse) =>
        [...response.headers].filter(([name]) => name !== "date" && name !== "keep-alive");
      expect(headers(viaExpress)).toEqual(headers(fast));
      expect(fast.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await fetch(`${service.baseUrl}/api/v1/blocks?limit=1`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
    expect(await response.text()).toBe("");
  });

  it("treats a trailing slash and upper-case names like the mirror node does", async () => {
    await expectPage("/api/v1/blocks/?limit=1", [21], "/api/v1/blocks?limit=1&block.number=lt:21");
    await expectPage(
      "/api/v1/blocks?LIMIT=1&Order=DESC",
      [21],
      "/api/v1/blocks?limit=1&order=desc&block.number=lt:21",
    );
  });

  const badRequests: Array<[string, string[]]> = [
    ["block.number=ne:17", ["Invalid parameter: block.number"]],
    ["block.number=abc", ["Invalid parameter: block.number"]],
    ["block.number=-1", ["Invalid parameter: block.number"]],
    ["block.number=0xzz", ["Invalid parameter: block.number"]],
    ["block.number=9223372036854775808", ["Invalid parameter: block.number"]],
    ["block.number=", ["Invalid parameter: block.number"]],
    ["block.number=foo:5", ["Invalid parameter: block.number"]],
    ["timestamp=abc", ["Invalid parameter: timestamp"]],
    ["timestamp=", ["Invalid parameter: timestamp"]],
    ["timestamp=12345678901", ["Invalid parameter: timestamp"]],
    ["timestamp=1.1234567890", ["Invalid parameter: timestamp"]],
    ["timestamp=-1&timestamp=gt:1", ["Invalid parameter: timestamp"]],
    ["timestamp=-1&timestamp=x", ["Invalid parameter: timestamp", "Invalid parameter: timestamp"]],
    ["limit=0", ["Invalid parameter: limit"]],
    ["limit=-2", ["Invalid parameter: limit"]],
    ["limit=alot", ["Invalid parameter: limit"]],
    ["limit=", ["Invalid parameter: limit"]],
    ["order=any", ["Invalid parameter: order"]],
    ["order=", ["Invalid parameter: order"]],
    ["index=2", ["Unknown query parameter: index"]],
    ["hash=0x00&block.number=1", ["Unknown query parameter: hash"]],
    [
      "block.number=gt:invalidnumber&timestamp=invalidtimestamp&order=any&limit=invalidlimit&index=2",
      [
        "Invalid parameter: block.number",
        "Invalid parameter: timestamp",
        "Invalid parameter: order",
        "Invalid parameter: limit",
        "Unknown query parameter: index",
      ],
    ],
  ];

  it.each(badRequests)("answers ?%s with 400 and the mirror node's messages", async (query, messages) => {
    const path = `/api/v1/blocks?${query}`;
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ _status: { messages: messages.map((message) => ({ message })) } });
    expect(response.headers.get("cache-control")).toBeNull();
  });
});

describe("GET /api/v1/blocks on 105 blocks", () => {
  let service: TestService;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const served = await serveStream(105, 1n);
    service = served.service;
    stop = served.stop;
  });
  afterAll(async () => {
    await stop?.();
  });

  async function numbersOf(path: string): Promise<{ numbers: number[]; next: string | null }> {
    const response = await service.get(path);
    validateResponse({ path, status: response.status, body: response.body });
    expect(response.status).toBe(200);
    const body = response.body as { blocks: Array<{ number: number }>; links: { next: string | null } };
    return { numbers: body.blocks.map((block) => block.number), next: body.links.next };
  }

  it("returns 25 blocks by default, with a link", async () => {
    const { numbers, next } = await numbersOf("/api/v1/blocks");
    expect(numbers).toEqual(Array.from({ length: 25 }, (_, i) => 105 - i));
    expect(next).toBe("/api/v1/blocks?block.number=lt:81");
  });

  it("caps limit at 100 and keeps the asked limit in the link", async () => {
    const { numbers, next } = await numbersOf("/api/v1/blocks?limit=1000&order=asc");
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(next).toBe("/api/v1/blocks?limit=1000&order=asc&block.number=gt:100");
    const rest = await numbersOf(next!);
    expect(rest).toEqual({ numbers: [101, 102, 103, 104, 105], next: null });
  });

  it("walks every block exactly once by following the links", async () => {
    const seen: number[] = [];
    let path: string | null = "/api/v1/blocks?limit=7";
    while (path !== null) {
      const page = await numbersOf(path);
      seen.push(...page.numbers);
      path = page.next;
    }
    expect(seen).toEqual(Array.from({ length: 105 }, (_, i) => 105 - i));
  });
});
