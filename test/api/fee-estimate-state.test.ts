import Long from "long";
import { describe, expect, it } from "vitest";
import type { proto } from "../../src/streams/proto.ts";
import { account, signedTransaction } from "../fees/build-transaction.ts";
import { useScenario } from "../helpers/fixtures.ts";
import { postEstimate } from "./fee-estimate-helpers.ts";

/**
 * STATE mode reads the index built from `fixtures/scenarios/fee-estimates.yaml`: PLAIN 0.0.1004 (fungible, no
 * fees), FEEDY 0.0.1005 (fungible, fixed fee), ART 0.0.1006 (NFT, royalty), CARDS 0.0.1007 (NFT, no fees); topics
 * NEWS 0.0.1008 (no fees), PAID 0.0.1009 (fixed fee), LATER 0.0.1010 (fee added by update), DROPPED 0.0.1011 (fee
 * removed by update).
 */
const scenario = useScenario("fee-estimates");
const n = (x: number) => Long.fromNumber(x);

function fungibleTransfer(tokenNum: number): Uint8Array {
  return signedTransaction({
    cryptoTransfer: {
      tokenTransfers: [
        {
          token: { tokenNum: n(tokenNum) },
          transfers: [
            { accountID: account(1001), amount: n(-1) },
            { accountID: account(1002), amount: n(1) },
          ],
        },
      ],
    },
  });
}

function nftTransfer(tokenNum: number, serials: number): Uint8Array {
  const nftTransfers: proto.INftTransfer[] = Array.from({ length: serials }, (_, i) => ({
    senderAccountID: account(1001),
    receiverAccountID: account(1002),
    serialNumber: n(i + 1),
  }));
  return signedTransaction({
    cryptoTransfer: { tokenTransfers: [{ token: { tokenNum: n(tokenNum) }, nftTransfers }] },
  });
}

function submit(topicNum: number, bytes = 128): Uint8Array {
  return signedTransaction({
    consensusSubmitMessage: { topicID: { topicNum: n(topicNum) }, message: new Uint8Array(bytes) },
  });
}

async function total(bytes: Uint8Array, mode: "STATE" | "INTRINSIC") {
  const response = await postEstimate(scenario.service.baseUrl, bytes, { query: `mode=${mode}` });
  expect(response.status).toBe(200);
  return response.body as { total: number; service: { extras: Array<{ name: string; count: number }> } };
}

describe("POST /api/v1/network/fees?mode=STATE reads tokens and topics from the index", () => {
  it.each([
    ["PLAIN, fungible without fees", 1004, 10_000_000, ["TOKEN_TRANSFER_BASE"]],
    ["FEEDY, fungible with a fixed fee", 1005, 20_000_000, ["TOKEN_TRANSFER_BASE_CUSTOM_FEES"]],
    ["a token the index does not know", 9999, 1_000_000, []],
  ])("a transfer of %s", async (_what, tokenNum, expected, extras) => {
    const body = await total(fungibleTransfer(tokenNum), "STATE");
    expect(body.total).toBe(expected);
    expect(body.service.extras.map((e) => e.name)).toEqual(extras);
    // INTRINSIC never reads the index: one TOKEN_TYPES entry for the list's two transfers.
    expect((await total(fungibleTransfer(tokenNum), "INTRINSIC")).total).toBe(2_000_000);
  });

  it("NFT transfers count serials; a royalty counts as custom fees", async () => {
    // CARDS: base 9 000 000 + TOKEN_TYPES 2 (1 charged).
    expect((await total(nftTransfer(1007, 2), "STATE")).total).toBe(1_000_000 + 9_000_000 + 1_000_000);
    expect((await total(nftTransfer(1006, 1), "STATE")).total).toBe(1_000_000 + 19_000_000);
  });

  it.each([
    ["NEWS, never charging", 1008, 1_890_400],
    ["PAID, charging since creation", 1009, 500_000_000],
    ["LATER, charging since an update", 1010, 500_000_000],
    ["DROPPED, whose fee an update removed", 1011, 1_890_400],
  ])("a 128-byte message to %s", async (_what, topicNum, expected) => {
    expect((await total(submit(topicNum), "STATE")).total).toBe(expected);
    expect((await total(submit(topicNum), "INTRINSIC")).total).toBe(1_890_400);
  });

  it("a message over 1024 bytes to a charging topic pays the custom-fee byte rate", async () => {
    const body = await total(submit(1009, 1100), "STATE");
    expect(body.service.extras).toEqual([
      expect.objectContaining({ name: "CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE", count: 1 }),
      expect.objectContaining({ name: "CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES", count: 1100 }),
    ]);
  });
});
