import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));

export type Child = { process: ChildProcess; port: number; stop(): Promise<void> };

/** Starts the bare yardstick server in its own process, answering a fixed body of `bodyBytes`. */
export async function startBareServer(bodyBytes: number): Promise<Child> {
  const child = spawn(process.execPath, [`${REPO}bench/lib/bare-server.mjs`, String(bodyBytes)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { process: child, port, stop: () => stopChild(child) };
}

/**
 * Starts `mirrorlite serve` on an already-ingested index in its own process and waits until it is ready.
 */
export async function startMirrorlite(
  recordsDir: string,
  dbFile: string,
  port: number,
  extraArgs: readonly string[] = [],
): Promise<Child> {
  const child = spawn(
    process.execPath,
    [
      `${REPO}bin/mirrorlite.js`,
      "serve",
      "--records",
      recordsDir,
      "--db",
      dbFile,
      "--port",
      String(port),
      "--log-level",
      "warn",
      "--no-wait-signatures",
      // No second listener on 8084: benches run side by side.
      "--java-port",
      "0",
      // The gRPC API's default port (5600) may be taken on a shared machine; a bench that wants it passes one.
      "--grpc-port",
      "off",
      ...extraArgs,
    ],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health/readiness`);
      if (response.status === 200) return { process: child, port, stop: () => stopChild(child) };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`mirrorlite exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("mirrorlite did not become ready in time");
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `mirrorlite <args>` to completion in a child process (output inherited); rejects on a non-zero exit. */
export function runMirrorlite(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${REPO}bin/mirrorlite.js`, ...args], { stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`mirrorlite ${args[0]} exited with ${code}`)),
    );
  });
}

/** The size in bytes of a 200 response body, for a bare server answering the same amount. */
export async function bodySize(port: number, path: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}
