import type { Request } from "express";
import { encodeEntityId } from "../ids.ts";
import { type AsOf, CURRENT } from "../store/history.ts";
import { HttpError } from "./http-errors.ts";

// Provisional: replaced by the parameter grammar in ./params once it lands.
export function parseTokenInfo(req: Request): { tokenId: bigint; asOf: AsOf } {
  const raw = String(req.params.tokenId ?? "");
  const m = /^(?:(\d{1,4})\.)?(?:(\d{1,5})\.)?(\d{1,12})$/.exec(raw);
  if (!m) throw new HttpError(400, ["Invalid parameter: tokenid"]);
  return { tokenId: encodeEntityId(BigInt(m[1] ?? 0), BigInt(m[2] ?? 0), BigInt(m[3]!)), asOf: CURRENT };
}
