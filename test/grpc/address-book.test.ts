import "../../src/streams/long-setup.ts";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { proto } from "@hiero-ledger/proto";
import { AddressBookQuery, type Client } from "@hiero-ledger/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureStream } from "../helpers/fixtures.ts";
import { copyStream, startTestService, type TestService } from "../helpers/service.ts";
import { GET_NODES, mirror, rawCall, sdkClient } from "./grpc-client.ts";

/**
 * `NetworkService/getNodes` through the SDK's `AddressBookQuery` and a raw client, on the `network` scenario
 * (two versions of 0.0.102, one 0.0.101, a NodeUpdate moving node 4's account, two stake updates). REST's
 * `/api/v1/network/nodes` for the same file is the oracle of every field both show.
 */
let service: TestService;
let remove: () => void;
let client: Client;
let grpcPort: number;

beforeAll(async () => {
  const stream = copyStream(fixtureStream("network"));
  remove = stream.remove;
  service = await startTestService({ recordsDir: stream.dir, grpcPort: 0 });
  await service.ingest.settled;
  grpcPort = service.grpcPort!;
  client = sdkClient(grpcPort);
});

afterAll(async () => {
  client?.close();
  await service?.stop();
  remove?.();
});

type RestNode = {
  node_id: number;
  node_account_id: string;
  description: string;
  memo: string | null;
  public_key: string;
  node_cert_hash: string;
  service_endpoints: Array<{ domain_name: string; ip_address_v4: string; port: number }>;
  stake: number | null;
};

async function restNodes(file: string): Promise<RestNode[]> {
  const response = await service.get(`/api/v1/network/nodes?file.id=${file}&limit=25`);
  expect(response.status).toBe(200);
  return (response.body as { nodes: RestNode[] }).nodes;
}

const nodesQuery = (query: object) =>
  mirror.AddressBookQuery.encode(mirror.AddressBookQuery.create(query)).finish();

describe("getNodes", () => {
  it("streams the newest book of a file by node id, with the current node account and the latest stake", async () => {
    for (const file of [101, 102]) {
      const rest = await restNodes(`0.0.${file}`);
      expect(rest.length).toBeGreaterThan(0);
      const result = await rawCall(grpcPort, GET_NODES, nodesQuery({ fileId: { fileNum: file } }));
      expect(result.code).toBe(GrpcStatus.OK);
      const nodes = result.messages.map((bytes) => proto.NodeAddress.decode(bytes));
      expect(
        nodes.map((n) => ({
          node_id: Number(n.nodeId),
          node_account_id: `0.0.${n.nodeAccountId?.accountNum}`,
          description: n.description,
          public_key: `0x${n.RSA_PubKey}`,
          // The bytes are the hex text of the certificate's hash (as the file holds it), not the hash itself.
          node_cert_hash: `0x${Buffer.from(n.nodeCertHash).toString("utf8")}`,
          service_endpoints: n.serviceEndpoint.map((e) => ({
            domain_name: e.domainName,
            ip_address_v4: e.ipAddressV4?.length === 4 ? [...e.ipAddressV4].join(".") : "",
            port: e.port,
          })),
          stake: Number(n.stake),
        })),
      ).toEqual(
        rest.map((n) => ({
          node_id: n.node_id,
          node_account_id: n.node_account_id,
          description: n.description,
          public_key: n.public_key,
          node_cert_hash: n.node_cert_hash,
          service_endpoints: n.service_endpoints,
          stake: n.stake ?? 0,
        })),
      );
    }
  });

  it("stops at the limit", async () => {
    const result = await rawCall(grpcPort, GET_NODES, nodesQuery({ fileId: { fileNum: 102 }, limit: 2 }));
    expect(result.code).toBe(GrpcStatus.OK);
    expect(result.messages.map((bytes) => Number(proto.NodeAddress.decode(bytes).nodeId))).toEqual([0, 1]);
  });

  it("refuses what upstream refuses", async () => {
    const cases: Array<[object, number, string]> = [
      [{}, GrpcStatus.INVALID_ARGUMENT, "getNodes.filter.fileId: must not be null"],
      [
        { limit: -1 },
        GrpcStatus.INVALID_ARGUMENT,
        "getNodes.filter.fileId: must not be null, getNodes.filter.limit: must be greater than or equal to 0",
      ],
      [{ fileId: { fileNum: -1 } }, GrpcStatus.INVALID_ARGUMENT, "Invalid entity ID: 0.0.-1"],
      [{ fileId: { fileNum: 111 } }, GrpcStatus.INVALID_ARGUMENT, "Not a valid address book file"],
      [
        { fileId: { realmNum: 2, fileNum: 101 } },
        GrpcStatus.INVALID_ARGUMENT,
        "Not a valid address book file",
      ],
      [{ fileId: {} }, GrpcStatus.INVALID_ARGUMENT, "Not a valid address book file"],
    ];
    for (const [query, code, details] of cases) {
      const result = await rawCall(grpcPort, GET_NODES, nodesQuery(query));
      expect({ query, code: result.code, details: result.details }).toEqual({ query, code, details });
    }
  });

  it("answers the SDK's AddressBookQuery", async () => {
    const rest = await restNodes("0.0.102");
    const book = await new AddressBookQuery().setFileId("0.0.102").execute(client);
    expect(
      book.nodeAddresses.map((n) => ({
        nodeId: n.nodeId?.toNumber(),
        account: n.accountId?.toString(),
        addresses: n.addresses.map((a) => a.toString()),
      })),
    ).toEqual(
      rest.map((n) => ({
        nodeId: n.node_id,
        account: n.node_account_id,
        addresses: n.service_endpoints.map((e) => `${e.domain_name || e.ip_address_v4}:${e.port}`),
      })),
    );
    // Node 4's account is the one its NodeUpdate set, not the book's.
    expect(book.nodeAddresses.find((n) => n.nodeId?.toNumber() === 4)?.accountId?.toString()).toBe("0.0.8");
  });
});

describe("grpc.health.v1.Health", () => {
  const check = async (service: string) => {
    const request = Buffer.concat([Buffer.from([0x0a, service.length]), Buffer.from(service)]);
    const { Client, credentials } = await import("@grpc/grpc-js");
    const raw = new Client(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
    try {
      return await new Promise<{ code: number; status?: number }>((resolve) => {
        raw.makeUnaryRequest(
          "/grpc.health.v1.Health/Check",
          (b: Buffer) => b,
          (b: Buffer) => b,
          request,
          (error, response) =>
            resolve(error ? { code: error.code! } : { code: 0, status: response?.[1] ?? 0 }),
        );
      });
    } finally {
      raw.close();
    }
  };

  it("reports SERVING for the server and both services once ready, NOT_FOUND for others", async () => {
    expect(await check("")).toEqual({ code: 0, status: 1 });
    expect(await check("com.hedera.mirror.api.proto.ConsensusService")).toEqual({ code: 0, status: 1 });
    expect(await check("com.hedera.mirror.api.proto.NetworkService")).toEqual({ code: 0, status: 1 });
    expect((await check("no.such.Service")).code).toBe(GrpcStatus.NOT_FOUND);
  });
});
