/**
 * A database made with the first migration alone opens under the current migrations and keeps
 * its data, on PGlite and on PostgreSQL: likes get ids in the order they were made (so likers
 * page newest first), duplicate complaints (now one per user and target) keep the first,
 * idempotency keys survive their new columns and index, and images stored then get narrower
 * copies (image_variants); what each post is made of is copied onto its row (channel and topic
 * ids, the card's pictures and code preview). A database of the main before nicknames were
 * unique keeps every user: the first of a shared nickname keeps it, the others get their id
 * after it. A demo database of the main before the joint book lists keeps its data and gets the
 * demo's two lists at its next start (its sidebar leads to one); a database that is not the
 * demo gets none. Tickets of the main before the way a ticket was issued was kept still log in
 * as they did: as the cookie, or as headers from their own device. Posts, topics, channels and
 * users of the main before search are found by it (their documents made by the migration). A
 * database of the main before moderation keeps its posts, comments and complaints (each complaint
 * open, in the review queue), nothing hidden and nobody suspended or a moderator. Notices of the
 * main before their previews were stored show the previews their list showed then. Polls of the
 * main before their cards rode on the posts show as they did, each voter's choices marked.
 */
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Booklist, Notice, Paged, Post, SearchHit, UserBrief } from '../../src/shared/schemas.ts';
import { createDatabase, lacksDemoBooklists, type Database, type Db } from '../../src/server/db/client.ts';
import type * as schema from '../../src/server/db/schema.ts';
import { seedDemoBooklists } from '../../src/server/seed/seed.ts';
import { hashToken } from '../../src/server/services/sessions.ts';
import { runModeratorCommand } from '../../src/server/services/moderators.ts';
import { codeOf, createTestApp, errorOf } from '../support/api.ts';
import { migrationsFolder, migrationsUpTo, queryRows, startPostgres } from '../support/db.ts';

/** A snippet of 10 lines: a card shows its first 8. */
const OLD_CODE = Array.from({ length: 10 }, (_, i) => `print(${i})`).join('\n');

interface Opened {
  database: Database;
  migrate(folder: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The database as the app opens it (on PostgreSQL its pool, which pipelines a write's statements),
 * migrated by the test to the folder it asks for; `stopServer` after it is closed.
 */
async function openAsTheAppDoes(databaseUrl: string | undefined, stopServer: () => Promise<void>): Promise<Opened> {
  const database = await createDatabase({ databaseUrl, migrationsFolder, poolSize: 4 });
  await database.connect();
  return {
    database,
    migrate: async (folder) => {
      if (database.kind === 'postgres') await migratePg(database.db as unknown as NodePgDatabase<typeof schema>, { migrationsFolder: folder });
      else await migratePglite(database.db as unknown as PgliteDatabase<typeof schema>, { migrationsFolder: folder });
    },
    stop: async () => {
      await database.close();
      await stopServer();
    },
  };
}

const engines: { name: string; open: () => Promise<Opened> }[] = [
  { name: 'PGlite', open: () => openAsTheAppDoes(undefined, async () => undefined) },
  {
    name: 'PostgreSQL',
    open: async () => {
      const server = await startPostgres();
      return openAsTheAppDoes(server.url, () => server.stop());
    },
  },
];

/**
 * A database of a previous main on an engine, for one describe block: made by the migrations up
 * to `tag`, filled by `load` as that main stored its data, then migrated to now; stopped after it.
 */
function previousMain(open: () => Promise<Opened>, tag: string, load: (db: Db) => Promise<void>): { readonly database: Database } {
  let opened: Opened | undefined;
  let oldFolder: string | undefined;
  beforeAll(async () => {
    opened = await open();
    oldFolder = await migrationsUpTo(tag);
    await opened.migrate(oldFolder);
    await load(opened.database.db);
    await opened.migrate(migrationsFolder);
  }, 60_000);
  afterAll(async () => {
    await opened?.stop();
    if (oldFolder) await rm(oldFolder, { recursive: true, force: true });
  });
  return {
    get database() {
      if (!opened) throw new Error('the database is opened before the tests');
      return opened.database;
    },
  };
}

describe.each(engines)('a database of the previous main on $name', ({ open }) => {
  const opened = previousMain(open, '0000_init', async (db) => {
    // Data as the previous main stored it (no like ids, complaints not yet unique).
    await db.execute(sql`insert into users (id, ucode, nick, avatar) values (1, 'u1', '一号', ''), (2, 'u2', '二号', ''), (3, 'u3', '三号', '')`);
    await db.execute(sql`insert into posts (id, user_id, content, like_count) values (1, 1, '旧动态', 3), (2, 2, '只有文字', 0)`);
    // What the posts are made of, in the tables that held it alone before it was copied onto the posts.
    await db.execute(sql`insert into channel_categories (id, name) values (1, '技术')`);
    await db.execute(sql`insert into channels (id, category_id, name, sort) values (1, 1, '前端', 2), (2, 1, '后端', 1)`);
    await db.execute(sql`insert into topics (id, name) values (3, '旧话题'), (5, '另一个话题')`);
    await db.execute(sql`insert into post_channels (post_id, channel_id) values (1, 1), (1, 2), (2, 2)`);
    await db.execute(sql`insert into post_topics (post_id, topic_id) values (1, 5), (1, 3)`);
    // Two pictures, the second written first, and a snippet longer than a card's preview.
    await db.execute(sql`insert into post_images (post_id, url, width, height, sort) values (1, '/img/secondpicture', 300, 500, 1)`);
    await db.execute(sql`insert into post_images (post_id, url, width, height, sort) values (1, '/img/oldpicture', 400, 200, 0)`);
    await db.execute(sql`insert into code_snippets (uuid, post_id, language, title, code) values ('old-code', 1, 'python', '旧代码', ${OLD_CODE})`);
    await db.execute(sql`insert into votes (id, post_id, title) values (1, 1, '旧投票')`);
    await db.execute(sql`insert into vote_options (vote_id, text, sort) values (1, '是', 0), (1, '否', 1)`);
    await db.execute(sql`insert into comments (id, post_id, user_id, content, like_count) values (1, 1, 2, '旧评论', 1)`);
    await db.execute(sql`insert into likes (user_id, target_type, target_id, created_at) values
      (3, 'post', 1, '2026-01-03T00:00:00Z'), (1, 'comment', 1, '2026-01-01T00:00:00Z'),
      (2, 'post', 1, '2026-01-02T00:00:00Z'), (1, 'post', 1, '2026-01-04T00:00:00Z')`);
    await db.execute(sql`insert into complaints (user_id, target_type, target_id, reason, content) values
      (2, 'post', 1, 'spam', '第一次'), (2, 'post', 1, 'spam', '重复的'), (3, 'post', 1, 'other', '另一个人')`);
    await db.execute(sql`insert into idempotency_keys (user_id, client_id, kind, result) values (2, 'old-client-id', 'commentAdd', '{"id": 1}')`);
    const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#3a7' } }).png().toBuffer();
    await db.execute(sql`insert into images (id, user_id, mime, width, height, bytes) values ('oldpicture', 1, 'image/png', 400, 200, ${png})`);
  });

  it('numbers the existing likes by the time they were made, and new likes after them', async () => {
    const db = opened.database.db;
    const likes = await queryRows<{ id: number; user_id: number; target_type: string }>(
      db,
      sql`select id::int as id, user_id, target_type from likes order by id`,
    );
    expect(likes).toEqual([
      { id: 1, user_id: 1, target_type: 'comment' },
      { id: 2, user_id: 2, target_type: 'post' },
      { id: 3, user_id: 3, target_type: 'post' },
      { id: 4, user_id: 1, target_type: 'post' },
    ]);
    const t = await createTestApp(opened.database);
    try {
      const likers = (await t.call<Paged<UserBrief>>(api.likeList, { post_id: 1 })).data();
      expect(likers.list.map((u) => u.uid)).toEqual([1, 3, 2]);
    } finally {
      await t.close();
    }
    const [next] = await queryRows<{ id: number }>(
      db,
      sql`insert into likes (user_id, target_type, target_id) values (3, 'comment', 1) returning id::int as id`,
    );
    expect(next!.id).toBe(5);
  });

  it('copies what each existing post is made of onto its row, and reads the posts as before', async () => {
    const rows = await queryRows<Record<string, unknown>>(
      opened.database.db,
      sql`select id::int as id, channel_ids, topic_ids, attach, has_vote from posts order by id`,
    );
    const oldAttach = [
      { type: 'image', url: '/img/oldpicture', width: 400, height: 200 },
      { type: 'image', url: '/img/secondpicture', width: 300, height: 500 },
      { type: 'code', uuid: 'old-code', language: 'python', title: '旧代码', preview: OLD_CODE.split('\n').slice(0, 8).join('\n') },
    ];
    expect(rows).toEqual([
      { id: 1, channel_ids: [1, 2], topic_ids: [3, 5], attach: oldAttach, has_vote: true },
      { id: 2, channel_ids: [2], topic_ids: [], attach: [], has_vote: false },
    ]);
    const t = await createTestApp(opened.database);
    try {
      const post = (await t.call<Post>(api.postDetail, { post_id: 1 })).data();
      expect(post.channels).toEqual([
        { channel_id: 2, channel_name: '后端' },
        { channel_id: 1, channel_name: '前端' },
      ]);
      expect(post.topics).toEqual([
        { topic_id: 3, topic_name: '旧话题' },
        { topic_id: 5, topic_name: '另一个话题' },
      ]);
      expect(post.attach).toEqual(oldAttach);
      expect(post.vote?.options.map((option) => option.text)).toEqual(['是', '否']);
      const page = (await t.call<Paged<Post>>(api.channelPosts, { channel_id: 2 })).data();
      expect(page.list.map((item) => [item.id, item.channels.length, item.attach.length])).toEqual([
        [2, 1, 0],
        [1, 2, 3],
      ]);
    } finally {
      await t.close();
    }
  });

  it('keeps the first of duplicate complaints and every other row', async () => {
    const rows = await queryRows<{ user_id: number; content: string }>(
      opened.database.db,
      sql`select user_id, content from complaints order by id`,
    );
    expect(rows).toEqual([
      { user_id: 2, content: '第一次' },
      { user_id: 3, content: '另一个人' },
    ]);
    await expect(
      opened.database.db.execute(sql`insert into complaints (user_id, target_type, target_id, reason, content) values (3, 'post', 1, 'spam', '')`),
    ).rejects.toThrow();
  });

  it('keeps the idempotency keys, with an empty request hash', async () => {
    const rows = await queryRows<{ client_id: string; kind: string; request_hash: string }>(
      opened.database.db,
      sql`select client_id, kind, request_hash from idempotency_keys`,
    );
    expect(rows).toEqual([{ client_id: 'old-client-id', kind: 'commentAdd', request_hash: '' }]);
  });

  it('serves an image stored before issue 8, and its narrower copies', async () => {
    const t = await createTestApp(opened.database);
    try {
      const original = await t.app.inject({ method: 'GET', url: '/img/oldpicture' });
      expect([original.statusCode, original.headers['content-type']]).toEqual([200, 'image/png']);
      const narrow = await t.app.inject({ method: 'GET', url: '/img/oldpicture?w=160' });
      expect(narrow.statusCode).toBe(200);
      expect((await sharp(narrow.rawPayload).metadata()).width).toBe(160);
    } finally {
      await t.close();
    }
    const rows = await queryRows<{ width: number; height: number }>(
      opened.database.db,
      sql`select width, height from image_variants where image_id = 'oldpicture'`,
    );
    expect(rows).toEqual([{ width: 160, height: 80 }]);
  });
});

describe.each(engines)('a database of the previous main (nicknames not yet unique) on $name', ({ open }) => {
  const opened = previousMain(open, '0004_feed_rows', async (db) => {
    // Default nicknames of that main: 极客 and the phone's last four digits, shared by two phones
    // with the same ending; and the same nickname in another case.
    await db.execute(sql`insert into users (id, ucode, nick, avatar, cellphone) values
      (1, 'u1', '极客1234', '', '13800001234'), (2, 'u2', '极客1234', '', '13900001234'), (3, 'u3', '小明', '', '13700000003'),
      (4, 'u4', 'Geek', '', '13700000004'), (5, 'u5', 'geek', '', '13700000005'), (6, 'u6', '极客1234', '', '13600001234')`);
    await db.execute(sql`select setval('users_id_seq', 6)`);
    await db.execute(sql`insert into posts (id, user_id, content) values (1, 2, '二号的动态')`);
  });

  it('keeps every user, the first of a shared nickname keeping it and the others given their id after it', async () => {
    const rows = await queryRows<{ id: number; nick: string; cellphone: string }>(opened.database.db, sql`select id, nick, cellphone from users order by id`);
    expect(rows).toEqual([
      { id: 1, nick: '极客1234', cellphone: '13800001234' },
      { id: 2, nick: '极客1234_2', cellphone: '13900001234' },
      { id: 3, nick: '小明', cellphone: '13700000003' },
      { id: 4, nick: 'Geek', cellphone: '13700000004' },
      { id: 5, nick: 'geek_5', cellphone: '13700000005' },
      { id: 6, nick: '极客1234_6', cellphone: '13600001234' },
    ]);
    await expect(opened.database.db.execute(sql`update users set nick = 'GEEK' where id = 3`)).rejects.toThrow();
  });

  it('serves the users and their posts, and a user sets a nickname', async () => {
    const t = await createTestApp(opened.database);
    try {
      expect((await t.call<Post>(api.postDetail, { post_id: 1 })).data().user.nick).toBe('极客1234_2');
      const me = await t.login('13900001234');
      expect((await t.call<{ nick: string }>(api.nickUpdate, { nick: '二号' }, { ticket: me.ticket })).data().nick).toBe('二号');
      expect(errorOf((await t.call(api.nickUpdate, { nick: '小明' }, { ticket: me.ticket })).body)?.code).toBe(-1004);
    } finally {
      await t.close();
    }
  });
});

describe.each(engines)('a database of the previous main (no joint book lists) on $name', ({ open }) => {
  const opened = previousMain(open, '0005_nicknames', async (db) => {
    await db.execute(sql`insert into users (id, ucode, nick, avatar) values (1, 'u1', '一号', '')`);
    await db.execute(sql`select setval('users_id_seq', 1)`);
    await db.execute(sql`insert into posts (id, user_id, content) values (1, 1, '读书会的动态')`);
    // The demo's sidebar of that main: 读书会书单 led to a list no database had.
    await db.execute(sql`insert into explore_items (page, block_name, title, redirect_param, sort) values
      ('horde', 'sidebar', '话题广场', '/topic/list', 1), ('horde', 'sidebar', '读书会书单', '/booklist/2024', 3)`);
  });

  it('keeps its data, and its start adds the demo’s two lists once, the sidebar’s among them', async () => {
    const db = opened.database.db;
    expect(await queryRows(db, sql`select id::int as id, content from posts`)).toEqual([{ id: 1, content: '读书会的动态' }]);
    expect(await queryRows(db, sql`select title, redirect_param from explore_items order by sort`)).toEqual([
      { title: '话题广场', redirect_param: '/topic/list' },
      { title: '读书会书单', redirect_param: '/booklist/2024' },
    ]);
    expect(await lacksDemoBooklists(db)).toBe(true);
    const t = await createTestApp(opened.database);
    try {
      expect(errorOf((await t.call(api.booklistDetail, { code: '2024' })).body)?.code).toBe(-1005);
      expect(await seedDemoBooklists(db)).toBe(true);
      expect(await seedDemoBooklists(db)).toBe(false);
      expect(await lacksDemoBooklists(db)).toBe(false);
      const list = (await t.call<Booklist>(api.booklistDetail, { code: '2024' })).data();
      expect(list.books.length).toBeGreaterThan(0);
      expect((await t.call<Booklist>(api.booklistDetail, { code: '2025' })).data().title).not.toBe(list.title);
      const cover = await t.app.inject({ method: 'GET', url: list.books[0]!.cover.url });
      expect(cover.statusCode).toBe(200);
      expect((await t.call<Post>(api.postDetail, { post_id: 1 })).data().content).toBe('读书会的动态');
    } finally {
      await t.close();
    }
    // New lists and books continue after the seeded ids.
    const [next] = await queryRows<{ id: number }>(
      db,
      sql`insert into booklists (code, title, cover_url, cover_width, cover_height) values ('new', '新书单', '/img/x', 1, 1) returning id`,
    );
    expect(next!.id).toBe(3);
  });

  it('leaves a database whose sidebar leads to no book list without any', async () => {
    const db = opened.database.db;
    await db.execute(sql`delete from booklists`);
    await db.execute(sql`delete from explore_items where redirect_param like '/booklist/%'`);
    expect(await lacksDemoBooklists(db)).toBe(false);
    expect(await seedDemoBooklists(db)).toBe(false);
    expect(await queryRows(db, sql`select count(*)::int as n from booklists`)).toEqual([{ n: 0 }]);
  });
});

describe.each(engines)('a database of the previous main (no notices) on $name', ({ open }) => {
  const opened = previousMain(open, '0006_booklists', async (db) => {
    await db.execute(sql`insert into users (id, ucode, nick, avatar, cellphone, follower_count) values
      (1, 'u1', '一号', '', '13700000101', 1), (2, 'u2', '二号', '', '13700000102', 0)`);
    await db.execute(sql`select setval('users_id_seq', 2)`);
    await db.execute(sql`insert into user_follows (follower_id, followee_id) values (2, 1)`);
    await db.execute(sql`update users set following_count = 1 where id = 2`);
    await db.execute(sql`insert into posts (id, user_id, content) values (1, 1, '一号的动态')`);
    await db.execute(sql`select setval('posts_id_seq', 1)`);
  });

  it('keeps its users and follows, with no notice, every switch on and nothing unread; new writes make notices', async () => {
    const db = opened.database.db;
    expect(
      await queryRows(db, sql`select id, nick, follower_count, notice_unread, notice_comment, notice_like, notice_follow from users order by id`),
    ).toEqual([
      { id: 1, nick: '一号', follower_count: 1, notice_unread: 0, notice_comment: true, notice_like: true, notice_follow: true },
      { id: 2, nick: '二号', follower_count: 0, notice_unread: 0, notice_comment: true, notice_like: true, notice_follow: true },
    ]);
    expect(await queryRows(db, sql`select count(*)::int as n from notices`)).toEqual([{ n: 0 }]);
    const t = await createTestApp(opened.database);
    try {
      const one = await t.login('13700000101');
      const two = await t.login('13700000102');
      expect((await t.call<Paged<unknown>>(api.noticeList, {}, { ticket: one.ticket })).data().list).toEqual([]);
      await t.call(api.likeAdd, { post_id: 1 }, { ticket: two.ticket }).then((r) => r.data());
      expect((await t.call<{ count: number }>(api.noticeUnreadCount, {}, { ticket: one.ticket })).data()).toEqual({ count: 1 });
    } finally {
      await t.close();
    }
  });
});

describe.each(engines)('a database of the previous main (tickets without the way they were issued) on $name', ({ open }) => {
  const TICKET = 'T'.repeat(43);
  const opened = previousMain(open, '0008_comment_roots', async (db) => {
    await db.execute(sql`insert into users (id, ucode, nick, avatar, cellphone) values (1, 'u1', '一号', '', '13700000201')`);
    await db.execute(sql`select setval('users_id_seq', 1)`);
    await db.execute(sql`insert into tickets (user_id, token_hash, device_id, device_kind, expires_at)
      values (1, ${hashToken(TICKET)}, 'old-device-0001', 'mobile', now() + interval '10 days')`);
  });

  it('keeps its live ticket, taken as before: as the cookie, or as headers with its own Device-Id', async () => {
    expect(await queryRows(opened.database.db, sql`select user_id, device_id, issued_via from tickets`)).toEqual([
      { user_id: 1, device_id: 'old-device-0001', issued_via: null },
    ]);
    const t = await createTestApp(opened.database);
    try {
      const uid = async (options: Parameters<typeof t.call>[2]) => {
        const answer = await t.call<{ uid: number }>(api.auth, {}, options);
        return answer.body.code === 0 ? answer.body.data.uid : codeOf(answer);
      };
      expect(await uid({ ticket: TICKET })).toBe(1);
      expect(await uid({ ticket: TICKET, asHeaders: { deviceId: 'old-device-0001' } })).toBe(1);
      expect(await uid({ ticket: TICKET, asHeaders: { deviceId: 'another-device' } })).toBe(-2000);
    } finally {
      await t.close();
    }
  });
});

describe.each(engines)('a database of the previous main (no search) on $name', ({ open }) => {
  const opened = previousMain(open, '0009_ticket_issued_via', async (db) => {
    await db.execute(sql`insert into users (id, ucode, nick, avatar) values (1, 'u1', '鲸落观察员', ''), (2, 'u2', 'Whale', '')`);
    await db.execute(sql`select setval('users_id_seq', 2)`);
    await db.execute(sql`insert into channel_categories (id, name) values (1, '技术')`);
    await db.execute(sql`insert into channels (id, category_id, name, intro) values (1, 1, '海洋频道', '聊聊鲸落')`);
    await db.execute(sql`insert into topics (id, name) values (1, '鲸落')`);
    // As that main wrote them: what each post is made of copied onto its row (0003, 0004).
    await db.execute(sql`insert into posts (id, user_id, content, topic_ids, attach, deleted_at) values
      (1, 1, E'读书笔记\n今天读完了鲸落算法', '{}', '[]', null),
      (2, 2, '代码分享', '{1}', '[{"type":"code","uuid":"c1","language":"go","title":"Kotlin 协程","preview":""}]', null),
      (3, 1, '删掉的鲸落动态', '{}', '[]', now())`);
    await db.execute(sql`select setval('posts_id_seq', 3)`);
  });

  it('keeps its posts and finds them by their content, topics and code titles; its channels, topics and users by name', async () => {
    const db = opened.database.db;
    expect(await queryRows(db, sql`select id::int as id, content from posts order by id`)).toEqual([
      { id: 1, content: '读书笔记\n今天读完了鲸落算法' },
      { id: 2, content: '代码分享' },
      { id: 3, content: '删掉的鲸落动态' },
    ]);
    const t = await createTestApp(opened.database);
    try {
      const found = async (q: string, type = 'post') =>
        (await t.call<Paged<SearchHit>>(api.search, { q, type })).data().list.map((hit) => {
          switch (hit.type) {
            case 'post':
              return hit.post.id;
            case 'topic':
              return hit.topic.topic_name;
            case 'channel':
              return hit.channel.channel_name;
            case 'user':
              return hit.user.nick;
          }
        });
      // The topic's post (a head match) above the post that says it in its body; the deleted one never.
      expect(await found('鲸落')).toEqual([2, 1]);
      expect(await found('落算法')).toEqual([1]);
      expect(await found('ＫＯＴＬＩＮ协程')).toEqual([2]);
      expect(await found('鲸落', 'topic')).toEqual(['鲸落']);
      expect(await found('鲸落', 'channel')).toEqual(['海洋频道']);
      expect(await found('落观', 'user')).toEqual(['鲸落观察员']);
      expect(await found('whale', 'user')).toEqual(['Whale']);
    } finally {
      await t.close();
    }
  });
});

describe.each(engines)('a database of the previous main (no moderation) on $name', ({ open }) => {
  const opened = previousMain(open, '0010_search', async (db) => {
    await db.execute(sql`insert into users (id, ucode, nick, avatar, cellphone, post_count) values
      (1, 'u1', '一号', '', '13700000301', 1), (2, 'u2', '二号', '', '13700000302', 0), (3, 'u3', '三号', '', '13700000303', 0)`);
    await db.execute(sql`select setval('users_id_seq', 3)`);
    await db.execute(sql`insert into channel_categories (id, name) values (1, '技术')`);
    await db.execute(sql`insert into channels (id, category_id, name, post_count) values (1, 1, '后端', 1)`);
    await db.execute(sql`insert into posts (id, user_id, content, channel_ids, comment_count, search) values
      (1, 1, '被投诉过的动态', '{1}', 1, post_search_document('被投诉过的动态', '{}', '[]'))`);
    await db.execute(sql`insert into post_channels (post_id, channel_id) values (1, 1)`);
    await db.execute(sql`select setval('posts_id_seq', 1)`);
    await db.execute(sql`insert into comments (id, post_id, user_id, content) values (1, 1, 2, '一条评论')`);
    await db.execute(sql`select setval('comments_id_seq', 1)`);
    await db.execute(sql`insert into complaints (user_id, target_type, target_id, reason, content) values
      (2, 'post', 1, 'spam', '广告'), (3, 'post', 1, 'other', '')`);
  });

  it('keeps its posts, comments and complaints: nothing hidden, nobody suspended, every complaint open in the queue', async () => {
    const db = opened.database.db;
    expect(await queryRows(db, sql`select id::int as id, content, hidden_at, hidden_reason, hidden_by, cleared_at from posts`)).toEqual([
      { id: 1, content: '被投诉过的动态', hidden_at: null, hidden_reason: null, hidden_by: null, cleared_at: null },
    ]);
    expect(await queryRows(db, sql`select id::int as id, content, hidden_at from comments`)).toEqual([{ id: 1, content: '一条评论', hidden_at: null }]);
    expect(await queryRows(db, sql`select user_id, reason, closed_at, outcome from complaints order by id`)).toEqual([
      { user_id: 2, reason: 'spam', closed_at: null, outcome: null },
      { user_id: 3, reason: 'other', closed_at: null, outcome: null },
    ]);
    expect(await queryRows(db, sql`select count(*)::int as n from users where suspended_until is not null`)).toEqual([{ n: 0 }]);
    expect(await queryRows(db, sql`select count(*)::int as n from moderators`)).toEqual([{ n: 0 }]);
    expect(await runModeratorCommand(db, ['add', '13700000303'])).toMatch(/is now a moderator$/);
    const t = await createTestApp(opened.database);
    try {
      expect((await t.call<Post>(api.postDetail, { post_id: 1 })).data().content).toBe('被投诉过的动态');
      const moderator = await t.login('13700000303');
      const queue = (await t.call<Paged<{ target_id: number; complaint_count: number }>>(api.moderationQueue, {}, { ticket: moderator.ticket })).data();
      expect(queue.list.map((item) => [item.target_id, item.complaint_count])).toEqual([[1, 2]]);
      const hidden = await t.call(api.moderationHide, { target_type: 'post', target_id: 1, reason: '广告', client_id: 'migrated-hide-1' }, { ticket: moderator.ticket });
      expect(hidden.data()).toMatchObject({ closed_complaints: 2, hidden: true });
      expect(codeOf(await t.call(api.postDetail, { post_id: 1 }))).toBe(-1005);
    } finally {
      await t.close();
    }
    await expect(db.execute(sql`delete from moderation_actions`)).rejects.toThrow();
  });
});

describe.each(engines)('a database of the previous main (notices without previews) on $name', ({ open }) => {
  const opened = previousMain(open, '0014_likes_by_user', async (db) => {
    await db.execute(sql`insert into users (id, ucode, nick, avatar, cellphone) values
      (1, 'u1', '一号', '', '13700000401'), (2, 'u2', '二号', '', '13700000402'), (3, 'u3', '三号', '', '13700000403')`);
    await db.execute(sql`select setval('users_id_seq', 3)`);
    await db.execute(sql`insert into posts (id, user_id, content) values (1, 1, ${'  我的\n\n动态\u3000正文\t' + '长'.repeat(80)})`);
    await db.execute(sql`select setval('posts_id_seq', 1)`);
    // 2, one's comment, answered by 3 and deleted since; 4, a comment of 2 a moderator hid; 5, one's own comment, hidden and liked.
    await db.execute(sql`insert into comments (id, post_id, user_id, content, deleted_at, hidden_at) values
      (1, 1, 2, ${'写得\u3000很好'}, null, null), (2, 1, 1, '我的评论', now(), null), (3, 1, 3, '回复 你', null, null),
      (4, 1, 2, '被隐藏的评论', null, now()), (5, 1, 1, '我被隐藏的评论', null, now())`);
    await db.execute(sql`select setval('comments_id_seq', 5)`);
    await db.execute(sql`insert into notices (id, user_id, type, tab, post_id, comment_id, target_comment_id, day, message, target_user_id) values
      (1, 1, 'comment', 'comment', 1, 1, 0, 0, '', 0), (2, 1, 'reply', 'comment', 1, 3, 2, 0, '', 0), (3, 1, 'comment', 'comment', 1, 4, 0, 0, '', 0),
      (4, 1, 'like', 'like', 1, 0, 0, 20000, '', 0), (5, 1, 'like', 'like', 1, 5, 0, 20000, '', 0), (6, 1, 'follow', 'follow', 0, 0, 0, 20000, '', 0),
      (7, 1, 'moderation', 'system', 1, 0, 0, 0, '你的动态已被隐藏，理由：广告', 0)`);
    await db.execute(sql`insert into notice_actors (notice_id, actor_id, seq) select id, case when id = 2 then 3 else 2 end, seq from notices where type <> 'moderation'`);
  });

  it('keeps its notices, each with the previews its list showed before', async () => {
    const t = await createTestApp(opened.database);
    try {
      const one = await t.login('13700000401');
      const { list } = (await t.call<Paged<Notice>>(api.noticeList, { size: 20 }, { ticket: one.ticket })).data();
      const postExcerpt = `我的 动态 正文 ${'长'.repeat(60 - 9)}`;
      expect(Object.fromEntries(list.map((n) => [n.id, [n.type, n.target_excerpt, n.content_excerpt]]))).toEqual({
        1: ['comment', postExcerpt, '写得 很好'],
        2: ['reply', '', '回复 你'],
        3: ['comment', postExcerpt, ''],
        4: ['like', postExcerpt, ''],
        5: ['like', '我被隐藏的评论', ''],
        6: ['follow', '', ''],
        7: ['moderation', '', '你的动态已被隐藏，理由：广告'],
      });
    } finally {
      await t.close();
    }
  });
});

describe.each(engines)('a database of the previous main (polls read from their tables) on $name', ({ open }) => {
  const opened = previousMain(open, '0015_notice_previews', async (db) => {
    await db.execute(sql`insert into users (id, ucode, nick, avatar, cellphone) values (1, 'u1', '一号', '', '13700000501'), (2, 'u2', '二号', '', '13700000502')`);
    await db.execute(sql`select setval('users_id_seq', 2)`);
    await db.execute(sql`insert into posts (id, user_id, content, has_vote) values (1, 1, '有投票的动态', true), (2, 1, '没有投票', false)`);
    await db.execute(sql`select setval('posts_id_seq', 2)`);
    await db.execute(sql`insert into votes (id, post_id, title, multiple, end_time, total) values (1, 1, ${'旧的"投票"'}, true, '2036-01-01T00:00:00Z', 1)`);
    await db.execute(sql`insert into vote_options (id, vote_id, text, sort, count) values (1, 1, '后', 1, 1), (2, 1, '先', 0, 1), (3, 1, '没人选', 2, 0)`);
    await db.execute(sql`insert into vote_records (vote_id, user_id, option_id) values (1, 2, 1), (1, 2, 2)`);
  });

  it('shows its polls as before, each voter’s choices marked, and keeps them right as votes come', async () => {
    const t = await createTestApp(opened.database);
    try {
      const poll = (ticket?: string) => t.call<Post>(api.postDetail, { post_id: 1 }, { ticket }).then((answer) => answer.data().vote);
      const options = (marked: [boolean, boolean, boolean], counts = [1, 1, 0]) =>
        [2, 1, 3].map((option_id, i) => ({ option_id, text: ['先', '后', '没人选'][i], count: counts[i], is_voted: marked[i] }));
      const shown = { vote_id: 1, title: '旧的"投票"', multiple: true, end_time: Date.parse('2036-01-01T00:00:00Z'), total: 1 };
      expect(await poll()).toEqual({ ...shown, is_voted: false, options: options([false, false, false]) });
      const voter = await t.login('13700000502');
      expect(await poll(voter.ticket)).toEqual({ ...shown, is_voted: true, options: options([true, true, false]) });
      expect((await t.call<Post>(api.postDetail, { post_id: 2 })).data().vote).toBeNull();
      const author = await t.login('13700000501');
      await t.call(api.voteSubmit, { post_id: 1, option_ids: [3], client_id: 'migrated-vote-1' }, { ticket: author.ticket });
      expect(await poll(author.ticket)).toEqual({ ...shown, total: 2, is_voted: true, options: options([false, false, true], [1, 1, 1]) });
    } finally {
      await t.close();
    }
  });
});

/** Text that folding, cutting and the tsvector's syntax could each treat apart. */
const DOCUMENT_PIECES = [
  '分布式事务', '事务', '鲸', '落算法', 'Kotlin协程', 'ＫＯＴＬＩＮ', '０１２', 'ｶﾀｶﾅ', 'ひらがな', '한국어', '𠀀𠀁', '𪚥', 'Ünïcödé', 'ÀÉÎÕÜ', 'ΣΊΣΥΦΟΣ',
  'ς', 'Привет', 'ß', 'İ', 'ﬁ', 'Ⅻ', '①', '㍿', 'e\u0301', '😀', '👩‍💻', 'go', 'C++', 'v8', 'x'.repeat(70), 'Ａ'.repeat(66), '汉'.repeat(30),
  ' ', '  ', '\n', '\r\n', '\t', '，', '。', '#', "'", '"', '\\', ':*', '&', '|', '!', '(', '<->', '-', '_', '%', '.',
];
const documentText = fc.array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...DOCUMENT_PIECES) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme' }) }), { maxLength: 14 })
  .map((pieces) => pieces.join('').replaceAll('\u0000', ''));

describe.each(engines)('a database of the previous main (search documents made by SQL functions) on $name', ({ open }) => {
  const samples = fc.sample(
    fc.record({
      head: fc.option(documentText),
      body: fc.option(documentText),
      content: documentText,
      topicIds: fc.subarray([1, 2, 3, 4]),
      codeTitles: fc.array(documentText, { maxLength: 2 }),
    }),
    400,
  );
  const names = fc.sample(documentText, 20);
  const opened = previousMain(open, '0019_name_search_walks', async (db) => {
    for (const [i, name] of names.slice(0, 4).entries()) await db.execute(sql`insert into topics (id, name) values (${i + 1}, ${`话题${i}${name}`})`);
    await db.execute(sql`insert into channel_categories (id, name) values (1, '技术')`);
    for (const [i, name] of names.slice(4, 8).entries()) await db.execute(sql`insert into channels (id, category_id, name, intro) values (${i + 1}, 1, ${`频道${i}${name}`}, ${names[i + 8]!})`);
    for (const [i, name] of names.slice(12).entries()) await db.execute(sql`insert into users (id, ucode, nick, avatar) values (${i + 1}, ${`u${i}`}, ${`${i}${name}`}, '')`);
    await db.execute(sql`create table document_samples (id integer primary key, head text, body text, content text, topic_ids integer[], attach json, doc text, post_doc text, query text, head_query text)`);
    for (const [id, { head, body, content, topicIds, codeTitles }] of samples.entries()) {
      const attach = JSON.stringify([{ type: 'image', url: '/img/a' }, ...codeTitles.map((title) => ({ type: 'code', title }))]);
      await db.execute(sql`insert into document_samples (id, head, body, content, topic_ids, attach) values (${id}, ${head}, ${body}, ${content}, ${`{${topicIds.join(',')}}`}, ${attach})`);
    }
    await db.execute(
      sql`update document_samples set doc = search_document(head, body)::text, post_doc = post_search_document(content, topic_ids, attach)::text,
                                       query = search_query(body, false)::text, head_query = search_query(head, true)::text`,
    );
  });

  it('makes the documents and queries it made before, so that those stored and their indexes stay right', async () => {
    const { db } = opened.database;
    const changed = await queryRows<{ head: string | null; body: string | null; content: string }>(
      db,
      sql`select head, body, content from document_samples
          where doc is distinct from search_document(head, body)::text or post_doc is distinct from post_search_document(content, topic_ids, attach)::text
             or query is distinct from search_query(body, false)::text or head_query is distinct from search_query(head, true)::text`,
    );
    expect(changed).toEqual([]);
    const stale = await queryRows(
      db,
      sql`select name from topics where search is distinct from search_document(name, '') union all
          select name from channels where search is distinct from search_document(name, intro) union all
          select nick from users where search is distinct from search_document(nick, '')`,
    );
    expect(stale).toEqual([]);
    // What the samples made: documents with lexemes, marked heads among them.
    const [made] = await queryRows<{ lexemes: number; marked: number; queries: number }>(
      db,
      sql`select sum(length(doc::tsvector))::int as lexemes, count(*) filter (where doc like '%''#%')::int as marked,
                 count(*) filter (where query like '%&%' and head_query like '%#%')::int as queries from document_samples`,
    );
    expect(made!.lexemes).toBeGreaterThan(1000);
    expect(made!.marked).toBeGreaterThan(50);
    expect(made!.queries).toBeGreaterThan(50);
  });
});
