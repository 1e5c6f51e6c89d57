/**
 * Real record files (v2, v5, v6) through the real watcher: every transaction in them is looked up as a consensus
 * message by its consensus time. The message index holds only successful ConsensusSubmitMessages, so each
 * answer follows from the file itself: the message (topic, sequence number and running hash from its receipt)
 * for a successful submit, 404 for anything else. (These real files hold no submit messages; the scenario
 * tests cover the messages themselves.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeItem } from "../../src/ingest/decode.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { readRecordFile } from "../../src/streams/read-record-file.ts";
import { formatTimestamp } from "../../src/time.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { copyStream, REAL_STREAMS, startTestService, type TestService } from "../helpers/service.ts";

const STREAMS = ["v2/record0.0.3", "v5/record0.0.3", "v6/record0.0.3"];
const SUCCESS = 22;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function serve(stream: string): Promise<TestService> {
  const copy = copyStream(join(REAL_STREAMS, stream));
  cleanups.push(copy.remove);
  const service = await startTestService({ recordsDir: copy.dir });
  cleanups.push(() => service.stop());
  await service.ingest.settled;
  expect(service.ingest.status().state).toBe("ready");
  return service;
}

describe.each(STREAMS)("consensus messages of the real stream %s", (stream) => {
  it("answers each transaction's consensus time as its file says", { timeout: 60_000 }, async () => {
    const service = await serve(stream);
    const dir = join(REAL_STREAMS, stream);
    let transactions = 0;
    for (const name of readdirSync(dir).filter((n) => /\.rcd(\.gz)?$/.test(n))) {
      for (const raw of readRecordFile(name, readFileSync(join(dir, name))).items) {
        const item = decodeItem(raw);
        transactions++;
        const path = `/api/v1/topics/messages/${formatTimestamp(item.consensusNs)}`;
        const response = await service.get(path);
        validateResponse({ path, status: response.status, body: response.body });
        if (item.bodyCase === "consensusSubmitMessage" && item.status === SUCCESS) {
          const receipt = item.record.receipt!;
          expect(response.status, path).toBe(200);
          expect(response.body).toMatchObject({
            sequence_number: Number(toBigInt(receipt.topicSequenceNumber)),
            running_hash: Buffer.from(receipt.topicRunningHash!).toString("base64"),
          });
        } else {
          expect(response.status, path).toBe(404);
        }
      }
    }
    expect(transactions).toBeGreaterThan(0);
  });
});
