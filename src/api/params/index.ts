/**
 * The REST parameter grammar of the Node-implemented endpoint groups (tokens, blocks): one parser per route
 * that returns either the typed request or upstream's exact 400 messages, plus the `links.next` builder.
 * Routes call e.g. `unwrapParams(parseTokenNftsRequest(req.params, req.originalUrl))` and, once the page is
 * read, `nextLink(request.paging, items.length, lastAnchorValue)`.
 */
export {
  type BlocksRequest,
  blocksSpec,
  parseBlockRequest,
  parseBlocksRequest,
} from "./blocks.ts";
export {
  decodeEntityId,
  type EntityIdParseResult,
  type EntityIdParts,
  type EvmAddressKind,
  encodeEntityId,
  formatEntityId,
  isValidEntityId,
  isValidEvmAddress,
  type ParsedEntityId,
  parseEntityIdString,
  type ShardRealm,
} from "./entity-id.ts";
export {
  fail,
  invalidParameter,
  ParameterError,
  type ParamResult,
  succeed,
  unknownParameter,
  unwrapParams,
} from "./errors.ts";
export {
  type Comparison,
  type EndpointSpec,
  type FilterOf,
  limitAndOrder,
  type Operator,
  type Order,
  type ParamSpec,
  rejectAllParameters,
  splitOperator,
  validateFilters,
} from "./filters.ts";
export { isPositiveLong, MAX_LONG, parseHexLong } from "./integers.ts";
export {
  type AnchorKey,
  buildNextLink,
  linkPath,
  type NextLinkInput,
  nextLink,
  type PagingContext,
} from "./links.ts";
export { DEFAULT_PARAM_OPTIONS, type ParamOptions, resolveOptions } from "./options.ts";
export type { TokenType, TokenTypeValue } from "./param-specs.ts";
export {
  type BlockLocator,
  parseHashOrNumberPathParam,
  parseSerialNumberPathParam,
  parseTokenIdPathParam,
} from "./path-params.ts";
export { isValidPublicKey, normalizePublicKey } from "./public-key.ts";
export {
  type ObjectValue,
  type ParsedQuery,
  parseQueryString,
  type QueryEntry,
  type QueryValue,
  splitRequestUrl,
} from "./query.ts";
export { type RequestParts, readRequest } from "./request.ts";
export { formatTimestamp, isValidTimestamp, parseTimestamp } from "./timestamp.ts";
export {
  parseTokenBalancesRequest,
  type TokenBalancesRequest,
  tokenBalancesSpec,
} from "./token-balances.ts";
export {
  type NftTransactionsRequest,
  nftTransactionsSpec,
  parseNftTransactionsRequest,
  parseTokenNftRequest,
  parseTokenNftsRequest,
  type TokenNftRequest,
  type TokenNftsRequest,
  tokenNftsSpec,
} from "./token-nfts.ts";
export {
  parseTokenInfoRequest,
  parseTokensRequest,
  type TokenInfoRequest,
  type TokensRequest,
  tokenInfoSpec,
  tokensSpec,
} from "./tokens.ts";
