/**
 * The bulk generator's fast path. It executes the few transaction shapes a bulk stream uses (account
 * creates, token creates, mints, token/NFT/hbar transfers between accounts with unlimited automatic
 * associations, no custom fees) on a lean ledger, and writes the transaction and record bytes directly with
 * `ProtoWriter` instead of building protobufjs objects.
 *
 * It must produce exactly what the general simulator produces for the same steps; `opToStep` gives that
 * step for each operation, and test/streams/scenario-bulk.test.ts replays a bulk plan through the
 * `Simulator` and compares every byte.
 */
import { createHash, sign } from "node:crypto";
import type { RecordItem } from "../types.ts";
import { type Ed25519Signer, KeyRing, type ResolvedKey, signatureMap } from "./keys.ts";
import {
  DEFAULT_MAX_FEE,
  FEES,
  FUNDING_ACCOUNT,
  NODE_ACCOUNT,
  nodeShare,
  TOKEN_CREATE_MAX_FEE,
} from "./network-fees.ts";
import { ProtoWriter } from "./proto-writer.ts";
import { OPERATOR_ACCOUNT, OPERATOR_NAME } from "./simulator.ts";
import { TOKEN_AUTO_RENEW_SECONDS } from "./token-steps.ts";
import { VALID_DURATION_SECONDS } from "./transaction.ts";

/** What every bulk account starts with: 10,000 hbar and unlimited automatic associations. */
export const BULK_ACCOUNT_BALANCE = 10_000n * 100_000_000n;
const ACCOUNT_AUTO_RENEW_SECONDS = 7_776_000;
const OPERATOR_START_BALANCE = 5_000_000_000n * 100_000_000n;
const SUCCESS = 22;

/** One bulk transaction; `payer` is the account name that pays (and signs) it. */
export type BulkOp = { consensusNs: bigint; validStartNs: bigint; payer: string } & (
  | { kind: "createAccount"; name: string }
  | {
      kind: "createToken";
      handle: string;
      name: string;
      symbol: string;
      treasury: string;
      nft: boolean;
      decimals: number;
      initialSupply: bigint;
    }
  | { kind: "mintFungible"; token: string; amount: bigint }
  | { kind: "mintNft"; token: string; metadata: string[] }
  | { kind: "transferFungible"; token: string; from: string; to: { name: string; amount: bigint }[] }
  | { kind: "transferNft"; token: string; serial: bigint; from: string; to: string }
  | { kind: "transferHbar"; from: string; to: string; amount: bigint }
);

export type FastAccount = {
  name: string;
  num: number;
  key: ResolvedKey;
  signer: Ed25519Signer;
  balance: bigint;
};

type FastToken = {
  handle: string;
  num: number;
  nft: boolean;
  treasury: FastAccount;
  totalSupply: bigint;
  nextSerial: bigint;
  /** Fungible units, or number of NFTs, by account number. */
  balances: Map<number, bigint>;
  owners: Map<bigint, FastAccount>;
};

/** An operation applied to the ledger, with its body encoded, waiting for its signature. */
export type PendingItem = {
  op: BulkOp;
  bodyBytes: Uint8Array;
  payer: FastAccount;
  fee: bigint;
  hbar: HbarChange[];
  lists: TokenList[];
  autoAssociations: [token: number, account: number][];
  receipt: { accountId?: number; tokenId?: number; newTotalSupply?: bigint; serials?: bigint[] };
};

type HbarChange = [account: number, delta: bigint];
type TokenList =
  | { token: number; transfers: [account: number, amount: bigint][] }
  | { token: number; nfts: [sender: number, receiver: number, serial: bigint][] };

/** The step a general `Simulator` runs for a bulk operation (same transaction, same bytes). */
export function opToStep(op: BulkOp): { type: string; args: Record<string, unknown> } {
  switch (op.kind) {
    case "createAccount":
      return {
        type: "cryptoCreate",
        args: { name: op.name, payer: op.payer, balance: BULK_ACCOUNT_BALANCE, maxAutoAssociations: -1n },
      };
    case "createToken": {
      const args: Record<string, unknown> = {
        token: op.handle,
        payer: op.treasury,
        treasury: op.treasury,
        name: op.name,
        symbol: op.symbol,
        keys: { admin: op.treasury, supply: op.treasury },
      };
      if (op.nft) args.type = "nft";
      else Object.assign(args, { decimals: BigInt(op.decimals), initialSupply: op.initialSupply });
      return { type: "tokenCreate", args };
    }
    case "mintFungible":
    case "mintNft":
      return {
        type: "tokenMint",
        args: {
          token: op.token,
          payer: op.payer,
          ...(op.kind === "mintNft" ? { metadata: op.metadata } : { amount: op.amount }),
        },
      };
    case "transferFungible": {
      const amounts: Record<string, bigint> = { [op.from]: -op.to.reduce((sum, t) => sum + t.amount, 0n) };
      for (const t of op.to) amounts[t.name] = t.amount;
      return { type: "cryptoTransfer", args: { payer: op.from, tokens: { [op.token]: amounts } } };
    }
    case "transferNft":
      return {
        type: "cryptoTransfer",
        args: { payer: op.from, nfts: { [op.token]: [{ serial: op.serial, from: op.from, to: op.to }] } },
      };
    case "transferHbar":
      return {
        type: "cryptoTransfer",
        args: { payer: op.from, hbar: { [op.from]: -op.amount, [op.to]: op.amount } },
      };
  }
}

export class BulkExecutor {
  readonly keys: KeyRing;
  private readonly realSignatures: boolean;
  private readonly accounts = new Map<string, FastAccount>();
  private readonly tokens = new Map<string, FastToken>();
  private readonly operator: FastAccount;
  private nextEntityNum: number;
  private readonly templates = new Map<FastAccount, Uint8Array>();
  private readonly body = new ProtoWriter(512);
  private readonly outer = new ProtoWriter(1024);
  private readonly record = new ProtoWriter(1024);

  constructor(seed: string, firstEntity: number, realSignatures: boolean) {
    this.keys = new KeyRing(seed);
    this.realSignatures = realSignatures;
    this.nextEntityNum = firstEntity;
    this.operator = this.newAccount(OPERATOR_NAME, Number(OPERATOR_ACCOUNT), OPERATOR_START_BALANCE);
  }

  private newAccount(name: string, num: number, balance: bigint): FastAccount {
    const key = this.keys.resolve(name);
    return { name, num, key, signer: key.signers[0] as Ed25519Signer, balance };
  }

  account(name: string): FastAccount {
    const account = this.accounts.get(name);
    if (account === undefined) throw new Error(`bulk: unknown account ${name}`);
    return account;
  }

  token(handle: string): FastToken {
    const token = this.tokens.get(handle);
    if (token === undefined) throw new Error(`bulk: unknown token ${handle}`);
    return token;
  }

  balanceOf(handle: string, account: string): bigint {
    return this.token(handle).balances.get(this.account(account).num) ?? 0n;
  }

  treasuryOf(handle: string): string {
    return this.token(handle).treasury.name;
  }

  ownerOf(handle: string, serial: bigint): string {
    const owner = this.token(handle).owners.get(serial);
    if (owner === undefined) throw new Error(`bulk: ${handle} #${serial} does not exist`);
    return owner.name;
  }

  nextSerial(handle: string): bigint {
    return this.token(handle).nextSerial;
  }

  /** Applies one operation and returns its record stream item. */
  execute(op: BulkOp): RecordItem {
    return this.complete(this.prepare(op));
  }

  /**
   * The first half of an operation: apply it to the ledger and encode its body. What is left (signing and
   * the record, which holds the signed transaction's hash) is `complete`, so that signing can happen
   * elsewhere in the meantime.
   */
  prepare(op: BulkOp): PendingItem {
    const hbar: HbarChange[] = [];
    const lists: TokenList[] = [];
    const autoAssociations: [token: number, account: number][] = [];
    const receipt: { accountId?: number; tokenId?: number; newTotalSupply?: bigint; serials?: bigint[] } = {};
    const body = this.body.reset();
    let payer: FastAccount;
    let fee: bigint;
    let maxFee = DEFAULT_MAX_FEE;

    switch (op.kind) {
      case "createAccount": {
        payer = this.operator;
        fee = FEES.cryptoCreate;
        const account = this.newAccount(op.name, this.nextEntityNum++, 0n);
        this.accounts.set(op.name, account);
        this.header(body, payer, op.validStartNs, maxFee);
        body.begin(11).bytes(1, account.key.bytes).int(2, BULK_ACCOUNT_BALANCE);
        body.begin(9).int(1, ACCOUNT_AUTO_RENEW_SECONDS).end().int(14, -1).end();
        this.moveHbar(payer, account, BULK_ACCOUNT_BALANCE, hbar);
        receipt.accountId = account.num;
        break;
      }
      case "createToken": {
        payer = this.account(op.treasury);
        fee = FEES.tokenCreate;
        maxFee = TOKEN_CREATE_MAX_FEE;
        const token: FastToken = {
          handle: op.handle,
          num: this.nextEntityNum++,
          nft: op.nft,
          treasury: payer,
          totalSupply: op.initialSupply,
          nextSerial: 1n,
          balances: new Map([[payer.num, op.initialSupply]]),
          owners: new Map(),
        };
        this.tokens.set(op.handle, token);
        this.header(body, payer, op.validStartNs, maxFee);
        body.begin(29).string(1, op.name).string(2, op.symbol);
        if (op.decimals !== 0) body.int(3, op.decimals);
        if (op.initialSupply !== 0n) body.int(4, op.initialSupply);
        body.entity(5, payer.num).bytes(6, payer.key.bytes).bytes(10, payer.key.bytes).entity(14, payer.num);
        body.begin(15).int(1, TOKEN_AUTO_RENEW_SECONDS).end();
        if (op.nft) body.int(17, 1);
        body.end();
        autoAssociations.push([token.num, payer.num]);
        if (op.initialSupply > 0n)
          lists.push({ token: token.num, transfers: [[payer.num, op.initialSupply]] });
        receipt.tokenId = token.num;
        break;
      }
      case "mintFungible": {
        const token = this.token(op.token);
        payer = token.treasury;
        fee = FEES.tokenMintFungible;
        this.header(body, payer, op.validStartNs, maxFee);
        body.begin(37).entity(1, token.num).int(2, op.amount).end();
        token.totalSupply += op.amount;
        this.credit(token, payer, op.amount);
        lists.push({ token: token.num, transfers: [[payer.num, op.amount]] });
        receipt.newTotalSupply = token.totalSupply;
        break;
      }
      case "mintNft": {
        const token = this.token(op.token);
        payer = token.treasury;
        fee = FEES.tokenMintNftPerSerial * BigInt(op.metadata.length);
        maxFee = TOKEN_CREATE_MAX_FEE;
        this.header(body, payer, op.validStartNs, maxFee);
        body.begin(37).entity(1, token.num);
        for (const metadata of op.metadata) body.string(3, metadata);
        body.end();
        const nfts: [number, number, bigint][] = [];
        receipt.serials = [];
        for (let i = 0; i < op.metadata.length; i++) {
          const serial = token.nextSerial++;
          token.owners.set(serial, payer);
          nfts.push([0, payer.num, serial]);
          receipt.serials.push(serial);
        }
        token.totalSupply += BigInt(op.metadata.length);
        this.credit(token, payer, BigInt(op.metadata.length));
        lists.push({ token: token.num, nfts });
        receipt.newTotalSupply = token.totalSupply;
        break;
      }
      case "transferFungible": {
        const token = this.token(op.token);
        payer = this.account(op.from);
        fee = FEES.cryptoTransferTokens;
        const total = op.to.reduce((sum, t) => sum + t.amount, 0n);
        const transfers: [number, bigint][] = [[payer.num, -total]];
        for (const t of op.to) transfers.push([this.account(t.name).num, t.amount]);
        transfers.sort((a, b) => a[0] - b[0]);
        // Receivers are checked, and associated when needed, in the body's (account number) order.
        for (const [num, amount] of transfers) {
          if (amount > 0n && !token.balances.has(num)) autoAssociations.push([token.num, num]);
        }
        if (this.balanceOfNum(token, payer.num) < total)
          throw new Error(`bulk: ${op.from} lacks ${op.token}`);
        this.credit(token, payer, -total);
        for (const t of op.to) this.credit(token, this.account(t.name), t.amount);
        this.header(body, payer, op.validStartNs, maxFee);
        body.begin(14).begin(2).entity(1, token.num);
        for (const [num, amount] of transfers) body.begin(2).entity(1, num).sint(2, amount).end();
        body.end().end();
        lists.push({ token: token.num, transfers });
        break;
      }
      case "transferNft": {
        const token = this.token(op.token);
        payer = this.account(op.from);
        const receiver = this.account(op.to);
        fee = FEES.cryptoTransferTokens;
        if (token.owners.get(op.serial) !== payer)
          throw new Error(`bulk: ${op.from} does not own ${op.token} #${op.serial}`);
        if (!token.balances.has(receiver.num)) autoAssociations.push([token.num, receiver.num]);
        token.owners.set(op.serial, receiver);
        this.credit(token, payer, -1n);
        this.credit(token, receiver, 1n);
        this.header(body, payer, op.validStartNs, maxFee);
        body.begin(14).begin(2).entity(1, token.num);
        body.begin(3).entity(1, payer.num).entity(2, receiver.num).int(3, op.serial).end();
        body.end().end();
        lists.push({ token: token.num, nfts: [[payer.num, receiver.num, op.serial]] });
        break;
      }
      case "transferHbar": {
        payer = this.account(op.from);
        const receiver = this.account(op.to);
        fee = FEES.cryptoTransfer;
        const entries: [number, bigint][] = [
          [payer.num, -op.amount],
          [receiver.num, op.amount],
        ];
        entries.sort((a, b) => a[0] - b[0]);
        this.header(body, payer, op.validStartNs, maxFee);
        body.begin(14).begin(1);
        for (const [num, amount] of entries) body.begin(1).entity(1, num).sint(2, amount).end();
        body.end().end();
        this.moveHbar(payer, receiver, op.amount, hbar);
        break;
      }
    }

    if (payer.balance < fee) throw new Error(`bulk: ${payer.name} cannot pay its fee`);
    payer.balance -= fee;
    const nodeFee = nodeShare(fee);
    hbar.push([payer.num, -fee], [Number(NODE_ACCOUNT), nodeFee], [Number(FUNDING_ACCOUNT), fee - nodeFee]);

    return { op, bodyBytes: body.finish(), payer, fee, hbar, lists, autoAssociations, receipt };
  }

  /**
   * The second half of an operation: sign the body (or reuse the payer's template signature when no
   * signature is given and signatures are not real), then encode the transaction and its record.
   */
  complete(pending: PendingItem, signature?: Uint8Array): RecordItem {
    const { op, bodyBytes, payer, fee, hbar, lists, autoAssociations, receipt } = pending;
    const signed = this.outer.reset().bytes(1, bodyBytes);
    signed
      .begin(2)
      .begin(1)
      .bytes(1, payer.signer.publicKey)
      .bytes(3, signature ?? this.signature(payer, bodyBytes))
      .end()
      .end();
    const signedTransactionBytes = signed.finish();
    const transactionBytes = this.outer.reset().bytes(5, signedTransactionBytes).finish();

    const record = this.record.reset().begin(1).int(1, SUCCESS);
    if (receipt.accountId !== undefined) record.entity(2, receipt.accountId);
    if (receipt.tokenId !== undefined) record.entity(10, receipt.tokenId);
    if (receipt.newTotalSupply !== undefined && receipt.newTotalSupply !== 0n)
      record.int(11, receipt.newTotalSupply);
    if (receipt.serials !== undefined) record.packedInts(14, receipt.serials);
    record.end();
    record.bytes(2, createHash("sha384").update(signedTransactionBytes).digest());
    record.timestamp(3, op.consensusNs);
    record.begin(4).timestamp(1, op.validStartNs).entity(2, payer.num).end();
    record.int(6, fee);
    record.begin(10);
    for (const [num, amount] of netAmounts(hbar)) record.begin(1).entity(1, num).sint(2, amount).end();
    record.end();
    lists.sort((a, b) => a.token - b.token);
    for (const list of lists) {
      record.begin(11).entity(1, list.token);
      if ("transfers" in list) {
        for (const [num, amount] of list.transfers) record.begin(2).entity(1, num).sint(2, amount).end();
      } else {
        for (const [sender, receiver, serial] of list.nfts) {
          record.begin(3).entity(1, sender).entity(2, receiver).int(3, serial).end();
        }
      }
      record.end();
    }
    for (const [token, account] of autoAssociations)
      record.begin(14).entity(1, token).entity(2, account).end();
    return { transactionBytes, recordBytes: record.finish() };
  }

  /** TransactionBody fields 1-4: transaction id, node 0.0.3, maximum fee, valid duration. */
  private header(body: ProtoWriter, payer: FastAccount, validStartNs: bigint, maxFee: bigint): void {
    body.begin(1).timestamp(1, validStartNs).entity(2, payer.num).end();
    body.entity(2, Number(NODE_ACCOUNT)).int(3, maxFee);
    body.begin(4).int(1, VALID_DURATION_SECONDS).end();
  }

  private signature(payer: FastAccount, bodyBytes: Uint8Array): Uint8Array {
    if (this.realSignatures) return sign(null, bodyBytes, payer.signer.privateKey);
    let template = this.templates.get(payer);
    if (template === undefined) {
      // The same template as the simulator's `templateSignatureMap`: a signature over an empty body.
      template = signatureMap(new Uint8Array(), [payer.signer]).sigPair![0]!.ed25519!;
      this.templates.set(payer, template);
    }
    return template;
  }

  private moveHbar(from: FastAccount, to: FastAccount, amount: bigint, changes: HbarChange[]): void {
    if (from.balance < amount) throw new Error(`bulk: ${from.name} lacks ${amount} tinybars`);
    from.balance -= amount;
    to.balance += amount;
    changes.push([from.num, -amount], [to.num, amount]);
  }

  private balanceOfNum(token: FastToken, num: number): bigint {
    return token.balances.get(num) ?? 0n;
  }

  private credit(token: FastToken, account: FastAccount, delta: bigint): void {
    token.balances.set(account.num, (token.balances.get(account.num) ?? 0n) + delta);
  }
}

/** Net change per account, zeros dropped, by account number (a record's `transferList`). */
function netAmounts(changes: HbarChange[]): [number, bigint][] {
  const net = new Map<number, bigint>();
  for (const [num, delta] of changes) net.set(num, (net.get(num) ?? 0n) + delta);
  return [...net].filter(([, amount]) => amount !== 0n).sort((a, b) => a[0] - b[0]);
}
