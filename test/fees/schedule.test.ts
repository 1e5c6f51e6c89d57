import { describe, expect, it } from "vitest";
import { genesisFeeSchedule } from "../../src/fees/genesis-schedule.ts";
import { InvalidFeeScheduleError, parseFeeSchedule } from "../../src/fees/schedule-codec.ts";
import { signedTransaction } from "./build-transaction.ts";
import { estimate } from "./estimate-helpers.ts";
import { definitionIn, editedSchedule, editedScheduleBytes, type ScheduleJson } from "./schedule-helpers.ts";

describe("simple-fee schedule (fees.md §3)", () => {
  it("the bundled genesis schedule has the documented headline numbers", () => {
    const schedule = genesisFeeSchedule();
    expect(schedule.nodeBaseFee).toBe(100000n);
    expect(schedule.nodeExtras).toEqual([
      { name: "PROCESSING_BYTES", includedCount: 1350n },
      { name: "SIGNATURES", includedCount: 1n },
    ]);
    expect(schedule.networkMultiplier).toBe(9n);
    expect(schedule.extraFees.get("SIGNATURES")).toBe(100000n);
    expect(schedule.extraFees.get("HOOK_UPDATES")).toBe(10000000000n);
    expect(schedule.services.get("ContractCall")?.nodeNetworkFeeExempt).toBe(true);
    expect(schedule.services.get("TokenCreate")?.baseFee).toBe(9999000000n);
  });

  it("decodes SIGNATURES (enum value 0, encoded without a name field) by name", () => {
    const schedule = editedSchedule(() => {});
    expect(schedule.nodeExtras.map((e) => e.name)).toEqual(["PROCESSING_BYTES", "SIGNATURES"]);
  });

  it("a changed base fee changes the estimate", () => {
    const schedule = editedSchedule((json) => {
      definitionIn(json, "CryptoDelete").baseFee = 1000;
    });
    expect(estimate(signedTransaction({ cryptoDelete: {} }), { schedule }).total).toBe(1001000);
  });

  it("refuses bytes that are not a FeeSchedule", () => {
    expect(() => parseFeeSchedule(new Uint8Array([0x0a, 0xff, 0xff]))).toThrow(InvalidFeeScheduleError);
  });

  const INVALID: Array<[string, (json: ScheduleJson) => void]> = [
    [
      "no node fee",
      (json) => {
        delete (json as Partial<ScheduleJson>).node;
      },
    ],
    [
      "no network fee",
      (json) => {
        delete (json as Partial<ScheduleJson>).network;
      },
    ],
    [
      "a network multiplier of 0",
      (json) => {
        json.network.multiplier = 0;
      },
    ],
    [
      "no services",
      (json) => {
        json.services = [];
      },
    ],
    [
      "an extra with fee 0",
      (json) => {
        json.extras[0]!.fee = 0;
      },
    ],
    [
      "an extra defined twice",
      (json) => {
        json.extras.push({ name: "KEYS", fee: 5 });
      },
    ],
    [
      "a service name used twice",
      (json) => {
        json.services[1]!.name = json.services[0]!.name;
      },
    ],
    [
      "an empty service schedule",
      (json) => {
        json.services[0]!.schedule = [];
      },
    ],
    [
      "a functionality twice in one service",
      (json) => {
        json.services[0]!.schedule.push(structuredClone(json.services[0]!.schedule[0]!));
      },
    ],
    [
      "a node reference to an undefined extra",
      (json) => {
        json.extras = json.extras.filter((e) => e.name !== "PROCESSING_BYTES");
        definitionIn(json, "FileGetContents").extras = [];
        definitionIn(json, "ContractGetBytecode").extras = [];
      },
    ],
    [
      "a reference repeated in a definition",
      (json) => {
        (definitionIn(json, "CryptoCreate").extras as unknown[]).push({ name: "KEYS", includedCount: 3 });
      },
    ],
    [
      "a service reference to an undefined extra",
      (json) => {
        json.extras = json.extras.filter((e) => e.name !== "NFT_UPDATE");
      },
    ],
  ];
  for (const [what, edit] of INVALID)
    it(`refuses a schedule with ${what}`, () => {
      expect(() => parseFeeSchedule(editedScheduleBytes(edit))).toThrow(InvalidFeeScheduleError);
    });
});
