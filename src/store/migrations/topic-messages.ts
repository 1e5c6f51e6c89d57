import type { Migration } from "../migrations.ts";

/** Migrations of consensus messages (topics): keys 0030-… to 0039-…. */
export const TOPIC_MESSAGES_MIGRATIONS: readonly Migration[] = [];
