/** The selector of Solidity's `Error(string)`, what `revert("reason")` and `require(…, "reason")` return. */
const ERROR_SELECTOR = [0x08, 0xc3, 0x79, 0xa0];

/**
 * The reason string of `Error(string)` revert data, as upstream shows it in an error's `detail`; empty for any
 * other revert data (custom errors, panics, no data) or data that does not decode as one ABI string.
 */
export function revertReason(data: Uint8Array): string {
  if (data.length <= 4 || ERROR_SELECTOR.some((byte, i) => data[i] !== byte)) return "";
  const body = data.subarray(4);
  const word = (at: number): bigint | null => {
    if (at + 32 > body.length) return null;
    return BigInt(`0x${Buffer.from(body.subarray(at, at + 32)).toString("hex")}`);
  };
  const offset = word(0);
  if (offset === null || offset > BigInt(body.length)) return "";
  const length = word(Number(offset));
  if (length === null) return "";
  const start = Number(offset) + 32;
  if (BigInt(start) + length > BigInt(body.length)) return "";
  return new TextDecoder().decode(body.subarray(start, start + Number(length)));
}
