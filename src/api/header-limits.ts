/**
 * How large a request's header section may be, and how large a header mirrorlite writes, as the public mirror
 * node has it. Its Node service keeps Node's default (16 KiB of request line and headers; past it Node itself
 * answers 431 and closes the connection); its Java service (`/api/v1/network/*`) runs on Tomcat, whose 8 KiB
 * default answers 400. And no answer carries a header a standard client refuses (Node's own client stops at
 * 16 KiB of response headers): a `Link` that would be too long (a next page repeating a long query) is left
 * out, the body's `links.next` still says it.
 */
import type { IncomingMessage } from "node:http";
import { javaError } from "./java/index.ts";

/** Request line and headers of any request, in bytes: Node's default, set explicitly on the server. */
export const MAX_REQUEST_HEADER_BYTES = 16 * 1024;
/** Request line and headers of a request to a Java-style route (Tomcat's `maxHttpHeaderSize`). */
export const MAX_JAVA_REQUEST_HEADER_BYTES = 8 * 1024;
/** The longest `Link` header value written; longer next links stay in the body only. */
export const MAX_LINK_HEADER_BYTES = 8 * 1024;

/** The size of the request line and header fields as the client sent them (whitespace around values aside). */
export function requestHeaderBytes(req: IncomingMessage): number {
  // "METHOD URL HTTP/x.y\r\n", then "name: value\r\n" per field, then "\r\n".
  let bytes = (req.method?.length ?? 0) + (req.url?.length ?? 0) + 13;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) bytes += raw[i]!.length + raw[i + 1]!.length + 4;
  return bytes + 2;
}

/** Tomcat's answer to a header section over its limit, in the Java error format (the connection then closes). */
export function javaHeaderTooLarge() {
  return javaError(400, "Request header is too large", { Connection: "close" });
}

/** A `Link: <next>; rel="next"` value, or null when it would be longer than clients can be expected to read. */
export function linkHeaderValue(next: string): string | null {
  const value = `<${next}>; rel="next"`;
  return value.length > MAX_LINK_HEADER_BYTES ? null : value;
}
