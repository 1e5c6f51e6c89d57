/**
 * Shared pieces of the accounts and balances tests: requests checked against the OpenAPI document and the
 * `Link` header, and the tests' own oracle of hbar balances, read from the record files' transfer lists (not
 * through ingestion).
 */
import { expect } from "vitest";
import { type ExpectedLedger, fixtureStream } from "../helpers/fixtures.ts";
import { type HbarMove, readHbarMoves } from "../helpers/hbar-replay.ts";
import { validateResponse } from "../helpers/openapi.ts";
import type { TestService } from "../helpers/service.ts";

export type AccountBody = {
  account: string;
  alias: string | null;
  auto_renew_period: number | null;
  balance: {
    balance: number;
    timestamp: string | null;
    tokens: Array<{ token_id: string; balance: number }>;
  } | null;
  created_timestamp: string | null;
  decline_reward: boolean;
  deleted: boolean | null;
  ethereum_nonce: number | null;
  evm_address: string;
  expiry_timestamp: string | null;
  key: { _type: string; key: string } | null;
  max_automatic_token_associations: number | null;
  memo: string;
  pending_reward: number;
  receiver_sig_required: boolean | null;
  staked_account_id: string | null;
  staked_node_id: number | null;
  stake_period_start: string | null;
  transactions?: unknown[];
  links?: { next: string | null };
};

export type ErrorBody = { _status: { messages: Array<{ message: string; detail?: string }> } };

/** GETs `path`, checks the status, the body against the OpenAPI document and `Link` against `links.next`. */
export async function getJson<T>(service: TestService, path: string, status = 200): Promise<T> {
  const response = await service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path, status, body: response.body });
  const next = (response.body as { links?: { next?: string | null } }).links?.next;
  if (status === 200 && next !== undefined) {
    expect(response.headers.get("link"), path).toBe(next === null ? null : `<${next}>; rel="next"`);
  }
  return response.body as T;
}

/** The messages of an error answer with `status`. */
export async function messagesOf(service: TestService, path: string, status = 400): Promise<string[]> {
  const body = await getJson<ErrorBody>(service, path, status);
  return body._status.messages.map((m) => m.message);
}

/** `seconds.nnnnnnnnn` ↔ nanoseconds. */
export const toNs = (timestamp: string): bigint => {
  const [seconds, nanos] = timestamp.split(".") as [string, string];
  return BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
};
export const toTimestamp = (ns: bigint): string =>
  `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`;

/** The consensus time of a labelled step, in nanoseconds. */
export function stepNs(ledger: ExpectedLedger, label: string): bigint {
  const step = ledger.steps.find((s) => s.label === label);
  if (step === undefined) throw new Error(`no step labelled ${label}`);
  return toNs(step.consensusTimestamp);
}

/** An account's number by scenario name. */
export const numOf = (ledger: ExpectedLedger, name: string): bigint =>
  BigInt(ledger.accounts[name]!.id.split(".")[2]!);

/**
 * Hbar balances replayed from a genesis scenario's record files: the treasury 0.0.2 holds every hbar just before
 * the first transaction, then every transfer list applies in stream order.
 */
export class HbarOracle {
  readonly moves: HbarMove[];
  readonly startNs: bigint;

  constructor(scenario: string) {
    this.moves = readHbarMoves(fixtureStream(scenario));
    this.startNs = (this.moves[0]?.consensusNs ?? 1n) - 1n;
  }

  /** The balance of `num` right after `atNs`. */
  balanceAt(num: bigint, atNs: bigint): bigint {
    let balance = num === 2n ? 5_000_000_000_000_000_000n : 0n;
    for (const move of this.moves) {
      if (move.consensusNs > atNs) break;
      for (const [account, amount] of move.amounts) if (account === num) balance += amount;
    }
    return balance;
  }

  /** The instant of the last non-zero transfer naming `num` at or before `atNs`, or null. */
  lastChange(num: bigint, atNs: bigint): bigint | null {
    let last: bigint | null = null;
    for (const move of this.moves) {
      if (move.consensusNs > atNs) break;
      if (move.amounts.some(([account, amount]) => account === num && amount !== 0n)) last = move.consensusNs;
    }
    return last;
  }

  /** The newest transaction instant at or before `atNs` (the ledger instant a historical answer uses). */
  instantAtOrBefore(atNs: bigint): bigint | null {
    let found: bigint | null = atNs >= this.startNs ? this.startNs : null;
    for (const move of this.moves) if (move.consensusNs <= atNs) found = move.consensusNs;
    return found;
  }
}

/** Base32 (RFC 4648, upper case, unpadded) of hex bytes: the test's own encoder. */
export function base32OfHex(hex: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...Buffer.from(hex, "hex")].map((b) => b.toString(2).padStart(8, "0")).join("");
  let out = "";
  for (let i = 0; i < bits.length; i += 5)
    out += alphabet[Number.parseInt(bits.slice(i, i + 5).padEnd(5, "0"), 2)];
  return out;
}
