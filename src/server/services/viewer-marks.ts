/**
 * What a page marks for its viewer (the posts they liked, the users they follow, the options they
 * chose in polls), kept in memory per database and per viewer, for the post reads (posts.ts).
 *
 * Why: reading them in the page's own statement cost a logged-in page about a fifth more than a
 * visitor's (tests/bench/README.md, logged-in). Kept here, a logged-in page runs the visitor's
 * statement and Node marks the cards.
 *
 * Kept right on every process: each change to them moves the viewer's version in its own
 * transaction (migration 0018_viewer_marks, triggers on likes, user_follows and vote_records), and
 * a page read with kept marks finds its rows only while the version is still the one they were
 * read at (MARKS_CURRENT_SQL in the page's statement). No rows then means: the page is empty, the
 * ticket is no longer live, or the marks moved; readMarks tells which in one statement. A viewer
 * with more marks than the bounds below keeps none: their pages read them in the statement.
 */
import type { Db } from '../db/client.ts';
import { preparedStatement, queryPrepared, type HexDigest } from '../db/prepared.ts';
import { cacheOwner } from '../db/transaction.ts';
import { TICKET_LIVE_SQL } from './sessions.ts';

/** At most this many of a viewer's likes of posts, follows and poll choices are kept. */
export const KEPT_LIKES_MAX = 2_000;
export const KEPT_FOLLOWS_MAX = 1_000;
export const KEPT_CHOICES_MAX = 1_000;
/** Viewers kept per database, and their likes, follows and choices in all: past either, the memory starts afresh. */
const MAX_VIEWERS = 10_000;
const MAX_ENTRIES = 1_000_000;

export interface ViewerMarks {
  version: number;
  liked: ReadonlySet<number>;
  follows: ReadonlySet<number>;
  /** The options chosen, by poll id. */
  choices: ReadonlyMap<number, readonly number[]>;
}

/** The version of the viewer's marks now (0 for a user who never changed them). */
export const marksVersionSql = (viewer: string) => `coalesce((select m.version from viewer_marks m where m.user_id = ${viewer}), 0)`;

/** The page's statement finds rows only while the viewer's marks are at version `version` (a placeholder). */
export const MARKS_CURRENT_SQL = (viewer: string, version: string) => `${marksVersionSql(viewer)} = ${version}`;

/**
 * The viewer's marks at one version (one statement, one snapshot), and whether the ticket ($2,
 * null when it was looked up for this request) is live. Each list reads one past its bound, so a
 * list too long to keep shows as such.
 */
const READ_MARKS = preparedStatement(
  'viewer_marks_read',
  ['int', 'text'],
  `select $2::text is null or ${TICKET_LIVE_SQL('$2', '$1')} as live,
    ${marksVersionSql('$1')} as version,
    array(select l.target_id from likes l where l.user_id = $1 and l.target_type = 'post' limit ${KEPT_LIKES_MAX + 1}) as liked,
    array(select f.followee_id from user_follows f where f.follower_id = $1 limit ${KEPT_FOLLOWS_MAX + 1}) as follows,
    array(select r.vote_id || ':' || r.option_id from vote_records r where r.user_id = $1 limit ${KEPT_CHOICES_MAX + 1}) as choices`,
);

interface MarksRow {
  live: boolean;
  version: number | string;
  liked: (number | string)[];
  follows: number[];
  /** Each as `poll:option`. */
  choices: string[];
}

/** The kept marks, or null for a viewer with too many to keep. */
type Kept = ViewerMarks | null;

interface Memory {
  viewers: Map<number, Kept | Promise<Kept>>;
  /** The likes, follows and choices kept so far (counted as kept, not as dropped). */
  entries: number;
}

const cache = new WeakMap<Db, Memory>();

function memoryOf(db: Db): Memory | undefined {
  const owner = cacheOwner(db);
  // A transaction has no driver client of its own (db/prepared.ts) and keeps nothing.
  if (!(owner as { $client?: unknown }).$client) return undefined;
  let memory = cache.get(owner);
  if (!memory || memory.viewers.size >= MAX_VIEWERS || memory.entries >= MAX_ENTRIES) {
    memory = { viewers: new Map(), entries: 0 };
    cache.set(owner, memory);
  }
  return memory;
}

function keep(memory: Memory | undefined, userId: number, marks: Kept): void {
  if (!memory) return;
  memory.viewers.set(userId, marks);
  if (marks) memory.entries += marks.liked.size + marks.follows.size + marks.choices.size;
}

function marksOf(row: MarksRow): Kept {
  if (row.liked.length > KEPT_LIKES_MAX || row.follows.length > KEPT_FOLLOWS_MAX || row.choices.length > KEPT_CHOICES_MAX) return null;
  const choices = new Map<number, number[]>();
  for (const choice of row.choices) {
    const [voteId, optionId] = choice.split(':').map(Number) as [number, number];
    const chosen = choices.get(voteId);
    if (chosen) chosen.push(optionId);
    else choices.set(voteId, [optionId]);
  }
  return { version: Number(row.version), liked: new Set(row.liked.map(Number)), follows: new Set(row.follows), choices };
}

/** Reads the viewer's marks now and keeps them, and whether the ticket checked (if any) is still live. */
export async function readMarks(db: Db, userId: number, ticketCheck: HexDigest | undefined): Promise<{ live: boolean; marks: Kept }> {
  const [row] = await queryPrepared<MarksRow>(db, READ_MARKS, [userId, ticketCheck ?? null]);
  const marks = marksOf(row!);
  keep(memoryOf(db), userId, marks);
  return { live: row!.live, marks };
}

/**
 * The viewer's marks as kept, read first when not (one read for the requests that ask at once);
 * null for a viewer with too many, or in a transaction (which keeps nothing).
 */
export async function viewerMarks(db: Db, userId: number): Promise<Kept> {
  const memory = memoryOf(db);
  if (!memory) return null;
  const known = memory.viewers.get(userId);
  if (known !== undefined) return known;
  const reading: Promise<Kept> = queryPrepared<MarksRow>(db, READ_MARKS, [userId, null]).then(
    ([row]) => {
      const marks = marksOf(row!);
      if (memory.viewers.get(userId) === reading) keep(memory, userId, marks);
      return marks;
    },
    (error: unknown) => {
      if (memory.viewers.get(userId) === reading) memory.viewers.delete(userId);
      throw error;
    },
  );
  memory.viewers.set(userId, reading);
  return reading;
}

/**
 * A like (`liked`) or unlike of post `postId` that the viewer's write changed and committed, its
 * statement having seen their marks at `versionSeen`: the marks kept at that version follow it to
 * the next, the one its trigger moved them to, so the viewer's next page is still one statement.
 * When another change came between (kept at another version, or committed meanwhile, which makes
 * the version move past the next), the next page finds its version gone and reads them again.
 */
export function keepLikeMade(db: Db, userId: number, postId: number, liked: boolean, versionSeen: number): void {
  const memory = memoryOf(db);
  const kept = memory?.viewers.get(userId);
  if (!memory || !kept || kept instanceof Promise || kept.version !== versionSeen) return;
  // A new set: a page being marked meanwhile keeps the one it was read with.
  const likes = new Set(kept.liked);
  if (liked) likes.add(postId);
  else likes.delete(postId);
  memory.entries += likes.size - kept.liked.size;
  memory.viewers.set(userId, likes.size > KEPT_LIKES_MAX ? null : { ...kept, version: versionSeen + 1, liked: likes });
}
