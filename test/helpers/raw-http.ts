import { request } from "node:http";

export type RawResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

/**
 * A request with node:http, sending exactly the given headers. `fetch` adds `Cache-Control: no-cache` to a
 * conditional request, which (as in Express) turns off 304 answers.
 */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    timeoutMs?: number;
    maxHeaderSize?: number;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const requestOptions = {
      method: options.method ?? "GET",
      headers: options.headers ?? {},
      ...(options.maxHeaderSize === undefined ? {} : { maxHeaderSize: options.maxHeaderSize }),
    };
    const req = request(url, requestOptions, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () =>
        req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      );
    }
    req.on("error", reject);
    req.end();
  });
}
