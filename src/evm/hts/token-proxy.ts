/**
 * The code a token answers with at its address (HIP-719): a small contract that forwards its call data to the
 * token service as `redirectForToken(<this token>, data)` by DELEGATECALL and returns or reverts with what that
 * returns. The consensus node (and so upstream's web3 module, and the JSON-RPC relay's `eth_getCode`) shows this
 * template with the token's address in place of the twenty 0xfe bytes.
 */
import { addressHex } from "../address.ts";

const PREFIX = "6080604052348015600f57600080fd5b506000610167905077618dc65e";
const SUFFIX =
  "600052366000602037600080366018016008845af43d806000803e8160008114605857816000f35b816000fdfea2646970667358221220d8378feed472ba49a0005514ef7087017f707b45fb9bf56bb81bb93ff19a238b64736f6c634300080b0033";

/** The facade bytecode of the token at `address` (20 bytes). */
export function tokenProxyCode(address: Uint8Array): Uint8Array {
  return Uint8Array.from(Buffer.from(`${PREFIX}${addressHex(address)}${SUFFIX}`, "hex"));
}
