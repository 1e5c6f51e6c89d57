/**
 * `/api/v1/tokens?name=` looks names up in the trigram index of current token names (migration 0081, kept by
 * triggers on `token`): a renamed token is found under its new name.
 */
import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";

const scenario = useScenario("demo");

type TokensBody = { tokens: { token_id: string; name: string }[]; links: { next: string | null } };

const names = async (value: string) => {
  const response = await scenario.service.get(`/api/v1/tokens?name=${encodeURIComponent(value)}&limit=100`);
  expect(response.status).toBe(200);
  return (response.body as TokensBody).tokens.map((t) => t.name);
};

describe("the token name index", () => {
  it("finds a renamed token by its new name; a pattern without three literal characters matches every name", async () => {
    const miles = scenario.ledger.tokens.MILES!;
    expect(miles.name).toBe("Voyager Miles Plus");
    expect(await names("MILES PLUS")).toEqual([miles.name]);
    expect(await names("Miles Plus Gold")).toEqual([]);
    // No literal run of three characters: every token's name is matched, with the same answer.
    expect(await names("v_y")).toEqual(await names("voy"));
  });
});
