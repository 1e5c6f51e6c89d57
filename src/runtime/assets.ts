import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What the running program needs besides its own modules, found on disk next to the code: the ingest, block
 * reader and read workers' entries, the bundled demo stream, the OpenAPI document, Swagger UI's files, the
 * simple-fee schedule's proto file and the version. The single executable build swaps this module for
 * `assets-sea.ts`, which has the same exports and reads the same things from the executable itself (see
 * scripts/build-binary.mjs).
 */

/** How to start a worker thread: a module file, or (single executable) its bundled source. */
export type WorkerSource = { kind: "file"; url: URL } | { kind: "eval"; code: string };

/** Files the HTTP side serves as they are: the OpenAPI document in both forms and Swagger UI's page assets. */
export type AssetName = "openapi.yaml" | "openapi.json" | "swagger-ui.css" | "swagger-ui-bundle.js";

// Running from src/ (tests, tsx) or from the compiled dist/: both sit one level below the repository.
const here = import.meta.url;
const compiled = !here.endsWith(".ts");

/**
 * The compiled program's folder (dist/) whose worker entries a program running from the TypeScript sources starts
 * instead of loading every module of each thread through the tsx loader, which is most of the cost of starting a
 * service in a test. Only the test harness sets it, after compiling dist/ from the same sources.
 */
let compiledWorkers: URL | null = null;

/** Starts the ingest and read workers from the compiled program in `distDir` (null: from the sources again). */
export function startWorkersFromCompiledCode(distDir: URL | null): void {
  compiledWorkers = distDir;
}

export function ingestWorkerSource(): WorkerSource {
  if (!compiled && compiledWorkers !== null)
    return { kind: "file", url: new URL("ingest/worker.js", compiledWorkers) };
  // Compiled code starts the compiled worker; TypeScript sources need the tsx loader installed in the thread.
  const entry = compiled ? "../ingest/worker.js" : "../ingest/worker-bootstrap.mjs";
  return { kind: "file", url: new URL(entry, here) };
}

/** The block reader thread that the ingest worker starts for a block stream folder. */
export function blockReaderWorkerSource(): WorkerSource {
  const entry = compiled ? "../ingest/block-reader-entry.js" : "../ingest/block-reader-bootstrap.mjs";
  return { kind: "file", url: new URL(entry, here) };
}

/**
 * `typeScriptModules`: the workers load route modules written in TypeScript (tests' own routes), so they need the
 * tsx loader even where the program's own modules are compiled.
 */
export function readWorkerSource(typeScriptModules = false): WorkerSource {
  if (!compiled && compiledWorkers !== null && !typeScriptModules)
    return { kind: "file", url: new URL("api/read-worker-entry.js", compiledWorkers) };
  const entry = compiled ? "../api/read-worker-entry.js" : "../api/read-worker-bootstrap.mjs";
  return { kind: "file", url: new URL(entry, here) };
}

/** The stream a new user sees with no flags: generated from `fixtures/scenarios/demo.yaml`. */
export function demoRecordsDir(): string {
  return fileURLToPath(new URL("../../fixtures/streams/demo/record0.0.3", here));
}

/** The demo's account balance snapshots: the starting state of the demo stream, so that it serves the supply. */
export function demoBalancesDir(): string {
  return fileURLToPath(new URL("../../fixtures/streams/demo/balance0.0.3", here));
}

/** `proto/simple-fee-schedule.proto`, the messages of the simple-fee schedule (0.0.113), as text. */
export function feeScheduleProtoText(): string {
  return readFileSync(new URL("../../proto/simple-fee-schedule.proto", here), "utf8");
}

/** better-sqlite3's default loader finds the addon in node_modules. */
export function sqliteNativeBinding(): object | undefined {
  return undefined;
}

let version: string | undefined;
export function mirrorliteVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL("../../package.json", here), "utf8")) as { version: string })
    .version;
  return version;
}

/** The bytes of a served asset; null when this installation lacks it (the route answers 404). */
export async function readAsset(name: AssetName): Promise<Buffer | null> {
  switch (name) {
    case "openapi.yaml":
      return readFileSync(new URL("../api/openapi.yaml", here));
    case "openapi.json": {
      // The build writes the JSON form beside the compiled code, so the runtime never needs a YAML parser.
      const built = new URL("../api/openapi.json", here);
      if (existsSync(built)) return readFileSync(built);
      // Running from the TypeScript sources (tests, development): convert with the dev dependency.
      const { parse } = await import("yaml");
      return Buffer.from(JSON.stringify(parse(readFileSync(new URL("../api/openapi.yaml", here), "utf8"))));
    }
    default: {
      const require = createRequire(here);
      const dir = dirname(require.resolve("swagger-ui-dist/package.json"));
      return readFileSync(join(dir, name));
    }
  }
}
