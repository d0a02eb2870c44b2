import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import { DEMO_MODERATOR_CELLPHONE, DEMO_USER_CELLPHONE, SEED_NOW, seedDemoData, seedIfEmpty, type SeedSummary } from '../../src/server/seed/seed.ts';
import { counterMismatches, migrationsFolder, openPostgresTestDatabase, openTestDatabase, queryRows } from '../support/db.ts';

const DIGEST_TABLES = [
  'users',
  'channel_categories',
  'channels',
  'topics',
  'posts',
  'post_channels',
  'post_topics',
  'images',
  'post_images',
  'code_snippets',
  'votes',
  'vote_options',
  'vote_records',
  'comments',
  'likes',
  'channel_follows',
  'user_follows',
  'notes',
  'explore_items',
  'config_items',
  'booklists',
  'booklist_books',
] as const;

/**
 * Digests of the demo as published (seeded at SEED_NOW). The seed may be rewritten (its content
 * moved to seed-data/*.json, its code reorganised) but its data must not change by accident:
 * update these only with a deliberate change of the demo, and say so in the commit.
 */
const PUBLISHED_DIGESTS: Record<(typeof DIGEST_TABLES)[number], string> = {
  // Users have their notice switches and unread count (the demo user's first notices), and the
  // moderation's suspended_until (null): the rows are otherwise as published: without those
  // columns they digest to 1833a00a426397337b0417a999e92567 (the test below). Users, channels and
  // topics have their search document, made by PostgreSQL: without it they digest as before it
  // (the test below).
  users: 'bbd7956159ef703817d7517e3063ef09',
  channel_categories: 'c87b46b7c7d19350bd5ea3856006b9bf',
  channels: '5ac90f4de9a93e6d20ba2cac845fdfc2',
  topics: 'd0d4a69e49795ab911c7f7fea4470537',
  // What each post is made of is copied onto its row (channel and topic ids, the card's
  // pictures and code preview, whether it has a poll), and its search document (its head's
  // lexemes marked apart), and the moderation's columns (hidden_at and the rest, all null). The rows are
  // otherwise as published: without those columns they digest to 96361d26b53f5060c6f5140ac46e3bd6
  // (the test below); without the search document and the moderation's columns, to
  // fc35a2f3a7472b80f77dcb6ef923a8c5; without the moderation's columns, to a33dc68cb02e087b0cd34c50a746f917.
  posts: '65f7a29f5def95d5253c4907d70a547a',
  post_channels: '0b6e24b0466bd2154368c8ad3eaa6703',
  post_topics: '066416e0ad082a65b1856e606bb56b37',
  // The joint book lists' covers were added; the other pictures are as published: without the
  // covers they digest to 5e3f858f9ca71b5ace8a3a2eef461c65 (the test below).
  images: 'ce3969b0119f41be54a4bafc780ca561',
  post_images: 'f0965320028c5a880aaf02882c5fe691',
  code_snippets: 'fa2038073ab88fc094c6a15dad1379a0',
  votes: '46c128772017a18006d3e2759ed415d5',
  vote_options: '6c4e3acc670501d4b85e5ef057d97184',
  vote_records: '6459b3d84bfb56b2d3ffd52bbfffcc64',
  // Comments have the moderation's columns (hidden_at and the rest, all null): the rows are
  // otherwise as published: without them they digest to f5198f001ebfa89097abb64b98464379 (the test below).
  comments: '472d73e6e0b5656dd1b17940861c12b0',
  // Likes have an id (likers page newest first): the seed numbers them by time. The rows
  // are otherwise as published: without the id they digest to 1ee4300b0a0b8028b00748f3886494ff.
  likes: '86e8b064bd74bcee2f87dc30e5e33403',
  channel_follows: '63a46356338449a3d75e8a2289c18160',
  user_follows: '0db3a9866e26ba05bef2785f7d02ed5a',
  notes: '7a34596a071ffe6eb8b74d882f558474',
  explore_items: 'f3d720a02c2260603b50d861194f9135',
  config_items: 'b3faec4faa482d00df66b161aa6bd0f4',
  booklists: '1899af0908be9c2d95ea3e11468b34d8',
  booklist_books: '56757d1ec7df5f21547005b4650ec628',
};

/** md5 of the text form of every row `rows` (a table or a subquery) gives, whatever the session's time zone and collation. */
async function digestOf(db: Db, rows: string): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    const [row] = await queryRows<{ d: string }>(
      tx,
      sql.raw(`select md5(coalesce(string_agg(t::text, E'\\n' order by t::text collate "C"), '')) as d from ${rows} t`),
    );
    return row?.d ?? '';
  });
}

/** The digest of each table. */
async function digests(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of DIGEST_TABLES) out[table] = await digestOf(db, table);
  return out;
}

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const [row] = await queryRows<T>(db, query);
  if (!row) throw new Error('no row');
  return row;
}

async function num(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  return Number((await one<{ n: number | string }>(db, query)).n);
}

let template: Database;
let fresh: Database;
let freshSummary: SeedSummary;

beforeAll(async () => {
  template = await openTestDatabase();
  fresh = await openDatabase({ migrationsFolder });
  // How long this takes is a figure for `npm run bench -- seed`, never an assertion here.
  freshSummary = await seedDemoData(fresh.db);
});

afterAll(async () => {
  await template?.close();
  await fresh?.close();
});

describe('demo seed on PGlite', () => {
  it('is deterministic: two seeded databases are identical', async () => {
    const a = await digests(template.db);
    const b = await digests(fresh.db);
    expect(b).toEqual(a);
  });

  // The e2e suite seeds as of the latest 12:00 in Beijing before it runs (tests/e2e/support/app.ts
  // demoNow), counting on the same posts on /home's first page at any hour.
  it('seeded whole days later, holds the same posts in the same order, each as many days later', async () => {
    const later = await openDatabase({ migrationsFolder });
    try {
      await seedDemoData(later.db, { now: new Date(SEED_NOW.getTime() + 9 * 86_400_000) });
      const posts = (shift: string) => `(select id, user_id, content, is_good, like_count, comment_count, channel_ids, topic_ids, created_at ${shift} as created_at from posts)`;
      expect(await digestOf(later.db, posts("- interval '9 days'"))).toBe(await digestOf(fresh.db, posts('')));
    } finally {
      await later.close();
    }
  });

  it('seeds exactly the published demo data', async () => {
    expect(await digests(fresh.db)).toEqual(PUBLISHED_DIGESTS);
  });

  it('keeps the published likes, numbered in the order they were made', async () => {
    const db = fresh.db;
    expect(await digestOf(db, `(select user_id, target_type, target_id, created_at from likes)`)).toBe('1ee4300b0a0b8028b00748f3886494ff');
    expect(
      await num(db, sql`select count(*)::int as n from (select created_at, lag(created_at) over (order by id) as prev from likes) t where prev > created_at`),
    ).toBe(0);
    // New likes continue after the seeded ones.
    expect(await num(db, sql`select (nextval(pg_get_serial_sequence('likes', 'id')) > (select max(id) from likes))::int as n`)).toBe(1);
  });

  it('keeps the published posts, with what each is made of copied onto its row', async () => {
    expect(await digestOf(fresh.db, `(select id, user_id, content, is_good, like_count, comment_count, created_at, deleted_at from posts)`)).toBe('96361d26b53f5060c6f5140ac46e3bd6');
  });

  it('keeps the published pictures beside the book lists’ covers', async () => {
    expect(await digestOf(fresh.db, `(select * from images where '/img/' || id not in (select cover_url from booklists union all select cover_url from booklist_books))`)).toBe('5e3f858f9ca71b5ace8a3a2eef461c65');
  });

  it('keeps the users, channels and topics as before beside their search documents', async () => {
    const without = async (table: string) => {
      const [row] = await queryRows<{ columns: string }>(
        fresh.db,
        sql`select string_agg(column_name, ', ' order by ordinal_position) as columns from information_schema.columns
          where table_schema = 'public' and table_name = ${table} and column_name <> 'search'`,
      );
      return digestOf(fresh.db, `(select ${row!.columns} from ${table})`);
    };
    expect(await without('users')).toBe('bc6a0c3abda7dfd0ba2abf9765566f9b');
    expect(await without('channels')).toBe('a1bb0d88b30b448046d1864c81bee358');
    expect(await without('topics')).toBe('ce208ea7ac3c4642daf1fad4f797294a');
  });

  it('keeps the published users beside their notice columns', async () => {
    const columns = `id, ucode, nick, avatar, cellphone, intro, is_student, is_university, usertype, follower_count, following_count, post_count, like_count, created_at`;
    expect(await digestOf(fresh.db, `(select ${columns} from users)`)).toBe('1833a00a426397337b0417a999e92567');
  });

  it('keeps the published comments and posts beside their moderation columns (none hidden)', async () => {
    const columns = `id, post_id, user_id, root_id, reply_user_id, content, like_count, reply_count, created_at, deleted_at`;
    expect(await digestOf(fresh.db, `(select ${columns} from comments)`)).toBe('f5198f001ebfa89097abb64b98464379');
    const postColumns = 'id, user_id, content, is_good, like_count, comment_count, created_at, deleted_at, channel_ids, topic_ids, has_vote, attach, search';
    expect(await digestOf(fresh.db, `(select ${postColumns} from posts)`)).toBe('a33dc68cb02e087b0cd34c50a746f917');
    expect(await num(fresh.db, sql`select count(*)::int as n from comments where hidden_at is not null`)).toBe(0);
    expect(await num(fresh.db, sql`select count(*)::int as n from posts where hidden_at is not null`)).toBe(0);
    expect(await num(fresh.db, sql`select count(*)::int as n from users where suspended_until is not null`)).toBe(0);
  });

  it('makes one demo moderator, a seeded user other than the demo user, with a fixed phone', async () => {
    const rows = await queryRows<{ id: number; cellphone: string }>(
      fresh.db,
      sql`select u.id, u.cellphone from moderators m join users u on u.id = m.user_id`,
    );
    expect(rows).toEqual([{ id: 2, cellphone: DEMO_MODERATOR_CELLPHONE }]);
    expect(DEMO_MODERATOR_CELLPHONE).not.toBe(DEMO_USER_CELLPHONE);
  });

  it('gives the demo user a few unread notices: a comment, a reply, likes grouped, followers', async () => {
    const db = fresh.db;
    const demo = await num(db, sql`select id as n from users where cellphone = ${DEMO_USER_CELLPHONE}`);
    const notices = await queryRows<{ type: string; actors: number; unread: boolean }>(
      db,
      sql`select type, actor_count as actors, unread from notices where user_id = ${demo} order by seq desc`,
    );
    expect(notices.map((n) => n.type)).toEqual(['follow', 'like', 'reply', 'comment']);
    expect(notices.every((n) => n.unread)).toBe(true);
    expect(notices.find((n) => n.type === 'like')!.actors).toBeGreaterThan(2);
    expect(await num(db, sql`select notice_unread as n from users where id = ${demo}`)).toBe(4);
    expect(freshSummary.notices).toBe(4);
    expect(await num(db, sql`select count(*)::int as n from notices where user_id <> ${demo}`)).toBe(0);
  });

  it('reports the rows it inserted', async () => {
    const db = template.db;
    expect(freshSummary.posts).toBe(await num(db, sql`select count(*)::int as n from posts`));
    expect(freshSummary.comments).toBe(await num(db, sql`select count(*)::int as n from comments`));
    expect(freshSummary.likes).toBe(await num(db, sql`select count(*)::int as n from likes`));
    expect(freshSummary.images).toBe(await num(db, sql`select count(*)::int as n from images`));
    expect([freshSummary.booklists, freshSummary.booklistBooks]).toEqual([
      await num(db, sql`select count(*)::int as n from booklists`),
      await num(db, sql`select count(*)::int as n from booklist_books`),
    ]);
  });

  it('meets the minimum sizes', async () => {
    const db = template.db;
    expect(await num(db, sql`select count(*)::int as n from channel_categories`)).toBeGreaterThanOrEqual(3);
    expect(await num(db, sql`select count(*)::int as n from channels`)).toBeGreaterThanOrEqual(12);
    expect(
      await num(db, sql`select count(distinct category_id)::int as n from channels`),
    ).toBeGreaterThanOrEqual(3);
    expect(await num(db, sql`select count(*)::int as n from users`)).toBe(40);
    expect(await num(db, sql`select count(*)::int as n from users where is_student`)).toBeGreaterThan(0);
    expect(await num(db, sql`select count(*)::int as n from users where is_university`)).toBeGreaterThan(0);
    expect(await num(db, sql`select count(*)::int as n from users where intro = ''`)).toBe(0);

    const posts = await num(db, sql`select count(*)::int as n from posts`);
    expect(posts).toBeGreaterThanOrEqual(500);
    const frac = async (q: ReturnType<typeof sql>) => (await num(db, q)) / posts;
    expect(await frac(sql`select count(distinct post_id)::int as n from post_images`)).toBeGreaterThan(0.1);
    expect(await frac(sql`select count(distinct post_id)::int as n from post_images`)).toBeLessThan(0.2);
    expect(await frac(sql`select count(distinct post_id)::int as n from code_snippets`)).toBeGreaterThan(0.07);
    expect(await frac(sql`select count(distinct post_id)::int as n from code_snippets`)).toBeLessThan(0.13);
    expect(await frac(sql`select count(*)::int as n from votes`)).toBeGreaterThan(0.03);
    expect(await frac(sql`select count(*)::int as n from votes`)).toBeLessThan(0.07);
    expect(await frac(sql`select count(*)::int as n from posts where is_good`)).toBeGreaterThan(0.05);
    expect(await frac(sql`select count(*)::int as n from posts where is_good`)).toBeLessThan(0.11);
    expect(await frac(sql`select count(distinct post_id)::int as n from post_topics`)).toBeGreaterThan(0.25);

    expect(await num(db, sql`select count(*)::int as n from topics where intro <> '' and cover like '/img/%'`)).toBeGreaterThanOrEqual(10);
    expect(await num(db, sql`select count(distinct language)::int as n from code_snippets`)).toBeGreaterThanOrEqual(5);
    expect(await num(db, sql`select count(*)::int as n from comments where root_id is not null`)).toBeGreaterThan(100);
    expect(await num(db, sql`select count(*)::int as n from likes where target_type = 'comment'`)).toBeGreaterThan(100);
    expect(await num(db, sql`select count(*)::int as n from channel_follows`)).toBeGreaterThan(40);
    expect(await num(db, sql`select count(*)::int as n from user_follows`)).toBeGreaterThan(40);
    expect(await num(db, sql`select count(distinct user_id)::int as n from notes`)).toBeGreaterThanOrEqual(5);
  });

  it('has consistent shapes', async () => {
    const db = template.db;
    // Every post is in 1 or 2 channels and has at most 4 images.
    expect(
      await num(
        db,
        sql`select count(*)::int as n from posts p
          where (select count(*) from post_channels pc where pc.post_id = p.id) not between 1 and 2`,
      ),
    ).toBe(0);
    expect(
      await num(db, sql`select count(*)::int as n from (select post_id from post_images group by post_id having count(*) > 4) x`),
    ).toBe(0);
    // Votes have 2-4 options; records point at options of their own vote.
    expect(
      await num(
        db,
        sql`select count(*)::int as n from votes v
          where (select count(*) from vote_options o where o.vote_id = v.id) not between 2 and 4`,
      ),
    ).toBe(0);
    expect(
      await num(
        db,
        sql`select count(*)::int as n from vote_records r join vote_options o on o.id = r.option_id where o.vote_id <> r.vote_id`,
      ),
    ).toBe(0);
    expect(
      await num(
        db,
        sql`select count(*)::int as n from (
          select r.vote_id, r.user_id from vote_records r join votes v on v.id = r.vote_id
          where not v.multiple group by r.vote_id, r.user_id having count(*) > 1) x`,
      ),
    ).toBe(0);
    // Replies belong to a top-level comment of the same post, answer someone, and come after it.
    expect(
      await num(
        db,
        sql`select count(*)::int as n from comments r join comments root on root.id = r.root_id
          where root.root_id is not null or root.post_id <> r.post_id or r.reply_user_id is null
             or r.created_at <= root.created_at`,
      ),
    ).toBe(0);
    // Snippet uuids are uuids.
    expect(
      await num(
        db,
        sql`select count(*)::int as n from code_snippets
          where uuid !~ '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'`,
      ),
    ).toBe(0);
    // Comments, likes and votes come after what they answer, and nothing is dated after the seed's now.
    expect(
      await num(db, sql`select count(*)::int as n from comments c join posts p on p.id = c.post_id where c.created_at <= p.created_at`),
    ).toBe(0);
    expect(
      await num(
        db,
        sql`select count(*)::int as n from likes l
          left join posts p on l.target_type = 'post' and p.id = l.target_id
          left join comments c on l.target_type = 'comment' and c.id = l.target_id
          where l.created_at <= coalesce(p.created_at, c.created_at)`,
      ),
    ).toBe(0);
    expect(
      await num(
        db,
        sql`select count(*)::int as n from vote_records r join votes v on v.id = r.vote_id
          join posts p on p.id = v.post_id
          where r.created_at <= p.created_at or (v.end_time is not null and r.created_at > v.end_time)`,
      ),
    ).toBe(0);
    for (const table of ['posts', 'comments', 'likes', 'vote_records', 'channel_follows', 'user_follows', 'notes']) {
      const late = await num(
        db,
        sql`select count(*)::int as n from ${sql.identifier(table)} where created_at > ${SEED_NOW.toISOString()}::timestamptz`,
      );
      expect(late, table).toBe(0);
    }
  });

  it('orders posts and comments by time in id order, over about 60 days', async () => {
    const db = template.db;
    for (const table of ['posts', 'comments']) {
      const inversions = await num(
        db,
        sql.raw(`select count(*)::int as n from (
          select created_at, lag(created_at) over (order by id) as prev from ${table}) x
          where created_at <= prev`),
      );
      expect(inversions, table).toBe(0);
    }
    const span = await one<{ days: number }>(
      db,
      sql`select (extract(epoch from max(created_at) - min(created_at)) / 86400)::float8 as days from posts`,
    );
    expect(Number(span.days)).toBeGreaterThan(50);
    expect(Number(span.days)).toBeLessThan(61);
  });

  it('keeps every denormalised counter equal to the real count', async () => {
    const mismatches = await counterMismatches(template.db);
    for (const value of Object.values(mismatches)) expect(value).toBe(0);
    expect(Object.keys(mismatches).length).toBeGreaterThanOrEqual(13);
    // Counters are not trivially zero.
    expect(await num(template.db, sql`select count(*)::int as n from posts where like_count > 0`)).toBeGreaterThan(200);
    expect(await num(template.db, sql`select sum(total)::int as n from votes`)).toBeGreaterThan(50);
  });

  it('stores every referenced image as an SVG in the images table', async () => {
    const db = template.db;
    const missing = await num(
      db,
      sql`select count(*)::int as n from (
        select url from post_images
        union all select avatar from users
        union all select icon from channels
        union all select cover from topics
      ) x(url) left join images i on '/img/' || i.id = x.url where i.id is null`,
    );
    expect(missing).toBe(0);
    expect(
      await num(db, sql`select count(*)::int as n from post_images pi join images i on '/img/' || i.id = pi.url
        where i.width <> pi.width or i.height <> pi.height`),
    ).toBe(0);
    expect(await num(db, sql`select count(*)::int as n from images where mime <> 'image/svg+xml'`)).toBe(0);
    const sizes = await num(db, sql`select count(distinct (width, height))::int as n from post_images`);
    expect(sizes).toBeGreaterThanOrEqual(3);
    const [img] = await queryRows<{ bytes: unknown; width: number; height: number }>(
      db,
      sql`select i.bytes, i.width, i.height from images i join post_images pi on '/img/' || i.id = pi.url order by pi.id limit 1`,
    );
    expect(img).toBeDefined();
    const bytes = img?.bytes;
    const text = Buffer.from(bytes instanceof Uint8Array ? bytes : Buffer.alloc(0)).toString('utf8');
    expect(text.startsWith('<svg')).toBe(true);
    expect(text).toContain(`width="${img?.width}"`);
  });

  it('has the demo user, distinct phone numbers, explore items and race_medals', async () => {
    const db = template.db;
    const demo = await one<{ id: number; cellphone: string; post_count: number; follower_count: number }>(
      db,
      sql`select id, cellphone, post_count, follower_count from users where id = 1`,
    );
    expect(demo.cellphone).toBe(DEMO_USER_CELLPHONE);
    expect(demo.post_count).toBeGreaterThan(0);
    expect(demo.follower_count).toBeGreaterThan(0);
    expect(await num(db, sql`select count(*)::int as n from users where cellphone !~ '^138[0-9]{8}$'`)).toBe(0);
    expect(await num(db, sql`select count(distinct cellphone)::int as n from users`)).toBe(40);
    expect(await num(db, sql`select count(*)::int as n from notes where user_id = 1`)).toBeGreaterThan(0);

    const sidebar = await queryRows<{ title: string; redirect_param: string }>(
      db,
      sql`select title, redirect_param from explore_items where page = 'horde' and block_name = 'sidebar' order by sort, id`,
    );
    expect(sidebar.map((i) => i.title).slice(0, 3)).toEqual(['话题广场', '每日一课', '读书会书单']);
    expect(sidebar[0]?.redirect_param).toBe('/topic/list');
    expect(sidebar[1]?.redirect_param).toMatch(/^https:\/\//);
    expect(sidebar[2]?.redirect_param).toBe('/booklist/2024');
    // The list it leads to, and one more.
    expect(await queryRows(db, sql`select code from booklists order by id`)).toEqual([{ code: '2024' }, { code: '2025' }]);

    const config = await one<{ content: string }>(db, sql`select content from config_items where key = 'race_medals'`);
    const medals: unknown = JSON.parse(config.content);
    expect(Array.isArray(medals)).toBe(true);
    expect((medals as unknown[]).length).toBeGreaterThan(0);
    expect((medals as { name: string }[])[0]?.name).toBeTruthy();
  });

  it('seedIfEmpty leaves a seeded database alone', async () => {
    expect(await seedIfEmpty(template.db)).toBe(false);
    await expect(seedDemoData(template.db)).rejects.toThrow(/already has users/);
  });

  it('moves the sequences past the inserted ids', async () => {
    const db = fresh.db;
    const max = await num(db, sql`select max(id)::int as n from notes`);
    const inserted = await one<{ id: number }>(db, sql`insert into notes (user_id, content) values (1, 'x') returning id`);
    expect(Number(inserted.id)).toBe(max + 1);
    const maxPost = await num(db, sql`select max(id)::int as n from posts`);
    const post = await one<{ id: number }>(db, sql`insert into posts (user_id, content) values (1, 'x') returning id`);
    expect(Number(post.id)).toBe(maxPost + 1);
  });
});

describe('demo seed on PostgreSQL 15', () => {
  it('seeds the same data with consistent counters', { timeout: 120_000 }, async () => {
    const pgDb = await openPostgresTestDatabase();
    try {
      expect(pgDb.database.kind).toBe('postgres');
      const mismatches = await counterMismatches(pgDb.database.db);
      for (const value of Object.values(mismatches)) expect(value).toBe(0);
      expect(await digests(pgDb.database.db)).toEqual(await digests(template.db));
      expect(await seedIfEmpty(pgDb.database.db)).toBe(false);
    } finally {
      await pgDb.stop();
    }
  });
});
