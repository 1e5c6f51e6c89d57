import { readdirSync } from "node:fs";
import { join } from "node:path";
import { encodeEntityId, formatEntityId } from "../ids.ts";
import type { Logger } from "../log.ts";
import { type BalanceCheckSummary, createBalanceChecks } from "../store/balance-checks.ts";
import { createHbarQueries } from "../store/hbar-balances.ts";
import { TOTAL_SUPPLY_TINYBARS } from "../store/unreleased-supply.ts";
import type { WriteStore } from "../store/write-store.ts";
import { type BalanceSnapshot, isBalanceFileName } from "../streams/balance-file.ts";
import { isAllZero } from "../streams/hex.ts";
import { toBigInt } from "../streams/long.ts";
import type { RecordFile } from "../streams/types.ts";
import { type BalanceFileInfo, instantOfName, readBalanceSnapshot } from "./balance-folder.ts";
import { type DecodedItem, decodeItem } from "./decode.ts";
import { START_STATE_ACCOUNT } from "./handlers/crypto.ts";
import { associationDefaults } from "./handlers/token-account.ts";

/** What a comparison of a later snapshot with the index found. */
export type BalanceCheckReport = {
  file: string;
  consensusNs: bigint;
  accounts: number;
  differences: number;
  /** A few of the differences, for the log and readiness. */
  examples: string[];
};

export type BalanceSnapshotEvents = {
  onStart(source: string, consensusNs: bigint): void;
  onCheck(report: BalanceCheckReport): void;
  /** What a resumed index remembers of its earlier comparisons (see `announce`). */
  onHistory(summary: BalanceCheckSummary): void;
};

export type BalanceSnapshots = {
  /**
   * Before the stream's first record file is applied: when no hbar history exists yet, starts it from the newest
   * snapshot taken at or before the file's first transaction, or from the genesis state when the stream begins
   * at genesis (block 0, no previous hash). Otherwise no balance is known and none is tracked.
   */
  beforeFirstFile(file: RecordFile, blockNumber: bigint): void;
  /** The same from the first transaction of the first block (record file or block stream block) applied. */
  beforeFirstItem(item: DecodedItem | undefined, blockNumber: bigint, previousHash: Uint8Array): void;
  /**
   * Compares every later snapshot whose instant the index now covers (consensus end `indexedNs`) and that was
   * not compared before (the index keeps each comparison). Call it between commits, not inside one: it reads
   * whole snapshot files, and it is not part of applying record files.
   */
  checkUpTo(indexedNs: bigint): void;
  /**
   * Reports the starting state of a resumed index (as `onStart`) and the comparisons it made before (as
   * `onHistory`, without reading any file).
   */
  announce(): void;
  /**
   * Called after each commit: a start taken in the committed group is logged and reported now, never before
   * (the group could still roll back, and the start with it).
   */
  committed(): void;
};

const MAX_EXAMPLES = 5;
/** Comparisons a resumed index reports from its history. */
const RECENT_CHECKS = 10;

export type BalanceSnapshotOptions = {
  /** The balance folder, looked at again for snapshots a node writes after start-up (null: never). */
  dir: string | null;
  /** Least time between two looks at the folder, in ms (default 10 s). */
  intervalMs?: number;
  /** Milliseconds of a monotonic clock (tests pass their own). */
  now?: () => number;
  /** The most bytes a balance file may hold, on disk and decompressed (default `MAX_DECOMPRESSED_BYTES`). */
  maxFileBytes?: number;
};

export function createBalanceSnapshots(
  files: readonly BalanceFileInfo[],
  store: WriteStore,
  log: Logger,
  events: BalanceSnapshotEvents,
  follow: BalanceSnapshotOptions = { dir: null },
): BalanceSnapshots {
  const queries = createHbarQueries(store.db);
  const checks = createBalanceChecks(store.db);
  // Snapshots not compared yet, oldest first (their instants from their names). Those up to the newest compared
  // one were compared by an earlier run, or could not be.
  let lastChecked = checks.lastCheckedNs() ?? -1n;
  const unchecked = files.filter((f) => f.consensusNs > lastChecked);
  const known = new Set(files.map((f) => f.name));
  const now = follow.now ?? (() => performance.now());
  const intervalMs = follow.intervalMs ?? 10_000;
  let lastLook = now();
  /** A start written in the open commit group, reported once the group commits. */
  let pendingStart: { source: string; accounts: number; consensusNs: bigint } | null = null;

  /**
   * Adds the snapshots written since the last look, ordered by the instant in their names (read in full when
   * compared: a malformed one is then logged, as start-up is long past).
   */
  function lookForNewFiles(): void {
    if (follow.dir === null || now() - lastLook < intervalMs) return;
    lastLook = now();
    let names: string[];
    try {
      names = readdirSync(follow.dir).filter((name) => isBalanceFileName(name) && !known.has(name));
    } catch (error) {
      log.warn({ dir: follow.dir, err: error }, "balance folder cannot be read");
      return;
    }
    for (const name of names) {
      known.add(name);
      const consensusNs = instantOfName(name);
      if (consensusNs === null) {
        log.warn({ file: name }, "balance file name carries no instant; not compared");
        continue;
      }
      if (consensusNs <= lastChecked) continue;
      const at = unchecked.findIndex((f) => f.consensusNs > consensusNs);
      const info = { name, path: join(follow.dir, name), consensusNs };
      if (at === -1) unchecked.push(info);
      else unchecked.splice(at, 0, info);
    }
  }

  function seed(state: {
    consensusNs: bigint;
    source: string;
    shard: bigint;
    realm: bigint;
    snapshot: BalanceSnapshot | null;
  }): void {
    const { snapshot } = state;
    const balances: Array<readonly [bigint, bigint]> =
      snapshot === null
        ? [[encodeEntityId(state.shard, state.realm, 2n), TOTAL_SUPPLY_TINYBARS]]
        : snapshot.accounts.map((a) => [a.accountId, a.hbarTinybars] as const);
    const run = store.db.transaction(() => {
      store.hbar.start({ ...state, balances });
      // Every account of the starting state exists from then on (as an entity of unknown type, see crypto.ts).
      for (const [accountId] of balances)
        store.entity.create([accountId], state.consensusNs, START_STATE_ACCOUNT);
      // Token balances of the snapshot start the token balance history too, as associations at that instant.
      for (const account of snapshot?.accounts ?? []) {
        for (const token of account.tokens) {
          const defaults = () => associationDefaults(store, token.tokenId);
          store.addBalance(token.tokenId, account.accountId, state.consensusNs, token.balance, defaults);
        }
      }
      store.flush();
    });
    try {
      run();
    } catch (error) {
      store.reset();
      throw error;
    }
    pendingStart = { source: state.source, accounts: balances.length, consensusNs: state.consensusNs };
  }

  function check(file: BalanceFileInfo, indexedNs: bigint): void {
    const snapshot = readBalanceSnapshot(file.path, file.name, follow.maxFileBytes);
    const at = snapshot.consensusNs;
    if (at <= lastChecked) return;
    if (at > indexedNs) {
      // The name promised an earlier instant than the file holds: compare once the index gets there.
      unchecked.unshift({ ...file, consensusNs: at });
      return;
    }
    let differences = 0;
    const examples: string[] = [];
    for (const account of snapshot.accounts) {
      const problems: string[] = [];
      const hbar = queries.balanceAt(account.accountId, at) ?? 0n;
      if (hbar !== account.hbarTinybars)
        problems.push(`hbar ${account.hbarTinybars} in the file, ${hbar} indexed`);
      for (const token of account.tokens) {
        const indexed = queries.tokenBalanceAt(token.tokenId, account.accountId, at);
        if (indexed !== token.balance) {
          problems.push(
            `token ${formatEntityId(token.tokenId)} ${token.balance} in the file, ${indexed} indexed`,
          );
        }
      }
      if (problems.length === 0) continue;
      differences += 1;
      if (examples.length < MAX_EXAMPLES)
        examples.push(`${formatEntityId(account.accountId)}: ${problems.join(", ")}`);
    }
    const report = {
      file: file.name,
      consensusNs: at,
      accounts: snapshot.accounts.length,
      differences,
      examples,
    };
    checks.record(report);
    lastChecked = at;
    const fields = { file: file.name, accounts: report.accounts, differences, examples };
    if (differences > 0) log.warn(fields, "balance snapshot disagrees with the indexed balances");
    else log.info(fields, "balance snapshot agrees with the indexed balances");
    events.onCheck(report);
  }

  return {
    beforeFirstFile(file, blockNumber) {
      const firstItem = file.items[0];
      if (store.hbar.tracking() || firstItem === undefined) return;
      let item: ReturnType<typeof decodeItem>;
      try {
        item = decodeItem(firstItem);
      } catch {
        return; // the file is corrupt: applying it reports that
      }
      this.beforeFirstItem(item, blockNumber, file.previousHash);
    },

    beforeFirstItem(item, blockNumber, previousHash) {
      if (store.hbar.tracking() || item === undefined) return;
      const node = item.body.nodeAccountID;
      const shard = toBigInt(node?.shardNum);
      const realm = toBigInt(node?.realmNum);
      // The newest snapshot at or before the first transaction, by the instants in the names; the one read is
      // the only one read (a malformed one stops ingestion: a start that cannot be trusted must not be taken).
      // Should its content name a later instant than its name did, the one before it is taken instead.
      let chosen: { info: BalanceFileInfo; snapshot: BalanceSnapshot } | undefined;
      for (let at = files.length - 1; at >= 0 && chosen === undefined; at--) {
        const info = files[at]!;
        if (info.consensusNs > item.consensusNs) continue;
        const snapshot = readBalanceSnapshot(info.path, info.name, follow.maxFileBytes);
        if (snapshot.consensusNs <= item.consensusNs) chosen = { info, snapshot };
      }
      if (chosen !== undefined) {
        const { info, snapshot } = chosen;
        seed({ consensusNs: snapshot.consensusNs, source: info.name, shard, realm, snapshot });
      } else if (blockNumber === 0n && isAllZero(previousHash)) {
        // At genesis the treasury holds every hbar; the state holds just before the first transaction.
        seed({ consensusNs: item.consensusNs - 1n, source: "genesis", shard, realm, snapshot: null });
      } else {
        log.warn(
          { blockNumber: blockNumber.toString(), balanceFiles: files.length },
          "no balance snapshot at or before the first record file and the stream does not begin at genesis: " +
            "the network supply and the hbar balances of accounts the stream does not create stay unknown",
        );
      }
    },
    announce() {
      const start = queries.start();
      if (start !== null) events.onStart(start.source, start.consensusNs);
      const history = checks.summary(RECENT_CHECKS);
      if (history.checked > 0) events.onHistory(history);
    },
    committed() {
      if (pendingStart === null) return;
      const { source, accounts, consensusNs } = pendingStart;
      pendingStart = null;
      log.info(
        { source, accounts, consensusNs: consensusNs.toString() },
        "hbar balances start from this state",
      );
      events.onStart(source, consensusNs);
    },
    checkUpTo(indexedNs) {
      const start = queries.start();
      if (start === null) return;
      lookForNewFiles();
      while (unchecked.length > 0 && (unchecked[0]?.consensusNs ?? indexedNs + 1n) <= indexedNs) {
        const file = unchecked.shift() as BalanceFileInfo;
        if (file.consensusNs <= start.consensusNs) continue;
        try {
          check(file, indexedNs);
        } catch (error) {
          // A comparison only reports; a snapshot that cannot be read now must not stop ingestion.
          log.error({ file: file.name, err: error }, "balance snapshot could not be compared");
        }
      }
    },
  };
}
