/**
 * Speed of `POST /api/v1/network/fees` against a bare `node:http` server: estimates per second for a
 * CryptoTransfer of the demo's CAFE token (STATE mode: the token and its custom fees are read from the index)
 * and a TokenCreate with eight keys and a custom fee (STATE mode), each a real signed `Transaction` body. The
 * stream is the bundled demo's, ingested with `mirrorlite ingest` and served by `mirrorlite serve` in a child
 * process; the bare server gets the same POST and answers a body of the same size. Target: 0.25× bare.
 *
 * Run alone: `node --import tsx bench/fee-estimate.ts [--seconds S]`.
 */
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import Long from "long";
import { proto } from "../src/streams/proto.ts";
import { type BareComparison, printComparison, printVerdicts, toLoadResult } from "./lib/load.ts";
import { runMirrorlite, startBareServer } from "./lib/processes.ts";
import { copyDemoStream, withMirrorlite, withWorkDir } from "./lib/work-dir.ts";

const PATH = "/api/v1/network/fees?mode=STATE";
const WARM_UP_SECONDS = 2;
const TARGET = 0.25;

const id = (num: number) => Long.fromNumber(num);
const key = (fill: number): proto.IKey => ({ ed25519: new Uint8Array(32).fill(fill) });

/** A `Transaction` as SDKs send it: signed body bytes with one ED25519 signature pair. */
function transaction(body: proto.ITransactionBody): Buffer {
  const bodyBytes = proto.TransactionBody.encode({
    transactionID: {
      accountID: { accountNum: id(1002) },
      transactionValidStart: { seconds: id(1_717_200_000) },
    },
    nodeAccountID: { accountNum: id(3) },
    transactionFee: id(200_000_000),
    transactionValidDuration: { seconds: id(120) },
    ...body,
  }).finish();
  const sigMap = {
    sigPair: [{ pubKeyPrefix: new Uint8Array(32).fill(7), ed25519: new Uint8Array(64).fill(9) }],
  };
  const signed = proto.SignedTransaction.encode({ bodyBytes, sigMap }).finish();
  return Buffer.from(proto.Transaction.encode({ signedTransactionBytes: signed }).finish());
}

const CASES = [
  {
    name: "POST /api/v1/network/fees CryptoTransfer (CAFE, STATE)",
    body: transaction({
      cryptoTransfer: {
        tokenTransfers: [
          {
            token: { tokenNum: id(1006) },
            transfers: [
              { accountID: { accountNum: id(1002) }, amount: id(-100) },
              { accountID: { accountNum: id(1003) }, amount: id(100) },
            ],
          },
        ],
      },
    }),
  },
  {
    name: "POST /api/v1/network/fees TokenCreate (8 keys, STATE)",
    body: transaction({
      tokenCreation: {
        name: "Bench",
        symbol: "BNCH",
        treasury: { accountNum: id(1002) },
        adminKey: key(1),
        kycKey: key(2),
        freezeKey: key(3),
        wipeKey: key(4),
        supplyKey: key(5),
        feeScheduleKey: key(6),
        pauseKey: key(7),
        metadataKey: key(8),
        customFees: [{ fixedFee: { amount: id(10) }, feeCollectorAccountId: { accountNum: id(1002) } }],
      },
    }),
  },
];

async function post(label: string, port: number, body: Buffer, seconds: number, connections: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${PATH}`,
    method: "POST",
    headers: { "content-type": "application/protobuf" },
    body,
    connections,
    duration: seconds,
  });
  return toLoadResult(label, result);
}

export type FeeEstimateBenchOptions = { seconds?: number; connections?: number };

export async function benchFeeEstimate(options: FeeEstimateBenchOptions = {}): Promise<BareComparison[]> {
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 32;
  return withWorkDir("mirrorlite-bench-fees-", async ({ recordsDir, dbFile }) => {
    copyDemoStream(recordsDir);
    await runMirrorlite(["ingest", "--records", recordsDir, "--db", dbFile, "--log-level", "warn"]);
    return withMirrorlite(recordsDir, dbFile, async (server) => {
      const results: BareComparison[] = [];
      for (const { name, body } of CASES) {
        const response = await fetch(`http://127.0.0.1:${server.port}${PATH}`, {
          method: "POST",
          headers: { "content-type": "application/protobuf" },
          body,
        });
        if (response.status !== 200) throw new Error(`${name} answered ${response.status}`);
        const bodyBytes = (await response.arrayBuffer()).byteLength;
        const bare = await startBareServer(bodyBytes);
        try {
          await post("warm-up", server.port, body, WARM_UP_SECONDS, connections);
          const subject = await post(name, server.port, body, seconds, connections);
          await post("warm-up", bare.port, body, WARM_UP_SECONDS, connections);
          const bareResult = await post(
            `bare node:http, ${bodyBytes} B body`,
            bare.port,
            body,
            seconds,
            connections,
          );
          printComparison(subject, bareResult);
          const ratio = subject.requestsPerSecond / bareResult.requestsPerSecond;
          results.push({ name, subject, bare: bareResult, bodyBytes, ratio, target: TARGET });
        } finally {
          await bare.stop();
        }
      }
      return results;
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { seconds: { type: "string" } } });
  const results = await benchFeeEstimate(
    values.seconds === undefined ? {} : { seconds: Number(values.seconds) },
  );
  printVerdicts(results);
}
