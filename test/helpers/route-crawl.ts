/**
 * Asks a running service a question on every route of the API's route table, so that two ways of building an
 * index (record files, block streams) can be compared answer for answer. `crawlIndex` (index-answers.ts) walks
 * the tokens and blocks groups; this walks the rest from what the answers themselves name: every list paged to
 * its end, every item looked up by its id (and by alias or EVM address where it has one), each account's
 * sub-resources, and the lists "as of" a few instants. `ROUTES_WALKED` names the templates it covers, so a test
 * can check that no route of the table is left out.
 */
import { type Answer, allPages, ask, crawlIndex, sample } from "./index-answers.ts";
import type { TestService } from "./service.ts";

type Block = { number: number; timestamp: { from: string; to: string } };
type Transaction = {
  transaction_id: string;
  transaction_hash: string;
  consensus_timestamp: string;
  entity_id: string | null;
  name: string;
  nonce: number;
  scheduled: boolean;
};
type Account = { account: string; alias: string | null; evm_address: string | null };
type Message = { topic_id: string; sequence_number: number; consensus_timestamp: string };
type Schedule = { schedule_id: string; creator_account_id: string };
type Contract = { contract_id: string; evm_address: string };
type ContractResult = { contract_id: string | null; timestamp: string; hash: string };

/** Templates of the routes the crawl asks (those of `crawlIndex` included). */
export const ROUTES_WALKED = [
  "/api/v1/tokens",
  "/api/v1/tokens/balances",
  "/api/v1/tokens/{tokenId}/balances",
  "/api/v1/tokens/nfts",
  "/api/v1/tokens/nfts/{serialNumber}",
  "/api/v1/tokens/nfts/{serialNumber}/transactions",
  "/api/v1/tokens/{tokenId}/nfts",
  "/api/v1/tokens/{tokenId}/nfts/{serialNumber}",
  "/api/v1/tokens/{tokenId}/nfts/{serialNumber}/transactions",
  "/api/v1/tokens/{tokenId}",
  "/api/v1/blocks",
  "/api/v1/blocks/{hashOrNumber}",
  "/api/v1/network/exchangerate",
  "/api/v1/network/fees",
  "/api/v1/network/nodes",
  "/api/v1/network/registered-nodes",
  "/api/v1/network/stake",
  "/api/v1/network/supply",
  "/api/v1/transactions",
  "/api/v1/transactions/{transactionIdOrHash}",
  "/api/v1/accounts",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}",
  "/api/v1/balances",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/tokens",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/nfts",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/crypto",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/tokens",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/allowances/nfts",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/airdrops/outstanding",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/airdrops/pending",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks",
  "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks/{hookId}/storage",
  "/api/v1/topics/{topicId}/messages",
  "/api/v1/topics/{topicId}/messages/{sequenceNumber}",
  "/api/v1/topics/messages/{consensusTimestamp}",
  "/api/v1/topics/{topicId}",
  "/api/v1/schedules",
  "/api/v1/schedules/{scheduleId}",
  "/api/v1/contracts",
  "/api/v1/contracts/call",
  "/api/v1/contracts/results",
  "/api/v1/contracts/results/logs",
  "/api/v1/contracts/results/{transactionIdOrHash}",
  "/api/v1/contracts/results/{transactionIdOrHash}/actions",
  "/api/v1/contracts/results/{transactionIdOrHash}/opcodes",
  "/api/v1/contracts/{contractIdOrAddress}",
  "/api/v1/contracts/{contractIdOrAddress}/results",
  "/api/v1/contracts/{contractIdOrAddress}/results/logs",
  "/api/v1/contracts/{contractIdOrAddress}/results/{timestamp}",
  "/api/v1/contracts/{contractIdOrAddress}/state",
] as const;

const ACCOUNT_LISTS = [
  "tokens",
  "nfts",
  "rewards",
  "allowances/crypto",
  "allowances/tokens",
  "allowances/nfts",
  "airdrops/outstanding",
  "airdrops/pending",
  "hooks",
];

function items<T>(pages: unknown[], key: string): T[] {
  return pages.flatMap((page) => ((page as Record<string, T[] | undefined>)[key] ?? []) as T[]);
}

/** Asks the service a question on every route (see the module comment); answers in asking order. */
export async function crawlEveryRoute(service: TestService): Promise<Answer[]> {
  const answers = await crawlIndex(service);
  const blocks = items<Block>(
    answers.filter((a) => a.path.startsWith("/api/v1/blocks?limit=25&order=asc")).map((a) => a.body),
    "blocks",
  );
  // Instants inside the ledger: the ends of a few blocks, early to late.
  const instants = sample(blocks, 3).map((block) => block.timestamp.to);

  // The token paths that are not token ids (the mirror node answers them as such).
  for (const path of [
    "/api/v1/tokens/balances",
    "/api/v1/tokens/nfts",
    "/api/v1/tokens/nfts/1",
    "/api/v1/tokens/nfts/1/transactions",
  ])
    await ask(service, path, answers);

  for (const path of [
    "/api/v1/network/exchangerate",
    "/api/v1/network/fees",
    "/api/v1/network/fees?order=desc",
    "/api/v1/network/nodes",
    "/api/v1/network/nodes?limit=2&order=desc",
    "/api/v1/network/stake",
    "/api/v1/network/supply",
    "/api/v1/network/registered-nodes",
    "/api/v1/network/registered-nodes?limit=1&order=desc",
    ...instants.flatMap((t) => [
      `/api/v1/network/exchangerate?timestamp=lte:${t}`,
      `/api/v1/network/supply?timestamp=lte:${t}`,
    ]),
  ])
    await ask(service, path, answers);

  const transactions = items<Transaction>(
    await allPages(service, "/api/v1/transactions?limit=100&order=asc", answers),
    "transactions",
  );
  await allPages(service, "/api/v1/transactions?limit=37&order=desc", answers);
  for (const t of instants) {
    await allPages(service, `/api/v1/transactions?timestamp=lte:${t}&limit=50`, answers);
  }
  const looked = new Set<string>();
  for (const tx of transactions) {
    // A transaction and its children share an id: the lookup answers them all at once.
    if (!looked.has(tx.transaction_id)) {
      looked.add(tx.transaction_id);
      await ask(service, `/api/v1/transactions/${tx.transaction_id}`, answers);
    }
    if (tx.nonce > 0 || tx.scheduled) {
      const nonce = `?nonce=${tx.nonce}&scheduled=${tx.scheduled}`;
      await ask(service, `/api/v1/transactions/${tx.transaction_id}${nonce}`, answers);
    }
  }
  for (const tx of sample(transactions, 12)) {
    const hash = Buffer.from(tx.transaction_hash, "base64").toString("hex");
    await ask(service, `/api/v1/transactions/0x${hash}`, answers);
  }

  const accounts = items<Account>(
    await allPages(service, "/api/v1/accounts?limit=100&order=asc", answers),
    "accounts",
  );
  await allPages(service, "/api/v1/accounts?limit=29&order=desc&balance=false", answers);
  for (const t of instants) await allPages(service, `/api/v1/balances?timestamp=${t}&limit=100`, answers);
  await allPages(service, "/api/v1/balances?limit=100", answers);
  for (const account of accounts) {
    const id = account.account;
    await ask(service, `/api/v1/accounts/${id}?limit=10`, answers);
    if (account.alias !== null) await ask(service, `/api/v1/accounts/${account.alias}?limit=3`, answers);
    if (account.evm_address !== null)
      await ask(service, `/api/v1/accounts/${account.evm_address}?limit=3`, answers);
    for (const list of ACCOUNT_LISTS)
      await allPages(service, `/api/v1/accounts/${id}/${list}?limit=50`, answers);
  }
  // Each hook's storage, current and as of the instants (hooks come from the accounts' hook lists).
  type Hook = { hook_id: number; owner_id: string };
  const hooks = items<Hook>(
    answers.filter((a) => /^\/api\/v1\/accounts\/[^/]+\/hooks\?/.test(a.path)).map((a) => a.body),
    "hooks",
  );
  for (const hook of hooks) {
    const storage = `/api/v1/accounts/${hook.owner_id}/hooks/${hook.hook_id}/storage`;
    await allPages(service, `${storage}?limit=2`, answers);
    for (const t of instants) await allPages(service, `${storage}?timestamp=lte:${t}&limit=50`, answers);
  }
  for (const account of sample(accounts, 8)) {
    for (const t of instants) {
      await ask(service, `/api/v1/accounts/${account.account}?timestamp=lte:${t}&limit=5`, answers);
      await allPages(service, `/api/v1/balances?account.id=${account.account}&timestamp=${t}`, answers);
    }
  }

  // Topics are named by the transactions that create them or send to them.
  const topics = [
    ...new Set(
      transactions
        .filter((tx) => tx.name.startsWith("CONSENSUS") && tx.entity_id !== null)
        .map((tx) => tx.entity_id!),
    ),
  ];
  for (const topic of topics) {
    await ask(service, `/api/v1/topics/${topic}`, answers);
    for (const t of instants) {
      await allPages(service, `/api/v1/topics/${topic}/messages?timestamp=lte:${t}&limit=25`, answers);
    }
    const messages = items<Message>(
      await allPages(service, `/api/v1/topics/${topic}/messages?limit=100`, answers),
      "messages",
    );
    await allPages(service, `/api/v1/topics/${topic}/messages?limit=17&order=desc`, answers);
    for (const message of messages) {
      await ask(service, `/api/v1/topics/${topic}/messages/${message.sequence_number}`, answers);
      await ask(service, `/api/v1/topics/messages/${message.consensus_timestamp}`, answers);
    }
  }

  const schedules = items<Schedule>(
    await allPages(service, "/api/v1/schedules?limit=4", answers),
    "schedules",
  );
  await allPages(service, "/api/v1/schedules?limit=3&order=desc", answers);
  for (const schedule of schedules) await ask(service, `/api/v1/schedules/${schedule.schedule_id}`, answers);
  for (const creator of new Set(schedules.map((schedule) => schedule.creator_account_id))) {
    await allPages(service, `/api/v1/schedules?account.id=${creator}`, answers);
  }
  await crawlContracts(service, answers, transactions);
  return answers;
}

/**
 * The contracts group: every contract (by id and address) with its results, logs and state; every result (top-level
 * and child) by hash, by its contract and time, and its actions; contract transactions by id; every log.
 */
async function crawlContracts(
  service: TestService,
  answers: Answer[],
  transactions: Transaction[],
): Promise<void> {
  const contracts = items<Contract>(
    await allPages(service, "/api/v1/contracts?limit=100&order=asc", answers),
    "contracts",
  );
  await allPages(service, "/api/v1/contracts?limit=7", answers);
  // POST only (the EVM, test/evm/): a GET is refused the same way on both paths.
  await ask(service, "/api/v1/contracts/call", answers);
  for (const contract of contracts) {
    const id = contract.contract_id;
    await ask(service, `/api/v1/contracts/${id}`, answers);
    await ask(service, `/api/v1/contracts/${contract.evm_address}`, answers);
    await allPages(service, `/api/v1/contracts/${id}/results?internal=true&limit=100`, answers);
    await allPages(service, `/api/v1/contracts/${id}/results/logs?limit=100`, answers);
    await allPages(service, `/api/v1/contracts/${id}/state?limit=100`, answers);
  }
  const results = items<ContractResult>(
    await allPages(service, "/api/v1/contracts/results?internal=true&limit=100&order=asc", answers),
    "results",
  );
  await allPages(service, "/api/v1/contracts/results?limit=9", answers);
  await allPages(service, "/api/v1/contracts/results/logs?limit=100&order=asc", answers);
  for (const result of results) {
    await ask(service, `/api/v1/contracts/results/${result.hash}`, answers);
    await allPages(service, `/api/v1/contracts/results/${result.hash}/actions?limit=100`, answers);
    // Off unless --opcodes on (404 on both paths); the replays are tested in test/evm/.
    await ask(service, `/api/v1/contracts/results/${result.hash}/opcodes`, answers);
    if (result.contract_id !== null) {
      await ask(service, `/api/v1/contracts/${result.contract_id}/results/${result.timestamp}`, answers);
    }
  }
  for (const tx of transactions) {
    if (
      tx.name !== "CONTRACTCALL" &&
      tx.name !== "CONTRACTCREATEINSTANCE" &&
      tx.name !== "ETHEREUMTRANSACTION"
    )
      continue;
    await ask(service, `/api/v1/contracts/results/${tx.transaction_id}?nonce=${tx.nonce}`, answers);
  }
}
