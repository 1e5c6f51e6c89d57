/**
 * The official JavaScript SDK (`@hiero-ledger/sdk`) as the client of the accounts and balances endpoints:
 * `MirrorNodeAccountBalanceQuery` reads `/api/v1/balances?account.id=` for an account number, an EVM address and
 * a key alias, and `AccountId.fromEvmAddress(…).populateAccountNum(client)` resolves an address through
 * `/api/v1/accounts/{evm address}`. The client's mirror REST base URL points at the test server (as in
 * fee-estimate-sdk.test.ts); every request and every reading of the answer is the SDK's own.
 */
import { AccountId, Client, MirrorNodeAccountBalanceQuery, PublicKey } from "@hiero-ledger/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyRing } from "../../fixtures/writer/scenario/keys.ts";
import { useScenario } from "../helpers/fixtures.ts";
import { HbarOracle, numOf } from "./accounts-helpers.ts";

const SCENARIO = "accounts";
const scenario = useScenario(SCENARIO);
const keys = new KeyRing(SCENARIO);
const oracle = new HbarOracle(SCENARIO);
let client: Client;

beforeAll(() => {
  client = Client.forNetwork({ "127.0.0.1:50211": AccountId.fromString("0.0.3") });
  const base = `${scenario.service.baseUrl}/api/v1`;
  Object.defineProperty(client, "mirrorRestApiBaseUrl", { get: () => base });
});
afterAll(() => client?.close());

const balanceNow = (name: string) =>
  oracle.balanceAt(numOf(scenario.ledger, name), oracle.moves.at(-1)!.consensusNs).toString();
const evmOf = (name: string) => Buffer.from(keys.ecdsaKey(name).evmAddress).toString("hex");

describe("the SDK reading accounts and balances from mirrorlite", () => {
  it("MirrorNodeAccountBalanceQuery: by account number, EVM address and key alias", async () => {
    const byNum = await new MirrorNodeAccountBalanceQuery()
      .setAccountId(scenario.ledger.accounts.bob!.id)
      .execute(client);
    expect(byNum.hbars.toTinybars().toString()).toBe(balanceNow("bob"));

    const byEvm = await new MirrorNodeAccountBalanceQuery()
      .setAccountId(AccountId.fromEvmAddress(0, 0, evmOf("carol")))
      .execute(client);
    expect(byEvm.hbars.toTinybars().toString()).toBe(balanceNow("carol"));

    const kimKey = PublicKey.fromBytesED25519(keys.ed25519Key("kim").publicKey);
    const byAlias = await new MirrorNodeAccountBalanceQuery()
      .setAccountId(kimKey.toAccountId(0, 0))
      .execute(client);
    expect(byAlias.hbars.toTinybars().toString()).toBe(balanceNow("kim"));

    // An address no account has: the SDK reads the empty answer as zero.
    const nobody = await new MirrorNodeAccountBalanceQuery()
      .setAccountId(AccountId.fromEvmAddress(0, 0, "c3e5f0a0d1b2c3d4e5f60718293a4b5c6d7e8f90"))
      .execute(client);
    expect(nobody.hbars.toTinybars().toString()).toBe("0");
  });

  it(
    "AccountId.fromEvmAddress(…).populateAccountNum: an EVM address alias and a hollow account",
    { timeout: 20_000 },
    async () => {
      const carol = await AccountId.fromEvmAddress(0, 0, evmOf("carol")).populateAccountNum(client);
      expect(carol.num.toString()).toBe(numOf(scenario.ledger, "carol").toString());
      const max = await AccountId.fromEvmAddress(0, 0, evmOf("max")).populateAccountNum(client);
      expect(max.num.toString()).toBe(numOf(scenario.ledger, "max").toString());
    },
  );
});
