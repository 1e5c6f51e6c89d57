/**
 * The contracts group's error answers, 404s and empty answers through the real HTTP server, on a scenario with
 * no contract (`topics`): every parameter's grammar and message as upstream's spec tests pin them
 * (`rest/__tests__/specs/contracts/**` invalid-params, not-found and dependency cases; contracts.md §13), the
 * order in which each route checks path, query and resolution, and the body of an empty page.
 */
import { describe, expect, it } from "vitest";
import { useScenario } from "../helpers/fixtures.ts";
import { validateResponse } from "../helpers/openapi.ts";

const scenario = useScenario("topics");

async function get(path: string) {
  const response = await scenario.service.get(path);
  validateResponse({ path, status: response.status, body: response.body });
  return response;
}

function messages(body: unknown): string[] {
  return (body as { _status: { messages: { message: string }[] } })._status.messages.map((m) => m.message);
}

async function expectError(path: string, status: number, expected: string[]) {
  const response = await get(path);
  expect(response.status, `${path}: ${response.text}`).toBe(status);
  expect(messages(response.body), path).toEqual(expected);
}

const INVALID_TX_ID =
  'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';
const HASH64 = "4a563af33c4871b51a8b108aa2fe1dd5280a30dfb7236170ae5e5e7957eb6392";
const TOPIC_PREFIX = "Cannot search topics without a valid timestamp range: ";

describe("GET /api/v1/contracts", () => {
  it("reports bad values, then unknown names (invalid-params.json)", async () => {
    await expectError("/api/v1/contracts?contract.id=a&order=b&limit=c&timestamp=1234567890", 400, [
      "Invalid parameter: contract.id",
      "Invalid parameter: order",
      "Invalid parameter: limit",
      "Unknown query parameter: timestamp",
    ]);
  });

  it("refuses a 0x address and an address with another operator than eq", async () => {
    await expectError("/api/v1/contracts?contract.id=0x5555555555555555555555555555555555555555", 400, [
      "Invalid parameter: contract.id",
    ]);
    await expectError("/api/v1/contracts?contract.id=gt:5555555555555555555555555555555555555555", 400, [
      "Invalid parameter: contract.id",
    ]);
  });

  it("answers 404 with upstream's message for an address no contract has", async () => {
    await expectError("/api/v1/contracts?contract.id=5555555555555555555555555555555555555555", 404, [
      "No contract with the given evm address 0x5555555555555555555555555555555555555555 has been found.",
    ]);
  });

  it("lists nothing where there is no contract, with public, max-age=10", async () => {
    const response = await get("/api/v1/contracts?contract.id=gt:0.0.10&limit=2");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ contracts: [], links: { next: null } });
    expect(response.headers.get("cache-control")).toBe("public, max-age=10");
  });
});

describe("GET /api/v1/contracts/{contractIdOrAddress}", () => {
  it("refuses a bad path alone, before the query", async () => {
    for (const id of ["abc", "1.2.3.4", "0x123", "-1.0.1"]) {
      await expectError(`/api/v1/contracts/${id}?foo=1`, 400, ["Invalid parameter: contractid"]);
    }
  });

  it("reports one message per bad timestamp and unknown names", async () => {
    await expectError("/api/v1/contracts/0.0.1001?timestamp=a&timestamp=el:10&timestamp=-1&limit=2", 400, [
      "Invalid parameter: timestamp",
      "Invalid parameter: timestamp",
      "Invalid parameter: timestamp",
      "Unknown query parameter: limit",
    ]);
  });

  it("answers 404 for an account, another shard, or an unknown address (not-found.json)", async () => {
    for (const id of ["0.0.2", "1.1.924569", "24.42.924569", "60f3f640a8508fc6a86d45df051962668e1e8ac7"]) {
      await expectError(`/api/v1/contracts/${id}`, 404, ["Not found"]);
    }
    await expectError("/api/v1/contracts/0.0.2?timestamp=lte:1", 404, ["Not found"]);
  });
});

describe("GET /api/v1/contracts/{contractIdOrAddress}/results", () => {
  it("checks the path first, then values, then the dependency rules", async () => {
    await expectError("/api/v1/contracts/x/results?limit=0", 400, ["Invalid parameter: contractid"]);
    await expectError(
      "/api/v1/contracts/0.0.1001/results?block.hash=gt:" +
        "a".repeat(64) +
        "&block.number=gte:1&transaction.index=lt:2&internal=yes&from=0.0.x&hbar=maybe&index=1",
      400,
      [
        "Invalid parameter: block.hash",
        "Invalid parameter: block.number",
        "Invalid parameter: transaction.index",
        "Invalid parameter: internal",
        "Invalid parameter: from",
        "Invalid parameter: hbar",
        "Unknown query parameter: index",
      ],
    );
    await expectError("/api/v1/contracts/0.0.1001/results?transaction.index=1", 400, [
      "Invalid parameter usage: transaction.index - transaction.index requires block.number or block.hash filter to be specified",
    ]);
    await expectError(`/api/v1/contracts/0.0.1001/results?block.number=1&block.hash=${HASH64}`, 400, [
      "Invalid parameter usage: block.hash - cannot combine block.number and block.hash",
    ]);
  });

  it("answers an unknown contract with an empty page and an unknown address with 404 (not-found.json)", async () => {
    const response = await get("/api/v1/contracts/0.0.924569/results?from=987654");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ results: [], links: { next: null } });
    expect(response.headers.get("cache-control")).toBe("public, max-age=1");
    await expectError("/api/v1/contracts/0x5555555555555555555555555555555555555555/results", 404, [
      "No contract with the given evm address 0x5555555555555555555555555555555555555555 has been found.",
    ]);
    await expectError(
      "/api/v1/contracts/0.0.1001/results?from=5555555555555555555555555555555555555555",
      404,
      ["Not found"],
    );
  });
});

describe("GET /api/v1/contracts/{contractIdOrAddress}/results/{timestamp}", () => {
  it("reads hbar first, with its own message", async () => {
    await expectError("/api/v1/contracts/x/results/y?hbar=eq:true", 400, [
      "Invalid hbar parameter value: eq:true. Must be 'true' or 'false'",
    ]);
    await expectError("/api/v1/contracts/0.0.1001/results/1.1?hbar=true&hbar=false", 400, [
      "Invalid hbar parameter value: true,false. Must be 'true' or 'false'",
    ]);
  });

  it("lists both bad path parameters, then unknown names (unknown-parameter.json)", async () => {
    await expectError("/api/v1/contracts/x/results/167654.000123456.2", 400, [
      "Invalid parameter: contractid",
      "Invalid parameter: timestamp",
    ]);
    await expectError("/api/v1/contracts/0.0.1001/results/167654.000123456?index=3&limit=2", 400, [
      "Unknown query parameter: index",
      "Unknown query parameter: limit",
    ]);
  });

  it("answers 404 where no transaction is", async () => {
    await expectError("/api/v1/contracts/0.0.1001/results/167654.000123456", 404, ["Not found"]);
  });
});

describe("GET /api/v1/contracts/results", () => {
  it("refuses ranges on block and index filters (invalid-filters.json) and a repeated hbar", async () => {
    await expectError(
      `/api/v1/contracts/results?block.hash=gte:${HASH64}&block.number=lt:10&transaction.index=ne:1`,
      400,
      [
        "Invalid parameter: block.hash",
        "Invalid parameter: block.number",
        "Invalid parameter: transaction.index",
      ],
    );
    await expectError("/api/v1/contracts/results?index=1", 400, ["Unknown query parameter: index"]);
    await expectError("/api/v1/contracts/results?hbar=true&hbar=true", 400, [
      "Invalid hbar parameter value: true,true. Must be 'true' or 'false'",
    ]);
  });

  it("answers an empty interval and an unknown block with an empty page", async () => {
    for (const query of [
      "timestamp=gte:987654.000123456&timestamp=lt:987654.000123456",
      "block.number=99",
      `block.hash=${"A".repeat(64)}`,
    ]) {
      const response = await get(`/api/v1/contracts/results?${query}`);
      expect(response.status, query).toBe(200);
      expect(response.body).toEqual({ results: [], links: { next: null } });
      expect(response.headers.get("cache-control")).toBe("public, max-age=10");
    }
  });
});

describe("GET /api/v1/contracts/results/{transactionIdOrHash}", () => {
  it("refuses ids and hashes of the wrong form (invalid-transactionid-or-hash.json)", async () => {
    for (const id of [
      "1",
      "x",
      "0.0.x-167654-000123456",
      HASH64.slice(2),
      `0x${HASH64.slice(2)}`,
      `${HASH64}${"ab".repeat(16)}`,
    ]) {
      await expectError(`/api/v1/contracts/results/${id}`, 400, [INVALID_TX_ID]);
    }
  });

  it("checks the query first, one message per bad nonce (invalid-nonce.json)", async () => {
    await expectError("/api/v1/contracts/results/x?nonce=-1&nonce=2147483648&nonce=x&nonce=lt:10", 400, [
      "Invalid parameter: nonce",
      "Invalid parameter: nonce",
      "Invalid parameter: nonce",
      "Invalid parameter: nonce",
    ]);
    await expectError("/api/v1/contracts/results/x?limit=1", 400, ["Unknown query parameter: limit"]);
  });

  it("answers 404 for a transaction without a contract result", async () => {
    await expectError(`/api/v1/contracts/results/${HASH64}`, 404, ["Not found"]);
    await expectError("/api/v1/contracts/results/0.0.2-1657701910-000000144", 404, ["Not found"]);
  });
});

describe("GET /api/v1/contracts/results/{transactionIdOrHash}/actions", () => {
  it("refuses index=ne and bad values before the path (invalid-index-filter.json)", async () => {
    await expectError("/api/v1/contracts/results/x/actions?index=ne:3", 400, ["Invalid parameter: index"]);
    await expectError("/api/v1/contracts/results/x/actions?index=eq:test", 400, ["Invalid parameter: index"]);
    await expectError(`/api/v1/contracts/results/${HASH64}/actions?nonce=1`, 400, [
      "Unknown query parameter: nonce",
    ]);
    await expectError("/api/v1/contracts/results/x/actions", 400, [INVALID_TX_ID]);
  });

  it("answers 404 for an unknown transaction", async () => {
    await expectError(`/api/v1/contracts/results/0x${HASH64}/actions`, 404, ["Not found"]);
  });
});

describe("the two log routes", () => {
  it("require a valid timestamp range with a topic", async () => {
    const cases: Array<[string, string]> = [
      ["topic0=0xab", "No timestamp range or eq operator provided"],
      [
        "topic0=0xab&timestamp=gte:1",
        "Timestamp range must have gt (or gte) and lt (or lte), or eq operator",
      ],
      [
        "topic0=0xab&timestamp=gte:1&timestamp=lte:1000000",
        "Timestamp range by the lower and upper bounds must be positive and within 7d",
      ],
      [
        "topic0=0xab&timestamp=gte:10&timestamp=lte:5",
        "Timestamp range by the lower and upper bounds must be positive and within 7d",
      ],
      [
        "topic0=0xab&timestamp=gt:1&timestamp=gt:2&timestamp=lt:5",
        "Multiple gt or gte operators not permitted for timestamp param",
      ],
      [
        "topic0=0xab&timestamp=1&timestamp=lt:5",
        "Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param",
      ],
      ["topic0=0xab&timestamp=ne:1", "Not equals operator not supported for timestamp param"],
    ];
    for (const [query, reason] of cases) {
      await expectError(`/api/v1/contracts/results/logs?${query}`, 400, [`${TOPIC_PREFIX}${reason}`]);
      await expectError(`/api/v1/contracts/0.0.1001/results/logs?${query}`, 400, [
        `${TOPIC_PREFIX}${reason}`,
      ]);
    }
  });

  it("apply the bound rules (invalid-params.json)", async () => {
    const cases: Array<[string, string]> = [
      ["index=1", "timestamp must have eq operator"],
      ["index=gt:1", "index without a timestamp parameter filter"],
      ["timestamp=ne:1", "Not equal (ne) operator is not supported for timestamp"],
      ["timestamp=1&timestamp=2", "Only one equal (eq) operator is allowed for timestamp"],
      ["timestamp=gt:1&timestamp=gte:2", "Only one gt/gte operator is allowed for timestamp"],
      ["timestamp=1&timestamp=lt:2", "Can't support both range and equal for timestamp"],
      ["timestamp=gt:1&index=gt:1", "timestamp must have gte or eq operator"],
      ["timestamp=lt:1&index=lt:1", "timestamp must have lte or eq operator"],
      ["index=lt:1&index=lte:2&timestamp=1", "Only one lt/lte operator is allowed for index"],
    ];
    for (const [query, message] of cases) {
      await expectError(`/api/v1/contracts/results/logs?${query}`, 400, [message]);
      await expectError(`/api/v1/contracts/0.0.1001/results/logs?${query}`, 400, [message]);
    }
    await expectError(
      `/api/v1/contracts/results/logs?transaction.hash=${HASH64}&transaction.hash=${HASH64}`,
      400,
      ["Only one transaction.hash filter is allowed"],
    );
    await expectError(`/api/v1/contracts/results/logs?transaction.hash=gt:${HASH64}`, 400, [
      "Invalid parameter: transaction.hash",
    ]);
    await expectError(
      `/api/v1/contracts/0.0.1001/results/logs?transaction.hash=${HASH64}&scheduled=true`,
      400,
      ["Unknown query parameter: transaction.hash", "Unknown query parameter: scheduled"],
    );
    await expectError(
      "/api/v1/contracts/0.0.1001/results/logs?index=-1&index=a&topic1=0xqqq&topic0=gt:0xab",
      400,
      [
        "Invalid parameter: index",
        "Invalid parameter: index",
        "Invalid parameter: topic1",
        "Invalid parameter: topic0",
      ],
    );
  });

  it("answer the zero address with an empty page before checking bounds (zero-address.json)", async () => {
    for (const id of ["0x0000000000000000000000000000000000000000", "0.0.0"]) {
      const response = await get(`/api/v1/contracts/${id}/results/logs?index=1`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ logs: [], links: { next: null } });
    }
  });

  it("answer an unknown transaction hash with an empty page", async () => {
    const response = await get(`/api/v1/contracts/results/logs?transaction.hash=${HASH64}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ logs: [], links: { next: null } });
  });
});

describe("GET /api/v1/contracts/{contractIdOrAddress}/state", () => {
  it("refuses bad slots and unknown names (invalid-params.json)", async () => {
    await expectError(
      `/api/v1/contracts/0.0.1001/state?slot=&slot=${"a".repeat(68)}&slot=x&slot=ne:1&nonce=1`,
      400,
      [
        "Invalid parameter: slot",
        "Invalid parameter: slot",
        "Invalid parameter: slot",
        "Invalid parameter: slot",
        "Unknown query parameter: nonce",
      ],
    );
  });

  it("refuses timestamp=ne only after resolving the contract", async () => {
    await expectError("/api/v1/contracts/0.0.1001/state?timestamp=ne:123", 400, [
      "Not equals (ne) operator is not supported for timestamp",
    ]);
    await expectError(
      "/api/v1/contracts/5555555555555555555555555555555555555555/state?timestamp=ne:123",
      404,
      [
        "No contract with the given evm address 5555555555555555555555555555555555555555 has been found.".replace(
          "address 5",
          "address 0x5",
        ),
      ],
    );
  });

  it("answers an unknown contract with an empty page", async () => {
    for (const query of ["", "?timestamp=gt:123", "?slot=0x2d&timestamp=lt:123"]) {
      const response = await get(`/api/v1/contracts/0.0.924569/state${query}`);
      expect(response.status, query).toBe(200);
      expect(response.body).toEqual({ state: [], links: { next: null } });
    }
  });
});
