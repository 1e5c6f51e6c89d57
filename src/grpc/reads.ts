/**
 * The main thread's side of the gRPC read jobs: sends them to the read-worker pool and turns the answer into
 * framed messages, or a failure.
 */
import type { ReadAnswerer } from "../api/read-pool.ts";
import { FramePage } from "./page-frame.ts";
import { NODES_JOB, type NodesQuery, TOPIC_PAGE_JOB, type TopicPageQuery } from "./read-jobs.ts";

export type PageResult =
  | { readonly ok: true; readonly status: number; readonly page: FramePage }
  /** The read failed, passed its deadline or found no worker (the caller answers RESOURCE_EXHAUSTED). */
  | { readonly ok: false; readonly reason: string };

export type GrpcReads = {
  topicPage(query: TopicPageQuery): Promise<PageResult>;
  nodes(query: NodesQuery): Promise<PageResult>;
};

export function createGrpcReads(pool: ReadAnswerer): GrpcReads {
  const run = async (template: string, query: unknown): Promise<PageResult> => {
    const outcome = await pool.run({
      template,
      method: "GET",
      query,
      request: { url: template, params: {} },
    });
    if (!outcome.ok) {
      const failure = outcome.failure;
      return { ok: false, reason: failure.kind === "unexpected" ? failure.message : failure.kind };
    }
    const body = outcome.response.body;
    if (typeof body === "string") return { ok: false, reason: "a gRPC read job answered text" };
    return { ok: true, status: outcome.response.status, page: new FramePage(body) };
  };
  return {
    topicPage: (query) => run(TOPIC_PAGE_JOB, query),
    nodes: (query) => run(NODES_JOB, query),
  };
}
