/**
 * Topic subscriptions (grpc.md §3.4–§3.6): each one reads the index from its start time in pages (catch-up),
 * then joins its topic's live set; after each commit the ingest worker names the topics that received messages,
 * and each named topic with live subscriptions gets one read, shared by all of them. Idle subscriptions and
 * topics without new messages cost no read.
 *
 * Invariants:
 * - A subscription's messages are sent in consensus order, each once: `take` skips what is not after `lastNs`
 *   and ends the call (UNKNOWN) on a sequence break, which the reads below never produce.
 * - No lost wake-up: a catch-up notes the commit counter before each read and goes live only if no commit
 *   notice arrived meanwhile (a commit that landed before the read is in the read). From then on every commit
 *   that can hold messages after its `lastNs` is announced to the hub after it joined.
 * - A live topic read starting after `from` serves only subscriptions with `lastNs >= from`; any other one marks
 *   the topic for another read (which then starts at the smaller `lastNs`).
 * - Memory: at most two pages per catch-up (one being written, the next being read); a live
 *   subscription's queue is bounded (past it: DEADLINE_EXCEEDED, as upstream's listener buffer).
 */
import type { ServerWritableStream } from "@grpc/grpc-js";
import { type CallEnd, CallSink } from "./call-sink.ts";
import type { FramePage } from "./page-frame.ts";
import { NOT_A_TOPIC, TOPIC_PAGE_SIZE, TOPIC_UNKNOWN } from "./read-jobs.ts";
import type { GrpcReads, PageResult } from "./reads.ts";
import type { TopicFilter } from "./requests.ts";
import { entityText } from "./requests.ts";
import type { GrpcStats } from "./stats.ts";
import { Details, type Refusal, Status } from "./status.ts";

/** Upstream's `listener.maxBufferSize`: the most messages a live subscriber may be behind. */
export const MAX_LIVE_QUEUE = 16_384;
/** Upstream's `endTimeInterval`: how often, and how long after its end, an open-ended wait is given up. */
export const END_TIME_INTERVAL_MS = 30_000;

const DATA_SOURCE: Refusal = { code: Status.RESOURCE_EXHAUSTED, details: Details.dataSource };
const OUT_OF_ORDER: Refusal = { code: Status.UNKNOWN, details: Details.unknown };

export type TopicHubDeps = {
  reads: GrpcReads;
  stats: GrpcStats;
  /** The wall clock in ns since the epoch. */
  nowNs: () => bigint;
  /** The consensus end of the index when the hub starts (later ones come with commit notices). */
  indexedEndNs: bigint | null;
  maxLiveQueue?: number;
  endTimeIntervalMs?: number;
};

class TopicSubscription {
  lastNs: bigint;
  lastSeq: bigint | null = null;
  /** Messages still to send (null: no limit). */
  remaining: bigint | null;
  live = false;
  /** Live, with an end the index has passed: ends after a topic read issued at this commit count or later. */
  endAfterCommit: number | null = null;
  graceTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly filter: TopicFilter,
    readonly sink: CallSink,
    private readonly stats: GrpcStats,
  ) {
    this.lastNs = filter.startNs - 1n;
    this.remaining = filter.limit > 0n ? filter.limit : null;
  }

  get ended(): boolean {
    return this.sink.ended;
  }

  /**
   * Sends the messages of `page` that are new for this subscription (after `lastNs`), as one run: up to the first
   * of a message at or past its end (not sent; the call ends OK), a sequence break (the call ends UNKNOWN, as
   * upstream) and its limit (the call ends OK after it); at most `most` messages. False once the subscription
   * has ended.
   */
  take(page: FramePage, most = Number.POSITIVE_INFINITY): boolean {
    if (this.sink.ended) return false;
    const from = page.firstAfter(this.lastNs);
    if (from >= page.count) return true;
    if (this.lastSeq !== null && page.sequenceNumber(from) !== this.lastSeq + 1n) {
      this.sink.end(OUT_OF_ORDER, true);
      return false;
    }
    let to = page.count;
    let stop: CallEnd | null = null;
    const end = this.filter.endNs;
    if (end !== null) {
      const past = page.firstAtOrAfter(end);
      if (past < to) {
        to = past;
        stop = "ok";
      }
    }
    const broken = page.sequenceBreakAfter(from);
    if (broken < to) {
      to = broken;
      stop = OUT_OF_ORDER;
    }
    if (this.remaining !== null && this.remaining <= BigInt(to - from)) {
      to = from + Number(this.remaining);
      stop = "ok";
    }
    if (to - from > most) {
      to = from + most;
      stop = null;
    }
    const count = to - from;
    if (count > 0) {
      this.sink.write(page.frames(from, to), count);
      this.stats.messagesSent += count;
      this.lastNs = page.consensusNs(to - 1);
      this.lastSeq = page.sequenceNumber(to - 1);
      if (this.remaining !== null) this.remaining -= BigInt(count);
    }
    if (stop !== null) {
      this.sink.end(stop, stop !== "ok");
      return false;
    }
    return !this.sink.ended;
  }

  /** How many messages the next page may hold. */
  pageLimit(): number {
    return this.remaining !== null && this.remaining < BigInt(TOPIC_PAGE_SIZE)
      ? Number(this.remaining)
      : TOPIC_PAGE_SIZE;
  }
}

/** A catch-up read with what was known when it was issued (see the no-lost-wake-up invariant). */
type CatchUpRead = { page: PageResult; counter: number; indexedEnd: bigint | null; limit: number };

/**
 * A topic with live subscriptions: at most one read of it runs at a time; `dirty` asks for another, and
 * `noticedAt` is when the oldest commit notice it has not yet read for arrived (for the fan-out figure).
 */
type LiveTopic = {
  readonly subs: Set<TopicSubscription>;
  reading: boolean;
  dirty: boolean;
  noticedAt: number | null;
};

export class TopicHub {
  private commits = 0;
  private indexedEnd: bigint | null;
  private readonly all = new Set<TopicSubscription>();
  private readonly live = new Map<bigint, LiveTopic>();
  private readonly liveWithEnd = new Set<TopicSubscription>();
  private readonly maxLiveQueue: number;
  private readonly endTimeIntervalMs: number;

  constructor(private readonly deps: TopicHubDeps) {
    this.indexedEnd = deps.indexedEndNs;
    this.maxLiveQueue = deps.maxLiveQueue ?? MAX_LIVE_QUEUE;
    this.endTimeIntervalMs = deps.endTimeIntervalMs ?? END_TIME_INTERVAL_MS;
  }

  /** Open subscriptions. */
  get size(): number {
    return this.all.size;
  }

  /** Subscriptions waiting for new messages. */
  get liveSize(): number {
    let count = 0;
    for (const topic of this.live.values()) count += topic.subs.size;
    return count;
  }

  /** Starts a subscription on `call` (its request already checked against steps 1 and 2 of §3.2). */
  subscribe(filter: TopicFilter, call: ServerWritableStream<unknown, Buffer>): void {
    const lagging: Refusal = { code: Status.DEADLINE_EXCEEDED, details: Details.lagging };
    let sub: TopicSubscription | undefined;
    const sink = new CallSink(call, this.maxLiveQueue, lagging, (code) => {
      if (sub !== undefined) this.forget(sub);
      this.deps.stats.ended(code);
    });
    sub = new TopicSubscription(filter, sink, this.deps.stats);
    this.all.add(sub);
    this.deps.stats.subscribers = this.all.size;
    const started = sub;
    this.catchUp(started).catch(() => started.sink.end(OUT_OF_ORDER, true));
  }

  /**
   * A commit notice: the index now reaches `consensusEndNs`, and `topics` received messages (null: too many to
   * name, any may have).
   */
  committed(consensusEndNs: bigint, topics: readonly bigint[] | null): void {
    this.commits += 1;
    if (this.indexedEnd === null || consensusEndNs > this.indexedEnd) this.indexedEnd = consensusEndNs;
    const named = topics === null ? [...this.live.keys()] : topics;
    const now = performance.now();
    for (const topicId of named) {
      const topic = this.live.get(topicId);
      if (topic === undefined) continue;
      topic.dirty = true;
      topic.noticedAt ??= now;
      void this.readTopic(topicId, topic);
    }
    // Completion once the index has passed the end (§3.4 case 5): after the rows a pending read brings.
    for (const sub of this.liveWithEnd) {
      if (sub.filter.endNs! > consensusEndNs) continue;
      const topic = this.live.get(sub.filter.topicId);
      if (topic !== undefined && (topic.reading || topic.dirty)) sub.endAfterCommit = this.commits;
      else sub.sink.end("ok");
    }
  }

  /** Ends every open call with `refusal` (shutdown). */
  endAll(refusal: Refusal): void {
    for (const sub of [...this.all]) sub.sink.end(refusal, true);
  }

  /** Starts a catch-up read, noting the commit counter and the index's end as they were when it was issued. */
  private issue(
    sub: TopicSubscription,
    afterNs: bigint,
    limit: number,
    check: boolean,
  ): Promise<CatchUpRead> {
    const counter = this.commits;
    const indexedEnd = this.indexedEnd;
    const filter = sub.filter;
    return this.deps.reads
      .topicPage({ topicId: filter.topicId, afterNs, beforeNs: filter.endNs, limit, check })
      .then((page) => ({ page, counter, indexedEnd, limit }));
  }

  /**
   * History in pages, then live. The page after a full one is read while this one is written (at most two
   * pages held per subscription), since a read worker's round trip would otherwise leave the call idle.
   */
  private async catchUp(sub: TopicSubscription): Promise<void> {
    const filter = sub.filter;
    let pending = this.issue(sub, sub.lastNs, sub.pageLimit(), true);
    let first = true;
    for (;;) {
      const { page, counter, indexedEnd, limit } = await pending;
      if (sub.ended) return;
      if (!page.ok) {
        sub.sink.end(DATA_SOURCE, true);
        return;
      }
      if (first && page.status === TOPIC_UNKNOWN) {
        sub.sink.end({ code: Status.NOT_FOUND, details: `${entityText(filter.topicId)} does not exist` });
        return;
      }
      if (first && page.status === NOT_A_TOPIC) {
        sub.sink.end({ code: Status.INVALID_ARGUMENT, details: Details.notATopic });
        return;
      }
      first = false;
      const messages = page.page;
      const full = messages.count >= limit;
      if (full) {
        const left = sub.remaining === null ? null : sub.remaining - BigInt(messages.count);
        if (left === null || left > 0n) {
          const next = left !== null && left < BigInt(TOPIC_PAGE_SIZE) ? Number(left) : TOPIC_PAGE_SIZE;
          pending = this.issue(sub, messages.consensusNs(messages.count - 1), next, false);
        }
      }
      if (!sub.take(messages)) return;
      if (!full) {
        const end = filter.endNs;
        // §3.4 case 2 (an end before the call) and case 5 (the index had passed the end when this read began).
        if (end !== null && (end < filter.t0Ns || (indexedEnd !== null && indexedEnd >= end))) {
          sub.sink.end("ok");
          return;
        }
        if (this.commits === counter) {
          this.goLive(sub);
          return;
        }
      }
      // Hold two pages at most: the one after the next is read once the call has taken this one.
      await sub.sink.drained();
      if (sub.ended) return;
      if (!full) pending = this.issue(sub, sub.lastNs, sub.pageLimit(), false);
    }
  }

  private goLive(sub: TopicSubscription): void {
    sub.live = true;
    const topicId = sub.filter.topicId;
    let topic = this.live.get(topicId);
    if (topic === undefined) {
      topic = { subs: new Set(), reading: false, dirty: false, noticedAt: null };
      this.live.set(topicId, topic);
    }
    topic.subs.add(sub);
    this.deps.stats.liveSubscribers += 1;
    const end = sub.filter.endNs;
    if (end === null) return;
    this.liveWithEnd.add(sub);
    // §3.4 case 4: every interval, give up once the end is an interval in the past.
    const graceNs = BigInt(this.endTimeIntervalMs) * 1_000_000n;
    sub.graceTimer = setInterval(() => {
      if (end + graceNs < this.deps.nowNs()) sub.sink.end("ok");
    }, this.endTimeIntervalMs);
    sub.graceTimer.unref();
  }

  /** Reads a live topic after its subscriptions' smallest `lastNs` until nothing new is announced. */
  private async readTopic(topicId: bigint, topic: LiveTopic): Promise<void> {
    if (topic.reading) return;
    topic.reading = true;
    try {
      while (topic.dirty && topic.subs.size > 0) {
        topic.dirty = false;
        const noticedAt = topic.noticedAt;
        topic.noticedAt = null;
        const issuedAt = this.commits;
        let from: bigint | null = null;
        for (const sub of topic.subs) if (from === null || sub.lastNs < from) from = sub.lastNs;
        this.deps.stats.liveReads += 1;
        const page = await this.deps.reads.topicPage({
          topicId,
          afterNs: from!,
          beforeNs: null,
          limit: TOPIC_PAGE_SIZE,
          check: false,
        });
        const subs = [...topic.subs];
        if (!page.ok) {
          for (const sub of subs) sub.sink.end(DATA_SOURCE, true);
          continue;
        }
        const full = page.page.count >= TOPIC_PAGE_SIZE;
        if (full) topic.dirty = true;
        const covered = subs.filter((sub) => sub.lastNs >= from!);
        if (covered.length < subs.length) topic.dirty = true;
        // Each subscription's first new message, then (once HTTP/2 has sent those: its sends run before the next
        // turn's callbacks) the rest, each a slice of the one page. In one go, a subscription's whole run would
        // fill its connection's flow-control window and the client's reads before the next one's first message.
        for (const sub of covered) sub.take(page.page, 1);
        if (noticedAt !== null && page.page.count > 0) this.deps.stats.fanout(performance.now() - noticedAt);
        if (page.page.count > 1) {
          await new Promise((resolve) => setImmediate(resolve));
          for (const sub of covered) sub.take(page.page);
        }
        for (const sub of covered) {
          if (!full && sub.endAfterCommit !== null && sub.endAfterCommit <= issuedAt) sub.sink.end("ok");
        }
      }
    } finally {
      topic.reading = false;
      if (topic.subs.size === 0 && this.live.get(topicId) === topic) this.live.delete(topicId);
    }
  }

  private forget(sub: TopicSubscription): void {
    if (!this.all.delete(sub)) return;
    this.deps.stats.subscribers = this.all.size;
    clearInterval(sub.graceTimer);
    this.liveWithEnd.delete(sub);
    if (!sub.live) return;
    this.deps.stats.liveSubscribers -= 1;
    const topic = this.live.get(sub.filter.topicId);
    if (topic === undefined) return;
    topic.subs.delete(sub);
    if (topic.subs.size === 0 && !topic.reading) this.live.delete(sub.filter.topicId);
  }
}
