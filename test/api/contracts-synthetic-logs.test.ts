/**
 * Synthetic ERC-20/ERC-721 events of HAPI token activity on the `account-relations` scenario (token creations with
 * a supply, NFT mints, a multi-party fungible transfer, an account with an EVM alias, token, serial and
 * approved-for-all allowances, airdrops): what `/contracts/results/logs` and `/contracts/{token}/results/logs`
 * answer for them, field by field, as upstream's importer writes them (contracts.md §5.1).
 */
import { describe, expect, it } from "vitest";
import { stepTime, useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

const scenario = useScenario("account-relations");
const { ledger } = scenario;

const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const APPROVAL = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925";
const APPROVAL_FOR_ALL = "0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31";
const ZERO = `0x${"0".repeat(64)}`;
const word = (hex: string) => `0x${hex.replace(/^0x/, "").padStart(64, "0")}`;
/** An account or token as a topic: its long-zero address, as a 32-byte word. */
const idWord = (num: number) => word(num.toString(16));

const ALICE = 3001;
const BOB = 3002;
const CAROL = 3003;
const DAVE = 3004;
const GOLD = 3013;
const SILVER = 3014;
const ART = 3015;
const PIX = 3016;

type Log = {
  address: string;
  bloom: string;
  contract_id: string;
  data: string;
  index: number;
  topics: string[];
  root_contract_id: string | null;
  timestamp: string;
  transaction_hash: string;
  transaction_index: number;
  block_number: number | null;
};

async function get(path: string): Promise<Record<string, unknown>> {
  const response = await scenario.service.get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  validateResponse({ path, status: response.status, body: response.body });
  return response.body as Record<string, unknown>;
}

async function logsAt(label: string): Promise<Log[]> {
  const t = stepTime(ledger, label);
  return (await get(`/api/v1/contracts/results/logs?timestamp=${t}&order=asc`)).logs as Log[];
}

const events = (logs: Log[]) => logs.map((l) => [l.contract_id, ...l.topics, l.data]);

describe("synthetic token events", () => {
  it("writes a token creation's supply as a Transfer from the zero address, with the record's own facts", async () => {
    const logs = (await get(`/api/v1/contracts/0.0.${GOLD}/results/logs?order=asc&limit=1`)).logs as Log[];
    const [mint] = logs;
    expect(mint).toMatchObject({
      address: `0x${GOLD.toString(16).padStart(40, "0")}`,
      bloom: "0x00",
      contract_id: `0.0.${GOLD}`,
      root_contract_id: `0.0.${GOLD}`,
      index: 0,
      topics: [TRANSFER, ZERO, idWord(ALICE)],
      data: word((1_000_000).toString(16)),
    });
    // The transaction's own hash (its first 32 bytes) and position in its block.
    const transactions = (await get(`/api/v1/transactions?timestamp=${mint!.timestamp}`))
      .transactions as Array<{
      transaction_hash: string;
    }>;
    const hash = Buffer.from(transactions[0]!.transaction_hash, "base64").subarray(0, 32).toString("hex");
    expect(mint!.transaction_hash).toBe(`0x${hash}`);
    expect(mint!.block_number).not.toBeNull();
  });

  it("pairs a multi-party transfer's senders and receivers by amount, and names an aliased party by its EVM address", async () => {
    // GOLD: alice -50000 → bob 20000, ivan 15000, carol 10000, dave 5000 (with SILVER alice → bob 3000 beside).
    const all = (await get(`/api/v1/contracts/0.0.${GOLD}/results/logs?order=asc&limit=5`)).logs as Log[];
    const transfer = all.filter((l) => l.timestamp === all[1]!.timestamp);
    const ivanAddress = (ledger.accounts as unknown as Record<string, { evmAddress: string }>).ivan!
      .evmAddress;
    expect(events(transfer)).toEqual([
      [`0.0.${GOLD}`, TRANSFER, idWord(ALICE), idWord(BOB), word((20000).toString(16))],
      [`0.0.${GOLD}`, TRANSFER, idWord(ALICE), word(ivanAddress), word((15000).toString(16))],
      [`0.0.${GOLD}`, TRANSFER, idWord(ALICE), idWord(CAROL), word((10000).toString(16))],
      [`0.0.${GOLD}`, TRANSFER, idWord(ALICE), idWord(DAVE), word((5000).toString(16))],
    ]);
    // One index counter per transaction, across its token lists: the SILVER transfer comes after the GOLD ones.
    const inTransaction = (
      await get(`/api/v1/contracts/results/logs?timestamp=${transfer[0]!.timestamp}&order=asc`)
    ).logs as Log[];
    expect(inTransaction.map((l) => [l.index, l.contract_id])).toEqual([
      [0, `0.0.${GOLD}`],
      [1, `0.0.${GOLD}`],
      [2, `0.0.${GOLD}`],
      [3, `0.0.${GOLD}`],
      [4, `0.0.${SILVER}`],
    ]);
  });

  it("writes NFT mints as Transfers from the zero address with the serial as topic3", async () => {
    const logs = (await get(`/api/v1/contracts/0.0.${PIX}/results/logs?order=asc&limit=4`)).logs as Log[];
    expect(events(logs)).toEqual(
      [1, 2, 3, 4].map((serial) => [
        `0.0.${PIX}`,
        TRANSFER,
        ZERO,
        idWord(ALICE),
        word(serial.toString(16)),
        ZERO,
      ]),
    );
  });

  it("writes token allowances as Approvals, the last entry per key first", async () => {
    // [GOLD→bob 1000, SILVER→bob 500, GOLD→carol 200, GOLD→dave 300], walked from the end.
    expect(events(await logsAt("token-grant"))).toEqual([
      [`0.0.${GOLD}`, APPROVAL, idWord(ALICE), idWord(DAVE), word((300).toString(16))],
      [`0.0.${GOLD}`, APPROVAL, idWord(ALICE), idWord(CAROL), word((200).toString(16))],
      [`0.0.${SILVER}`, APPROVAL, idWord(ALICE), idWord(BOB), word((500).toString(16))],
      [`0.0.${GOLD}`, APPROVAL, idWord(ALICE), idWord(BOB), word((1000).toString(16))],
    ]);
  });

  it("writes serial allowances as indexed Approvals and approved-for-all ones as ApprovalForAll", async () => {
    expect(events(await logsAt("nft-serials"))).toEqual([
      [`0.0.${ART}`, APPROVAL, idWord(ALICE), idWord(CAROL), word("03"), ZERO],
      [`0.0.${ART}`, APPROVAL, idWord(ALICE), idWord(BOB), word("01"), ZERO],
      [`0.0.${ART}`, APPROVAL, idWord(ALICE), idWord(BOB), word("02"), ZERO],
    ]);
    expect(events(await logsAt("nft-for-all"))).toEqual([
      [`0.0.${PIX}`, APPROVAL_FOR_ALL, idWord(ALICE), idWord(CAROL), word("01")],
      [`0.0.${PIX}`, APPROVAL_FOR_ALL, idWord(ALICE), idWord(BOB), word("01")],
      [`0.0.${ART}`, APPROVAL_FOR_ALL, idWord(ALICE), idWord(CAROL), word("01")],
      [`0.0.${ART}`, APPROVAL_FOR_ALL, idWord(ALICE), idWord(BOB), word("01")],
    ]);
    expect(events(await logsAt("nft-revoke-carol"))).toEqual([
      [`0.0.${PIX}`, APPROVAL_FOR_ALL, idWord(ALICE), idWord(CAROL), ZERO],
    ]);
  });

  it("writes no event for hbar allowances or hbar transfers", async () => {
    expect(await logsAt("hbar-grant")).toEqual([]);
    expect(await logsAt("bob-spends-1")).toEqual([]);
  });

  it("finds the zero-address topic (a mint's sender) with the all-zero topic filter", async () => {
    const [mint] = (await get(`/api/v1/contracts/0.0.${PIX}/results/logs?order=asc&limit=1`)).logs as Log[];
    const t = mint!.timestamp;
    const found = (await get(`/api/v1/contracts/results/logs?topic1=0x0&timestamp=${t}`)).logs as Log[];
    expect(found.map((l) => l.index).sort()).toEqual([0, 1, 2, 3]);
  });
});
