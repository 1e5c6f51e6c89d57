/**
 * The opcode logger of `GET /api/v1/contracts/results/{id}/opcodes` (issue 28): turns the interpreter's steps into
 * the entries upstream's web3 tracer records. Upstream records each operation *after* it ran (Besu's
 * `tracePostExecution`), so an entry shows the program counter the frame moved to, the gas left once the
 * operation was charged, and the stack, memory and storage as the operation left them. @ethereumjs/evm reports
 * each step *before* it runs: an entry is completed by the next step of the same frame, or when its frame ends.
 * A call or a creation is recorded as its frame is suspended (when the callee's frame starts), as Besu traces it:
 * its own program counter, the gas left after its full cost (the gas given to the callee included: @ethereumjs
 * charges that only once the callee returns), the stack still holding its arguments.
 */
import type { EVMResult, InterpreterStep } from "@ethereumjs/evm";
import { EVMError } from "@ethereumjs/evm";
import type { RunObserver } from "../execute.ts";

/** One entry of the trace, in the response's field names. */
export type OpcodeEntry = {
  pc: number;
  op: string;
  gas: number;
  gas_cost: number;
  depth: number;
  stack: string[];
  memory: string[];
  storage: Record<string, string>;
  reason: string | null;
};

export type TraceOptions = { stack: boolean; memory: boolean; storage: boolean };

/**
 * What one trace may hold (upstream's `hiero.mirror.web3.opcode.tracer` defaults): past any of these the trace is
 * cut there and the rest of the run is not recorded, so that a long loop cannot make the answer unbounded.
 */
export type TraceLimits = {
  opcodes: number;
  stackItems: number;
  memoryWords: number;
  storageEntries: number;
};

export const DEFAULT_TRACE_LIMITS: TraceLimits = {
  opcodes: 20_000,
  stackItems: 250_000,
  memoryWords: 750_000,
  storageEntries: 100_000,
};

const CREATE = 0xf0;
const CALL = 0xf1;
const CALLCODE = 0xf2;
const RETURN = 0xf3;
const DELEGATECALL = 0xf4;
const CREATE2 = 0xf5;
const STATICCALL = 0xfa;
const REVERT = 0xfd;
const SELFDESTRUCT = 0xff;
const STOP = 0x00;
/** The gas a call with value gives its callee for free (not part of the caller's cost). */
const CALL_STIPEND = 2300n;
const SLOAD = 0x54;
const SSTORE = 0x55;
const JUMP = 0x56;
const JUMPI = 0x57;
const PUSH1 = 0x60;
const PUSH32 = 0x7f;

/** Where the input of a call or creation sits on the stack, counted from the top (offset, length). */
const INPUT_ARGS: Readonly<Record<number, readonly [number, number]>> = {
  [CREATE]: [1, 2],
  [CREATE2]: [1, 2],
  [CALL]: [3, 4],
  [CALLCODE]: [3, 4],
  [DELEGATECALL]: [2, 3],
  [STATICCALL]: [2, 3],
};

/** The operations that end their frame normally, with the stack items they take. */
const FRAME_ENDS: Readonly<Record<number, number>> = {
  [STOP]: 0,
  [RETURN]: 2,
  [REVERT]: 2,
  [SELFDESTRUCT]: 1,
};

/** Besu's name where @ethereumjs/evm's differs (Hedera's EVM is Besu's). */
const BESU_NAMES: Readonly<Record<string, string>> = { DIFFICULTY: "PREVRANDAO" };

const word = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

function memoryWords(memory: Uint8Array, words: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const chunk = memory.subarray(i * 32, i * 32 + 32);
    out.push(`0x${Buffer.from(chunk).toString("hex").padEnd(64, "0")}`);
  }
  return out;
}

/** What the step charges: its static and dynamic gas (the callee's gas included for a call). */
const costOf = (step: InterpreterStep) => step.opcode.dynamicFee ?? BigInt(step.opcode.fee);

/** The stack from its bottom to its top, each item a 32-byte word. */
const stackWords = (stack: readonly bigint[]) => stack.map(word);

/** An item `fromTop` places below the top (0: the top). */
const peek = (stack: readonly bigint[], fromTop: number) => stack[stack.length - 1 - fromTop] ?? 0n;

/** Memory after an operation that reads [offset, offset + length): grown to whole words covering the range. */
function grownWords(step: InterpreterStep, offsetAt: number, lengthAt: number): number {
  const current = Number(step.memoryWordCount);
  const length = peek(step.stack, lengthAt);
  if (length === 0n) return current;
  const end = peek(step.stack, offsetAt) + length;
  // A range this large would have run out of gas before the memory grew; nothing past the current size is shown.
  if (end > 1n << 32n) return current;
  return Math.max(current, Math.ceil(Number(end) / 32));
}

/** An operation waiting for what it left: the next step of its frame, its callee's start, or its frame's end. */
type Pending = { entry: OpcodeEntry; step: InterpreterStep; suspends: boolean };
type Frame = { pending: Pending | null };

export type OpcodeTrace = {
  observer: RunObserver;
  /** The entries recorded, in upstream's order. */
  entries(): OpcodeEntry[];
  /** The gas refund the top-level frame earned (0 when it failed), once the run ended. */
  refund(): bigint;
  /** Whether a limit cut the trace short. */
  truncated(): boolean;
};

export function createOpcodeTrace(
  options: TraceOptions,
  limits: TraceLimits = DEFAULT_TRACE_LIMITS,
): OpcodeTrace {
  const entries: OpcodeEntry[] = [];
  const frames: Frame[] = [];
  /**
   * Every slot the run read or wrote, by key, with its value now. Upstream merges the slots of all contracts by key,
   * the first contract to touch a key keeping it: `owner` is that contract.
   */
  const slots = new Map<string, { owner: string; value: string }>();
  let snapshot: Record<string, string> = {};
  let snapshotStale = false;
  let used = { stackItems: 0, memoryWords: 0, storageEntries: 0 };
  let cut = false;
  let topRefund = 0n;

  const storageNow = (): Record<string, string> => {
    if (!options.storage) return {};
    if (snapshotStale) {
      // Sorted by key, as upstream's TreeMap; one object shared by the entries until a slot changes.
      const sorted = [...slots.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      snapshot = Object.fromEntries(sorted.map(([key, slot]) => [key, slot.value]));
      snapshotStale = false;
    }
    return snapshot;
  };

  const setSlot = (owner: string, key: bigint, value: bigint, written: boolean) => {
    const k = word(key);
    const held = slots.get(k);
    // A read keeps what is known; a write updates its own contract's slot only.
    if (held !== undefined && (!written || held.owner !== owner)) return;
    slots.set(k, { owner, value: word(value) });
    snapshotStale = true;
  };

  /** Fills an entry's captures, unless that would pass a limit (then the trace stops here). */
  const capture = (entry: OpcodeEntry, stack: readonly bigint[], memory: Uint8Array, words: number) => {
    if (cut) return;
    const storage = storageNow();
    const storageCount = options.storage ? Object.keys(storage).length : 0;
    const next = {
      stackItems: used.stackItems + (options.stack ? stack.length : 0),
      memoryWords: used.memoryWords + (options.memory ? words : 0),
      storageEntries: used.storageEntries + storageCount,
    };
    if (
      next.stackItems > limits.stackItems ||
      next.memoryWords > limits.memoryWords ||
      next.storageEntries > limits.storageEntries
    ) {
      stop(entry);
      return;
    }
    used = next;
    if (options.stack) entry.stack = stackWords(stack);
    if (options.memory) entry.memory = memoryWords(memory, words);
    if (options.storage) entry.storage = storage;
  };

  /** Cuts the trace before `entry` (dropped with everything after it). */
  const stop = (entry: OpcodeEntry) => {
    cut = true;
    const at = entries.indexOf(entry);
    if (at !== -1) entries.length = at;
  };

  /** An operation followed by `next` in its frame: `next` shows what it left. */
  const completeWith = ({ entry, step }: Pending, next: InterpreterStep) => {
    const code = step.opcode.code;
    if (code === SSTORE) setSlot(step.address.toString(), peek(step.stack, 0), peek(step.stack, 1), true);
    else if (code === SLOAD)
      setSlot(step.address.toString(), peek(step.stack, 0), peek(next.stack, 0), false);
    entry.pc = next.pc;
    entry.gas = Number(next.gasLeft);
    capture(entry, next.stack, next.memory, Number(next.memoryWordCount));
  };

  /** The last operation of a frame that ended with `error` (undefined: success). */
  const completeAtEnd = ({ entry, step }: Pending, error: EVMError | undefined) => {
    const code = step.opcode.code;
    const cost = costOf(step);
    const taken = FRAME_ENDS[code];
    const normalEnd =
      taken !== undefined &&
      (error === undefined || (code === REVERT && error.error === EVMError.errorMessages.REVERT));
    if (normalEnd) {
      entry.gas = Number(step.gasLeft - cost);
      const words =
        code === RETURN || code === REVERT ? grownWords(step, 0, 1) : Number(step.memoryWordCount);
      if (code === REVERT) entry.reason = hex(step.error ?? new Uint8Array(0));
      capture(entry, step.stack.slice(0, step.stack.length - taken), step.memory, words);
      return;
    }
    if (error === undefined) {
      // The code ran off its end after this operation (an implicit STOP): it completed as any other.
      entry.pc = nextPc(step);
      entry.gas = Number(step.gasLeft - cost);
    } else {
      // An exceptional halt: the program counter stays; gas is charged only when it ran out.
      const outOfGas = error.error === EVMError.errorMessages.OUT_OF_GAS;
      entry.gas = Number(outOfGas ? step.gasLeft - cost : step.gasLeft);
    }
    capture(entry, step.stack, step.memory, Number(step.memoryWordCount));
  };

  const observer: RunObserver = {
    step(step) {
      if (cut) return;
      const frame = frames[frames.length - 1];
      if (frame === undefined) return;
      if (frame.pending !== null) {
        completeWith(frame.pending, step);
        frame.pending = null;
        if (cut) return;
      }
      if (entries.length >= limits.opcodes) {
        cut = true;
        return;
      }
      const name = step.opcode.name;
      const entry: OpcodeEntry = {
        pc: step.pc,
        op: BESU_NAMES[name] ?? name,
        gas: Number(step.gasLeft),
        gas_cost: Number(costOf(step)),
        depth: step.depth,
        stack: [],
        memory: [],
        storage: {},
        reason: null,
      };
      entries.push(entry);
      frame.pending = { entry, step, suspends: INPUT_ARGS[step.opcode.code] !== undefined };
    },
    messageStart(message) {
      const caller = frames[frames.length - 1];
      const pending = caller?.pending;
      if (pending?.suspends === true && !cut) {
        // Suspended for the callee: its own pc, its full cost, the stack still holding its arguments.
        const { entry, step } = pending;
        const code = step.opcode.code;
        const stipend =
          (code === CALL || code === CALLCODE) && peek(step.stack, 2) !== 0n ? CALL_STIPEND : 0n;
        const cost = costOf(step) + message.gasLimit - stipend;
        entry.gas_cost = Number(cost);
        entry.gas = Number(step.gasLeft - cost);
        const input = INPUT_ARGS[code]!;
        capture(entry, step.stack, step.memory, grownWords(step, input[0], input[1]));
        caller!.pending = null;
      }
      frames.push({ pending: null });
    },
    messageEnd(result: EVMResult) {
      const frame = frames.pop();
      if (frame?.pending != null && !cut) completeAtEnd(frame.pending, result.execResult.exceptionError);
      if (frames.length === 0) topRefund = result.execResult.gasRefund ?? 0n;
    },
  };

  return {
    observer,
    entries: () => entries,
    refund: () => topRefund,
    truncated: () => cut,
  };
}

/** The program counter after an operation that neither jumps nor ends its frame. */
function nextPc(step: InterpreterStep): number {
  const code = step.opcode.code;
  if (code === JUMP) return Number(peek(step.stack, 0));
  if (code === JUMPI) return peek(step.stack, 1) === 0n ? step.pc + 1 : Number(peek(step.stack, 0));
  if (code >= PUSH1 && code <= PUSH32) return step.pc + 1 + (code - PUSH1 + 1);
  return step.pc + 1;
}
