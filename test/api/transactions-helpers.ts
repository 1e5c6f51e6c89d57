/**
 * Shared pieces of the transactions API tests: exact JSON answers checked against the OpenAPI document and
 * their paging headers, and walks of `links.next` to the end.
 */
import { expect } from "vitest";
import { parseExactJson } from "../helpers/exact-json.ts";
import { validateResponse } from "../helpers/openapi.ts";
import type { TestService } from "../helpers/service.ts";

export type TransactionsPage = { transactions: Record<string, unknown>[]; links: { next: string | null } };
export type ErrorBody = { _status: { messages: { message: string }[] } };

/** GETs `path`, checks the status, the document's schema and the paging / cache headers; integers as bigints. */
export async function getJson<T>(service: TestService, path: string, status = 200): Promise<T> {
  const response = await service.get(path);
  expect(response.status, `${path}: ${response.text.slice(0, 500)}`).toBe(status);
  const body = parseExactJson(response.text);
  validateResponse({ path, status, body });
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  if (status === 200) {
    const links = (body as { links?: { next: string | null } }).links;
    if (links !== undefined) {
      expect(response.headers.get("link")).toBe(links.next === null ? null : `<${links.next}>; rel="next"`);
      expect(response.headers.get("cache-control")).toBe("public, max-age=2");
    }
  }
  return body as T;
}

/** The messages of a 400 answer. */
export async function errorsOf(service: TestService, path: string, status = 400): Promise<string[]> {
  const body = await getJson<ErrorBody>(service, path, status);
  return body._status.messages.map((m) => m.message);
}

/** Follows `links.next` from `path` until it is null; every page but the last is full. */
export async function allPages(service: TestService, path: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let next: string | null = path;
  for (let pages = 0; next !== null; pages++) {
    if (pages > 1000) throw new Error(`${path}: more than 1000 pages`);
    const page: TransactionsPage = await getJson<TransactionsPage>(service, next);
    items.push(...page.transactions);
    next = page.links.next;
  }
  return items;
}

/** The consensus timestamps of a list, for short failure messages. */
export const times = (items: readonly Record<string, unknown>[]) =>
  items.map((item) => item.consensus_timestamp as string);
