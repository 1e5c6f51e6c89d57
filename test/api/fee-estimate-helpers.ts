import { validateResponse } from "../helpers/openapi.ts";

export type PostResponse = { status: number; headers: Headers; text: string; body: unknown };

/**
 * POSTs bytes to `/api/v1/network/fees` with `query` and a content type (protobuf unless given), and checks
 * the answer against the OpenAPI document.
 */
export async function postEstimate(
  baseUrl: string,
  body: Uint8Array | null,
  { query = "", contentType = "application/protobuf" }: { query?: string; contentType?: string | null } = {},
): Promise<PostResponse> {
  const headers: Record<string, string> = {};
  if (contentType !== null) headers["content-type"] = contentType;
  const path = `/api/v1/network/fees${query === "" ? "" : `?${query}`}`;
  const response = await fetch(baseUrl + path, { method: "POST", headers, body: body ?? undefined });
  const text = await response.text();
  const parsed = JSON.parse(text) as unknown;
  validateResponse({ path, method: "post", status: response.status, body: parsed });
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** The rest-java error body for a status and detail. */
export function javaError(message: string, detail: string) {
  return { _status: { messages: [{ message, detail }] } };
}
