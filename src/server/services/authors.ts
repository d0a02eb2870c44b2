/**
 * The authors of posts (ucode, nick, avatar) by user id, kept in memory per database, for the
 * post reads.
 *
 * Why: joining each post of a page to its author was the largest part of the page statement's
 * cost beyond reading the posts themselves (30 to 100 µs of PostgreSQL CPU for twenty posts of
 * about 250 for the whole statement, measured with pgbench on 1,000,000 posts, on a busy
 * machine). The service
 * never changes these three after it makes a user (login.ts writes them once; no call edits
 * them), so an author once read stays right. Each entry is read again after AUTHOR_TTL_MS, so a
 * change made by hand in the database shows within that time; at most MAX_AUTHORS are kept.
 * Whether the viewer follows the author stays in the page's statement (it changes).
 */
import type { Db } from '../db/client.ts';
import { preparedStatement, queryPrepared } from '../db/prepared.ts';

export const AUTHOR_TTL_MS = 60_000;
const MAX_AUTHORS = 200_000;

export interface Author {
  ucode: string;
  nick: string;
  avatar: string;
}

interface Known {
  authors: Map<number, { author: Author; readAt: number }>;
}

const AUTHORS_BY_IDS = preparedStatement('authors_by_ids', ['int[]'], 'select id, ucode, nick, avatar from users where id = any($1)');

/** Per database (apps on different test databases share a process). */
const cache = new WeakMap<Db, Known>();

function knownOf(db: Db): Known {
  let known = cache.get(db);
  if (!known || known.authors.size > MAX_AUTHORS) {
    known = { authors: new Map() };
    // A transaction has no driver client of its own (db/prepared.ts) and keeps nothing: it reads afresh.
    if ((db as { $client?: unknown }).$client) cache.set(db, known);
  }
  return known;
}

/** The authors of the ids (read when not known or stale); an id with no user is absent. */
export async function authorsOf(db: Db, userIds: readonly number[]): Promise<Map<number, Author>> {
  const known = knownOf(db);
  const now = Date.now();
  const out = new Map<number, Author>();
  const missing: number[] = [];
  for (const id of userIds) {
    if (out.has(id)) continue;
    const entry = known.authors.get(id);
    if (entry && now - entry.readAt <= AUTHOR_TTL_MS) out.set(id, entry.author);
    else if (!missing.includes(id)) missing.push(id);
  }
  if (missing.length > 0) {
    for (const row of await queryPrepared<{ id: number; ucode: string; nick: string; avatar: string }>(db, AUTHORS_BY_IDS, [missing])) {
      const author = { ucode: row.ucode, nick: row.nick, avatar: row.avatar };
      known.authors.set(row.id, { author, readAt: now });
      out.set(row.id, author);
    }
  }
  return out;
}
