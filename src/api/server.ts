import type { Server } from "node:http";
import type { Express } from "express";

/** Listens on host:port (port 0 picks a free one) and resolves with the bound port. */
export function listen(app: Express, host: string, port: number): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once("listening", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : port });
    });
    server.once("error", reject);
  });
}
