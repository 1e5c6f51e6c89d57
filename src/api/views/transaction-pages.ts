/**
 * Render once: a transaction's list JSON never changes once indexed, so each read worker keeps the text it
 * rendered, by consensus time, in a cache bounded by bytes, and a page is built by concatenating those texts.
 * A page asks the store for its consensus times first and reads (and renders) only the rows it has not kept.
 * The cache belongs to the store (one per connection: a worker's, or a test's own), so two indexes opened in
 * one thread never share texts. Lookups by id or hash show more (assessed custom fees) and are not kept here.
 */
import { LRUCache } from "lru-cache";
import type { ReadStore } from "../../store/read-store.ts";
import type { TransactionListQuery } from "../../store/transactions.ts";
import { RawJson } from "../json.ts";
import { transactionJson } from "./transactions.ts";

/** Bytes of rendered transactions one store keeps (UTF-16 text, as V8 holds it at most). */
export const TRANSACTION_JSON_CACHE_BYTES = 16 * 1024 * 1024;

const caches = new WeakMap<ReadStore["db"], LRUCache<bigint, string>>();

function cacheOf(store: ReadStore): LRUCache<bigint, string> {
  let cache = caches.get(store.db);
  if (cache === undefined) {
    cache = new LRUCache<bigint, string>({
      maxSize: TRANSACTION_JSON_CACHE_BYTES,
      sizeCalculation: (json) => json.length * 2 + 64,
    });
    caches.set(store.db, cache);
  }
  return cache;
}

/** A page of transactions: each one's JSON (kept or rendered now) and the last consensus time, if any. */
export type RenderedTransactions = {
  /** `[…]` of the page's transactions, as one JSON array text. */
  json: RawJson;
  count: number;
  lastNs: bigint | undefined;
  /** See `TransactionPage.resumeNs`. */
  resumeNs: bigint | null;
};

/** The page of `query`, rendered from kept texts where it can; rows are read only for the others. */
export function renderedTransactionPage(store: ReadStore, query: TransactionListQuery): RenderedTransactions {
  const { times, resumeNs } = store.transactions.listTransactionTimesPage(query);
  const cache = cacheOf(store);
  const texts: (string | undefined)[] = times.map((time) => cache.get(time));
  const missing = times.filter((_, i) => texts[i] === undefined);
  if (missing.length > 0) {
    const rendered = new Map<bigint, string>();
    for (const row of store.transactions.loadTransactions(missing)) {
      const json = transactionJson(row);
      rendered.set(row.consensusNs, json);
      cache.set(row.consensusNs, json);
    }
    for (let i = 0; i < times.length; i++) if (texts[i] === undefined) texts[i] = rendered.get(times[i]!);
  }
  // A time whose row vanished (never: the index only grows) is left out, as loadTransactions leaves it.
  const kept: string[] = [];
  let lastNs: bigint | undefined;
  for (let i = 0; i < times.length; i++) {
    const text = texts[i];
    if (text === undefined) continue;
    kept.push(text);
    lastNs = times[i];
  }
  return { json: new RawJson(`[${kept.join(",")}]`), count: kept.length, lastNs, resumeNs };
}
