/**
 * Large, genuine record streams for benchmarks: many accounts and tokens, then a deterministic mix of token
 * creates, fungible and NFT mints, token and NFT transfers among the accounts, and hbar transfers, at
 * `transactionsPerFile` transactions per 2-second record file.
 *
 * Accounts are created first (they count towards `transactions`), each with unlimited automatic
 * associations so that transfers need no TokenAssociate; token creates are spread evenly over the rest.
 * The plan is executed by `BulkExecutor`, which writes the same bytes the scenario simulator would (a test
 * checks it) without its generality, so that hundreds of thousands of transactions take seconds.
 */
import type { KeyObject } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HapiVersion } from "../types.ts";
import { loadSigningKey } from "./build-fixture.ts";
import { BulkExecutor, type BulkOp, type PendingItem } from "./bulk-executor.ts";
import { ParallelSigner } from "./parallel-signer.ts";
import { parseInstant } from "./pb.ts";
import { OPERATOR_NAME, seededRandom } from "./simulator.ts";
import { RecordFileWriter } from "./write-stream.ts";

export type BulkOptions = {
  /** Where the `.rcd.gz` (and `.rcd_sig`) files go; stream files already there are removed. */
  dir: string;
  /** Number of TokenCreate transactions (about 70% fungible, 30% NFT). */
  tokens: number;
  /** Total number of transactions, account and token creates included. */
  transactions: number;
  seed?: number;
  /** Transactions per record file (default 1000); each file covers 2 seconds of consensus time. */
  transactionsPerFile?: number;
  /**
   * Sign each transaction for real (default true). False reuses one template signature per key: the
   * stream is identical in shape, and faster to produce, but transaction signatures do not verify.
   */
  signatures?: boolean;
  /** The key that signs each record file (`.rcd_sig`); default the fixture node key, null for none. */
  signingKey?: KeyObject | null;
  /** Consensus time of the first transaction (default 2025-01-01T00:00:00Z). */
  start?: string;
  firstBlock?: bigint;
  hapiVersion?: HapiVersion;
  /** Called with every operation as it is executed (tests replay them through the simulator). */
  onOperation?: (op: BulkOp) => void;
};

export type BulkResult = {
  files: number;
  transactions: number;
  accounts: number;
  /** Accounts are numbered from 0.0.1001; tokens follow them. */
  firstAccountId: string;
  tokens: number;
  firstTokenId: string | null;
  lastTokenId: string | null;
  nftsMinted: number;
  firstBlock: bigint;
  lastBlock: bigint;
  durationMs: number;
};

export const BULK_FIRST_ENTITY = 1001;
export const BULK_HAPI_VERSION: HapiVersion = { major: 0, minor: 62, patch: 0 };
const BLOCK_NS = 2_000_000_000n;
/** Transactions start their validity this long before consensus (a constant keeps ids unique). */
const VALID_START_LEAD_NS = 2_500_000_000n;
const FIXTURE_KEY = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/keys/node-0.0.3.key.pem",
);

/** The simulator seed a bulk stream uses (keys derive from it). */
export function bulkSeed(seed: number | undefined): string {
  return `bulk-${seed ?? 1}`;
}

/** How many accounts a bulk stream of this size creates. */
export function bulkAccountCount(transactions: number): number {
  return Math.min(5000, Math.max(20, Math.floor(transactions / 100)));
}

/** Writes a bulk stream into `opts.dir`. Deterministic for the same options. */
export function generateBulkStream(opts: BulkOptions): BulkResult {
  const started = performance.now();
  const perFile = opts.transactionsPerFile ?? 1000;
  if (!Number.isInteger(opts.transactions) || !Number.isInteger(opts.tokens) || opts.tokens < 0) {
    throw new RangeError("tokens and transactions must be non-negative integers");
  }
  const accountCount = bulkAccountCount(opts.transactions);
  if (opts.transactions < accountCount + opts.tokens) {
    throw new RangeError(
      `${opts.transactions} transactions cannot hold ${accountCount} accounts and ${opts.tokens} tokens`,
    );
  }
  if (!Number.isInteger(perFile) || perFile < 1)
    throw new RangeError("transactionsPerFile must be a positive integer");

  const seed = bulkSeed(opts.seed);
  const executor = new BulkExecutor(seed, BULK_FIRST_ENTITY, opts.signatures ?? true);
  const random = seededRandom(`${seed}/plan`);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const firstBlock = opts.firstBlock ?? 0n;
  const writer = new RecordFileWriter(opts.dir, {
    hapiVersion: opts.hapiVersion ?? BULK_HAPI_VERSION,
    signingKey: opts.signingKey === undefined ? loadSigningKey(FIXTURE_KEY) : opts.signingKey,
  });

  const startNs = parseInstant(opts.start ?? "2025-01-01T00:00:00Z");
  const spacingNs = BLOCK_NS / BigInt(perFile) > 1n ? BLOCK_NS / BigInt(perFile) : 1n;
  // With real signatures, a second thread signs one file's bodies while this one builds the next file.
  const signer = (opts.signatures ?? true) ? new ParallelSigner() : null;
  type PlannedBatch = { pending: PendingItem[]; batch: number | null };
  let current: PendingItem[] = [];
  let inFlight: PlannedBatch | null = null;
  let index = 0;
  const writeBatch = ({ pending, batch }: PlannedBatch) => {
    const signatures = batch === null || signer === null ? null : signer.collect(batch);
    const items = pending.map((p, i) => executor.complete(p, signatures?.[i]));
    writer.write({
      blockNumber: firstBlock + BigInt(writer.blocks.length),
      firstNs: pending[0]!.op.consensusNs,
      lastNs: pending[pending.length - 1]!.op.consensusNs,
      items,
    });
  };
  const flush = () => {
    if (current.length === 0) return;
    let batch: number | null = null;
    if (signer !== null) {
      for (const p of current) signer.register(p.payer.num, p.payer.signer.privateKey);
      batch = signer.submit(
        current.map((p) => p.payer.num),
        current.map((p) => p.bodyBytes),
      );
    }
    if (inFlight !== null) writeBatch(inFlight);
    inFlight = { pending: current, batch };
    current = [];
  };
  type OpBody = BulkOp extends infer T
    ? T extends BulkOp
      ? Omit<T, "consensusNs" | "validStartNs">
      : never
    : never;
  const emit = (body: OpBody) => {
    const fileIndex = Math.floor(index / perFile);
    const position = index % perFile;
    // Each file covers one 2-second period; jitter keeps the nanoseconds irregular, as real ones are.
    const jitter = BigInt(Math.floor(random() * Number(spacingNs / 2n)));
    const consensusNs = startNs + BigInt(fileIndex) * BLOCK_NS + BigInt(position) * spacingNs + jitter;
    const op = { ...body, consensusNs, validStartNs: consensusNs - VALID_START_LEAD_NS } as BulkOp;
    opts.onOperation?.(op);
    current.push(executor.prepare(op));
    index++;
    if (index % perFile === 0) flush();
  };

  const accounts: string[] = [];
  for (let i = 0; i < accountCount; i++) {
    const name = `acct-${i}`;
    emit({ kind: "createAccount", payer: OPERATOR_NAME, name });
    accounts.push(name);
  }
  const other = (name: string) => {
    let chosen = pick(accounts);
    while (chosen === name) chosen = pick(accounts);
    return chosen;
  };

  const fungible: string[] = [];
  const nfts: string[] = [];
  const nftsWithSerials: string[] = [];
  const serials = new Map<string, bigint[]>();
  const holders = new Map<string, { list: string[]; set: Set<string> }>();
  const addHolder = (token: string, account: string) => {
    const h = holders.get(token)!;
    if (!h.set.has(account)) {
      h.set.add(account);
      h.list.push(account);
    }
  };
  const hbarTransfer = () => {
    const from = pick(accounts);
    const amount = BigInt(1 + Math.floor(random() * 100_000_000));
    emit({ kind: "transferHbar", payer: from, from, to: other(from), amount });
  };
  let nftsMinted = 0;
  let created = 0;
  const remaining = opts.transactions - accountCount;
  for (let k = 0; k < remaining; k++) {
    if (created < Math.floor(((k + 1) * opts.tokens) / remaining)) {
      const handle = `T${created}`;
      const treasury = pick(accounts);
      const nft = random() >= 0.7;
      const decimals = nft ? 0 : Math.floor(random() * 9);
      const initialSupply = nft ? 0n : BigInt(1 + Math.floor(random() * 1_000_000)) * 10n ** BigInt(decimals);
      const name = `Bulk Token ${created}`;
      const symbol = `BT${created}`;
      emit({
        kind: "createToken",
        payer: treasury,
        handle,
        name,
        symbol,
        treasury,
        nft,
        decimals,
        initialSupply,
      });
      if (nft) {
        nfts.push(handle);
        serials.set(handle, []);
      } else {
        fungible.push(handle);
        holders.set(handle, { list: [treasury], set: new Set([treasury]) });
      }
      created++;
      continue;
    }

    const r = random();
    if (r < 0.15 && fungible.length > 0) {
      const token = pick(fungible);
      const amount = BigInt(1 + Math.floor(random() * 1_000_000));
      emit({ kind: "mintFungible", payer: executor.treasuryOf(token), token, amount });
    } else if (r < 0.3 && nfts.length > 0) {
      const token = pick(nfts);
      const first = executor.nextSerial(token);
      const metadata = Array.from(
        { length: 1 + Math.floor(random() * 3) },
        (_, i) => `ipfs://bulk/${token}/${first + BigInt(i)}.json`,
      );
      emit({ kind: "mintNft", payer: executor.treasuryOf(token), token, metadata });
      const list = serials.get(token)!;
      if (list.length === 0) nftsWithSerials.push(token);
      for (let i = 0; i < metadata.length; i++) list.push(first + BigInt(i));
      nftsMinted += metadata.length;
    } else if (r < 0.7 && fungible.length > 0) {
      const token = pick(fungible);
      let from = random() < 0.5 ? executor.treasuryOf(token) : pick(holders.get(token)!.list);
      let balance = executor.balanceOf(token, from);
      if (balance < 2n) {
        from = executor.treasuryOf(token);
        balance = executor.balanceOf(token, from);
      }
      if (balance < 2n) {
        hbarTransfer();
        continue;
      }
      const cap = balance < 10_000n ? balance : 10_000n;
      const amount = 2n + BigInt(Math.floor(random() * Number(cap - 1n)));
      const to = other(from);
      if (random() < 0.2 && amount >= 4n) {
        // One sender, two receivers.
        let second = other(from);
        while (second === to) second = other(from);
        const half = amount / 2n;
        emit({
          kind: "transferFungible",
          payer: from,
          token,
          from,
          to: [
            { name: to, amount: half },
            { name: second, amount: amount - half },
          ],
        });
        addHolder(token, second);
      } else {
        emit({ kind: "transferFungible", payer: from, token, from, to: [{ name: to, amount }] });
      }
      addHolder(token, to);
    } else if (r < 0.9 && nftsWithSerials.length > 0) {
      const token = pick(nftsWithSerials);
      const serial = pick(serials.get(token)!);
      const from = executor.ownerOf(token, serial);
      emit({ kind: "transferNft", payer: from, token, serial, from, to: other(from) });
    } else {
      hbarTransfer();
    }
  }
  flush();
  if (inFlight !== null) writeBatch(inFlight);
  void signer?.close();

  const firstTokenNum = BULK_FIRST_ENTITY + accountCount;
  return {
    files: writer.blocks.length,
    transactions: index,
    accounts: accountCount,
    firstAccountId: `0.0.${BULK_FIRST_ENTITY}`,
    tokens: created,
    firstTokenId: created > 0 ? `0.0.${firstTokenNum}` : null,
    lastTokenId: created > 0 ? `0.0.${firstTokenNum + created - 1}` : null,
    nftsMinted,
    firstBlock,
    lastBlock: firstBlock + BigInt(writer.blocks.length) - 1n,
    durationMs: Math.round(performance.now() - started),
  };
}
