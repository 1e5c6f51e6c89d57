import { createHash } from "node:crypto";

/**
 * A topic's running hash after a message, computed from the HAPI documentation of
 * `TransactionReceipt.topicRunningHash` (version 3) and nothing else, to check what the simulator and the index
 * hold: SHA-384 of the previous hash, then big-endian the version, payer shard/realm/num, topic shard/realm/num,
 * consensus seconds (8 bytes each), nanos (4 bytes), the sequence number (8 bytes) and SHA-384(message).
 */
export function runningHashV3(args: {
  previous: Buffer;
  payer: [bigint, bigint, bigint];
  topic: [bigint, bigint, bigint];
  consensusNs: bigint;
  sequenceNumber: bigint;
  message: Buffer;
}): Buffer {
  const long = (value: bigint) => {
    const bytes = Buffer.alloc(8);
    bytes.writeBigInt64BE(value);
    return bytes;
  };
  const nanos = Buffer.alloc(4);
  nanos.writeInt32BE(Number(args.consensusNs % 1_000_000_000n));
  return createHash("sha384")
    .update(
      Buffer.concat([
        args.previous,
        long(3n),
        ...args.payer.map(long),
        ...args.topic.map(long),
        long(args.consensusNs / 1_000_000_000n),
        nanos,
        long(args.sequenceNumber),
        createHash("sha384").update(args.message).digest(),
      ]),
    )
    .digest();
}
