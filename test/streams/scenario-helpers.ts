/**
 * Helpers for the scenario tests: run an inline scenario through the simulator and decode what it wrote
 * (transaction bodies, signatures, records) into plain values that assertions can compare.
 */

import { runScenario, type ScenarioRun } from "../../fixtures/writer/scenario/engine.ts";
import { FEES, nodeShare } from "../../fixtures/writer/scenario/network-fees.ts";
import { parseScenario } from "../../fixtures/writer/scenario/scenario-file.ts";
import type { StepSummary } from "../../fixtures/writer/scenario/summary.ts";
import { toBigInt } from "../../src/streams/long.ts";
import { proto } from "../../src/streams/proto.ts";
import type { RecordItem } from "../../src/streams/types.ts";

export type Decoded = {
  consensusNs: bigint;
  transaction: proto.Transaction;
  signedBytes: Uint8Array;
  signed: proto.SignedTransaction;
  body: proto.TransactionBody;
  record: proto.TransactionRecord;
};

const NANOS = 1_000_000_000n;

export function decodeItem(item: RecordItem): Decoded {
  const transaction = proto.Transaction.decode(item.transactionBytes);
  const signedBytes = transaction.signedTransactionBytes;
  const signed = proto.SignedTransaction.decode(signedBytes);
  const record = proto.TransactionRecord.decode(item.recordBytes);
  const ts = record.consensusTimestamp!;
  return {
    consensusNs: toBigInt(ts.seconds) * NANOS + BigInt(ts.nanos ?? 0),
    transaction,
    signedBytes,
    signed,
    body: proto.TransactionBody.decode(signed.bodyBytes),
    record,
  };
}

export type Simulated = {
  run: ScenarioRun;
  items: Decoded[];
  /** The step with this label, and its decoded transaction (children excluded). */
  step(label: string): { summary: StepSummary; item: Decoded };
  /** An account's or token's id number, from the summary. */
  num(name: string): bigint;
};

/** Runs scenario steps (YAML, indented as list items) with a fixed header. */
export function simulate(stepsYaml: string, header = ""): Simulated {
  const text = `start: 2024-01-01T00:00:00Z\nfirstEntity: 1001\nspacing: 1s\n${header}steps:\n${stepsYaml}`;
  const run = runScenario(parseScenario("test", text));
  const items = run.groups.flat().map(({ item }) => decodeItem(item));
  const byTimestamp = new Map(items.map((d) => [formatNs(d.consensusNs), d]));
  return {
    run,
    items,
    step(label) {
      const summary = run.summary.steps.find((s) => s.label === label);
      if (summary === undefined) throw new Error(`no step labelled ${label}`);
      return { summary, item: byTimestamp.get(summary.consensusTimestamp)! };
    },
    num(name) {
      const id = run.summary.accounts[name]?.id ?? run.summary.tokens[name]?.id;
      if (id === undefined) throw new Error(`no account or token ${name}`);
      return BigInt(id.split(".")[2]!);
    },
  };
}

function formatNs(ns: bigint): string {
  return `${ns / NANOS}.${(ns % NANOS).toString().padStart(9, "0")}`;
}

const num = (id: { accountNum?: unknown; tokenNum?: unknown } | null | undefined): bigint =>
  id == null ? 0n : toBigInt((id.accountNum ?? id.tokenNum ?? 0) as number);

/** The record's hbar transfer list as `[account, amount]` pairs, in record order. */
export function hbarList(record: proto.TransactionRecord): [bigint, bigint][] {
  return (record.transferList?.accountAmounts ?? []).map((a) => [num(a.accountID), toBigInt(a.amount)]);
}

export type TokenListValue = {
  token: bigint;
  transfers: [bigint, bigint][];
  nfts: [sender: bigint, receiver: bigint, serial: bigint][];
};

/** The record's token transfer lists, in record order. */
export function tokenLists(record: proto.TransactionRecord): TokenListValue[] {
  return record.tokenTransferLists.map((list) => ({
    token: num(list.token),
    transfers: (list.transfers ?? []).map((a) => [num(a.accountID), toBigInt(a.amount)]),
    nfts: (list.nftTransfers ?? []).map((n) => [
      num(n.senderAccountID),
      num(n.receiverAccountID),
      toBigInt(n.serialNumber),
    ]),
  }));
}

export function assessedFees(record: proto.TransactionRecord) {
  return record.assessedCustomFees.map((fee) => ({
    amount: toBigInt(fee.amount),
    token: num(fee.tokenId),
    collector: num(fee.feeCollectorAccountId),
    payers: (fee.effectivePayerAccountId ?? []).map(num),
  }));
}

export function autoAssociations(record: proto.TransactionRecord): [token: bigint, account: bigint][] {
  return record.automaticTokenAssociations.map((a) => [num(a.tokenId), num(a.accountId)]);
}

/** What a fee of `fee` tinybars adds to a transfer list: payer debit, node 0.0.3 and funding 0.0.98 credits. */
export function feeEntries(payer: bigint, fee: bigint): [bigint, bigint][] {
  const node = nodeShare(fee);
  return [
    [payer, -fee],
    [3n, node],
    [98n, fee - node],
  ];
}

/** Merges `[account, amount]` entries per account, drops zeros and sorts by account: a node's list. */
export function netSorted(...groups: [bigint, bigint][][]): [bigint, bigint][] {
  const net = new Map<bigint, bigint>();
  for (const [account, amount] of groups.flat()) net.set(account, (net.get(account) ?? 0n) + amount);
  return [...net].filter(([, amount]) => amount !== 0n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export { FEES };
