import { readFileSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_STREAMS, REPO_ROOT, startTestService } from "../helpers/service.ts";

describe("stopping the server", () => {
  it("refuses new connections but finishes a response in flight", async () => {
    const service = await startTestService({ recordsDir: join(FIXTURE_STREAMS, "demo", "record0.0.3") });
    const path = "/api/v1/docs/swagger-ui-bundle.js";
    const expected = readFileSync(join(REPO_ROOT, "node_modules", "swagger-ui-dist", "swagger-ui-bundle.js"));
    // 1.5 MB, read by a client that pauses: the server may still be writing it when it is told to stop.
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`${service.baseUrl}${path}`, resolve).once("error", reject);
    });
    response.pause();
    const stopped = service.stop();

    const refused = await fetch(`${service.baseUrl}/health/liveness`).then(
      () => "answered",
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
    );
    expect(refused).toBe("ECONNREFUSED");

    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => response.once("end", resolve));
    response.resume();
    await ended;
    expect(response.statusCode).toBe(200);
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    await stopped;
  });
});
