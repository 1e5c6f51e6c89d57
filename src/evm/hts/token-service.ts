/**
 * The token service system contract at 0x167 (HIP-206 and its read functions), as the consensus node's
 * `HtsSystemContract` answers the calls that only read: `redirectForToken` (what a token's facade sends) and the
 * read functions below, each with the response code first. Every other function (the ones that change state, and
 * the token-info, key and custom-fee reads) is unsupported here.
 */
import { type ArgKind, addressWord, boolWord, decodeArgs, selectorOf, uintWord } from "./abi.ts";
import { customFeeArrays } from "./custom-fees.ts";
import { approvedForAll, approvedOf, ercFacadeAnswer, type HtsFrame } from "./erc-facade.ts";
import { keyValue } from "./key-value.ts";
import { type HtsLedger, type HtsToken, isNonFungible } from "./ledger.ts";
import {
  HALT,
  type HtsOutcome,
  RC,
  type ResponseCode,
  revertWithName,
  success,
  UNSUPPORTED,
} from "./outcome.ts";
import { selector } from "./selectors.ts";

/** `redirectForToken(address,bytes)`: how a token's facade forwards its call data. */
export const REDIRECT_FOR_TOKEN = selector("redirectForToken(address,bytes)");

/** The frame of the call into 0x167: static or not, and the account whose code delegated to it, if any. */
export type TokenServiceFrame = HtsFrame & { delegatedFrom: Uint8Array | null };

type Args = Array<bigint | Uint8Array>;
type ReadFunction = {
  args: readonly ArgKind[];
  answer(ledger: HtsLedger, args: Args, frame: HtsFrame): HtsOutcome;
};

const ZERO_ADDRESS = new Uint8Array(20);
const FUNGIBLE_TYPE = 0n;
const NON_FUNGIBLE_TYPE = 1n;

/**
 * The "non-revertible" read functions' answer: the response code and the values, except that in a static frame a
 * failure reverts with the status's name instead (kept upstream for backwards compatibility).
 */
function withCode(status: ResponseCode, values: Parameters<typeof success>[0], frame: HtsFrame): HtsOutcome {
  if (frame.isStatic && status !== "SUCCESS") return revertWithName(status);
  return success([uintWord(RC[status]), ...values]);
}

/** A read of one token whose failure answers `defaults` with the failing code. */
function tokenRead(
  defaults: Parameters<typeof success>[0],
  read: (ledger: HtsLedger, token: HtsToken, args: Args, frame: HtsFrame) => HtsOutcome,
): ReadFunction["answer"] {
  return (ledger, args, frame) => {
    const token = ledger.tokenAt(args[0] as Uint8Array);
    return token === undefined
      ? withCode("INVALID_TOKEN_ID", defaults, frame)
      : read(ledger, token, args, frame);
  };
}

/** `isFrozen` / `isKyc`: a flag of the account's relationship with the token (false when not associated). */
function relationFlag(flag: "frozen" | "kycGranted"): ReadFunction["answer"] {
  return tokenRead([boolWord(false)], (ledger, token, args, frame) => {
    const account = ledger.account(args[1] as Uint8Array);
    if (account.kind !== "account") return withCode("INVALID_ACCOUNT_ID", [boolWord(false)], frame);
    const relation = ledger.relation(token, account.id);
    return withCode("SUCCESS", [boolWord(relation?.[flag] ?? false)], frame);
  });
}

/** `allowance(token, owner, spender)`: the code and what is left of a fungible allowance. */
function hapiAllowance(ledger: HtsLedger, [tokenAddress, owner, spender]: Args, frame: HtsFrame): HtsOutcome {
  const token = ledger.tokenAt(tokenAddress as Uint8Array);
  if (token === undefined || isNonFungible(token)) {
    return frame.isStatic
      ? revertWithName("INVALID_TOKEN_ID")
      : success([uintWord(RC.SUCCESS), uintWord(0n)]);
  }
  const ownerRef = ledger.account(owner as Uint8Array);
  if (ownerRef.kind !== "account") return revertWithName("INVALID_ALLOWANCE_OWNER_ID");
  const spenderRef = ledger.account(spender as Uint8Array);
  const amount =
    spenderRef.kind === "account" ? ledger.tokenAllowance(token, ownerRef.id, spenderRef.id) : 0n;
  return success([uintWord(RC.SUCCESS), uintWord(amount)]);
}

/** A read that needs the token and reverts `INVALID_TOKEN_ID` without it (the "revertible" ones). */
function revertibleTokenRead(
  read: (ledger: HtsLedger, token: HtsToken, args: Args, frame: HtsFrame) => HtsOutcome,
): ReadFunction["answer"] {
  return (ledger, args, frame) => {
    const token = ledger.tokenAt(args[0] as Uint8Array);
    return token === undefined ? revertWithName("INVALID_TOKEN_ID") : read(ledger, token, args, frame);
  };
}

const READ_FUNCTIONS = new Map<number, ReadFunction>([
  [
    selector("isToken(address)"),
    {
      args: ["address"],
      answer: (ledger, [address]) =>
        success([uintWord(RC.SUCCESS), boolWord(ledger.tokenAt(address as Uint8Array) !== undefined)]),
    },
  ],
  [
    selector("getTokenType(address)"),
    {
      args: ["address"],
      answer: tokenRead([uintWord(0n)], (_l, token, _a, frame) =>
        withCode("SUCCESS", [uintWord(isNonFungible(token) ? NON_FUNGIBLE_TYPE : FUNGIBLE_TYPE)], frame),
      ),
    },
  ],
  [
    selector("getTokenDefaultFreezeStatus(address)"),
    {
      args: ["address"],
      answer: tokenRead([boolWord(false)], (_l, token, _a, frame) =>
        withCode("SUCCESS", [boolWord(token.freezeDefault)], frame),
      ),
    },
  ],
  [
    selector("getTokenDefaultKycStatus(address)"),
    {
      args: ["address"],
      // A token without a KYC key grants KYC by default.
      answer: tokenRead([boolWord(false)], (_l, token, _a, frame) =>
        withCode("SUCCESS", [boolWord(!token.hasKycKey)], frame),
      ),
    },
  ],
  [selector("isFrozen(address,address)"), { args: ["address", "address"], answer: relationFlag("frozen") }],
  [selector("isKyc(address,address)"), { args: ["address", "address"], answer: relationFlag("kycGranted") }],
  [
    selector("getTokenExpiryInfo(address)"),
    {
      args: ["address"],
      answer: tokenRead(
        [uintWord(0n), addressWord(ZERO_ADDRESS), uintWord(0n)],
        (ledger, token, _a, frame) => {
          const expiry = ledger.expiry(token);
          const renewer =
            expiry.autoRenewAccount === null || expiry.autoRenewAccount === 0n
              ? ZERO_ADDRESS
              : ledger.longZeroOf(expiry.autoRenewAccount);
          return withCode(
            "SUCCESS",
            [uintWord(expiry.second), addressWord(renewer), uintWord(expiry.autoRenewPeriod)],
            frame,
          );
        },
      ),
    },
  ],
  [
    selector("getTokenCustomFees(address)"),
    {
      args: ["address"],
      answer: (ledger, [address], frame) => {
        const token = ledger.tokenAt(address as Uint8Array);
        const arrays = customFeeArrays(token === undefined ? [] : ledger.customFees(token));
        if (arrays === null) return HALT;
        // Upstream answers a missing token with SUCCESS inside a static call and INVALID_TOKEN_ID outside one.
        const code = token === undefined && !frame.isStatic ? RC.INVALID_TOKEN_ID : RC.SUCCESS;
        return success([uintWord(code), ...arrays]);
      },
    },
  ],
  [
    selector("getTokenKey(address,uint256)"),
    {
      args: ["address", "uint256"],
      answer: tokenRead([keyValue(null)], (ledger, token, [, keyType], frame) => {
        const key = ledger.key(token, keyType as bigint);
        return key === undefined
          ? withCode("KEY_NOT_PROVIDED", [keyValue(null)], frame)
          : withCode("SUCCESS", [keyValue(key)], frame);
      }),
    },
  ],
  [
    selector("allowance(address,address,address)"),
    { args: ["address", "address", "address"], answer: hapiAllowance },
  ],
  [
    selector("getApproved(address,uint256)"),
    {
      args: ["address", "uint256"],
      answer: revertibleTokenRead((ledger, token, [, serial], frame) =>
        approvedOf(ledger, token, serial as bigint, frame, true),
      ),
    },
  ],
  [
    selector("isApprovedForAll(address,address,address)"),
    {
      args: ["address", "address", "address"],
      answer: revertibleTokenRead((ledger, token, [, owner, operator]) =>
        approvedForAll(ledger, token, owner as Uint8Array, operator as Uint8Array, true),
      ),
    },
  ],
]);

/** `redirectForToken` input: ABI-encoded `(address, bytes)`, else the facade's packed form (address, then data). */
function redirectParts(data: Uint8Array): { token: Uint8Array; inner: Uint8Array } | null {
  const body = data.subarray(4);
  const word = (at: number): bigint | null =>
    at + 32 <= body.length ? BigInt(`0x${Buffer.from(body.subarray(at, at + 32)).toString("hex")}`) : null;
  const address = word(0);
  const offset = word(32);
  if (address !== null && address < 1n << 160n && offset === 64n) {
    const length = word(64);
    const padded = length === null ? null : 96n + ((length + 31n) / 32n) * 32n;
    if (length !== null && padded === BigInt(body.length)) {
      return { token: body.subarray(12, 32), inner: body.subarray(96, 96 + Number(length)) };
    }
  }
  if (body.length < 20) return null;
  return { token: body.subarray(0, 20), inner: body.subarray(20) };
}

/**
 * The answer of 0x167 to `data`. A delegate call into it is refused (halts) unless the delegating account is a
 * token (its facade); input shorter than a selector and arguments that do not decode halt.
 */
export function tokenServiceAnswer(
  ledger: HtsLedger,
  data: Uint8Array,
  frame: TokenServiceFrame,
): HtsOutcome {
  if (frame.delegatedFrom !== null && ledger.tokenAt(frame.delegatedFrom) === undefined) return HALT;
  if (data.length < 4) return HALT;
  const called = selectorOf(data);
  if (called === REDIRECT_FOR_TOKEN) {
    const parts = redirectParts(data);
    if (parts === null) return HALT;
    return ercFacadeAnswer(ledger, parts.token, parts.inner, frame);
  }
  const fn = READ_FUNCTIONS.get(called);
  if (fn === undefined) return UNSUPPORTED;
  const args = decodeArgs(data, fn.args);
  if (args === null) return HALT;
  return fn.answer(ledger, args, frame);
}
