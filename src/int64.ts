/** The greatest int64 (2^63-1): the widest amount, timestamp or id any wire format or column here holds. */
export const MAX_INT64 = (1n << 63n) - 1n;
