/**
 * A stream with neither a balance snapshot nor a genesis start (accounts-and-nfts begins at block 8000): no
 * balance of an account that existed before it is known, but every account the stream creates starts at 0 and
 * is exact from then on, as the mirror node's entity balance is.
 */
import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";
import { type AccountBody, getJson } from "./accounts-helpers.ts";

const scenario = useScenario("accounts-and-nfts");

type Summary = { id: string; balance: string };

describe("balances of a stream without a starting state", () => {
  it("are exact for every account the stream created", async () => {
    const created = Object.values(scenario.ledger.accounts as unknown as Record<string, Summary>).filter(
      (a) => BigInt(a.id.split(".")[2]!) >= 2001n,
    );
    expect(created.length).toBeGreaterThan(10);
    for (const account of created) {
      const body = await getJson<AccountBody>(scenario.service, `/api/v1/accounts/${account.id}`);
      expect(String(body.balance?.balance), account.id).toBe(account.balance);
    }
    const listed = await getJson<{ balances: Array<{ account: string; balance: number }> }>(
      scenario.service,
      "/api/v1/balances?limit=100&order=asc",
    );
    expect(Object.fromEntries(listed.balances.map((b) => [b.account, String(b.balance)]))).toEqual(
      Object.fromEntries(created.map((a) => [a.id, a.balance])),
    );
  });
});
