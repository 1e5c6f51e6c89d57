import { createServer, type Server } from "node:http";
import type { RequestListener } from "./front.ts";
import { MAX_REQUEST_HEADER_BYTES } from "./header-limits.ts";

/** Serves `listener` on host:port (port 0 picks a free one) and resolves with the bound port. */
export function listen(
  listener: RequestListener,
  host: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    // The public mirror node's limit (Node's default, 431 past it), explicit so that no flag or setting moves it.
    const server = createServer({ maxHeaderSize: MAX_REQUEST_HEADER_BYTES }, listener);
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : port });
    });
  });
}
