/**
 * `GET /api/v1/network/nodes` on the `network` scenario: the newest address book joined with HIP-869 node
 * state and the latest stake update, node.id filters, paging with Java next links, every error text, and the
 * official SDK's address book query reading the answer.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { shiftTimestamp, stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import type { TestResponse } from "../helpers/service.ts";

const scenario = useScenario("network");
const { ledger } = scenario;

type Node = Record<string, unknown> & { node_id: number };
type NodesBody = { nodes: Node[]; links: { next: string | null } };

async function get(path: string): Promise<TestResponse> {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

async function nodeIds(path: string): Promise<number[]> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return (response.body as NodesBody).nodes.map((n) => n.node_id);
}

async function errorOf(path: string): Promise<unknown> {
  const response = await get(path);
  expect(response.status, path).toBe(400);
  return (response.body as { _status: { messages: unknown[] } })._status.messages;
}

describe("GET /api/v1/network/nodes", () => {
  it("lists the newest 0.0.102 address book, ascending, with every field joined", async () => {
    const response = await get("/api/v1/network/nodes");
    expect(response.status).toBe(200);
    const body = response.body as NodesBody;
    expect(body.nodes.map((n) => n.node_id)).toEqual([0, 1, 2, 3, 4]);
    expect(body.links.next).toBeNull();
    const bookStart = shiftTimestamp(stepTime(ledger, "book-102-v2"), 1n);
    const [zero, one, two, , four] = body.nodes;
    expect(zero).toMatchObject({
      admin_key: null,
      associated_registered_nodes: [],
      decline_reward: null,
      description: "Node zero",
      file_id: "0.0.102",
      grpc_proxy_endpoint: null,
      max_stake: 0,
      memo: "0.0.3",
      min_stake: 0,
      node_account_id: "0.0.3",
      node_id: 0,
      reward_rate_start: 0,
      service_endpoints: [{ domain_name: "", ip_address_v4: "10.0.0.1", port: 50211 }],
      stake: 2000,
      stake_not_rewarded: 1000,
      stake_rewarded: 1000,
      staking_period: { from: "1717286400.000000000", to: "1717372800.000000000" },
      timestamp: { from: bookStart, to: null },
    });
    expect(zero?.node_cert_hash).toMatch(/^0x[0-9a-f]{96}$/);
    expect(zero?.public_key).toMatch(/^0x308201a2[0-9a-f]{836}$/);
    // NodeUpdate of a genesis node: decline_reward, proxy and admin key; endpoints sorted by IP text, then port.
    expect(one).toMatchObject({
      decline_reward: true,
      grpc_proxy_endpoint: { domain_name: "proxy1.example.com", ip_address_v4: "", port: 443 },
      admin_key: { _type: "ED25519" },
      service_endpoints: [
        { domain_name: "", ip_address_v4: "10.0.0.12", port: 50211 },
        { domain_name: "", ip_address_v4: "10.0.0.2", port: 50211 },
        { domain_name: "", ip_address_v4: "10.0.0.2", port: 50212 },
      ],
    });
    // No row in the latest stake update: every stake field is null.
    expect(two).toMatchObject({
      max_stake: null,
      min_stake: null,
      reward_rate_start: null,
      stake: null,
      stake_not_rewarded: null,
      stake_rewarded: null,
      staking_period: null,
      service_endpoints: [{ domain_name: "node2.example.com", ip_address_v4: "", port: 50211 }],
    });
    // Created, updated (account, description) and deleted: the account comes from the node, the description
    // from the address book, and a deleted node is still listed.
    expect(four).toMatchObject({
      node_account_id: "0.0.8",
      description: "Node four",
      associated_registered_nodes: [1, 2],
      grpc_proxy_endpoint: { domain_name: "proxy4.example.com", ip_address_v4: "", port: 443 },
      decline_reward: false,
      stake: 4000,
    });
  });

  it("keeps the address book when an update does not parse", async () => {
    const body = (await get("/api/v1/network/nodes?node.id=0")).body as NodesBody;
    expect(body.nodes[0]?.timestamp).toEqual({
      from: shiftTimestamp(stepTime(ledger, "book-102-v2"), 1n),
      to: null,
    });
  });

  it("serves 0.0.101, and nothing for other files", async () => {
    const response = await get("/api/v1/network/nodes?file.id=0.0.101");
    const body = response.body as NodesBody;
    expect(body.nodes.map((n) => [n.node_id, n.file_id, n.public_key])).toEqual([
      [0, "0.0.101", "0x"],
      [1, "0.0.101", "0x"],
    ]);
    expect(await nodeIds("/api/v1/network/nodes?file.id=101")).toEqual([0, 1]);
    expect(await nodeIds("/api/v1/network/nodes?file.id=0.0.99999")).toEqual([]);
  });

  it("filters by node.id: eq set, ranges, ignored ne", async () => {
    const cases: Array<[string, number[]]> = [
      ["node.id=1&node.id=3", [1, 3]],
      ["node.id=eq:2", [2]],
      ["node.id=0.0.2", [2]],
      ["node.id=gt:1", [2, 3, 4]],
      ["node.id=gte:1&node.id=lt:3", [1, 2]],
      ["node.id=lte:1", [0, 1]],
      ["node.id=ne:1", [0, 1, 2, 3, 4]],
      ["node.id=1&node.id=3&node.id=gte:2", [3]],
      ["node.id=1&node.id=gt:1", []],
      ["node.id=99", []],
      ["node.id=", [0, 1, 2, 3, 4]],
    ];
    for (const [query, ids] of cases)
      expect(await nodeIds(`/api/v1/network/nodes?${query}`), query).toEqual(ids);
  });

  it("pages with Java next links, in both orders", async () => {
    const first = await get("/api/v1/network/nodes?limit=2");
    expect((first.body as NodesBody).nodes.map((n) => n.node_id)).toEqual([0, 1]);
    const next = (first.body as NodesBody).links.next;
    expect(next).toBe("/api/v1/network/nodes?limit=2&node.id=gt:1");
    expect(first.headers.get("link")).toBe(`<${next}>; rel="next"`);
    const second = (await get(next!)).body as NodesBody;
    expect(second.nodes.map((n) => n.node_id)).toEqual([2, 3]);
    expect(second.links.next).toBe("/api/v1/network/nodes?limit=2&node.id=gt:3");
    const third = (await get(second.links.next!)).body as NodesBody;
    expect(third.nodes.map((n) => n.node_id)).toEqual([4]);
    expect(third.links.next).toBeNull();

    const desc = (await get("/api/v1/network/nodes?order=DESC&limit=2&foo=1")).body as NodesBody;
    expect(desc.nodes.map((n) => n.node_id)).toEqual([4, 3]);
    // Unknown parameters stay in the link; the anchor's values in the paging direction are replaced.
    expect(desc.links.next).toBe("/api/v1/network/nodes?order=DESC&limit=2&foo=1&node.id=lt:3");
    const bounded = (await get("/api/v1/network/nodes?node.id=lt:4&node.id=gte:1&limit=2")).body as NodesBody;
    // The bound joins the surviving node.id values (a multi-value map groups values by name).
    expect(bounded.links.next).toBe("/api/v1/network/nodes?node.id=lt:4&node.id=gt:2&limit=2");
    // A full page that leaves an empty range has no link; equality values repeat the query.
    const exhausted = (await get("/api/v1/network/nodes?node.id=lte:2&limit=3")).body as NodesBody;
    expect(exhausted.links.next).toBeNull();
    const equal = (await get("/api/v1/network/nodes?node.id=1&node.id=2&limit=1")).body as NodesBody;
    expect(equal.links.next).toBe("/api/v1/network/nodes?node.id=1&node.id=2&limit=1");
  });

  it("defaults limit to 10 and caps it at 25", async () => {
    expect(await nodeIds("/api/v1/network/nodes?limit=100")).toEqual([0, 1, 2, 3, 4]);
    const page = (await get("/api/v1/network/nodes?limit=5")).body as NodesBody;
    expect(page.links.next).toBe("/api/v1/network/nodes?limit=5&node.id=gt:4");
  });

  it("answers binding errors without detail, all together, in field order", async () => {
    expect(await errorOf("/api/v1/network/nodes?limit=0")).toEqual([{ message: "Invalid parameter: limit" }]);
    expect(await errorOf("/api/v1/network/nodes?limit=-1")).toEqual([
      { message: "Invalid parameter: limit" },
    ]);
    expect(await errorOf("/api/v1/network/nodes?order=up&limit=x&node.id=-1&file.id=invalid")).toEqual([
      { message: "Invalid parameter: file.id" },
      { message: "Invalid parameter: node.id" },
      { message: "Invalid parameter: limit" },
      { message: "Invalid parameter: order" },
    ]);
    expect(await errorOf("/api/v1/network/nodes?node.id=gt:")).toEqual([
      { message: "Invalid parameter: node.id" },
    ]);
  });

  it("answers the other errors with upstream's details", async () => {
    const cases: Array<[string, string]> = [
      ["limit=1&limit=2", "Only a single instance is supported for limit"],
      ["order=asc&order=desc", "Only a single instance is supported for order"],
      ["file.id=101&file.id=102", "Only a single instance is supported for file.id"],
      ["file.id=gt:0.0.101", "Only equality operator is supported for file.id"],
      ["node.id=gt:3&node.id=lt:2", "Invalid range provided for node.id"],
      ["node.id=lt:0", "Invalid range provided for node.id"],
    ];
    for (const [query, detail] of cases) {
      expect(await errorOf(`/api/v1/network/nodes?${query}`), query).toEqual([
        { message: "Bad Request", detail },
      ]);
    }
  });

  it("answers 405 for other methods", async () => {
    const response = await fetch(`${scenario.service.baseUrl}/api/v1/network/nodes`, { method: "POST" });
    expect(response.status).toBe(405);
  });
});

describe("the official SDK's address book query", () => {
  it("pages through /api/v1/network/nodes and reads every node", async () => {
    const sdk = await import("@hiero-ledger/sdk");
    // The SDK's browser and React Native builds export AddressBookQueryWeb as AddressBookQuery: it fetches
    // http://<mirror>/api/v1/network/nodes?file.id=…&limit=… and follows links.next. Node's build queries
    // over gRPC instead, so the web query is loaded from the package's own files.
    const entry = createRequire(import.meta.url).resolve("@hiero-ledger/sdk");
    const webQuery = pathToFileURL(join(dirname(entry), "network", "AddressBookQueryWeb.js")).href;
    const { default: AddressBookQueryWeb } = (await import(webQuery)) as {
      default: new () => {
        setFileId(id: string): { setLimit(n: number): { execute(client: unknown): Promise<SdkBook> } };
      };
    };
    type SdkBook = {
      nodeAddresses: Array<{
        nodeId: { toString(): string };
        accountId: { toString(): string } | null;
        description: string | null;
        certHash: Uint8Array | string | null;
        publicKey: string | null;
        addresses: Array<{ toString(): string }>;
        stake: { toString(): string } | null;
      }>;
    };
    const client = sdk.Client.forNetwork({});
    try {
      client.setMirrorNetwork([`127.0.0.1:${scenario.service.port}`]);
      const book = await new AddressBookQueryWeb().setFileId("0.0.102").setLimit(2).execute(client);
      expect(book.nodeAddresses.map((n) => n.nodeId.toString())).toEqual(["0", "1", "2", "3", "4"]);
      expect(book.nodeAddresses.map((n) => n.accountId?.toString())).toEqual([
        "0.0.3",
        "0.0.4",
        "0.0.5",
        "0.0.6",
        "0.0.8",
      ]);
      expect(book.nodeAddresses[1]?.addresses.map((a) => a.toString())).toEqual(["proxy1.example.com:443"]);
      expect(book.nodeAddresses[3]?.stake?.toString()).toBe("10000");
      expect(book.nodeAddresses[0]?.description).toBe("Node zero");
      expect(book.nodeAddresses[0]?.publicKey).toMatch(/^0x308201a2/);
    } finally {
      client.close();
    }
  });
});
