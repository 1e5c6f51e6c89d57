/** The network GETs on a stream that carries no system files, nodes or stake updates. */
import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

const scenario = useScenario("tokens-group-nfts");

async function get(path: string) {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

describe("the network group without network data", () => {
  it("answers upstream's 404s and an empty node list", async () => {
    const notFound = (detail: string) => ({ _status: { messages: [{ message: "Not Found", detail }] } });
    const rates = await get("/api/v1/network/exchangerate");
    expect([rates.status, rates.body]).toEqual([404, notFound("File 0.0.112 not found")]);
    // The fee schedule is looked up first.
    const fees = await get("/api/v1/network/fees");
    expect([fees.status, fees.body]).toEqual([404, notFound("File 0.0.111 not found")]);
    const stake = await get("/api/v1/network/stake");
    expect([stake.status, stake.body]).toEqual([404, notFound("No network stake data found")]);
    const nodes = await get("/api/v1/network/nodes");
    expect([nodes.status, nodes.body]).toEqual([200, { nodes: [], links: { next: null } }]);
  });
});
