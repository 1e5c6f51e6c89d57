import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

/**
 * `name` on `/api/v1/tokens` over names of 40-100 characters with patterns that a backtracking matcher takes
 * exponential time on. The answers must be right, and they must come (the whole file runs under the test
 * timeout; before, one such request stalled the server for over ten seconds).
 */
const scenario = useScenario("long-token-names");

const tokenId = (name: string) =>
  Object.values(scenario.ledger.tokens).find((t) => t.name.startsWith(name))!.id;

async function names(value: string): Promise<string[]> {
  const path = `/api/v1/tokens?name=${encodeURIComponent(value)}`;
  const response = await scenario.service.get(path);
  expect(response.status, response.text).toBe(200);
  validateResponse({ path, status: 200, body: response.body });
  return (response.body as { tokens: { token_id: string }[] }).tokens.map((t) => t.token_id);
}

describe("GET /api/v1/tokens?name= under hostile patterns", () => {
  it("answers the %_%_…! pattern that used to stall the server, and liveness meanwhile", async () => {
    const hostile = `${"%_".repeat(8)}!`;
    const [matched, live] = await Promise.all([names(hostile), scenario.service.get("/health/liveness")]);
    expect(live.status).toBe(200);
    expect(matched).toEqual([tokenId("The Quite Long")]);
    // The longest the name filter accepts (100 bytes), against every name.
    expect(await names(`${"%_".repeat(49)}!!`)).toEqual([]);
    expect(await names(`${"_%".repeat(49)}a!`)).toEqual([]);
    expect(await names("%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b")).toEqual([]);
  });

  it("keeps the ILIKE semantics: wildcards, escapes, case and Unicode", async () => {
    expect(await names("a".repeat(96))).toEqual([tokenId("aaaa")]);
    expect(await names("a".repeat(97))).toEqual([]);
    expect(await names("50\\%")).toEqual([tokenId("The Quite Long")]);
    expect(await names("off!\\")).toEqual([]);
    expect(await names("\\_\\_ under")).toEqual([tokenId("____")]);
    expect(await names("back\\\\slash")).toEqual([tokenId("____")]);
    expect(await names("σίσυφοσ")).toEqual([tokenId("ΣΊΣΥΦΟΣ")]);
    expect(await names("again%again%again")).toEqual([tokenId("ΣΊΣΥΦΟΣ")]);
    expect(await names("the%token")).toEqual([tokenId("The Quite Long")]);
    expect(await names("___")).toHaveLength(4);
  });

  it("answers a name holding a NUL character with a normal list, not 500 (FTS5 phrases end at NUL)", async () => {
    expect(await names("abc\u0000def")).toEqual([]);
    expect(await names("The Quite\u0000Long")).toEqual([]);
    expect(await names("\u0000\u0000\u0000")).toEqual([]);
  });
});
