import Long from "long";
import { describe, expect, it } from "vitest";
import { genesisFeeSchedule } from "../../src/fees/genesis-schedule.ts";
import { highVolumeMultiplier } from "../../src/fees/high-volume.ts";
import { ed25519, hex, signedTransaction } from "./build-transaction.ts";
import { estimate } from "./estimate-helpers.ts";
import { definitionIn, editedSchedule } from "./schedule-helpers.ts";

/** fees.md §6 and §8.3: HIP-1313 high-volume pricing. */
const H = signedTransaction({ memo: "test", consensusCreateTopic: {}, highVolume: true }, 0);
const NO_FLAG = signedTransaction({ memo: "test", consensusCreateTopic: {} }, 0);

function scaled(hv: number, node: number, service: number, total: number) {
  return {
    high_volume_multiplier: hv,
    network: { multiplier: 9, subtotal: node * 9 },
    node: { base: node, extras: [] },
    service: { base: service, extras: [] },
    total,
  };
}

describe("high-volume pricing (fees.md §8.3)", () => {
  it("builds the documented bodies", () => {
    expect(hex(H)).toBe("2a0e0a0c320474657374c20100d03e01");
    expect(hex(NO_FLAG)).toBe("2a0b0a09320474657374c20100");
  });

  it("applies only in STATE mode and only to flagged bodies", () => {
    expect(estimate(H, { mode: "INTRINSIC", throttle: 10000 })).toEqual(
      scaled(1, 100000, 99000000, 100000000),
    );
    expect(estimate(NO_FLAG, { mode: "STATE", throttle: 10000 })).toEqual(
      scaled(1, 100000, 99000000, 100000000),
    );
  });

  it.each([
    [0, scaled(4, 400000, 396000000, 400000000)],
    [4, scaled(9, 900000, 891000000, 900000000)],
    [6, scaled(12, 1250000, 1237500000, 1250000000)],
    [10000, scaled(200, 20000000, 19800000000, 20000000000)],
  ])("H at throttle %i in STATE", (throttle, expected) => {
    expect(estimate(H, { mode: "STATE", throttle })).toEqual(expected);
  });

  it.each([
    [100000, 0, 1, 100000000],
    [100000, 5000, 50, 5050000000],
    [100000, 10000, 100, 10000000000],
    [50000, 10000, 50, 5000000000],
  ])("a schedule with maxMultiplier %i and no curve, throttle %i", (max, throttle, hv, total) => {
    const schedule = editedSchedule((json) => {
      definitionIn(json, "ConsensusCreateTopic").highVolumeRates = { maxMultiplier: max } as never;
    });
    const body = estimate(H, { mode: "STATE", throttle, schedule });
    expect(body.high_volume_multiplier).toBe(hv);
    expect(body.total).toBe(total);
    if (throttle === 5000) {
      expect(body.node.base).toBe(5050000);
      expect(body.network.subtotal).toBe(45450000);
      expect(body.service.base).toBe(4999500000);
    }
  });

  it("scales a CryptoCreate's parts and totals separately (throttle 300)", () => {
    const bytes = signedTransaction({ cryptoCreateAccount: { key: ed25519() }, highVolume: true });
    expect(bytes.length).toBe(118);
    const body = estimate(bytes, { mode: "STATE", throttle: 300 });
    expect(body.high_volume_multiplier).toBe(116);
    expect(body.node.base).toBe(11666600);
    expect(body.network.subtotal).toBe(104999400);
    expect(body.service.base).toBe(58216334000);
    expect(body.total).toBe(58333000000);
  });

  it("does not price a high-volume CryptoTransfer differently", () => {
    const bytes = signedTransaction({ cryptoTransfer: {}, highVolume: true }, 0);
    expect(estimate(bytes, { mode: "STATE", throttle: 10000 }).total).toBe(1000000);
  });

  it("scales extras' fee per unit and leaves counts alone", () => {
    const bytes = signedTransaction(
      {
        tokenAssociate: { tokens: [{ tokenNum: Long.fromNumber(1) }, { tokenNum: Long.fromNumber(2) }] },
        highVolume: true,
      },
      1,
    );
    const body = estimate(bytes, { mode: "STATE", throttle: 0 });
    expect(body.high_volume_multiplier).toBe(4);
    expect(body.service.extras).toEqual([
      {
        name: "TOKEN_ASSOCIATE",
        count: 2,
        included: 1,
        charged: 1,
        fee_per_unit: 2000000000,
        subtotal: 2000000000,
      },
    ]);
    expect(body.total).toBe(4 * (1000000 + 499000000 + 500000000));
  });
});

/** The raw multiplier table of fees.md §6 for the default curves. */
const UTILIZATIONS = [0, 3, 4, 6, 10, 50, 100, 150, 200, 250, 500, 1000, 2500, 5000, 7500, 10000];
const TABLE: Array<[string[], number[]]> = [
  [
    ["CryptoCreate", "ConsensusCreateTopic", "FileCreate", "FileAppend", "HookStore"],
    [
      4000, 8000, 9000, 12500, 20000, 60000, 80000, 90000, 100000, 108333, 150000, 200000, 200000, 200000,
      200000, 200000,
    ],
  ],
  [
    ["TokenCreate", "TokenAssociateToAccount", "TokenAirdrop", "ScheduleCreate"],
    [4000, 4000, 4000, 4000, 4000, 4000, 4000, 8000, 9000, 10000, 20000, 40000, 60000, 80000, 90000, 100000],
  ],
  [
    ["TokenMint"],
    [
      4000, 4000, 4000, 4000, 4000, 6000, 10000, 15833, 20000, 25000, 43333, 60000, 85000, 108333, 129166,
      150000,
    ],
  ],
  [
    ["ContractCreate"],
    [4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 6000, 10000, 20000, 43333, 60000, 70000, 80000],
  ],
  [
    ["TokenClaimAirdrop"],
    [4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000, 8499, 10624, 15000],
  ],
  [["CryptoApproveAllowance"], UTILIZATIONS.map(() => 4000)],
];

describe("default high-volume curves (fees.md §6)", () => {
  for (const [functionalities, expected] of TABLE) {
    for (const functionality of functionalities) {
      it(functionality, () => {
        const rates = genesisFeeSchedule().services.get(functionality)!.highVolumeRates;
        const actual = UTILIZATIONS.map((u) => Number(highVolumeMultiplier(rates, BigInt(u))));
        expect(actual).toEqual(expected);
      });
    }
  }

  it("clamps utilization to 0..10000 and has no effect without rates", () => {
    const rates = genesisFeeSchedule().services.get("TokenMint")!.highVolumeRates;
    expect(highVolumeMultiplier(rates, 20000n)).toBe(150000n);
    expect(highVolumeMultiplier(rates, -5n)).toBe(4000n);
    expect(highVolumeMultiplier(null, 5000n)).toBe(1000n);
  });
});
