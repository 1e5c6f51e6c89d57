import {
  createEVM,
  type EVM,
  EVMError,
  type EVMResult,
  type ExecResult,
  type InterpreterStep,
} from "@ethereumjs/evm";
import { Address, createZeroAddress } from "@ethereumjs/util";
import { hederaCommon } from "./chain.ts";
import { activeRate, exchangeRateResult } from "./exchange-rate.ts";
import { tokenServiceResult } from "./hts/precompile.ts";
import { prngResult } from "./prng.ts";
import { IndexStateManager } from "./state-manager.ts";
import { type StateView, WEIBARS_PER_TINYBAR } from "./state-view.ts";

/** One call as the request asks it, in EVM terms. */
export type CallInput = {
  data: Uint8Array;
  /** 20 bytes (the zero address when the request has none). */
  from: Uint8Array;
  /** 20 bytes; null for a contract creation (`data` is init code). */
  to: Uint8Array | null;
  gas: bigint;
  gasPrice: bigint;
  /** Tinybars (what the relay sends); the EVM sees weibars. */
  value: bigint;
};

/** The block values the EVM shows (`NUMBER`, `TIMESTAMP`, `COINBASE`, `PREVRANDAO`). */
export type BlockValues = {
  number: bigint;
  /** Seconds. */
  timestamp: bigint;
  /** 32 bytes. */
  prevRandao: Uint8Array;
};

export type CallOutcome =
  | { kind: "success"; output: Uint8Array; gasUsed: bigint }
  /** A revert or an exceptional halt, named by the Hedera status upstream answers with. */
  | { kind: "failure"; status: string; revertData: Uint8Array; gasUsed: bigint }
  /** The call reached a Hedera system contract (or a token's facade) that this server does not execute. */
  | { kind: "unsupported"; address: string };

/**
 * Watches one run (the opcode tracer, src/evm/opcodes/): each interpreter step before it executes, each message
 * (call frame) as it starts and ends, and the top-level result.
 */
export type RunObserver = {
  step(event: InterpreterStep): void;
  /** A call frame starts, with the gas it was given (a value transfer's stipend included). */
  messageStart(message: { gasLimit: bigint }): void;
  messageEnd(result: EVMResult): void;
};

/**
 * The Hedera system contracts: token service (0x167), exchange rate (0x168), PRNG (0x169), account service
 * (0x16a) and schedule service (0x16b). The exchange rate (`EXCHANGE_RATE_CONTRACT`), the PRNG (`PRNG_CONTRACT`)
 * and the token service's read functions (`TOKEN_SERVICE`) are executed here; a call reaching any other function
 * or system contract ends the call as unsupported rather than answering a wrong value.
 */
export const SYSTEM_CONTRACTS = [0x167, 0x168, 0x169, 0x16a, 0x16b].map(
  (num): `0x${string}` => `0x${num.toString(16).padStart(40, "0")}`,
);

/** The exchange-rate system contract, executed over the rates the index holds. */
export const EXCHANGE_RATE_CONTRACT = SYSTEM_CONTRACTS[1]!;

/** The token service, executed for the functions that only read (src/evm/hts/). */
export const TOKEN_SERVICE = SYSTEM_CONTRACTS[0]!;

/** The PRNG system contract (src/evm/prng.ts). */
export const PRNG_CONTRACT = SYSTEM_CONTRACTS[2]!;

/** The most gas a call may ask (upstream's `maxGasLimit`). */
export const MAX_GAS = 15_000_000n;

const TX_GAS = 21_000n;
const CREATE_GAS = 32_000n;
const INITCODE_WORD_GAS = 2n;

/** Ethereum's intrinsic gas under Cancun (Hedera charges the same): base, call data bytes, creation and init code words. */
export function intrinsicGas(data: Uint8Array, create: boolean): bigint {
  let gas = TX_GAS;
  for (const byte of data) gas += byte === 0 ? 4n : 16n;
  if (create) gas += CREATE_GAS + INITCODE_WORD_GAS * BigInt(Math.ceil(data.length / 32));
  return gas;
}

/** The Hedera status of an EVM failure (upstream names a revert `CONTRACT_REVERT_EXECUTED`). */
function failureStatus(error: EVMError): string {
  switch (error.error) {
    case EVMError.errorMessages.REVERT:
      return "CONTRACT_REVERT_EXECUTED";
    case EVMError.errorMessages.OUT_OF_GAS:
    case EVMError.errorMessages.CODESTORE_OUT_OF_GAS:
      return "INSUFFICIENT_GAS";
    case EVMError.errorMessages.INSUFFICIENT_BALANCE:
      return "INSUFFICIENT_PAYER_BALANCE";
    case EVMError.errorMessages.CODESIZE_EXCEEDS_MAXIMUM:
      return "MAX_CONTRACT_STORAGE_EXCEEDED";
    default:
      return "CONTRACT_EXECUTION_EXCEPTION";
  }
}

/** The part of an EVM message the token service needs to know its frame (ethereumjs passes precompiles none). */
type FrameMessage = { isStatic?: boolean; delegatecall?: boolean; to?: Address };

/**
 * What the system contracts share with the run in progress: the stubs report the first one reached, the
 * exchange-rate contract reads the view and block of the run, and the token service the frame it runs in (the
 * innermost message being executed: a precompile's own).
 */
type RunContext = {
  systemContract: string | null;
  view: StateView | null;
  nowSeconds: bigint;
  /** The block's PREVRANDAO, which is also the PRNG's seed (both the first 32 bytes of the block hash). */
  seed: Uint8Array;
  messages: FrameMessage[];
};

type ReusableEvm = { evm: EVM; context: RunContext };

/**
 * Keeps `messages` the stack of messages being executed, innermost last, by wrapping the EVM's per-message entry:
 * a precompile runs inside its own message's execution, so the top is that precompile's frame.
 */
function trackMessages(evm: EVM, messages: FrameMessage[]): void {
  const target = evm as unknown as { _executeCall(message: FrameMessage): Promise<unknown> };
  const execute = target._executeCall.bind(evm);
  target._executeCall = async (message) => {
    messages.push(message);
    try {
      return await execute(message);
    } finally {
      messages.pop();
    }
  };
}

/** One EVM per chain id and thread: building one (its opcode and precompile tables) costs more than a simple call. */
const evms = new Map<bigint, Promise<ReusableEvm>>();

/**
 * The thread's EVM for `chainId`, reset for a new run over `stateManager`: a fresh journal (warm addresses,
 * touched accounts) and transient storage, and the stub context cleared. Runs on one thread never overlap (a read
 * worker answers one job at a time, and an estimate runs its attempts one after another).
 */
async function evmFor(
  chainId: bigint,
  stateManager: IndexStateManager,
  view: StateView,
  block: BlockValues,
): Promise<ReusableEvm> {
  let pending = evms.get(chainId);
  if (pending === undefined) {
    const context: RunContext = {
      systemContract: null,
      view: null,
      nowSeconds: 0n,
      seed: new Uint8Array(32),
      messages: [],
    };
    const unsupported = (address: string) => (): ExecResult => {
      context.systemContract ??= address;
      return {
        executionGasUsed: 0n,
        exceptionError: new EVMError(EVMError.errorMessages.INTERNAL_ERROR),
        returnValue: new Uint8Array(0),
      };
    };
    const exchangeRate = ({ data, gasLimit }: { data: Uint8Array; gasLimit: bigint }) => {
      const rates = context.view?.exchangeRates();
      const rate = rates === undefined ? undefined : activeRate(rates, context.nowSeconds);
      return exchangeRateResult(data, gasLimit, rate);
    };
    const tokenService = ({ data, gasLimit }: { data: Uint8Array; gasLimit: bigint }): ExecResult => {
      const message = context.messages.at(-1);
      const frame = {
        isStatic: message?.isStatic === true,
        delegatedFrom: message?.delegatecall === true && message.to !== undefined ? message.to.bytes : null,
      };
      const result =
        context.view === null ? null : tokenServiceResult(context.view.tokenLedger(), data, gasLimit, frame);
      return result ?? unsupported(TOKEN_SERVICE)();
    };
    pending = createEVM({
      common: hederaCommon(chainId),
      stateManager,
      customPrecompiles: SYSTEM_CONTRACTS.map((address) => ({
        address,
        function:
          address === EXCHANGE_RATE_CONTRACT
            ? exchangeRate
            : address === TOKEN_SERVICE
              ? tokenService
              : address === PRNG_CONTRACT
                ? ({ data, gasLimit }: { data: Uint8Array; gasLimit: bigint }) =>
                    prngResult(data, gasLimit, context.seed)
                : unsupported(address),
      })),
    }).then((evm) => {
      trackMessages(evm, context.messages);
      return { evm, context };
    });
    evms.set(chainId, pending);
  }
  const reusable = await pending;
  const { evm } = reusable;
  // The journal and transient storage classes are not exported: build fresh ones from the EVM's own.
  const Journal = evm.journal.constructor as new (
    stateManager: IndexStateManager,
    common: EVM["common"],
  ) => EVM["journal"];
  const TransientStorage = evm.transientStorage.constructor as new () => EVM["transientStorage"];
  const mutable = evm as {
    stateManager: EVM["stateManager"];
    journal: EVM["journal"];
    transientStorage: EVM["transientStorage"];
  };
  mutable.stateManager = stateManager;
  mutable.journal = new Journal(stateManager, evm.common);
  mutable.transientStorage = new TransientStorage();
  reusable.context.systemContract = null;
  reusable.context.view = view;
  reusable.context.messages.length = 0;
  // The instant that picks the current or next rate: the block's timestamp, which the EVM shows as TIMESTAMP.
  reusable.context.nowSeconds = block.timestamp;
  reusable.context.seed = block.prevRandao;
  return reusable;
}

/** Runs one call at `gasLimit` over a fresh overlay of `view` (nothing of an earlier run carries over). */
async function runOnce(
  view: StateView,
  block: BlockValues,
  chainId: bigint,
  input: CallInput,
  gasLimit: bigint,
  observer?: RunObserver,
): Promise<CallOutcome> {
  const create = input.to === null;
  const intrinsic = intrinsicGas(input.data, create);
  if (intrinsic > gasLimit) {
    return { kind: "failure", status: "INSUFFICIENT_GAS", revertData: new Uint8Array(0), gasUsed: gasLimit };
  }
  const stateManager = new IndexStateManager(view);
  const { evm, context } = await evmFor(chainId, stateManager, view, block);
  const caller = new Address(input.from);
  const to = input.to === null ? undefined : new Address(input.to);
  // One-argument listeners: the EVM does not wait on them (a two-argument one would get a callback to call).
  const onStep = (event: InterpreterStep) => observer?.step(event);
  const onStart = (message: { gasLimit: bigint }) => observer?.messageStart(message);
  const onEnd = (result: EVMResult) => observer?.messageEnd(result);
  if (observer !== undefined) {
    evm.events.on("step", onStep);
    evm.events.on("beforeMessage", onStart);
    evm.events.on("afterMessage", onEnd);
  }
  const result = await evm
    .runCall({
      caller,
      origin: caller,
      ...(to === undefined ? {} : { to }),
      data: input.data,
      value: input.value * WEIBARS_PER_TINYBAR,
      gasLimit: gasLimit - intrinsic,
      gasPrice: input.gasPrice,
      block: {
        header: {
          number: block.number,
          coinbase: createZeroAddress(),
          timestamp: block.timestamp,
          difficulty: 0n,
          prevRandao: block.prevRandao,
          gasLimit: MAX_GAS,
          baseFeePerGas: 0n,
          getBlobGasPrice: () => 0n,
        },
      },
    })
    .finally(() => {
      // The EVM is the thread's, reused by the next run: take the listeners off whatever happened.
      if (observer === undefined) return;
      evm.events.off("step", onStep);
      evm.events.off("beforeMessage", onStart);
      evm.events.off("afterMessage", onEnd);
    });
  if (context.systemContract !== null) return { kind: "unsupported", address: context.systemContract };
  const exec = result.execResult;
  const gasUsed = intrinsic + exec.executionGasUsed;
  if (exec.exceptionError !== undefined) {
    const reverted = exec.exceptionError.error === EVMError.errorMessages.REVERT;
    return {
      kind: "failure",
      status: failureStatus(exec.exceptionError),
      revertData: reverted ? exec.returnValue : new Uint8Array(0),
      gasUsed,
    };
  }
  return { kind: "success", output: exec.returnValue, gasUsed };
}

/**
 * Executes `input` as `eth_call` over the ledger `view` at `block`; never writes. An `observer` sees every step
 * and call frame of the run (the opcode tracer).
 */
export function executeCall(
  view: StateView,
  block: BlockValues,
  chainId: bigint,
  input: CallInput,
  observer?: RunObserver,
): Promise<CallOutcome> {
  return runOnce(view, block, chainId, input, input.gas, observer);
}

/** How close the estimate must come to the least gas that succeeds, as a fraction of it (upstream: a tolerance). */
const ESTIMATE_TOLERANCE_PER_MILLE = 15n;

/**
 * `eth_estimateGas`: the gas the call uses when it succeeds at the gas asked, raised by a binary search to the
 * least limit (within a small tolerance) at which it still succeeds: a call that forwards 63/64 of its gas to a
 * callee needs more than it finally uses. A call that fails at the gas asked fails the estimate the same way.
 */
export async function estimateGas(
  view: StateView,
  block: BlockValues,
  chainId: bigint,
  input: CallInput,
): Promise<CallOutcome> {
  const first = await runOnce(view, block, chainId, input, input.gas);
  if (first.kind !== "success") return first;
  const atUsed = await runOnce(view, block, chainId, input, first.gasUsed);
  if (atUsed.kind === "success") return first;
  let low = first.gasUsed;
  let high = input.gas;
  while (high - low > (low * ESTIMATE_TOLERANCE_PER_MILLE) / 1000n) {
    const mid = (low + high) / 2n;
    const attempt = await runOnce(view, block, chainId, input, mid);
    if (attempt.kind === "success") high = mid;
    else low = mid;
  }
  return { kind: "success", output: first.output, gasUsed: high };
}
