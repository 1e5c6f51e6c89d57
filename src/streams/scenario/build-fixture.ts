/**
 * One scenario file in, one fixture stream out: parse, simulate, write
 * `<outDir>/record0.0.3/*.rcd.gz|.rcd_sig` and `<outDir>/expected.json`.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { runScenario } from "./engine.ts";
import { parseScenario } from "./scenario-file.ts";
import type { LedgerSummary } from "./summary.ts";
import { writeScenarioStream } from "./write-stream.ts";

/** Reads the fixture node key (an RSA PKCS#8 PEM) that signs fixture record files. */
export function loadSigningKey(pemPath: string): KeyObject {
  return createPrivateKey(readFileSync(pemPath));
}

/** Builds the stream of one scenario file; its name is the file name without `.yaml`. */
export function buildScenarioFixture(
  scenarioPath: string,
  outDir: string,
  signingKey: KeyObject,
): LedgerSummary {
  const name = basename(scenarioPath).replace(/\.ya?ml$/, "");
  const run = runScenario(parseScenario(name, readFileSync(scenarioPath, "utf8")));
  return writeScenarioStream(run, outDir, signingKey);
}
