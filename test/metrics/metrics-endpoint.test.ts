import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WrittenBlock, writeBlockStream } from "../../bench/blocks.ts";
import { startTestService, type TestService, tempDir, waitForBlock } from "../helpers/service.ts";

const FIRST_NS = 1_700_000_000_123_456_789n;
const SPACING_NS = 2_000_000_000n;
/** Transactions per block: 9 in 5 files. */
const COUNTS = [1, 2, 3, 1, 2];

/** `name{labels} value` lines of a Prometheus text exposition, keyed by `name{labels}`. */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

describe("GET /metrics after a known stream", () => {
  let temp: { dir: string; remove: () => void };
  let service: TestService;
  let written: WrittenBlock[];
  beforeAll(async () => {
    temp = tempDir();
    const dir = join(temp.dir, "record0.0.3");
    written = writeBlockStream(dir, {
      firstBlockNumber: 100n,
      firstConsensusNs: FIRST_NS,
      blockSpacingNs: SPACING_NS,
      blocks: COUNTS.map((count) => Array.from({ length: count }, () => ({}))),
    });
    service = await startTestService({ recordsDir: dir, waitSignatures: false });
    await waitForBlock(service, 104n);
  });
  afterAll(async () => {
    await service?.stop();
    temp?.remove();
  });

  it("reports what ingestion applied and how requests were answered", async () => {
    expect(written).toHaveLength(5);
    // The response cache keeps an answer from the second time its URL is computed: miss, miss, hit.
    for (let i = 0; i < 3; i++) expect((await service.get("/api/v1/tokens")).status).toBe(200);
    expect((await service.get("/api/v1/blocks/102")).status).toBe(200);
    expect((await service.get("/api/v1/no-such-thing")).status).toBe(404);

    const response = await service.get("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const m = parseMetrics(response.text);

    expect(m.get("mirrorlite_ingest_files_total")).toBe(5);
    expect(m.get("mirrorlite_ingest_transactions_total")).toBe(9);
    expect(m.get("mirrorlite_ingest_last_block_number")).toBe(104);
    // The last transaction of block 104: its start plus one nanosecond per earlier transaction in the file.
    const lastNs = FIRST_NS + 4n * SPACING_NS + 1n;
    expect(m.get("mirrorlite_ingest_last_consensus_timestamp_seconds")).toBe(
      Number(lastNs / 1_000_000n) / 1000,
    );
    expect(m.get("mirrorlite_ingest_seconds_behind")).toBe(0);
    expect(m.get("mirrorlite_ingest_files_pending")).toBe(0);
    expect(m.get("mirrorlite_ingest_errors_total")).toBe(0);
    expect(m.get("mirrorlite_ingest_ready")).toBe(1);
    expect(m.get("mirrorlite_db_size_bytes")).toBeGreaterThan(4096);

    // Every request is labelled with its route template, whether the cache answered it or not.
    expect(m.get('mirrorlite_http_requests_total{route="/api/v1/tokens",method="GET",status="200"}')).toBe(3);
    expect(
      m.get(
        'mirrorlite_http_requests_total{route="/api/v1/blocks/{hashOrNumber}",method="GET",status="200"}',
      ),
    ).toBe(1);
    // Two token-list misses (computed; kept the second time) and the block's, then one hit.
    expect(m.get('mirrorlite_http_cache_requests_total{result="miss"}')).toBe(3);
    expect(m.get('mirrorlite_http_cache_requests_total{result="hit"}')).toBe(1);
    expect(m.get('mirrorlite_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(1);
    expect(m.get('mirrorlite_http_request_duration_seconds_count{route="/api/v1/tokens",method="GET"}')).toBe(
      3,
    );
    expect(
      m.get('mirrorlite_http_request_duration_seconds_bucket{le="+Inf",route="/api/v1/tokens",method="GET"}'),
    ).toBe(3);
    // No interim labels of the replaced fast paths.
    expect([...m.keys()].some((key) => /route="(cached|direct)"/.test(key))).toBe(false);
  });

  it("labels a made-up method as OTHER, so clients cannot add time series", async () => {
    await fetch(`${service.baseUrl}/api/v1/tokens`, { method: "PURGE" }).catch(() => undefined);
    const m = parseMetrics((await service.get("/metrics")).text);
    expect([...m.keys()].some((key) => key.includes('method="PURGE"'))).toBe(false);
    expect([...m.keys()].some((key) => key.includes('method="OTHER"'))).toBe(true);
  });
});

describe("GET /metrics before any file is applied", () => {
  it("says how far behind the index is, measured from the oldest file waiting (never NaN)", async () => {
    const temp = tempDir();
    const dir = join(temp.dir, "record0.0.3");
    const written = writeBlockStream(dir, {
      firstBlockNumber: 100n,
      firstConsensusNs: FIRST_NS,
      blockSpacingNs: SPACING_NS,
      blocks: COUNTS.map((count) => Array.from({ length: count }, () => ({}))),
    });
    // The first file cannot be applied: ingestion stops before anything is indexed.
    writeFileSync(join(dir, written[0]!.name), "not a record file");
    const service = await startTestService({ recordsDir: dir, waitSignatures: false });
    try {
      await service.ingest.settled;
      expect(service.ingest.status().state).toBe("stopped");
      const m = parseMetrics((await service.get("/metrics")).text);
      // Five files two seconds apart, none applied: 8 seconds between the oldest and the newest.
      expect(m.get("mirrorlite_ingest_seconds_behind")).toBe(8);
      expect(m.get("mirrorlite_ingest_last_block_number")).toBe(-1);
    } finally {
      await service.stop();
      temp.remove();
    }
  });
});
