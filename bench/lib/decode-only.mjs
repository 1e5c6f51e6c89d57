// The yardstick of the ingest benchmark: what merely reading a stream costs. Gunzips every record file in a
// folder and decodes RecordStreamFile, then each item's SignedTransaction and TransactionBody, with
// @hiero-ledger/proto, in name order. Plain JavaScript, run as its own process (start-up included, as for
// `mirrorlite ingest`); prints one JSON line with the transaction count and the peak RSS.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Long from "long";
import protobuf from "protobufjs/minimal.js";

protobuf.util.Long = Long;
protobuf.configure();
const { proto } = await import("@hiero-ledger/proto");

const dir = process.argv[2];
let transactions = 0;
for (const name of readdirSync(dir)
  .filter((n) => /\.rcd(\.gz)?$/.test(n))
  .sort()) {
  let bytes = readFileSync(join(dir, name));
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const file = proto.RecordStreamFile.decode(bytes.subarray(4));
  for (const item of file.recordStreamItems) {
    const signed = proto.SignedTransaction.decode(item.transaction.signedTransactionBytes);
    proto.TransactionBody.decode(signed.bodyBytes);
    transactions++;
  }
}
console.log(JSON.stringify({ transactions, maxRssKb: process.resourceUsage().maxRSS }));
