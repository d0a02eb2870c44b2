/**
 * The authors of posts (ucode, nick, avatar) by user id, kept in memory per database, for the
 * post reads.
 *
 * Why: joining each post of a page to its author is the largest part of the page statement's
 * cost beyond reading the posts themselves. Of the three only the nickname ever changes
 * (nick/update, which forgets the author here at once: on other API processes, and for a change
 * made by hand in the database, an entry is never used once older than AUTHOR_TTL_MS, so it shows
 * within that time); at most MAX_AUTHORS are kept. Whether the viewer follows the author stays in
 * the page's statement (it changes).
 *
 * Entries past half their time are still used, and read again in the background, in one batch
 * per REFRESH_DELAY_MS: authors met often are then never stale, so a page does not wait for an
 * extra query because one of its twenty authors was read a minute ago.
 */
import type { Db } from '../db/client.ts';
import { preparedStatement, queryPrepared } from '../db/prepared.ts';
import { cacheOwner } from '../db/transaction.ts';

export const AUTHOR_TTL_MS = 60_000;
const MAX_AUTHORS = 200_000;
const REFRESH_DELAY_MS = 100;

export interface Author {
  ucode: string;
  nick: string;
  avatar: string;
  /**
   * The author as a post's JSON text names them, open at `is_follow` (the viewer's, written per
   * post): `{"uid":1,"ucode":"…","nick":"…","avatar":"…","is_follow":` (json-text.ts).
   */
  openJson: string;
}

interface Known {
  authors: Map<number, { author: Author; readAt: number }>;
  /** Ids past half their time, to read again in the next background batch. */
  toRefresh: Set<number>;
  /** The background batch under way or scheduled, if any. */
  refreshing: Promise<void> | undefined;
}

const AUTHORS_BY_IDS = preparedStatement('authors_by_ids', ['int[]'], 'select id, ucode, nick, avatar from users where id = any($1)');

/** Per database (apps on different test databases share a process); a write's connection uses its pool's (db/transaction.ts, cacheOwner). */
const cache = new WeakMap<Db, Known>();

function knownOf(owner: Db): Known {
  let known = cache.get(owner);
  if (!known || known.authors.size > MAX_AUTHORS) {
    known = { authors: new Map(), toRefresh: new Set(), refreshing: undefined };
    // A transaction has no driver client of its own (db/prepared.ts) and keeps nothing: it reads afresh.
    if ((owner as { $client?: unknown }).$client) cache.set(owner, known);
  }
  return known;
}

/** Reads the authors of the ids into memory, as of `now`. */
async function readAuthors(db: Db, known: Known, ids: readonly number[], now: number, out?: Map<number, Author>): Promise<void> {
  for (const row of await queryPrepared<{ id: number; ucode: string; nick: string; avatar: string }>(db, AUTHORS_BY_IDS, [ids])) {
    const brief = JSON.stringify({ uid: row.id, ucode: row.ucode, nick: row.nick, avatar: row.avatar });
    const author = { ucode: row.ucode, nick: row.nick, avatar: row.avatar, openJson: `${brief.slice(0, -1)},"is_follow":` };
    known.authors.set(row.id, { author, readAt: now });
    out?.set(row.id, author);
  }
}

function scheduleRefresh(db: Db, known: Known): void {
  if (known.refreshing) return;
  known.refreshing = new Promise<void>((resolve) => setTimeout(resolve, REFRESH_DELAY_MS).unref()).then(async () => {
    const ids = [...known.toRefresh];
    known.toRefresh.clear();
    try {
      await readAuthors(db, known, ids, Date.now());
    } catch {
      // The database is away (or closed): the entries age out and are read on the request's path.
    } finally {
      known.refreshing = undefined;
    }
  });
}

/** Drops what is kept of a user (their nickname changed): the next read takes it afresh. */
export function forgetAuthor(db: Db, userId: number): void {
  cache.get(db)?.authors.delete(userId);
}

/** The background batch under way, if any (tests wait for it). */
export const authorRefresh = (db: Db): Promise<void> | undefined => cache.get(db)?.refreshing;

/**
 * The authors of the ids (read when not known or stale; read again in the background when past
 * half their time); an id with no user is absent. `now` is the clock's time (tests pass others).
 */
export async function authorsOf(db: Db, userIds: readonly number[], now = Date.now()): Promise<Map<number, Author>> {
  const owner = cacheOwner(db);
  const known = knownOf(owner);
  const kept = cache.get(owner) === known;
  const out = new Map<number, Author>();
  const missing: number[] = [];
  for (const id of userIds) {
    if (out.has(id)) continue;
    const entry = known.authors.get(id);
    const age = entry ? now - entry.readAt : Infinity;
    if (age <= AUTHOR_TTL_MS) {
      out.set(id, entry!.author);
      if (age > AUTHOR_TTL_MS / 2 && kept) {
        known.toRefresh.add(id);
        // On the owner: a write's connection is given back before the batch goes.
        scheduleRefresh(owner, known);
      }
    } else if (!missing.includes(id)) missing.push(id);
  }
  if (missing.length > 0) await readAuthors(db, known, missing, now, out);
  return out;
}
