import { Timestamp, type TopicMessage, TopicMessageQuery } from "@hiero-ledger/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommand } from "../../src/cli/args.ts";
import type { Config } from "../../src/config.ts";
import { startCli } from "../helpers/cli.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { copyStream } from "../helpers/service.ts";
import { sdkClient } from "./grpc-client.ts";

/** The gRPC API as `mirrorlite serve` (what `npm start` runs) serves it, and its flag. */
describe("mirrorlite serve --grpc-port", () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("is 5600 by default, a port number from the flag over MIRRORLITE_GRPC_PORT, or off", () => {
    const config = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      (parseCommand(["serve", "--records", fixtureStream("demo"), ...args], env) as { config: Config })
        .config;
    expect(config([]).grpcPort).toBe(5600);
    expect(config(["--grpc-port", "0"]).grpcPort).toBe(0);
    expect(config([], { MIRRORLITE_GRPC_PORT: "15600" }).grpcPort).toBe(15600);
    expect(config(["--grpc-port", "15601"], { MIRRORLITE_GRPC_PORT: "15600" }).grpcPort).toBe(15601);
    expect(config(["--grpc-port", "off"]).grpcPort).toBeNull();
    expect(config([], { MIRRORLITE_GRPC_PORT: "off" }).grpcPort).toBeNull();
    expect(() => config(["--grpc-port", "70000"])).toThrow();
    expect(() => config(["--grpc-port", "on"])).toThrow();
  });

  it("serves TopicMessageQuery from the command line, and logs its port", async () => {
    const stream = copyStream(fixtureStream("topics"));
    cleanups.push(stream.remove);
    const cli = startCli([
      "serve",
      "--records",
      stream.dir,
      "--port",
      "0",
      "--grpc-port",
      "0",
      "--db",
      ":memory:",
    ]);
    cleanups.push(async () => {
      cli.child.kill("SIGTERM");
      await cli.exited;
    });
    const serving = await cli.waitForLog((line) => line.msg === "serving the mirror node API");
    const grpcPort = serving.grpcPort as number;
    expect(grpcPort).toBeGreaterThan(0);
    const httpPort = serving.port as number;
    // Wait until the stream is indexed before asking for a window in the past.
    for (let i = 0; i < 600; i++) {
      if ((await fetch(`http://127.0.0.1:${httpPort}/health/readiness`)).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const client = sdkClient(grpcPort);
    try {
      const received = await new Promise<TopicMessage[]>((resolve, reject) => {
        const list: TopicMessage[] = [];
        new TopicMessageQuery()
          .setTopicId("0.0.1005")
          .setStartTime(0)
          .setEndTime(new Timestamp(1740992404, 0))
          .setMaxAttempts(0)
          .setCompletionHandler(() => resolve(list))
          .subscribe(
            client,
            (_m, error) => reject(error),
            (m) => list.push(m),
          );
      });
      expect(received.map((m) => Buffer.from(m.contents).toString())).toEqual(["Hello, world"]);
    } finally {
      client.close();
    }
  });
});
