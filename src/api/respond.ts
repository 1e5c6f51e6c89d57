import type { Response } from "express";
import { toJson } from "./json.ts";

/**
 * Sends a successful JSON response the way the mirror node does: exact int64 JSON, its content type, the
 * route's cache-control, and a `Link` header when there is a next page. Express adds the weak ETag and answers
 * a matching `If-None-Match` with 304.
 */
export function sendJson(res: Response, body: unknown, cacheControl: string, status = 200): void {
  const next = (body as { links?: { next?: string | null } } | null)?.links?.next;
  if (typeof next === "string") res.set("Link", `<${next}>; rel="next"`);
  res.status(status).set("Cache-Control", cacheControl).type("application/json; charset=utf-8");
  res.send(toJson(body));
}
