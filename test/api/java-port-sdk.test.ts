/**
 * The second listener (`--java-port`, here on an ephemeral port) with the official SDK as the client:
 * `RegisteredNodeAddressBookQuery` pages through `/network/registered-nodes` and `FeeEstimateQuery` POSTs to
 * `/network/fees` on it, against the hooks-and-registered-nodes scenario.
 *
 * For a loopback mirror the SDK builds `http://127.0.0.1:5551/api/v1` and rewrites `:5551` to `:8084` for these two
 * queries. Tests never bind 8084, so the client's REST base URL is pointed at the second listener's ephemeral port
 * (no `:5551` in it, so nothing is rewritten); the request, the paging over `links.next` and the parsing of the
 * answers are the SDK's own. The rewrite itself is the SDK's (checked here on its source of the URL).
 */
import {
  AccountCreateTransaction,
  AccountId,
  Client,
  FeeEstimateMode,
  FeeEstimateQuery,
  PrivateKey,
  RegisteredNodeAddressBookQuery,
} from "@hiero-ledger/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommand } from "../../src/cli/args.ts";
import type { Config } from "../../src/config.ts";
import { fixtureStream } from "../helpers/fixtures.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

let service: TestService;
let client: Client;

/** A client whose mirror REST base URL is `base` (the SDK derives it from its mirror network otherwise). */
function clientAt(base: string): Client {
  const c = Client.forNetwork({ "127.0.0.1:50211": AccountId.fromString("0.0.3") });
  c.setOperator(AccountId.fromString("0.0.1001"), PrivateKey.fromStringED25519("11".repeat(32)));
  Object.defineProperty(c, "mirrorRestApiBaseUrl", { get: () => base });
  return c;
}

beforeAll(async () => {
  service = await startTestService({
    recordsDir: fixtureStream("hooks-and-registered-nodes"),
    waitSignatures: false,
    javaPort: 0,
  });
  await service.ingest.settled;
  expect(service.javaPort).not.toBeNull();
  expect(service.javaPort).not.toBe(service.port);
  client = clientAt(`http://127.0.0.1:${service.javaPort}/api/v1`);
});
afterAll(async () => {
  client?.close();
  await service?.stop();
});

describe("the Java-service port", () => {
  it("is where a loopback SDK client's two Java-service queries go (5551 becomes 8084)", () => {
    const local = Client.forNetwork({ "127.0.0.1:50211": AccountId.fromString("0.0.3") });
    local.setMirrorNetwork(["127.0.0.1:5600"]);
    try {
      expect(local.mirrorRestApiBaseUrl).toBe("http://127.0.0.1:5551/api/v1");
    } finally {
      local.close();
    }
  });

  it("answers RegisteredNodeAddressBookQuery, every page (limit 1)", async () => {
    const book = await new RegisteredNodeAddressBookQuery().setLimit(1).execute(client);
    const nodes = book.registeredNodes;
    // Node 3 was deleted: 1 and 2 remain.
    expect(nodes.map((node) => node.registeredNodeId.toString())).toEqual(["1", "2"]);
    const [alpha, relay] = nodes;
    expect(alpha!.description).toBe("alpha-2");
    // The SDK parses the address text back into bytes.
    const address = (e: { ipAddress: Uint8Array | null; domainName: string | null }) =>
      e.ipAddress === null ? e.domainName : Array.from(e.ipAddress).join(".");
    expect(alpha!.serviceEndpoints.map((e) => [address(e), e.port, e.requiresTls])).toEqual([
      ["192.168.1.10", 40840, true],
      ["mirror.alpha.example", 443, true],
    ]);
    expect(relay!.serviceEndpoints).toHaveLength(1);
    const ipv6 = relay!.serviceEndpoints[0]!;
    // Written uncompressed (2001:db8:0:0:0:0:0:1), as Java prints it; the SDK reads it back to the 16 bytes.
    expect(Buffer.from(ipv6.ipAddress!).toString("hex")).toBe("20010db8000000000000000000000001");
    expect(ipv6.port).toBe(7546);
    expect(alpha!.adminKey.toString()).toBe(relay!.adminKey.toString());
  });

  it("answers FeeEstimateQuery (POST /network/fees) as the main port does", async () => {
    const estimate = (c: Client) =>
      new FeeEstimateQuery()
        .setTransaction(
          new AccountCreateTransaction().setKeyWithoutAlias(PrivateKey.generateED25519().publicKey),
        )
        .setMode(FeeEstimateMode.INTRINSIC)
        .execute(c);
    const viaJava = await estimate(client);
    const main = clientAt(`${service.baseUrl}/api/v1`);
    try {
      const viaMain = await estimate(main);
      expect(Number(viaJava.total)).toBeGreaterThan(0);
      expect(viaJava.total.toString()).toBe(viaMain.total.toString());
    } finally {
      main.close();
    }
  });

  it("serves only the Java-service paths", async () => {
    const java = `http://127.0.0.1:${service.javaPort}`;
    for (const path of [
      "/api/v1/network/registered-nodes",
      "/api/v1/network/nodes",
      "/api/v1/accounts/0.0.1001/hooks",
      "/api/v1/accounts/0.0.1001/hooks/7/storage",
    ]) {
      const [viaJava, viaMain] = await Promise.all([fetch(java + path), service.get(path)]);
      expect(viaJava.status, path).toBe(200);
      expect(await viaJava.text(), path).toBe(viaMain.text);
    }
    expect((await fetch(`${java}/api/v1/accounts/0.0.1001`)).status).toBe(404);
    expect((await fetch(`${java}/api/v1/transactions`)).status).toBe(404);
    expect((await service.get("/api/v1/accounts/0.0.1001")).status).toBe(200);
  });
});

describe("--java-port", () => {
  const config = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    (parseCommand(["serve", "--records", fixtureStream("demo"), ...args], env) as { config: Config }).config;

  it("is 8084 with the default host, off with another host, and 0 switches it off", () => {
    expect(config([]).javaPort).toBe(8084);
    expect(config(["--host", "0.0.0.0"]).javaPort).toBeUndefined();
    expect(config(["--host", "0.0.0.0", "--java-port", "9084"]).javaPort).toBe(9084);
    expect(config(["--java-port", "0"]).javaPort).toBeUndefined();
    expect(config([], { MIRRORLITE_JAVA_PORT: "0" }).javaPort).toBeUndefined();
    expect(config(["--java-port", "7000"], { MIRRORLITE_JAVA_PORT: "0" }).javaPort).toBe(7000);
    expect(() => config(["--java-port", "x"])).toThrow(/java-port must be a whole number/);
  });
});
