/**
 * The configuration the parameter grammar depends on, with upstream's defaults: `hiero.mirror.common.shard`
 * and `realm` (0), `hiero.mirror.rest.response.limit.default` (25) and `.max` (100), and
 * `hiero.mirror.rest.query.maxRepeatedQueryParameters` (100).
 */
export interface ParamOptions {
  /** Shard added to `realm.num` and bare `num` IDs; an EVM address with a shard prefix must name this shard. */
  readonly shard: bigint;
  /** Realm added to bare `num` IDs; an EVM address with a realm prefix must name this realm. */
  readonly realm: bigint;
  /** Page size when `limit` is absent. */
  readonly defaultLimit: number;
  /** Larger `limit` values are silently capped to this. */
  readonly maxLimit: number;
  /** Most values one parameter name may carry. */
  readonly maxRepeatedQueryParameters: number;
}

export const DEFAULT_PARAM_OPTIONS: ParamOptions = {
  shard: 0n,
  realm: 0n,
  defaultLimit: 25,
  maxLimit: 100,
  maxRepeatedQueryParameters: 100,
};

/** Fills the options a caller left out with upstream's defaults. */
export function resolveOptions(options: Partial<ParamOptions> = {}): ParamOptions {
  return { ...DEFAULT_PARAM_OPTIONS, ...options };
}
