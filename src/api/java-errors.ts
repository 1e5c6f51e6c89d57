import type { Response } from "express";
import { toJson } from "./json.ts";

/** HTTP reason phrases the Java (rest-java) routes print as `message`. */
const REASONS: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * The rest-java error body (api.md §1.7): `{"_status":{"messages":[{"message":<reason>,"detail":<text>}]}}`,
 * with an empty detail for 5xx.
 */
export function sendJavaError(res: Response, status: number, detail: string): void {
  const message = REASONS[status] ?? "Error";
  res
    .status(status)
    .type("application/json")
    .send(toJson({ _status: { messages: [{ message, detail: status >= 500 ? "" : detail }] } }));
}
