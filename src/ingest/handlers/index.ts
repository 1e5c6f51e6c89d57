import { handleTokenAirdrop, handleTokenCancelAirdrop } from "./airdrop.ts";
import { handleCryptoApproveAllowance } from "./allowance.ts";
import type { Handler } from "./context.ts";
import { handleContractCreate, handleContractDelete, handleContractUpdate } from "./contract.ts";
import { handleCryptoCreate, handleCryptoDelete, handleCryptoUpdate } from "./crypto.ts";
import { handleFileAppend, handleFileCreate, handleFileUpdate } from "./file.ts";
import { handleCryptoDeleteAllowance, handleTokenUpdateNfts } from "./nft.ts";
import { handleNodeCreate, handleNodeDelete, handleNodeUpdate } from "./node.ts";
import { handleNodeStakeUpdate } from "./stake.ts";
import {
  handleTokenBurnOrWipe,
  handleTokenCreate,
  handleTokenDelete,
  handleTokenFeeScheduleUpdate,
  handleTokenMint,
  handleTokenPause,
  handleTokenUnpause,
  handleTokenUpdate,
} from "./token.ts";
import {
  handleTokenAssociate,
  handleTokenClaimAirdrop,
  handleTokenDissociate,
  handleTokenFreeze,
  handleTokenGrantKyc,
  handleTokenRevokeKyc,
  handleTokenUnfreeze,
} from "./token-account.ts";
import {
  handleConsensusCreateTopic,
  handleConsensusDeleteTopic,
  handleConsensusUpdateTopic,
} from "./topic.ts";
import { handleConsensusSubmitMessage } from "./topic-message.ts";

/** Handlers of successful transactions by `TransactionBody` case. Failed transactions change no state. */
export const HANDLERS: Readonly<Record<string, Handler>> = {
  cryptoCreateAccount: handleCryptoCreate,
  cryptoUpdateAccount: handleCryptoUpdate,
  cryptoDelete: handleCryptoDelete,
  cryptoApproveAllowance: handleCryptoApproveAllowance,
  cryptoDeleteAllowance: handleCryptoDeleteAllowance,
  tokenCreation: handleTokenCreate,
  tokenUpdate: handleTokenUpdate,
  tokenDeletion: handleTokenDelete,
  tokenPause: handleTokenPause,
  tokenUnpause: handleTokenUnpause,
  tokenFeeScheduleUpdate: handleTokenFeeScheduleUpdate,
  tokenMint: handleTokenMint,
  tokenBurn: handleTokenBurnOrWipe,
  tokenWipe: handleTokenBurnOrWipe,
  tokenAssociate: handleTokenAssociate,
  tokenDissociate: handleTokenDissociate,
  tokenFreeze: handleTokenFreeze,
  tokenUnfreeze: handleTokenUnfreeze,
  tokenGrantKyc: handleTokenGrantKyc,
  tokenRevokeKyc: handleTokenRevokeKyc,
  tokenUpdateNfts: handleTokenUpdateNfts,
  tokenClaimAirdrop: handleTokenClaimAirdrop,
  tokenAirdrop: handleTokenAirdrop,
  tokenCancelAirdrop: handleTokenCancelAirdrop,
  // The network group: system files, consensus nodes, stake.
  fileCreate: handleFileCreate,
  fileUpdate: handleFileUpdate,
  fileAppend: handleFileAppend,
  nodeCreate: handleNodeCreate,
  nodeUpdate: handleNodeUpdate,
  nodeDelete: handleNodeDelete,
  nodeStakeUpdate: handleNodeStakeUpdate,
  consensusCreateTopic: handleConsensusCreateTopic,
  consensusUpdateTopic: handleConsensusUpdateTopic,
  consensusDeleteTopic: handleConsensusDeleteTopic,
  consensusSubmitMessage: handleConsensusSubmitMessage,
  // The contracts group: entities here; results, logs and sidecar facts for every record in contract-result.ts.
  contractCreateInstance: handleContractCreate,
  contractUpdateInstance: handleContractUpdate,
  contractDeleteInstance: handleContractDelete,
};
