import type { InterpreterStep } from "@ethereumjs/evm";
import { describe, expect, it } from "vitest";
import { JavaHttpError } from "../../src/api/java/index.ts";
import { javaInstant, parseOpcodesLocator } from "../../src/api/web3/opcodes-request.ts";
import { createOpcodeTrace } from "../../src/evm/opcodes/tracer.ts";

/** The detail of the 400 `parseOpcodesLocator` throws for `text`. */
function refusal(text: string): string | undefined {
  try {
    parseOpcodesLocator(text);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(JavaHttpError);
    expect((error as JavaHttpError).status).toBe(400);
    return (error as JavaHttpError).messages[0]!.detail;
  }
}

describe("the /opcodes path id, read as upstream's TransactionIdOrHashParameter", () => {
  it("takes a 32-byte hash with or without 0x, and a transaction id", () => {
    expect(parseOpcodesLocator(`0x${"AB".repeat(32)}`)).toEqual({ kind: "hash", hash: "ab".repeat(32) });
    expect(parseOpcodesLocator("0.0.2-1657701910-000000144")).toMatchObject({
      kind: "id",
      payerId: 2n,
      validStartNs: 1657701910000000144n,
      text: "TransactionIdParameter[payerAccountId=0.0.2, validStart=2022-07-13T08:45:10.000000144Z]",
    });
  });

  it("refuses what upstream refuses, with its messages", () => {
    expect(refusal("0.0.2-1-1234567890")).toBe("Unsupported ID format: '0.0.2-1-1234567890'");
    expect(refusal("99999999999999999999.0.2-1-1")).toBe('For input string: "99999999999999999999"');
    expect(refusal("1024.0.2-1-1")).toBe("Invalid entity ID: 1024.0.2");
    expect(refusal("0.0.2-9999999999999999999-1")).toBe('For input string: "9999999999999999999"');
  });

  it("prints instants as Java's Instant.toString", () => {
    expect(javaInstant(0n, 0n)).toBe("1970-01-01T00:00:00Z");
    expect(javaInstant(1657701910n, 500_000_000n)).toBe("2022-07-13T08:45:10.500Z");
    expect(javaInstant(1657701910n, 1_000n)).toBe("2022-07-13T08:45:10.000001Z");
    expect(javaInstant(253402300800n, 0n)).toBe("+10000-01-01T00:00:00Z");
  });
});

/** A step as @ethereumjs reports it, with what the tracer reads. */
function step(pc: number, name: string, code: number, gasLeft: bigint, stack: bigint[]): InterpreterStep {
  return {
    pc,
    gasLeft,
    opcode: { name, fee: 3, dynamicFee: 3n, code, isAsync: false },
    stack,
    depth: 0,
    memory: new Uint8Array(0),
    memoryWordCount: 0n,
  } as unknown as InterpreterStep;
}

describe("the opcode trace's limits", () => {
  it("cuts the trace at the operation that would pass a limit, keeping those before", () => {
    const trace = createOpcodeTrace(
      { stack: true, memory: false, storage: false },
      { opcodes: 10, stackItems: 3, memoryWords: 10, storageEntries: 10 },
    );
    trace.observer.messageStart({ gasLimit: 100n });
    trace.observer.step(step(0, "PUSH1", 0x60, 100n, []));
    trace.observer.step(step(2, "PUSH1", 0x60, 97n, [1n]));
    trace.observer.step(step(4, "PUSH1", 0x60, 94n, [1n, 2n]));
    trace.observer.step(step(6, "ADD", 0x01, 91n, [1n, 2n, 3n]));
    // Entries so far hold 1 + 2 stack items; the third PUSH1 would leave 3 more: past 3 in all.
    expect(trace.truncated()).toBe(true);
    expect(trace.entries().map((e) => [e.pc, e.op, e.gas, e.stack.length])).toEqual([
      [2, "PUSH1", 97, 1],
      [4, "PUSH1", 94, 2],
    ]);
  });

  it("keeps at most the operation count", () => {
    const trace = createOpcodeTrace(
      { stack: false, memory: false, storage: false },
      { opcodes: 2, stackItems: 10, memoryWords: 10, storageEntries: 10 },
    );
    trace.observer.messageStart({ gasLimit: 100n });
    for (let i = 0; i < 5; i++) trace.observer.step(step(i, "JUMPDEST", 0x5b, 100n - BigInt(i), []));
    expect(trace.entries().length).toBe(2);
    expect(trace.truncated()).toBe(true);
  });
});
