/**
 * `--metrics-port`: `/metrics` on a port of its own, so that an operator can expose the API and keep the
 * process's figures to the monitoring network. Without it `/metrics` stays on the public port.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommand } from "../../src/cli/args.ts";
import type { Config } from "../../src/config.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

describe("--metrics-port", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ recordsDir: fixtureStream("network"), metricsPort: 0 });
    await service.ingest.settled;
  });
  afterAll(() => service?.stop());

  it("serves /metrics there, counting the public port's requests, and not on the public port", async () => {
    expect(service.metricsPort).not.toBeNull();
    expect(service.metricsPort).not.toBe(service.port);
    expect((await service.get("/api/v1/network/stake")).status).toBe(200);
    expect((await service.get("/metrics")).status).toBe(404);
    const metrics = await fetch(`http://127.0.0.1:${service.metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await metrics.text();
    expect(text).toContain(
      'mirrorlite_http_requests_total{route="/api/v1/network/stake",method="GET",status="200"} 1',
    );
    expect(text).toContain("mirrorlite_ingest_ready 1");
    // Nothing else is served there.
    expect((await fetch(`http://127.0.0.1:${service.metricsPort}/api/v1/network/stake`)).status).toBe(404);
  });

  it("is a port number (flag over MIRRORLITE_METRICS_PORT); unset keeps /metrics on the public port", () => {
    const config = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      (parseCommand(["serve", "--records", fixtureStream("demo"), ...args], env) as { config: Config })
        .config;
    expect(config([]).metricsPort).toBeUndefined();
    expect(config(["--metrics-port", "9100"]).metricsPort).toBe(9100);
    expect(config([], { MIRRORLITE_METRICS_PORT: "9101" }).metricsPort).toBe(9101);
    expect(() => config(["--metrics-port", "70000"])).toThrow();
  });
});
