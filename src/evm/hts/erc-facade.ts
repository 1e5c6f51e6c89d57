/**
 * The ERC-20 and ERC-721 read functions a token answers at its own address (HIP-218/HIP-376), as the consensus
 * node's token-redirect calls answer them: a missing token reverts `INVALID_TOKEN_ID` (`tokenURI` answers a fixed
 * text, `allowance` outside a static call 0), an NFT-only function on a
 * fungible token (and `decimals` on an NFT) halts, a missing serial reverts with the status's number.
 */
import { type ArgKind, addressWord, boolWord, decodeArgs, selectorOf, stringValue, uintWord } from "./abi.ts";
import { type HtsLedger, type HtsToken, isNonFungible } from "./ledger.ts";
import { HALT, type HtsOutcome, revertWithName, revertWithOrdinal, success, UNSUPPORTED } from "./outcome.ts";
import { selector } from "./selectors.ts";

/** The frame the call runs in: upstream answers some failures differently inside a static call. */
export type HtsFrame = { isStatic: boolean };

type Args = Array<bigint | Uint8Array>;
type ErcFunction = {
  args: readonly ArgKind[];
  answer(ledger: HtsLedger, token: HtsToken, args: Args, frame: HtsFrame): HtsOutcome;
  /** The answer when no token answers at the address (default: revert `INVALID_TOKEN_ID`). */
  missingToken?(frame: HtsFrame): HtsOutcome;
};

const ZERO_ADDRESS = new Uint8Array(20);
/** What `tokenURI` answers for a serial that does not exist (the consensus node's fixed text). */
export const URI_OF_MISSING_NFT = "ERC721Metadata: URI query for nonexistent token";
const MAX_REPORTABLE_DECIMALS = 0xffn;
const INT64_MAX = (1n << 63n) - 1n;

/** A serial as the consensus node narrows the uint256 argument; beyond int64 no NFT can have it. */
const serialOf = (value: bigint): bigint => (value > INT64_MAX ? -1n : value);

function balanceOf(ledger: HtsLedger, token: HtsToken, [owner]: Args): HtsOutcome {
  const reference = ledger.account(owner as Uint8Array);
  if (reference.kind !== "account") return revertWithName("INVALID_ACCOUNT_ID");
  return success([uintWord(ledger.balance(token, reference.id))]);
}

/**
 * `allowance(owner, spender)`: what is left of a fungible allowance. An unknown owner reverts; an unknown spender
 * has none (the consensus node converts both with `SyntheticIds`, where a non-canonical reference is account 0).
 */
function allowance(ledger: HtsLedger, token: HtsToken, [owner, spender]: Args, frame: HtsFrame): HtsOutcome {
  if (isNonFungible(token)) {
    return frame.isStatic ? revertWithName("INVALID_TOKEN_ID") : success([uintWord(0n)]);
  }
  const ownerRef = ledger.account(owner as Uint8Array);
  if (ownerRef.kind !== "account") return revertWithName("INVALID_ALLOWANCE_OWNER_ID");
  const spenderRef = ledger.account(spender as Uint8Array);
  const amount =
    spenderRef.kind === "account" ? ledger.tokenAllowance(token, ownerRef.id, spenderRef.id) : 0n;
  return success([uintWord(amount)]);
}

function ownerOf(ledger: HtsLedger, token: HtsToken, [serial]: Args): HtsOutcome {
  if (!isNonFungible(token)) return HALT;
  const nft = ledger.nft(token, serialOf(serial as bigint));
  if (nft === undefined) return revertWithOrdinal("INVALID_TOKEN_NFT_SERIAL_NUMBER");
  const ownerId = nft.accountId === null || nft.accountId === 0n ? token.treasuryId : nft.accountId;
  const address = ledger.addressOf(ownerId);
  return address === undefined ? revertWithName("INVALID_ACCOUNT_ID") : success([addressWord(address)]);
}

function tokenUri(ledger: HtsLedger, token: HtsToken, [serial]: Args): HtsOutcome {
  if (!isNonFungible(token)) return HALT;
  const nft = ledger.nft(token, serialOf(serial as bigint));
  const uri =
    nft === undefined ? URI_OF_MISSING_NFT : new TextDecoder().decode(nft.metadata ?? new Uint8Array(0));
  return success([stringValue(uri)]);
}

/** `getApproved(serial)`, shared with the token service's own `getApproved(token, serial)` (`withCode`). */
export function approvedOf(
  ledger: HtsLedger,
  token: HtsToken,
  serial: bigint,
  frame: HtsFrame,
  withCode: boolean,
): HtsOutcome {
  if (!isNonFungible(token)) {
    return revertWithName(frame.isStatic ? "INVALID_TOKEN_ID" : "INVALID_TOKEN_NFT_SERIAL_NUMBER");
  }
  const nft = ledger.nft(token, serialOf(serial));
  if (nft === undefined) return revertWithName("INVALID_TOKEN_NFT_SERIAL_NUMBER");
  const spender =
    nft.spender === null || nft.spender === 0n
      ? ZERO_ADDRESS
      : (ledger.addressOf(nft.spender) ?? ZERO_ADDRESS);
  return success(withCode ? [uintWord(22n), addressWord(spender)] : [addressWord(spender)]);
}

/** `isApprovedForAll(owner, operator)`, shared with the token service's own (`withCode`). */
export function approvedForAll(
  ledger: HtsLedger,
  token: HtsToken,
  owner: Uint8Array,
  operator: Uint8Array,
  withCode: boolean,
): HtsOutcome {
  if (!isNonFungible(token)) return revertWithName("INVALID_TOKEN_ID");
  const ownerRef = ledger.account(owner);
  const operatorRef = ledger.account(operator);
  const verdict =
    ownerRef.kind === "account" &&
    operatorRef.kind === "account" &&
    ledger.approvedForAll(token, ownerRef.id, operatorRef.id);
  return success(withCode ? [uintWord(22n), boolWord(verdict)] : [boolWord(verdict)]);
}

const ERC_FUNCTIONS = new Map<number, ErcFunction>([
  [selector("name()"), { args: [], answer: (_l, token) => success([stringValue(token.name)]) }],
  [selector("symbol()"), { args: [], answer: (_l, token) => success([stringValue(token.symbol)]) }],
  [
    selector("decimals()"),
    {
      args: [],
      answer: (_l, token) =>
        isNonFungible(token)
          ? HALT
          : success([
              uintWord(token.decimals < MAX_REPORTABLE_DECIMALS ? token.decimals : MAX_REPORTABLE_DECIMALS),
            ]),
    },
  ],
  [
    selector("totalSupply()"),
    { args: [], answer: (ledger, token) => success([uintWord(ledger.totalSupply(token))]) },
  ],
  [selector("balanceOf(address)"), { args: ["address"], answer: balanceOf }],
  [
    selector("allowance(address,address)"),
    {
      args: ["address", "address"],
      answer: allowance,
      missingToken: (frame) =>
        frame.isStatic ? revertWithName("INVALID_TOKEN_ID") : success([uintWord(0n)]),
    },
  ],
  [selector("ownerOf(uint256)"), { args: ["uint256"], answer: ownerOf }],
  [
    selector("tokenURI(uint256)"),
    { args: ["uint256"], answer: tokenUri, missingToken: () => success([stringValue(URI_OF_MISSING_NFT)]) },
  ],
  [
    selector("getApproved(uint256)"),
    {
      args: ["uint256"],
      answer: (ledger, token, [serial], frame) => approvedOf(ledger, token, serial as bigint, frame, false),
    },
  ],
  [
    selector("isApprovedForAll(address,address)"),
    {
      args: ["address", "address"],
      answer: (ledger, token, [owner, operator]) =>
        approvedForAll(ledger, token, owner as Uint8Array, operator as Uint8Array, false),
    },
  ],
]);

/**
 * The answer of `data` sent to the token at `tokenAddress`: a missing token reverts `INVALID_TOKEN_ID`, arguments
 * that do not decode halt, and any function other than the reads above (the transfers and approvals, which change
 * state) is unsupported here.
 */
export function ercFacadeAnswer(
  ledger: HtsLedger,
  tokenAddress: Uint8Array,
  data: Uint8Array,
  frame: HtsFrame,
): HtsOutcome {
  if (data.length < 4) return HALT;
  const fn = ERC_FUNCTIONS.get(selectorOf(data));
  if (fn === undefined) return UNSUPPORTED;
  const args = decodeArgs(data, fn.args);
  if (args === null) return HALT;
  const token = ledger.tokenAt(tokenAddress);
  if (token === undefined) return fn.missingToken?.(frame) ?? revertWithName("INVALID_TOKEN_ID");
  return fn.answer(ledger, token, args, frame);
}
