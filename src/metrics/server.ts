import { createServer, type Server } from "node:http";
import type { Metrics } from "./metrics.ts";

/**
 * `/metrics` on a port of its own (`--metrics-port`), for an operator who exposes the API but keeps the
 * process's figures to the monitoring network: `GET`/`HEAD /metrics` answer the Prometheus text, anything else
 * 404. Resolves with the bound port once listening; rejects with the listen error (e.g. EADDRINUSE).
 */
export function listenMetrics(
  metrics: Metrics,
  host: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found\n");
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () =>
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Internal Server Error\n"),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : port });
    });
  });
}
