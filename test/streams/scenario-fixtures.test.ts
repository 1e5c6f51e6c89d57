import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildScenarioFixture, loadSigningKey } from "../../fixtures/writer/scenario/build-fixture.ts";
import type { LedgerSummary } from "../../fixtures/writer/scenario/summary.ts";
import { readAddressBook } from "../../src/streams/address-book.ts";
import { type ChainTip, checkChain, toChainTip } from "../../src/streams/chain.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { readSignatureFile } from "../../src/streams/signature-file.ts";
import { verifyRecordFileSignature } from "../../src/streams/verify-signature.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const scenariosDir = join(root, "fixtures/scenarios");
const streamsDir = join(root, "fixtures/streams");
const scenarios = readdirSync(scenariosDir)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => f.slice(0, -".yaml".length))
  .sort();
const signingKey = loadSigningKey(join(root, "fixtures/keys/node-0.0.3.key.pem"));
const nodeKey = readAddressBook(readFileSync(join(root, "fixtures/keys/address-book.bin"))).get("0.0.3")!;
const scratch = mkdtempSync(join(tmpdir(), "mirrorlite-scenarios-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir`, as relative path → bytes. */
function filesUnder(dir: string, prefix = ""): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const [p, b] of filesUnder(path, `${prefix}${entry.name}/`)) out.set(p, b);
    else if (entry.name !== ".gitattributes") out.set(`${prefix}${entry.name}`, readFileSync(path));
  }
  return out;
}

function nsOf(ts: proto.ITimestamp): bigint {
  return toBigInt(ts.seconds) * 1_000_000_000n + BigInt(ts.nanos ?? 0);
}

function fileStem(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replaceAll(":", "_");
  return `${iso}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}Z`;
}

it("has the three fixture scenarios", () => {
  expect(scenarios).toEqual(expect.arrayContaining(["accounts-and-nfts", "demo", "tokens"]));
});

describe.each(scenarios)("fixture stream %s", (name) => {
  const committed = join(streamsDir, name);

  it("is exactly what fixtures/build.ts regenerates from the scenario", () => {
    const out = join(scratch, name);
    buildScenarioFixture(join(scenariosDir, `${name}.yaml`), out, signingKey);
    const fresh = filesUnder(out);
    const kept = filesUnder(committed);
    expect([...fresh.keys()].sort()).toEqual([...kept.keys()].sort());
    for (const [path, bytes] of fresh) expect(bytes.equals(kept.get(path)!), path).toBe(true);
  });

  it("reads back as a signed, chained v6 stream matching expected.json", () => {
    const expected = JSON.parse(readFileSync(join(committed, "expected.json"), "utf8")) as LedgerSummary;
    const dir = join(committed, "record0.0.3");
    const names = readdirSync(dir)
      .filter((n) => n.endsWith(".rcd.gz"))
      .sort();
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual(expected.blocks!.map((b) => b.name));
    expect(readdirSync(dir).filter((n) => n.endsWith(".rcd_sig"))).toHaveLength(names.length);

    let tip: ChainTip | null = null;
    let lastNs = 0n;
    const consensus = new Set<string>();
    for (const [i, fileName] of names.entries()) {
      const file = readRecordFile(fileName, readFileSync(join(dir, fileName)));
      const block = expected.blocks![i]!;
      expect(file.version).toBe(6);
      expect(`${file.hapiVersion!.major}.${file.hapiVersion!.minor}.${file.hapiVersion!.patch}`).toBe(
        expected.hapiVersion,
      );
      expect(file.blockNumber).toBe(BigInt(block.number));
      if (i === 0) expect(Buffer.from(file.previousHash).equals(Buffer.alloc(48))).toBe(true);
      checkChain(tip, file);
      tip = toChainTip(file, file.blockNumber!);
      expect(Buffer.from(file.hash).toString("hex")).toBe(block.hash);
      expect(file.items).toHaveLength(block.count);

      const signatureName = fileName.replace(/\.rcd\.gz$/, ".rcd_sig");
      verifyRecordFileSignature({
        file: fileName,
        signature: readSignatureFile(signatureName, readFileSync(join(dir, signatureName))),
        fileHash: file.fileHash,
        metadataHash: file.metadataHash,
        publicKey: nodeKey,
      });

      const times = file.items.map((item) =>
        nsOf(proto.TransactionRecord.decode(item.recordBytes).consensusTimestamp!),
      );
      expect(fileName).toBe(`${fileStem(times[0]!)}.rcd.gz`);
      for (const ns of times) {
        expect(ns).toBeGreaterThan(lastNs);
        lastNs = ns;
        consensus.add(`${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`);
      }
    }
    for (const step of expected.steps)
      expect(consensus.has(step.consensusTimestamp), step.consensusTimestamp).toBe(true);
  });
});
