import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { URI_OF_MISSING_NFT } from "../../src/evm/hts/erc-facade.ts";
import { selector } from "../../src/evm/hts/selectors.ts";
import { useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";
import { REPO_ROOT } from "../helpers/service.ts";

/**
 * ERC-20/ERC-721 reads at a token's own address (its facade) and the token service's read functions at 0x167,
 * through `POST /api/v1/contracts/call` over the `account-relations` scenario (fixtures/scenarios/account-relations.yaml:
 * two fungible tokens and two NFT collections, balances, fungible and NFT allowances granted, spent and revoked,
 * an ECDSA account with an EVM address). Every value expected here is the scenario's, at the block asked.
 */
const scenario = useScenario("account-relations");
const PATH = "/api/v1/contracts/call";
const TOKEN_SERVICE = "0000000000000000000000000000000000000167";

const probes = (
  JSON.parse(readFileSync(join(REPO_ROOT, "test/evm/probes/probes.json"), "utf8")) as {
    initcode: Record<string, string>;
  }
).initcode;

type CallAnswer = {
  status: number;
  body: { result?: string; _status?: { messages: Array<Record<string, string>> } };
};

async function post(body: Record<string, unknown>): Promise<CallAnswer> {
  const response = await fetch(scenario.service.baseUrl + PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const parsed = JSON.parse(await response.text()) as CallAnswer["body"];
  validateResponse({ path: PATH, method: "post", status: response.status, body: parsed });
  return { status: response.status, body: parsed };
}

const numOf = (id: string) => BigInt(id.split(".")[2]!);
/** A scenario account's or token's long-zero address, 40 hex digits. */
function longZero(name: string): string {
  const id = scenario.ledger.accounts[name]?.id ?? scenario.ledger.tokens[name]!.id;
  return numOf(id).toString(16).padStart(40, "0");
}
const ivanAlias = () =>
  (scenario.ledger.accounts.ivan as unknown as { evmAddress: string }).evmAddress.replace(/^0x/, "");

const word = (value: bigint | string) =>
  typeof value === "bigint"
    ? value.toString(16).padStart(64, "0")
    : value.replace(/^0x/, "").padStart(64, "0");
const calldata = (signature: string, ...args: Array<bigint | string>) =>
  `0x${selector(signature).toString(16).padStart(8, "0")}${args.map(word).join("")}`;
/** The ABI encoding of one string, as a function returning `string` answers. */
const abiString = (text: string) => {
  const hex = Buffer.from(text).toString("hex");
  return `0x${word(32n)}${word(BigInt(hex.length / 2))}${hex.padEnd(Math.ceil(hex.length / 64) * 64, "0")}`;
};
const result = (...words: Array<bigint | string>) => ({
  status: 200,
  body: { result: `0x${words.map(word).join("")}` },
});
const failure = (message: string, data: string) => ({
  status: 400,
  body: { _status: { messages: [{ message, detail: "", data }] } },
});
const nameBytes = (status: string) => `0x${Buffer.from(status).toString("hex")}`;

/** The number of the block holding a labelled step. */
function blockOf(label: string): number {
  const ns = (t: string) => BigInt(t.replace(".", ""));
  const time = ns(scenario.ledger.steps.find((step) => step.label === label)!.consensusTimestamp);
  return Number(scenario.ledger.blocks.find((b) => ns(b.from) <= time && time <= ns(b.to))!.number);
}

/** A facade call as a contract makes it: the Forwarder probe calls `target` with `data` during its creation. */
const forwarded = (target: string, data: string, isStatic: boolean) =>
  `0x${probes.Forwarder}${word(target)}${word(96n)}${word(isStatic ? 1n : 0n)}${word(BigInt((data.length - 2) / 2))}${data
    .slice(2)
    .padEnd(Math.ceil((data.length - 2) / 64) * 64, "0")}`;

describe("a token's ERC facade at its long-zero address", () => {
  it("answers the ERC-20 reads of a fungible token", async () => {
    const gold = longZero("GOLD");
    expect(await post({ to: gold, data: calldata("name()") })).toEqual({
      status: 200,
      body: { result: abiString("Gold") },
    });
    expect((await post({ to: gold, data: calldata("symbol()") })).body.result).toBe(abiString("GLD"));
    expect(await post({ to: gold, data: calldata("decimals()") })).toEqual(result(2n));
    expect(await post({ to: gold, data: calldata("totalSupply()") })).toEqual(result(1_000_000n));
  });

  it("reads balances and allowances as of the block asked", async () => {
    const gold = `0x${longZero("GOLD")}`;
    const balance = calldata("balanceOf(address)", longZero("bob"));
    const allowance = calldata("allowance(address,address)", longZero("alice"), longZero("bob"));
    const before = blockOf("token-grant") - 1;
    const spent = blockOf("bob-spends-gold");
    const airdrop = blockOf("airdrop-1");
    expect(airdrop).toBeGreaterThan(spent);
    // bob got 20000 in the first transfer, then spent 400 of alice's 1000 allowance on himself, then got an
    // airdrop of 100.
    expect(await post({ to: gold, data: balance, block: String(before) })).toEqual(result(20_000n));
    expect(await post({ to: gold, data: balance, block: String(spent) })).toEqual(result(20_400n));
    expect(await post({ to: gold, data: balance })).toEqual(result(20_500n));
    expect(await post({ to: gold, data: allowance, block: String(before) })).toEqual(result(0n));
    expect(await post({ to: gold, data: allowance, block: String(spent) })).toEqual(result(600n));
    // An account that was never associated holds none.
    expect(await post({ to: gold, data: calldata("balanceOf(address)", longZero("s1")) })).toEqual(
      result(0n),
    );
  });

  it("resolves an account with an EVM address at that address only, as the consensus node does", async () => {
    const gold = longZero("GOLD");
    expect(await post({ to: gold, data: calldata("balanceOf(address)", ivanAlias()) })).toEqual(
      result(15_000n),
    );
    // Its long-zero address is a non-canonical reference: INVALID_ACCOUNT_ID, reverted as the status's name.
    expect(await post({ to: gold, data: calldata("balanceOf(address)", longZero("ivan")) })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", nameBytes("INVALID_ACCOUNT_ID")),
    );
    // An EVM address nobody has.
    expect(await post({ to: gold, data: calldata("balanceOf(address)", "ab".repeat(20)) })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", nameBytes("INVALID_ACCOUNT_ID")),
    );
  });

  it("answers the ERC-721 reads of an NFT collection as of the block asked", async () => {
    const art = longZero("ART");
    const ownerOf1 = calldata("ownerOf(uint256)", 1n);
    // Serial 1 stays with the treasury (alice) until bob takes it with his allowance.
    expect(await post({ to: art, data: ownerOf1, block: String(blockOf("bob-takes-art-1") - 1) })).toEqual(
      result(longZero("alice")),
    );
    expect(await post({ to: art, data: ownerOf1 })).toEqual(result(longZero("bob")));
    expect((await post({ to: art, data: calldata("tokenURI(uint256)", 5n) })).body.result).toBe(
      abiString("art-5"),
    );
    expect((await post({ to: art, data: calldata("tokenURI(uint256)", 99n) })).body.result).toBe(
      abiString(URI_OF_MISSING_NFT),
    );
    // bob holds serials 5 and 1 at the end.
    expect(await post({ to: art, data: calldata("balanceOf(address)", longZero("bob")) })).toEqual(
      result(2n),
    );
    expect(await post({ to: art, data: calldata("totalSupply()") })).toEqual(result(8n));
    expect((await post({ to: art, data: calldata("name()") })).body.result).toBe(abiString("Art"));
  });

  it("answers NFT approvals: a serial's spender and approval for all, granted and revoked", async () => {
    const art = longZero("ART");
    const pix = longZero("PIX");
    const approved2 = calldata("getApproved(uint256)", 2n);
    expect(await post({ to: art, data: approved2, block: String(blockOf("nft-serials") - 1) })).toEqual(
      result(0n),
    );
    expect(await post({ to: art, data: approved2 })).toEqual(result(longZero("bob")));
    // carol's serial 3 allowance was deleted again.
    expect(await post({ to: art, data: calldata("getApproved(uint256)", 3n) })).toEqual(result(0n));
    const carolForPix = calldata("isApprovedForAll(address,address)", longZero("alice"), longZero("carol"));
    expect(await post({ to: pix, data: carolForPix, block: String(blockOf("nft-for-all")) })).toEqual(
      result(1n),
    );
    expect(await post({ to: pix, data: carolForPix })).toEqual(result(0n));
  });

  it("fails as upstream does: a missing serial, an NFT-only read of a fungible token, decimals of an NFT", async () => {
    // A missing serial reverts with the status's number (INVALID_TOKEN_NFT_SERIAL_NUMBER, 225) as one word.
    expect(await post({ to: longZero("ART"), data: calldata("ownerOf(uint256)", 99n) })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", `0x${word(225n)}`),
    );
    // The token service halts; the facade's code then reverts with no data.
    expect(await post({ to: longZero("ART"), data: calldata("decimals()") })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", "0x"),
    );
    expect(await post({ to: longZero("GOLD"), data: calldata("ownerOf(uint256)", 1n) })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", "0x"),
    );
    // Arguments that do not decode halt too.
    expect(
      await post({ to: longZero("GOLD"), data: `${calldata("balanceOf(address)", longZero("bob"))}00` }),
    ).toEqual(failure("CONTRACT_REVERT_EXECUTED", "0x"));
  });

  it("answers the same when a contract calls the facade, by CALL or STATICCALL", async () => {
    const data = calldata("balanceOf(address)", longZero("bob"));
    const block = String(blockOf("bob-spends-gold"));
    for (const isStatic of [true, false]) {
      expect(await post({ data: forwarded(longZero("GOLD"), data, isStatic), block })).toEqual(
        result(20_400n),
      );
    }
    const missingSerial = forwarded(longZero("ART"), calldata("ownerOf(uint256)", 99n), true);
    expect(await post({ data: missingSerial })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", `0x${word(225n)}`),
    );
  });

  it("estimates the gas of a facade read: the least that succeeds", async () => {
    const request = { to: longZero("GOLD"), data: calldata("balanceOf(address)", longZero("bob")) };
    const estimate = await post({ ...request, estimate: true });
    expect(estimate.status).toBe(200);
    const gas = BigInt(estimate.body.result!);
    expect(await post({ ...request, gas: Number(gas) })).toEqual(result(20_500n));
    // With less the facade's DELEGATECALL leaves the token service too little: it halts and the facade reverts.
    expect((await post({ ...request, gas: Number(gas) - 200 })).status).toBe(400);
  });

  it("answers 501 for the facade's functions that change state, never a value", async () => {
    const transfer = calldata("transfer(address,uint256)", longZero("bob"), 1n);
    expect((await post({ to: longZero("GOLD"), data: transfer, from: longZero("alice") })).status).toBe(501);
  });

  it("is nothing but an address without code before the token exists", async () => {
    const created = blockOf("nfts-out");
    expect(created).toBeGreaterThan(12_000);
    expect(await post({ to: longZero("GOLD"), data: calldata("name()"), block: "12000" })).toEqual({
      status: 200,
      body: { result: "0x" },
    });
  });
});

describe("the token service's redirectForToken at 0x167", () => {
  const redirect = (token: string, inner: string) => {
    const hex = inner.slice(2);
    return `${calldata("redirectForToken(address,bytes)", token, 64n)}${word(BigInt(hex.length / 2))}${hex.padEnd(Math.ceil(hex.length / 64) * 64, "0")}`;
  };

  it("answers as the facade does, and reverts INVALID_TOKEN_ID for an address that is no token", async () => {
    const data = redirect(longZero("GOLD"), calldata("balanceOf(address)", longZero("bob")));
    const block = String(blockOf("bob-spends-gold"));
    expect(await post({ to: TOKEN_SERVICE, data, block })).toEqual(result(20_400n));
    expect(await post({ data: forwarded(TOKEN_SERVICE, data, true), block })).toEqual(result(20_400n));
    const notAToken = redirect(longZero("alice"), calldata("name()"));
    expect(await post({ to: TOKEN_SERVICE, data: notAToken })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", nameBytes("INVALID_TOKEN_ID")),
    );
  });
});

describe("the token service's read functions at 0x167", () => {
  const SUCCESS = 22n;
  const INVALID_TOKEN_ID = 167n;
  const call = (data: string, block?: string) =>
    post({ to: TOKEN_SERVICE, data, ...(block ? { block } : {}) });

  it("answers isToken and getTokenType with the response code first", async () => {
    expect(await call(calldata("isToken(address)", longZero("GOLD")))).toEqual(result(SUCCESS, 1n));
    expect(await call(calldata("isToken(address)", longZero("alice")))).toEqual(result(SUCCESS, 0n));
    expect(await call(calldata("getTokenType(address)", longZero("GOLD")))).toEqual(result(SUCCESS, 0n));
    expect(await call(calldata("getTokenType(address)", longZero("ART")))).toEqual(result(SUCCESS, 1n));
    // A missing token answers its code outside a static call, and reverts with the status's name inside one.
    const missing = calldata("getTokenType(address)", longZero("alice"));
    expect(await call(missing)).toEqual(result(INVALID_TOKEN_ID, 0n));
    expect(await post({ data: forwarded(TOKEN_SERVICE, missing, true) })).toEqual(
      failure("CONTRACT_REVERT_EXECUTED", nameBytes("INVALID_TOKEN_ID")),
    );
  });

  it("answers default freeze and KYC status, and an account's freeze and KYC flags", async () => {
    expect(await call(calldata("getTokenDefaultKycStatus(address)", longZero("SILVER")))).toEqual(
      result(SUCCESS, 0n),
    );
    expect(await call(calldata("getTokenDefaultKycStatus(address)", longZero("GOLD")))).toEqual(
      result(SUCCESS, 1n),
    );
    expect(await call(calldata("getTokenDefaultFreezeStatus(address)", longZero("SILVER")))).toEqual(
      result(SUCCESS, 0n),
    );
    // alice granted bob KYC for SILVER; dave was never granted it.
    expect(await call(calldata("isKyc(address,address)", longZero("SILVER"), longZero("bob")))).toEqual(
      result(SUCCESS, 1n),
    );
    expect(await call(calldata("isKyc(address,address)", longZero("SILVER"), longZero("dave")))).toEqual(
      result(SUCCESS, 0n),
    );
    expect(await call(calldata("isFrozen(address,address)", longZero("SILVER"), longZero("bob")))).toEqual(
      result(SUCCESS, 0n),
    );
    expect(await call(calldata("isFrozen(address,address)", longZero("SILVER"), "ab".repeat(20)))).toEqual(
      result(15n, 0n),
    );
  });

  it("answers allowance, getApproved and isApprovedForAll with the code first", async () => {
    const block = String(blockOf("bob-spends-gold"));
    expect(
      await call(
        calldata("allowance(address,address,address)", longZero("GOLD"), longZero("alice"), longZero("bob")),
        block,
      ),
    ).toEqual(result(SUCCESS, 600n));
    expect(await call(calldata("getApproved(address,uint256)", longZero("ART"), 2n))).toEqual(
      result(SUCCESS, longZero("bob")),
    );
    expect(
      await call(
        calldata(
          "isApprovedForAll(address,address,address)",
          longZero("ART"),
          longZero("alice"),
          longZero("bob"),
        ),
      ),
    ).toEqual(result(SUCCESS, 1n));
  });

  it("answers getTokenExpiryInfo from the token's entity", async () => {
    const token = (await scenario.service.get(`/api/v1/tokens/${scenario.ledger.tokens.GOLD!.id}`)).body as {
      expiry_timestamp: number | string;
      auto_renew_account: string | null;
      auto_renew_period: number | null;
    };
    const seconds = BigInt(token.expiry_timestamp) / 1_000_000_000n;
    const renewer = token.auto_renew_account === null ? 0n : numOf(token.auto_renew_account);
    expect(await call(calldata("getTokenExpiryInfo(address)", longZero("GOLD")))).toEqual(
      result(SUCCESS, seconds, renewer, BigInt(token.auto_renew_period ?? 0)),
    );
  });

  it("answers getTokenKey as a KeyValue, and KEY_NOT_PROVIDED for a key the token does not have", async () => {
    const token = (await scenario.service.get(`/api/v1/tokens/${scenario.ledger.tokens.GOLD!.id}`)).body as {
      supply_key: { _type: string; key: string };
    };
    expect(token.supply_key._type).toBe("ED25519");
    // (int32 code, (bool inherit, address contract, bytes ed25519, bytes ecdsa, address delegatable)): the tuple
    // is dynamic, so the head holds its offset; its two byte strings follow it.
    expect(await call(calldata("getTokenKey(address,uint256)", longZero("GOLD"), 16n))).toEqual(
      result(SUCCESS, 0x40n, 0n, 0n, 0xa0n, 0xe0n, 0n, 32n, token.supply_key.key, 0n),
    );
    expect(await call(calldata("getTokenKey(address,uint256)", longZero("GOLD"), 2n))).toEqual(
      result(44n, 0x40n, 0n, 0n, 0xa0n, 0xc0n, 0n, 0n, 0n),
    );
  });

  it("answers 501 for the functions it does not execute", async () => {
    expect((await call(calldata("getTokenInfo(address)", longZero("GOLD")))).status).toBe(501);
    expect(
      (
        await call(
          calldata(
            "transferToken(address,address,address,int64)",
            longZero("GOLD"),
            longZero("alice"),
            longZero("bob"),
            1n,
          ),
        )
      ).status,
    ).toBe(501);
  });
});

describe("the PRNG system contract at 0x169", () => {
  const PRNG = "0000000000000000000000000000000000000169";
  const seedCall = calldata("getPseudorandomSeed()");

  it("answers the first 32 bytes of the hash of the block asked, as upstream's n-3 running hash", async () => {
    for (const number of ["12003", String(blockOf("erin-claims"))]) {
      const block = (await scenario.service.get(`/api/v1/blocks/${number}`)).body as { hash: string };
      const seed = `0x${block.hash.replace(/^0x/, "").slice(0, 64)}`;
      expect(await post({ to: PRNG, data: seedCall, block: number })).toEqual({
        status: 200,
        body: { result: seed },
      });
      expect(await post({ data: forwarded(PRNG, seedCall, true), block: number })).toEqual({
        status: 200,
        body: { result: seed },
      });
    }
  });

  it("halts on any other selector", async () => {
    expect(await post({ to: PRNG, data: calldata("name()") })).toEqual(
      failure("CONTRACT_EXECUTION_EXCEPTION", "0x"),
    );
  });
});
