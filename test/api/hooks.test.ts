/**
 * Hooks (HIP-1195) and registered nodes (HIP-1137) through the real service on the hooks-and-registered-nodes
 * scenario: `/accounts/{id}/hooks`, `/hooks/{hookId}/storage` (current and as of a time), `/network/registered-nodes`
 * and `associated_registered_nodes` of `/network/nodes`, with the Java service's parameters, errors, links and
 * headers (hooks-and-registered-nodes.md). Times come from the scenario's steps; answers are checked against the
 * OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import { keccak256 } from "../../src/streams/keccak.ts";
import { stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

const scenario = useScenario("hooks-and-registered-nodes");
const at = (label: string) => stepTime(scenario.ledger, label);
const carolEvm = (scenario.ledger.accounts.carol as unknown as { evmAddress: string }).evmAddress;

type Body = Record<string, unknown> & { links: { next: string | null } };
type Hook = {
  hook_id: number;
  deleted: boolean;
  created_timestamp: string;
  timestamp_range: { from: string };
};
type Slot = { key: string; value: string | null; timestamp: string };

async function get(path: string, status = 200, maxAge = 1): Promise<Body> {
  const response = await scenario.service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  validateResponse({ path: path.split("?")[0]!, status, body: response.body });
  expect(response.headers.get("cache-control")).toBe(`public, max-age=${maxAge}`);
  if (status === 200) {
    expect(response.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    const next = (response.body as Body).links.next;
    expect(response.headers.get("link")).toBe(next === null ? null : `<${next}>; rel="next"`);
  }
  return response.body as Body;
}

/** The error messages of a 400/404 answer. */
async function errors(path: string, status = 400, maxAge = 1): Promise<Array<Record<string, string>>> {
  const body = (await get(path, status, maxAge)) as unknown as {
    _status: { messages: Array<Record<string, string>> };
  };
  return body._status.messages;
}

const detail = async (path: string, status = 400) => (await errors(path, status)).map((m) => m.detail);
const ids = async (path: string) => ((await get(path)).hooks as Hook[]).map((h) => h.hook_id);
const word = (hex: string) => `0x${hex.padStart(64, "0")}`;
const keys = async (path: string) => ((await get(path)).storage as Slot[]).map((s) => s.key);

describe("GET /api/v1/accounts/{id}/hooks", () => {
  it("lists the owner's hooks, deleted ones included, newest id first", async () => {
    const body = await get("/api/v1/accounts/0.0.1001/hooks");
    const hooks = body.hooks as Hook[];
    expect(hooks.map((h) => h.hook_id)).toEqual([10, 9, 8, 7]);
    expect(body.links.next).toBeNull();
    expect(hooks[3]).toEqual({
      admin_key: { _type: "ED25519", key: expect.stringMatching(/^[0-9a-f]{64}$/) },
      contract_id: "0.0.1500",
      created_timestamp: at("create-alice"),
      deleted: false,
      extension_point: "ACCOUNT_ALLOWANCE_HOOK",
      hook_id: 7,
      owner_id: "0.0.1001",
      timestamp_range: { from: at("create-alice"), to: null },
      type: "EVM",
    });
    // Hook 9: deleted later, everything else kept from its creation.
    expect(hooks[1]).toMatchObject({
      contract_id: "0.0.1502",
      created_timestamp: at("alice-more-hooks"),
      deleted: true,
      timestamp_range: { from: at("delete-hook-9"), to: null },
    });
    expect(hooks[0]!).toMatchObject({ admin_key: null, hook_id: 10 });
  });

  it("reads the owner as an ID, an EVM address (not a long-zero one) or finds nobody", async () => {
    for (const owner of ["1001", "0.1001", "0.0.1001", "0.01001"]) {
      expect(await ids(`/api/v1/accounts/${owner}/hooks`)).toEqual([10, 9, 8, 7]);
    }
    const bare = carolEvm.slice(2);
    for (const owner of [carolEvm, bare, `0.0.${bare}`, bare.toUpperCase()]) {
      const body = await get(`/api/v1/accounts/${owner}/hooks`);
      expect((body.hooks as Array<{ owner_id: string }>).map((h) => h.owner_id)).toEqual(["0.0.1002"]);
    }
    expect(await ids("/api/v1/accounts/0.0.99999/hooks")).toEqual([]);
    const missing = "/api/v1/accounts/0x00000000000000000000000000000000000003e9/hooks";
    expect(await detail(missing, 404)).toEqual(["No account found for the given ID"]);
    for (const owner of ["abc", "0..1", "-1", "0.0.", "1.2.3.4", "9999999999999999999999999"]) {
      expect(await detail(`/api/v1/accounts/${owner}/hooks`)).toEqual(["Failed to convert 'ownerId'"]);
    }
  });

  it("pages by hook id and filters with hook.id", async () => {
    const asc = await get("/api/v1/accounts/1001/hooks?limit=2&order=asc");
    expect((asc.hooks as Hook[]).map((h) => h.hook_id)).toEqual([7, 8]);
    expect(asc.links.next).toBe("/api/v1/accounts/1001/hooks?limit=2&order=asc&hook.id=gt:8");
    const second = await get(asc.links.next!);
    expect((second.hooks as Hook[]).map((h) => h.hook_id)).toEqual([9, 10]);
    const desc = await get("/api/v1/accounts/1001/hooks?limit=2&order=DESC");
    expect(desc.links.next).toBe("/api/v1/accounts/1001/hooks?limit=2&order=DESC&hook.id=lt:9");
    const base = "/api/v1/accounts/1001/hooks?";
    expect(await ids(`${base}hook.id=eq:8`)).toEqual([8]);
    expect(await ids(`${base}hook.id=8`)).toEqual([8]);
    expect(await ids(`${base}hook.id=7,9`)).toEqual([9, 7]);
    expect(await ids(`${base}hook.id=eq:7&hook.id=9`)).toEqual([9, 7]);
    expect(await ids(`${base}hook.id=lt:9`)).toEqual([8, 7]);
    expect(await ids(`${base}hook.id=gte:8&hook.id=lte:9`)).toEqual([9, 8]);
    expect(await ids(`${base}hook.id=gt:9&hook.id=lt:7`)).toEqual([]);
    expect(await ids(`${base}hook.id=eq:7&hook.id=gt:7`)).toEqual([]);
    expect(await ids(`${base}hook.id=ne:8`)).toEqual([10, 9, 8, 7]);
    // An equality keeps the query as it is on the next page.
    expect((await get(`${base}hook.id=7&hook.id=8&limit=1`)).links.next).toBe(
      `${base}hook.id=7&hook.id=8&limit=1`,
    );
  });

  it("answers bad parameters as the Java service does", async () => {
    const base = "/api/v1/accounts/1001/hooks";
    expect(await detail(`${base}?limit=0`)).toEqual(["limit must be greater than 0"]);
    expect(await detail(`${base}?limit=101`)).toEqual(["limit must be less than or equal to 100"]);
    expect(await detail(`${base}?limit=abc`)).toEqual(["Failed to convert 'limit'"]);
    expect(await detail(`${base}?order=foo`)).toEqual(["Failed to convert 'order'"]);
    expect(await detail(`${base}?order=%20asc`)).toEqual(["Failed to convert 'order'"]);
    for (const value of ["lt:abc", "foo:123", "lte123", "gt=123", "gte::123"]) {
      expect(await detail(`${base}?hook.id=${value}`)).toEqual(["Failed to convert 'hook.id'"]);
    }
    const many = Array.from({ length: 101 }, (_, i) => `hook.id=eq:${i}`).join("&");
    expect(await detail(`${base}?${many}&limit=0`)).toEqual([
      "hookId size must be between 0 and 100",
      "limit must be greater than 0",
    ]);
    // The first conversion failure wins: the owner before the query.
    expect(await detail("/api/v1/accounts/abc/hooks?limit=abc")).toEqual(["Failed to convert 'ownerId'"]);
    // Unknown and differently spelled names are ignored.
    expect(await ids(`${base}?Hook.id=7&foo=bar`)).toEqual([10, 9, 8, 7]);
  });
});

describe("GET /api/v1/accounts/{id}/hooks/{hookId}/storage", () => {
  const storage = "/api/v1/accounts/1001/hooks/7/storage";
  const mapping = Buffer.from(
    keccak256(
      Buffer.concat([Buffer.from(word("04").slice(2), "hex"), Buffer.from(word("03").slice(2), "hex")]),
    ),
  ).toString("hex");

  it("answers the current slots by key, deleted ones left out", async () => {
    const body = await get(storage);
    expect(body).toEqual({
      hook_id: 7,
      links: { next: null },
      owner_id: "0.0.1001",
      storage: [
        { key: word("02"), value: word("2a"), timestamp: at("store-2") },
        { key: word("0100"), value: word("0b"), timestamp: at("store-2") },
        { key: `0x${mapping}`, value: word("05"), timestamp: at("store-1") },
      ],
    });
    // The failed HookStore wrote nothing; a mapping entry keyed by a preimage is keccak(keccak(preimage) ‖ slot).
    const preimage = keccak256(Buffer.from("hello"));
    const slot10 = keccak256(Buffer.concat([preimage, Buffer.from(word("05").slice(2), "hex")]));
    expect(((await get("/api/v1/accounts/1001/hooks/10/storage")).storage as Slot[])[0]).toEqual({
      key: `0x${Buffer.from(slot10).toString("hex")}`,
      value: word("ff"),
      timestamp: at("alice-more-hooks"),
    });
    expect((await get("/api/v1/accounts/1001/hooks/99/storage")).storage).toEqual([]);
    expect((await get("/api/v1/accounts/5/hooks/7/storage")).owner_id).toBe("0.0.5");
  });

  it("answers the change log as of a time: the newest access of each slot, deletions as zero", async () => {
    expect((await get(`${storage}?timestamp=${at("create-alice")}`)).storage).toEqual([
      { key: word("01"), value: word("0a"), timestamp: at("create-alice") },
    ]);
    expect((await get(`${storage}?timestamp=lte:${at("store-1")}`)).storage).toEqual([
      { key: word("01"), value: word(""), timestamp: at("store-1") },
      { key: `0x${mapping}`, value: word("05"), timestamp: at("store-1") },
    ]);
    // Logged keys keep their minimal bytes and sort as bytes: 01, 0100, 02, then the 32-byte mapping slot.
    expect(await keys(`${storage}?timestamp=gte:${at("create-alice")}`)).toEqual([
      word("01"),
      word("0100"),
      word("02"),
      `0x${mapping}`,
    ]);
    expect(await keys(`${storage}?timestamp=gt:${at("store-1")}`)).toEqual([word("0100"), word("02")]);
    expect(await keys(`${storage}?timestamp=lt:${at("create-alice")}`)).toEqual([]);
    expect(await keys(`${storage}?timestamp=gt:${at("store-2")}&timestamp=lt:${at("store-1")}`)).toEqual([]);
  });

  it("pages by key and filters with key", async () => {
    const first = await get(`${storage}?limit=2`);
    expect((first.storage as Slot[]).map((s) => s.key)).toEqual([word("02"), word("0100")]);
    expect(first.links.next).toBe(`${storage}?limit=2&key=gt:${word("0100")}`);
    expect((await get(first.links.next!)).storage).toHaveLength(1);
    const desc = await get(`${storage}?limit=2&order=desc&timestamp=gte:${at("create-alice")}`);
    expect(desc.links.next).toBe(
      `${storage}?limit=2&order=desc&timestamp=gte:${at("create-alice")}&key=lt:${word("02")}`,
    );
    expect(await keys(`${storage}?key=eq:02`)).toEqual([word("02")]);
    expect(await keys(`${storage}?key=0x0100`)).toEqual([word("0100")]);
    expect(await keys(`${storage}?key=gt:02`)).toEqual([word("0100"), `0x${mapping}`]);
    expect(await keys(`${storage}?key=gte:03&key=lte:0100`)).toEqual([word("0100")]);
    expect(await keys(`${storage}?key=eq:02&key=lt:02`)).toEqual([]);
    // In the log a minimal key never equals a padded one (upstream compares raw bytes).
    expect(await keys(`${storage}?key=eq:02&timestamp=gte:1`)).toEqual([]);
    expect(await keys(`${storage}?key=eq:${mapping}&timestamp=gte:1`)).toEqual([`0x${mapping}`]);
  });

  it("answers bad parameters as the Java service does", async () => {
    expect(await detail("/api/v1/accounts/1001/hooks/-1/storage")).toEqual([
      "hookId must be greater than or equal to 0",
    ]);
    for (const hook of ["abc", "0.abc.1", "9999999999999999999999999"]) {
      expect(await detail(`/api/v1/accounts/1001/hooks/${hook}/storage`)).toEqual([
        "Failed to convert 'hookId'",
      ]);
    }
    for (const value of ["lt:gbc", "foo:01", "lte01", "gt=01", "gte::01", "ne:01", "EQ:01", "0X01"]) {
      expect(await detail(`${storage}?key=${value}`)).toEqual(["Failed to convert 'key'"]);
    }
    expect(await detail(`${storage}?timestamp=ne:1`)).toEqual(["Failed to convert 'timestamp'"]);
    expect(await detail(`${storage}?timestamp=1&timestamp=2&timestamp=3`)).toEqual([
      "timestamps size must be between 0 and 2",
    ]);
    const many = Array.from({ length: 101 }, (_, i) => `key=${i + 1}`).join("&");
    expect(await detail(`${storage}?${many}`)).toEqual(["keys size must be between 0 and 100"]);
    expect(await detail(`${storage}?limit=101`)).toEqual(["limit must be less than or equal to 100"]);
  });
});

describe("GET /api/v1/network/registered-nodes", () => {
  const path = "/api/v1/network/registered-nodes";
  const list = async (query: string) =>
    ((await get(`${path}${query}`, 200, 60)).registered_nodes as Array<{ registered_node_id: number }>).map(
      (n) => n.registered_node_id,
    );
  const invalid = async (query: string) => (await errors(`${path}${query}`, 400, 60)).map((m) => m.message);

  it("lists the current registered nodes that are not deleted", async () => {
    const body = await get(path, 200, 60);
    expect(body.links.next).toBeNull();
    const [alpha, relay] = body.registered_nodes as Array<Record<string, unknown>>;
    expect(body.registered_nodes).toHaveLength(2);
    expect(alpha).toEqual({
      admin_key: { _type: "ED25519", key: expect.stringMatching(/^[0-9a-f]{64}$/) },
      created_timestamp: at("registered-1"),
      description: "alpha-2",
      registered_node_id: 1,
      service_endpoints: [
        {
          block_node: { endpoint_apis: ["STATUS", "PUBLISH"] },
          domain_name: null,
          general_service: null,
          ip_address: "192.168.1.10",
          mirror_node: null,
          port: 40840,
          requires_tls: true,
          rpc_relay: null,
          type: "BLOCK_NODE",
        },
        {
          block_node: null,
          domain_name: "mirror.alpha.example",
          general_service: null,
          ip_address: null,
          mirror_node: {},
          port: 443,
          requires_tls: true,
          rpc_relay: null,
          type: "MIRROR_NODE",
        },
      ],
      timestamp: { from: at("registered-1-update"), to: null },
    });
    expect(relay).toMatchObject({ description: "", registered_node_id: 2 });
    expect((relay!.service_endpoints as Array<Record<string, unknown>>)[0]).toMatchObject({
      ip_address: "2001:db8:0:0:0:0:0:1",
      rpc_relay: {},
      type: "RPC_RELAY",
    });
  });

  it("filters by type, id and pages", async () => {
    expect(await list("?type=BLOCK_NODE")).toEqual([1]);
    expect(await list("?type=mirror_node")).toEqual([1]);
    expect(await list("?type=Rpc-Relay")).toEqual([2]);
    expect(await list("?type=GENERAL_SERVICE")).toEqual([]); // node 3 is deleted
    expect(await list("?order=DESC")).toEqual([2, 1]);
    expect(await list("?registerednode.id=2")).toEqual([2]);
    expect(await list("?registerednode.id=gt:1")).toEqual([2]);
    expect(await list("?registerednode.id=gte:1&registerednode.id=lt:2")).toEqual([1]);
    expect(await list("?limit=&limit=5")).toEqual([1, 2]);
    const first = await get(`${path}?limit=1`, 200, 60);
    expect(first.links.next).toBe(`${path}?limit=1&registerednode.id=gt:1`);
    expect((await get(`${path}?limit=1&order=desc`, 200, 60)).links.next).toBe(
      `${path}?limit=1&order=desc&registerednode.id=lt:2`,
    );
  });

  it("answers bad parameters as the Java service does", async () => {
    expect(await invalid("?limit=0")).toEqual(["Invalid parameter: limit"]);
    expect(await invalid("?limit=101")).toEqual(["Invalid parameter: limit"]);
    expect(await invalid("?limit=abc&order=up&type=x")).toEqual([
      "Invalid parameter: limit",
      "Invalid parameter: order",
      "Invalid parameter: type",
    ]);
    for (const value of ["invalid", "-1", "eq:-1", "lt:abc", ".1", "9223372036854775808", "a:1", "eq:1:2"]) {
      expect(await invalid(`?registerednode.id=${value}`)).toEqual(["Invalid parameter: registerednode.id"]);
    }
    expect(await invalid("?registerednode.id=gt:1&registerednode.id=lt:9&registerednode.id=ne:4")).toEqual([
      "Invalid parameter: registerednode.id",
    ]);
    const details = async (query: string) => (await errors(`${path}${query}`, 400, 60)).map((m) => m.detail);
    expect(await details("?limit=1&limit=2")).toEqual(["Only a single instance is supported for limit"]);
    expect(await details("?registerednode.id=eq:1&registerednode.id=eq:2")).toEqual([
      "The 'eq' operator cannot be combined with other operators",
    ]);
    expect(await details("?registerednode.id=gt:10&registerednode.id=lt:10")).toEqual([
      "Invalid range: lower bound exceeds upper bound",
    ]);
  });
});

describe("associated_registered_nodes in GET /api/v1/network/nodes", () => {
  it("is the current node's list, [] when it was cleared", async () => {
    const body = await get("/api/v1/network/nodes", 200, 60);
    const nodes = body.nodes as Array<{ node_id: number; associated_registered_nodes: number[] }>;
    expect(nodes.map((n) => [n.node_id, n.associated_registered_nodes])).toEqual([
      [0, [1, 2]],
      [1, []],
    ]);
  });
});
