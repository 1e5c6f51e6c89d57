/**
 * A transaction the estimator cannot price, with the mirror node's detail text (`Unable to parse transaction`,
 * `Unknown transaction type`, ...). The API answers it with 400; `fees` itself knows nothing of HTTP.
 */
export class FeeEstimateError extends Error {
  override readonly name = "FeeEstimateError";
}

export const UNKNOWN_TRANSACTION_TYPE = "Unknown transaction type";
export const UNABLE_TO_PARSE = "Unable to parse transaction";
export const NO_BODY_BYTES = "Transaction must contain body bytes or signed transaction bytes";

export const unknownTransactionType = () => new FeeEstimateError(UNKNOWN_TRANSACTION_TYPE);
