import { request } from "node:http";
import fc from "fast-check";
import Long from "long";
import { describe, expect, it } from "vitest";
import { FEE_ESTIMATE_BODY_LIMIT } from "../../src/api/routes/fee-estimate.ts";
import { proto } from "../../src/streams/proto.ts";
import { account, signedTransaction } from "../fees/build-transaction.ts";
import { useScenario } from "../helpers/fixtures.ts";
import { javaError, postEstimate } from "./fee-estimate-helpers.ts";

/** fees.md §7: every error row, plus the body limit and hostile bytes. */
const scenario = useScenario("fee-estimates");
const transfer = signedTransaction({
  memo: "test",
  cryptoTransfer: {
    transfers: { accountAmounts: [{ accountID: account(1001), amount: Long.fromNumber(-1) }] },
  },
});
const post = (body: Uint8Array | null, options?: Parameters<typeof postEstimate>[2]) =>
  postEstimate(scenario.service.baseUrl, body, options);
const badRequest = (detail: string) => javaError("Bad Request", detail);

describe("POST /api/v1/network/fees errors (fees.md §7)", () => {
  it("accepts application/protobuf and application/x-protobuf, with parameters", async () => {
    for (const contentType of [
      "application/protobuf",
      "application/x-protobuf",
      "application/x-protobuf; charset=x",
    ]) {
      expect((await post(transfer, { contentType })).status, contentType).toBe(200);
    }
  });

  it("answers 415 for another content type, naming it", async () => {
    const response = await post(transfer, { contentType: "application/json" });
    expect(response.status).toBe(415);
    expect(response.body).toEqual(
      javaError("Unsupported Media Type", "Content-Type 'application/json' is not supported"),
    );
    const none = await post(transfer, { contentType: null });
    expect(none.status).toBe(415);
    expect(none.body).toEqual(
      javaError("Unsupported Media Type", "Content-Type 'application/octet-stream' is not supported"),
    );
  });

  it("answers 400 for a missing or empty body", async () => {
    for (const body of [null, new Uint8Array()]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(badRequest("Failed to read request"));
    }
  });

  it("answers 400 for bytes that are not a transaction, or an unparseable inner message", async () => {
    const signedGarbage = proto.Transaction.encode({
      signedTransactionBytes: new Uint8Array([0x0a, 0x7f]),
    }).finish();
    const bodyGarbage = proto.Transaction.encode({
      signedTransactionBytes: proto.SignedTransaction.encode({
        bodyBytes: new Uint8Array([0xff, 0xff]),
      }).finish(),
    }).finish();
    for (const body of [new Uint8Array([0xff, 0xff, 0xff]), signedGarbage, bodyGarbage]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(badRequest("Unable to parse transaction"));
    }
  });

  it("answers 400 when neither bodyBytes nor signedTransactionBytes is set", async () => {
    const onlySigMap = proto.Transaction.encode({
      sigMap: { sigPair: [{ pubKeyPrefix: new Uint8Array([1]) }] },
    }).finish();
    const response = await post(onlySigMap);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      badRequest("Transaction must contain body bytes or signed transaction bytes"),
    );
  });

  it("answers 400 for a body without data, a type without a calculator, and hooks in INTRINSIC", async () => {
    const hooked = signedTransaction({
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            {
              accountID: account(1001),
              amount: Long.fromNumber(-1),
              preTxAllowanceHook: { hookId: Long.fromNumber(1) },
            },
          ],
        },
      },
    });
    for (const body of [signedTransaction({ memo: "empty" }), signedTransaction({ freeze: {} }), hooked]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(badRequest("Unknown transaction type"));
    }
    expect((await post(hooked, { query: "mode=STATE" })).status).toBe(200);
  });

  it.each([
    ["mode=FAST", "Failed to convert 'mode'"],
    ["high_volume_throttle=-1", "highVolumeThrottle must be greater than or equal to 0"],
    ["high_volume_throttle=10001", "highVolumeThrottle must be less than or equal to 10000"],
    ["high_volume_throttle=abc", "Failed to convert 'high_volume_throttle'"],
    ["high_volume_throttle=1.5", "Failed to convert 'high_volume_throttle'"],
    ["high_volume_throttle=99999999999", "Failed to convert 'high_volume_throttle'"],
  ])("answers 400 for %s", async (query, detail) => {
    const response = await post(transfer, { query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(badRequest(detail));
  });

  it("reads mode in any case, as api.md §3.4 says", async () => {
    const body = signedTransaction({ consensusCreateTopic: {}, highVolume: true }, 0);
    const response = await post(body, { query: "mode=state&high_volume_throttle=10000" });
    expect(response.status).toBe(200);
    expect((response.body as { high_volume_multiplier: number }).high_volume_multiplier).toBe(200);
  });

  it("answers other spellings of the path through the Express router the same way", async () => {
    const response = await fetch(`${scenario.service.baseUrl}/api/v1/network/fees/?mode=STATE`, {
      method: "POST",
      headers: { "content-type": "application/protobuf" },
      body: transfer,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual((await post(transfer, { query: "mode=STATE" })).body);
    const bad = await fetch(`${scenario.service.baseUrl}/api/v1/network/fees/`, {
      method: "POST",
      body: "{}",
    });
    expect(bad.status).toBe(415);
  });

  it("takes defaults for empty parameters and ignores unknown ones", async () => {
    const response = await post(transfer, { query: "mode=&high_volume_throttle=&foo=bar" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json;charset=UTF-8");
  });
});

describe("other methods on /api/v1/network/fees", () => {
  it("answers PUT with 405 naming GET and POST, and leaves GET to the gas-price route", async () => {
    const put = await fetch(`${scenario.service.baseUrl}/api/v1/network/fees`, { method: "PUT", body: "x" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toContain("POST");
    expect(await put.json()).toEqual(
      javaError("Method Not Allowed", "Request method 'PUT' is not supported"),
    );
    const options = await fetch(`${scenario.service.baseUrl}/api/v1/network/fees`, { method: "OPTIONS" });
    expect(options.headers.get("allow")).toBe("GET,HEAD,POST,OPTIONS");
    // The scenario has no 0.0.111: the GET route answers its own 404, not the estimator.
    const get = await fetch(`${scenario.service.baseUrl}/api/v1/network/fees`);
    expect(get.status).toBe(404);
  });
});

describe("body limit", () => {
  it("answers 413 for a declared length over the limit", async () => {
    const response = await post(new Uint8Array(FEE_ESTIMATE_BODY_LIMIT + 1));
    expect(response.status).toBe(413);
    expect(response.body).toEqual(
      javaError("Content Too Large", `Request body exceeds ${FEE_ESTIMATE_BODY_LIMIT} bytes`),
    );
    // A body of exactly the limit is read (and is not a transaction).
    expect((await post(new Uint8Array(FEE_ESTIMATE_BODY_LIMIT))).status).toBe(400);
  });

  it("answers 413 to a chunked upload once it passes the limit, without reading the rest", async () => {
    const { port } = scenario.service;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          port,
          host: "127.0.0.1",
          method: "POST",
          path: "/api/v1/network/fees",
          headers: { "content-type": "application/protobuf" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      // 1 MiB offered in 16 KiB chunks; the server stops after 128 KiB and closes.
      const chunk = Buffer.alloc(16 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 64) {
          sent++;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
  });
});

describe("hostile bytes", () => {
  it("random bytes never reach a 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 400 }), async (bytes) => {
        const response = await post(bytes, { query: "mode=STATE" });
        expect([200, 400]).toContain(response.status);
      }),
      { numRuns: 150, seed: 8 },
    );
  });

  it("corrupted real transactions never reach a 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(transfer.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        async (edits) => {
          const bytes = Uint8Array.from(transfer);
          for (const [at, value] of edits) bytes[at] = value;
          const response = await post(bytes, { query: "mode=STATE" });
          expect([200, 400]).toContain(response.status);
        },
      ),
      { numRuns: 150, seed: 9 },
    );
  });

  it("a key nested 12 000 deep is answered, not a crash", async () => {
    // Encoded by hand: protobufjs's own encoder recurses and would overflow first.
    const field = (number: number, bytes: Uint8Array) =>
      Buffer.concat([varint((number << 3) | 2), varint(bytes.length), bytes]);
    let key: Uint8Array = field(2, new Uint8Array(32));
    for (let i = 0; i < 12_000; i++) key = field(6, field(1, key));
    const body = field(5, field(1, field(11, field(1, key))));
    expect(body.length).toBeLessThan(FEE_ESTIMATE_BODY_LIMIT);
    const response = await post(body);
    expect([200, 400]).toContain(response.status);
  });
});

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
  return Buffer.from(bytes);
}
