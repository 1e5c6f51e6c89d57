/**
 * A stream that starts mid-life from a balance snapshot: the snapshot's accounts (0.0.2, 0.0.3, 0.0.98 here)
 * have balances from its instant on. Upstream keeps them as entities of unknown type: `/balances` lists them,
 * `/accounts` does not, `/accounts/{id}` answers 404.
 */
import { describe, expect, it } from "vitest";
import { stepTime, useScenario } from "../helpers/fixtures.ts";
import { getJson, messagesOf } from "./accounts-helpers.ts";

const scenario = useScenario("network-supply", { balances: true });

type BalancesBody = { timestamp: string | null; balances: Array<{ account: string; balance: number }> };
type AccountsBody = { accounts: Array<{ account: string }> };

const snapshotTime = () =>
  (
    scenario.ledger as unknown as { balanceSnapshots: Array<{ label: string; timestamp: string }> }
  ).balanceSnapshots.find((s) => s.label === "start")!.timestamp;

describe("accounts of the starting balance snapshot", () => {
  it("are listed by /balances, dated by the snapshot until a record changes them", async () => {
    const body = await getJson<BalancesBody>(
      scenario.service,
      "/api/v1/balances?account.id=lte:0.0.98&order=asc",
    );
    expect(body.balances.map((b) => b.account)).toEqual(["0.0.2", "0.0.3", "0.0.98"]);
    const atStart = await getJson<BalancesBody>(
      scenario.service,
      `/api/v1/balances?timestamp=${snapshotTime()}&order=asc`,
    );
    expect(atStart.timestamp).toBe(snapshotTime());
    expect(atStart.balances.map((b) => b.account)).toEqual(["0.0.2", "0.0.3", "0.0.98"]);
    expect(atStart.balances.slice(1).map((b) => b.balance)).toEqual([0, 0]);
    // After the first transaction, the accounts it created join them.
    const later = await getJson<BalancesBody>(
      scenario.service,
      `/api/v1/balances?timestamp=${stepTime(scenario.ledger, "reserve-create")}&order=asc`,
    );
    expect(later.balances.map((b) => b.account)).toEqual(["0.0.2", "0.0.3", "0.0.98", "0.0.749"]);
  });

  it("are not accounts for /accounts, and /accounts/{id} does not know them", async () => {
    const body = await getJson<AccountsBody>(scenario.service, "/api/v1/accounts");
    expect(body.accounts.map((a) => a.account)).toEqual(["0.0.749", "0.0.750", "0.0.751", "0.0.752"]);
    for (const id of ["0.0.2", "0.0.3", "0.0.98"]) {
      expect(await messagesOf(scenario.service, `/api/v1/accounts/${id}`, 404), id).toEqual(["Not found"]);
    }
  });

  it("have no balances before the snapshot", async () => {
    const before = await getJson<BalancesBody>(
      scenario.service,
      "/api/v1/balances?timestamp=1719824399.299999999",
    );
    expect(before).toEqual({ timestamp: null, balances: [], links: { next: null } });
  });
});
