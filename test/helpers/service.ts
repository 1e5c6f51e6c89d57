import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningService, type ServiceExtras, startService } from "../../src/cli/serve.ts";
import type { Config } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const REAL_STREAMS = fileURLToPath(new URL("../../fixtures/real/", import.meta.url));
export const FIXTURE_STREAMS = fileURLToPath(new URL("../../fixtures/streams/", import.meta.url));

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix = "mirrorlite-test-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies a stream folder (e.g. a fixture's `record0.0.3`) into a new temporary folder of the test's own. */
export function copyStream(source: string): { dir: string; remove: () => void } {
  const temp = tempDir();
  const dir = join(temp.dir, "record0.0.3");
  cpSync(source, dir, { recursive: true });
  return { dir, remove: temp.remove };
}

export type TestService = RunningService & {
  baseUrl: string;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
};

export type TestResponse = { status: number; headers: Headers; text: string; body: unknown };

/** Starts the real service (real worker, real SQLite file, real HTTP on an ephemeral port) on `recordsDir`. */
export async function startTestService(
  options: Partial<Config> & { recordsDir: string | null },
  extras: ServiceExtras = {},
): Promise<TestService> {
  const config: Config = {
    db: ":memory:",
    port: 0,
    host: "127.0.0.1",
    logLevel: "silent",
    waitSignatures: true,
    verifySignatures: null,
    pollMs: 50,
    // Fixture files are copied whole before the service starts: a short quiet period keeps starts quick.
    settleMs: 100,
    listCacheMs: 1000,
    // One read worker: each one loads the API's modules on start, the main cost of a test service; tests that
    // exercise the pool ask for more.
    readWorkers: 1,
    ...options,
  };
  const service = await startService(config, createLogger(config.logLevel), {}, extras);
  const baseUrl = `http://127.0.0.1:${service.port}`;
  return {
    ...service,
    baseUrl,
    async get(path, headers) {
      const response = await fetchIdempotent(baseUrl + path, headers);
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text.length > 0 ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      return { status: response.status, headers: response.headers, text, body };
    },
  };
}

/**
 * A GET with fetch, sent again once if the connection it went out on was closed under it. fetch keeps
 * connections alive and the server closes one idle for 5 s; on a loaded machine fetch can send on a connection
 * in the moment the server closes it (ECONNRESET, no answer at all). A GET asks again safely.
 */
async function fetchIdempotent(url: string, headers?: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, { headers });
  } catch (error) {
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    if (code !== "ECONNRESET" && code !== "EPIPE" && code !== "UND_ERR_SOCKET") throw error;
    return await fetch(url, { headers });
  }
}

/** Waits until the service has applied `blockNumber` (or ingestion stopped, which fails the wait). */
export async function waitForBlock(
  service: RunningService,
  blockNumber: bigint,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = service.ingest.status();
    if (status.lastBlock !== null && status.lastBlock >= blockNumber) return;
    if (status.state === "stopped") throw new Error(`ingestion stopped: ${status.reason}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`block ${blockNumber} was not applied within ${timeoutMs} ms`);
}
