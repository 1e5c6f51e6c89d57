/**
 * Reads a scenario file: YAML with the stream settings and a list of steps.
 *
 *   description: What this ledger shows
 *   start: 2024-03-01T10:00:00Z     # consensus time of the first transaction
 *   blockSeconds: 2                 # a new record file every N seconds of consensus time
 *   firstBlock: 1000                # block number of the first file
 *   firstEntity: 1001               # first number for new accounts and tokens
 *   spacing: 500ms                  # consensus time between consecutive transactions
 *   hapiVersion: 0.62.0
 *   seed: tokens                    # keys and timestamp jitter derive from it (default: the file name)
 *   steps:
 *     - cryptoCreate: { name: alice, balance: "100 hbar" }
 *     - wait: 3s
 *
 * Every step is a map with one transaction type as its key. Besides the type's own fields, any step takes
 * `payer` (default: the operator 0.0.2), `txMemo`, `label` (to find it in expected.json) and
 * `fail: <ResponseCodeEnum name>` (the transaction reaches consensus and fails: the payer is charged, nothing
 * else changes).
 */
import { parse } from "yaml";
import type { HapiVersion } from "../types.ts";
import { Args } from "./args.ts";
import { ScenarioError } from "./ledger.ts";
import { parseDurationNs, parseInstant } from "./pb.ts";

export type ScenarioSettings = {
  name: string;
  description: string;
  seed: string;
  startNs: bigint;
  blockSeconds: bigint;
  firstBlock: bigint;
  firstEntity: bigint;
  spacingNs: bigint;
  hapiVersion: HapiVersion;
};

export type RawStep =
  | { kind: "transaction"; where: string; type: string; args: Args }
  | { kind: "wait"; where: string; waitNs: bigint };

export type Scenario = { settings: ScenarioSettings; steps: RawStep[] };

/** Parses scenario YAML; integers are read as bigint so int64 amounts stay exact. */
export function parseScenario(name: string, text: string): Scenario {
  const doc = new Args(name, parse(text, { intAsBigInt: true }));
  const version = (doc.optStr("hapiVersion") ?? "0.62.0").split(".").map(Number);
  if (version.length !== 3 || version.some((n) => !Number.isInteger(n) || n < 0))
    doc.fail("hapiVersion", "x.y.z");
  const settings: ScenarioSettings = {
    name,
    description: doc.optStr("description") ?? "",
    seed: doc.optStr("seed") ?? name,
    startNs: parseInstant(doc.str("start")),
    blockSeconds: doc.optBigint("blockSeconds") ?? 2n,
    firstBlock: doc.optBigint("firstBlock") ?? 0n,
    firstEntity: doc.optBigint("firstEntity") ?? 1001n,
    spacingNs: doc.has("spacing") ? doc.durationNs("spacing") : parseDurationNs("500ms"),
    hapiVersion: { major: version[0]!, minor: version[1]!, patch: version[2]! },
  };
  if (settings.blockSeconds <= 0n) doc.fail("blockSeconds", "a positive number of seconds");
  if (settings.spacingNs < 1_000n) doc.fail("spacing", "at least 1us");
  const steps = doc.list("steps").map((raw, i) => parseStep(`${name}.steps[${i}]`, raw));
  doc.done();
  return { settings, steps };
}

function parseStep(where: string, raw: unknown): RawStep {
  const outer = new Args(where, raw);
  const types = outer.keys();
  if (types.length !== 1)
    throw new ScenarioError(`${where}: a step is a map with exactly one transaction type`);
  const type = types[0]!;
  if (type === "wait") return { kind: "wait", where, waitNs: outer.durationNs("wait") };
  return { kind: "transaction", where: `${where}.${type}`, type, args: outer.sub(type) };
}
