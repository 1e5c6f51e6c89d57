import { createServer, type Server } from "node:http";
import type { RequestListener } from "./front.ts";

/**
 * Request lines and headers up to 64 KiB: node's default (16 KiB in all) would answer a long but valid query
 * (100 repeated filters) with a bare 431 before the API could answer it in the mirror node's format.
 */
const MAX_HEADER_BYTES = 64 * 1024;

/** Serves `listener` on host:port (port 0 picks a free one) and resolves with the bound port. */
export function listen(
  listener: RequestListener,
  host: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : port });
    });
  });
}
