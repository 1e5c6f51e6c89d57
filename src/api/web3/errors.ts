/**
 * Error bodies of upstream's web3 service (`POST /api/v1/contracts/call`, `GenericControllerAdvice`): every entry
 * of `_status.messages` has all three of `message`, `detail` and `data`. Most errors carry the HTTP reason phrase
 * and the exception text (blank on a 5xx); an execution failure carries the Hedera status name, the decoded revert
 * reason and the revert data.
 */
import { JavaHttpError, reasonPhrase } from "../java/index.ts";

const PHRASES: Readonly<Record<number, string>> = { 501: "Not Implemented" };

/** `{"message": <reason phrase>, "detail": <detail, blank on a 5xx>, "data": ""}`. */
export function web3Error(status: number, detail: string): JavaHttpError {
  const message = PHRASES[status] ?? reasonPhrase(status);
  return new JavaHttpError(status, [{ message, detail: status < 500 ? detail : "", data: "" }]);
}

/** Bean-validation failures of the request: one `Bad Request` entry per field, detail `<field> field <reason>`. */
export function web3ValidationErrors(violations: readonly string[]): JavaHttpError {
  return new JavaHttpError(
    400,
    violations.map((detail) => ({ message: "Bad Request", detail, data: "" })),
  );
}

/** A failed execution: 400 with the Hedera status, the decoded reason and the revert data (`0x…`). */
export function web3ExecutionError(status: string, detail: string, data: string): JavaHttpError {
  return new JavaHttpError(400, [{ message: status, detail, data }]);
}
