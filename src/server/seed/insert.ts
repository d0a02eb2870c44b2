/**
 * Writing the demo's rows (built by seed.ts) into the database, table by table in chunks, then
 * moving each serial's sequence past the explicit ids, with the seed's progress told by step.
 */
import { sql } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { seedDemoNotices } from './seed-notices.ts';
import type { Built, BuiltBooklists, SeedSummary } from './seed.ts';
import {
  booklistBooks,
  booklists,
  channelCategories,
  channelFollows,
  channels,
  codeSnippets,
  comments,
  configItems,
  exploreItems,
  images,
  likes,
  moderators,
  notes,
  postChannels,
  postImages,
  posts,
  postTopics,
  topics,
  userFollows,
  users,
  voteOptions,
  voteRecords,
  votes,
} from '../db/schema.ts';

/** The demo user's id: the first user seeded. */
const DEMO_USER_ID = 1;
/**
 * The demo's moderator: the second user seeded (码农老王), whose phone the seed's generator fixes
 * (tests/api/seed.test.ts holds it), so a demo can log in as them and work the review queue.
 */
const DEMO_MODERATOR_ID = 2;

const SERIAL_TABLES = [
  'users',
  'channel_categories',
  'channels',
  'topics',
  'posts',
  'post_images',
  'votes',
  'vote_options',
  'comments',
  'likes',
  'notes',
  'explore_items',
  'booklists',
  'booklist_books',
] as const;

async function insertAll<T extends PgTable>(db: Db, table: T, rows: PgInsertValue<T>[], chunk = 500): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await db.insert(table).values(rows.slice(i, i + chunk));
    // PGlite runs each statement on this thread and answers through microtasks: without a turn
    // of the event loop between chunks, no probe or page would be answered until the seed ends.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The steps of a seed, in order, as progress names them. */
export const SEED_STEPS = [
  'content',
  'community',
  'users',
  'images',
  'channels and topics',
  'posts',
  'pictures and code',
  'polls',
  'comments',
  'likes',
  'follows',
  'notes',
  'sidebar',
  'book lists',
  'notices',
  'moderators',
] as const;
export type SeedStep = (typeof SEED_STEPS)[number];

/** Told as each step of a seed starts: its name, and its place among SEED_STEPS (from 1). */
export type SeedProgress = (step: SeedStep, number: number, of: number) => void;

export const told = (progress: SeedProgress | undefined, step: SeedStep) => progress?.(step, SEED_STEPS.indexOf(step) + 1, SEED_STEPS.length);

export async function write(db: Db, b: Built, progress?: SeedProgress): Promise<SeedSummary> {
  told(progress, 'users');
  await insertAll(db, users, b.users);
  told(progress, 'images');
  await insertAll(db, images, b.images, 100);
  told(progress, 'channels and topics');
  await insertAll(db, channelCategories, b.categories);
  await insertAll(db, channels, b.channels);
  await insertAll(db, topics, b.topics);
  told(progress, 'posts');
  await insertAll(db, posts, b.posts);
  await insertAll(db, postChannels, b.postChannels, 1000);
  await insertAll(db, postTopics, b.postTopics, 1000);
  // Each post's search document, as post/add writes it (migration 0010_search).
  await db.execute(sql`update posts set search = post_search_document(content, topic_ids, attach)`);
  told(progress, 'pictures and code');
  await insertAll(db, postImages, b.postImages);
  await insertAll(db, codeSnippets, b.codeSnippets);
  told(progress, 'polls');
  await insertAll(db, votes, b.votes);
  await insertAll(db, voteOptions, b.voteOptions);
  await insertAll(db, voteRecords, b.voteRecords, 1000);
  told(progress, 'comments');
  await insertAll(db, comments, b.comments);
  told(progress, 'likes');
  await insertAll(db, likes, b.likes, 1000);
  told(progress, 'follows');
  await insertAll(db, channelFollows, b.channelFollows, 1000);
  await insertAll(db, userFollows, b.userFollows, 1000);
  told(progress, 'notes');
  await insertAll(db, notes, b.notes);
  told(progress, 'sidebar');
  await insertAll(db, exploreItems, b.exploreItems);
  await insertAll(db, configItems, b.configItems);
  told(progress, 'book lists');
  await writeBooklists(db, b.booklists);
  await moveSequencesPast(db, SERIAL_TABLES);
  told(progress, 'notices');
  const noticesMade = await seedDemoNotices(db, DEMO_USER_ID);
  told(progress, 'moderators');
  await db.insert(moderators).values({ userId: DEMO_MODERATOR_ID });
  return {
    users: b.users.length,
    channelCategories: b.categories.length,
    channels: b.channels.length,
    channelFollows: b.channelFollows.length,
    userFollows: b.userFollows.length,
    topics: b.topics.length,
    posts: b.posts.length,
    postChannels: b.postChannels.length,
    postTopics: b.postTopics.length,
    images: b.images.length + b.booklists.images.length,
    postImages: b.postImages.length,
    codeSnippets: b.codeSnippets.length,
    votes: b.votes.length,
    voteOptions: b.voteOptions.length,
    voteRecords: b.voteRecords.length,
    comments: b.comments.length,
    likes: b.likes.length,
    notes: b.notes.length,
    exploreItems: b.exploreItems.length,
    configItems: b.configItems.length,
    booklists: b.booklists.lists.length,
    booklistBooks: b.booklists.books.length,
    notices: noticesMade,
  };
}

/** Explicit ids were inserted: moves each table's sequence past them. */
export async function moveSequencesPast(db: Db, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await db.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`,
      ),
    );
  }
}

export async function writeBooklists(db: Db, b: BuiltBooklists): Promise<void> {
  await insertAll(db, images, b.images, 100);
  await insertAll(db, booklists, b.lists);
  await insertAll(db, booklistBooks, b.books);
}
