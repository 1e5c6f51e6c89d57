/**
 * Success responses of the Java-implemented endpoints (the front writes them; see `style: "java"` in
 * `src/api/routes/route-table.ts`).
 *
 * Upstream's Spring service answers JSON as `application/json;charset=UTF-8` with `Cache-Control:
 * public, max-age=60` on every `/api/v1/network/*` path, adds a strong ETag (its shallow ETag filter: `"0"`
 * and the MD5 of the body in hex) and answers a matching `If-None-Match` with 304. A path mapped for GET
 * answers other methods with 405 (HEAD and OPTIONS are served as Spring serves them for a GET mapping).
 */
import { createHash } from "node:crypto";

export const JAVA_JSON_TYPE = "application/json;charset=UTF-8";

/** Spring's shallow ETag of a body: `"0<md5 hex>"`. */
export function javaEtag(body: string | Uint8Array): string {
  return `"0${createHash("md5").update(body).digest("hex")}"`;
}
