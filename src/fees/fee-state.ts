/** What STATE mode may learn from the index about a token a transfer moves. */
export type TokenFeeFacts = {
  nonFungible: boolean;
  /** The token's current fee schedule has at least one fixed, fractional or royalty fee. */
  hasCustomFees: boolean;
};

/**
 * The index as STATE-mode estimation sees it: current state, looked up by entity number only (the mirror node
 * ignores shard and realm here). INTRINSIC mode never gets one.
 */
export type FeeState = {
  token(num: bigint): TokenFeeFacts | undefined;
  /** Whether the topic exists now with at least one fixed custom fee. */
  topicHasFixedFees(num: bigint): boolean;
};
