/**
 * Success responses and method handling of the Java-implemented endpoints.
 *
 * Upstream's Spring service answers JSON as `application/json;charset=UTF-8` with `Cache-Control:
 * public, max-age=60` on every `/api/v1/network/*` path, adds a strong ETag (its shallow ETag filter: `"0"`
 * and the MD5 of the body in hex) and answers a matching `If-None-Match` with 304. A path mapped for GET
 * answers other methods with 405 (HEAD and OPTIONS are served as Spring serves them for a GET mapping).
 */
import { createHash } from "node:crypto";
import type { RequestHandler, Response, Router } from "express";
import { toJson } from "../json.ts";
import { javaMethodNotAllowed } from "./errors.ts";

/** `Cache-Control` of every `/api/v1/network/*` path upstream. */
export const NETWORK_CACHE_CONTROL = "public, max-age=60";
export const JAVA_JSON_TYPE = "application/json;charset=UTF-8";

/** Spring's shallow ETag of a body: `"0<md5 hex>"`. */
export function javaEtag(body: string | Buffer): string {
  return `"0${createHash("md5").update(body).digest("hex")}"`;
}

export type JavaSendOptions = {
  cacheControl?: string;
  /** Content type (default JSON); `/network/supply?q=` answers `text/plain;charset=UTF-8`. */
  contentType?: string;
  /** A `links.next` value to repeat in a `Link` header. */
  next?: string | null;
};

/** Sends text already rendered (JSON by default) with upstream's headers; 304 for a matching If-None-Match. */
export function sendJavaText(res: Response, body: string, options: JavaSendOptions = {}): void {
  if (typeof options.next === "string") res.set("Link", `<${options.next}>; rel="next"`);
  res.set("Cache-Control", options.cacheControl ?? NETWORK_CACHE_CONTROL);
  res.set("Content-Type", options.contentType ?? JAVA_JSON_TYPE);
  // Set ahead of `send`, so Express neither hashes the body again nor replaces the tag with its weak one.
  res.set("ETag", javaEtag(body));
  // A Buffer, so Express keeps the content type exactly as set (a string would get `; charset=utf-8`).
  res.status(200).send(Buffer.from(body));
}

/** Sends a value as JSON (int64 `bigint`s printed exactly); a `links.next` also becomes a `Link` header. */
export function sendJavaJson(res: Response, body: unknown, options: JavaSendOptions = {}): void {
  const next = (body as { links?: { next?: unknown } } | null)?.links?.next;
  sendJavaText(res, toJson(body), {
    ...options,
    next: options.next ?? (typeof next === "string" ? next : null),
  });
}

/**
 * Mounts `handler` for GET (and so HEAD) on `path`, an `OPTIONS` answer listing the allowed methods, and 405
 * `Request method '<METHOD>' is not supported` for every other method. Methods in `servedElsewhere` (e.g. POST
 * on `/network/fees`, which its own router serves) pass on to later routes instead.
 */
export function getOnly(
  router: Router,
  path: string,
  handler: RequestHandler,
  servedElsewhere: readonly string[] = [],
): void {
  const allowed = ["GET", "HEAD", ...servedElsewhere, "OPTIONS"];
  router.get(path, handler);
  router.options(path, (_req, res) => {
    // Spring writes the list without spaces.
    res.set("Allow", allowed.join(",")).status(200).end();
  });
  router.all(path, (req, _res, next) => {
    if (servedElsewhere.includes(req.method)) return next();
    next(javaMethodNotAllowed(req.method, allowed));
  });
}
