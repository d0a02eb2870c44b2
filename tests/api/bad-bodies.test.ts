/**
 * Bad bodies of every served write, and ids of every call, on PostgreSQL (behaviour: one
 * engine): wrong types, missing fields, unknown reasons, huge ids and cursors answer the
 * envelope with a code and a Chinese message (never HTTP 500, never zod's English) and change
 * nothing; ids sent as strings of digits are accepted everywhere.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE64_BODY_HEADER } from '../../src/shared/endpoints.ts';
import { api, type Endpoint } from '../../src/shared/api.ts';
import type { Post } from '../../src/shared/schemas.ts';
import { errorOf, isChineseMessage, newClientId, phoneSource, testAppFor, behaviourDatabases, type CallResult } from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';

const HUGE_IDS: unknown[] = [2_147_483_648, 1e20, '99999999999', '2147483648', -1, 0, 1.5, '12a', '', ' 1', null, true, [1], { id: 1 }];

/** Each served write with a valid body and the id fields that may go bad. */
const writes: { endpoint: Endpoint; body: () => Record<string, unknown>; ids: string[] }[] = [
  { endpoint: api.likeAdd, body: () => ({ post_id: 51 }), ids: ['post_id'] },
  { endpoint: api.likeCancel, body: () => ({ comment_id: 1 }), ids: ['comment_id'] },
  { endpoint: api.commentAdd, body: () => ({ post_id: 51, content: '坏请求', reply_id: 1, client_id: newClientId() }), ids: ['post_id', 'reply_id'] },
  { endpoint: api.commentDelete, body: () => ({ comment_id: 1, client_id: newClientId() }), ids: ['comment_id'] },
  { endpoint: api.voteSubmit, body: () => ({ post_id: 51, option_ids: [1], client_id: newClientId() }), ids: ['post_id'] },
  { endpoint: api.postDelete, body: () => ({ post_id: 51 }), ids: ['post_id'] },
  { endpoint: api.complainAdd, body: () => ({ target_type: 'post', target_id: 51, reason: 'spam', content: '', client_id: newClientId() }), ids: ['target_id'] },
  { endpoint: api.followUser, body: () => ({ user_id: 2 }), ids: ['user_id'] },
  { endpoint: api.followChannel, body: () => ({ channel_id: 2 }), ids: ['channel_id'] },
];

/** Reads that take an id or a keyset cursor. */
const reads: { endpoint: Endpoint; body: Record<string, unknown>; ids: string[] }[] = [
  { endpoint: api.postDetail, body: { post_id: 51 }, ids: ['post_id'] },
  { endpoint: api.commentList, body: { post_id: 51 }, ids: ['post_id', 'index'] },
  { endpoint: api.likeList, body: { post_id: 51 }, ids: ['post_id', 'index'] },
  { endpoint: api.channelDetail, body: { channel_id: 1 }, ids: ['channel_id'] },
  { endpoint: api.channelPosts, body: { channel_id: 1 }, ids: ['channel_id', 'index'] },
  { endpoint: api.topicDetail, body: { topic_id: 1 }, ids: ['topic_id'] },
  { endpoint: api.topicPosts, body: { topic_id: 1 }, ids: ['topic_id', 'index'] },
  { endpoint: api.topicList, body: {}, ids: ['index'] },
  { endpoint: api.userInfo, body: { visit_user_id: 2 }, ids: ['visit_user_id'] },
  { endpoint: api.userPosts, body: { visit_user_id: 2 }, ids: ['visit_user_id', 'index'] },
];

describe.each(behaviourDatabases)('bad bodies on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560007');

  const snapshot = async () => ({
    counters: await counterMismatches(app.database.db),
    rows: await queryRows(
      app.database.db,
      sql`select (select count(*) from comments)::int as comments, (select count(*) from likes)::int as likes,
        (select count(*) from vote_records)::int as votes, (select count(*) from complaints)::int as complaints,
        (select count(*) from posts where deleted_at is not null)::int as deleted, (select count(*) from user_follows)::int as follows,
        (select count(*) from channel_follows)::int as channel_follows, (select count(*) from idempotency_keys)::int as keys`,
    ),
  });

  it('answers wrong, missing, huge and malformed ids of every write with a Chinese -1004, and changes nothing', async () => {
    const me = await app.t.login(freshPhone());
    const before = await snapshot();
    for (const { endpoint, body, ids } of writes) {
      const cases: unknown[] = [undefined, 'not json', [], {}, ...ids.flatMap((field) => HUGE_IDS.map((bad) => ({ ...body(), [field]: bad })))];
      for (const input of cases) {
        const answer =
          input === 'not json'
            ? await app.t.call(endpoint, {}, { ticket: me.ticket, rawBody: '{"post_id": 5' })
            : await app.t.call(endpoint, input, { ticket: me.ticket, ...(input === undefined ? { rawBody: '' } : {}) });
        const label = `${endpoint.path} ${JSON.stringify(input)}`;
        expect(answer.status, label).toBe(200);
        expect(errorOf(answer.body)?.code, label).toBe(-1004);
        expect(isChineseMessage(errorOf(answer.body)?.msg), `${label}: ${errorOf(answer.body)?.msg}`).toBe(true);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers huge ids and cursors of reads with an envelope, and takes ids as strings of digits', async () => {
    for (const { endpoint, body, ids } of reads) {
      for (const field of ids) {
        for (const bad of HUGE_IDS) {
          if (field === 'index' && bad === 0) continue; // 0 is the first page
          const answer = await app.t.call(endpoint, { ...body, [field]: bad });
          const label = `${endpoint.path} ${field}=${JSON.stringify(bad)}`;
          expect(answer.status, label).toBe(200);
          // A cursor is not an id: a large whole one is a valid request (an empty page).
          if (field === 'index' && answer.body.code === 0) continue;
          expect(errorOf(answer.body)?.code, label).toBe(-1004);
          expect(isChineseMessage(errorOf(answer.body)?.msg), `${label}: ${errorOf(answer.body)?.msg}`).toBe(true);
        }
        // The largest cursor is a valid request: past the end, an empty page.
        if (field === 'index') {
          const answer = await app.t.call(endpoint, { ...body, index: Number.MAX_SAFE_INTEGER });
          expect(answer.body.code, `${endpoint.path} ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(0);
        }
      }
      const asStrings = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
      const answer = await app.t.call(endpoint, asStrings);
      expect(answer.body.code, `${endpoint.path} ${JSON.stringify(asStrings)}: ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(0);
    }
    // The note list's cursor is `prev`.
    const [demo] = await queryRows<{ ucode: string }>(app.database.db, sql`select ucode from users where id = 1`);
    for (const prev of [2_147_483_648, Number.MAX_SAFE_INTEGER, 1e20, -1, 'x']) {
      const answer = await app.t.call(api.noteList, { visit_ucode: demo!.ucode, prev });
      expect(answer.status, `prev=${prev}`).toBe(200);
      if (answer.body.code !== 0) expect(isChineseMessage(errorOf(answer.body)?.msg), `prev=${prev}`).toBe(true);
    }
    const post = (await app.t.call<Post>(api.postDetail, { post_id: '51' })).data();
    expect(post.id).toBe(51);
    expect(errorOf((await app.t.call(api.postDetail, { post_id: '2147483647' })).body)?.code).toBe(-1005);
  });
});

describe.each(behaviourDatabases)('deeply nested bodies on $name', ({ open }) => {
  const app = testAppFor(open);
  afterEach(() => vi.restoreAllMocks());

  const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  /** A read's body with `nested` (JSON text) as an extra field: one level deeper than `nested`. */
  const detailWith = (nested: string) => `{"post_id":51,"extra":${nested}}`;

  it('refuses nesting deeper than 32 as -1004 before it parses the body, logged out, in every way a body comes', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    const huge = arrays(400_000);
    const cases: [string, () => Promise<CallResult<unknown>>][] = [
      ['arrays to post/add', () => app.t.call(api.postAdd, undefined, { rawBody: huge })],
      ['objects to post/add', () => app.t.call(api.postAdd, undefined, { rawBody: objects(100_000) })],
      ['arrays inside a read', () => app.t.call(api.postDetail, undefined, { rawBody: detailWith(arrays(32)) })],
      ['objects inside a read', () => app.t.call(api.postDetail, undefined, { rawBody: detailWith(objects(32)) })],
      ['a tracking batch as text/plain', () => app.t.call(api.collect, undefined, { rawBody: huge, headers: { 'content-type': 'text/plain' } })],
      [
        'a note as base64',
        () =>
          app.t.call(api.noteUpdate, undefined, {
            rawBody: Buffer.from(`{"content":"笔记","x":${arrays(100_000)}}`).toString('base64'),
            headers: { 'content-type': 'text/plain', [BASE64_BODY_HEADER]: 'base64' },
          }),
      ],
    ];
    for (const [label, send] of cases) {
      const answer = await send();
      expect(answer.status, label).toBe(200);
      expect(errorOf(answer.body), label).toEqual({ code: -1004, msg: '请求体嵌套过深（最多 32 层）' });
    }
    const parsedDeep = parse.mock.calls.filter(([text]) => typeof text === 'string' && /\[{33}|(\{"a":){33}/.test(text));
    expect(parsedDeep).toEqual([]);
  });

  it('takes bodies nested 32 deep, and counts no bracket inside a string', async () => {
    const codeFor = async (rawBody: string) => errorOf((await app.t.call(api.postDetail, undefined, { rawBody })).body)?.code ?? 0;
    expect(await codeFor(detailWith(arrays(31)))).toBe(0);
    expect(await codeFor(detailWith(objects(31)))).toBe(0);
    // Brackets in strings, after an escaped quote, in keys.
    const texts = ['['.repeat(100) + '{'.repeat(100), '"' + '['.repeat(100), '\\"' + '{'.repeat(100)];
    for (const text of texts) {
      const body = JSON.stringify({ post_id: 51, extra: text, [text]: [text] });
      expect(await codeFor(body), body).toBe(0);
    }
    // An escaped backslash ends before the quote, which closes the string: what follows counts.
    const afterBackslash = `{"post_id":51,"s":"x\\\\","extra":${arrays(32)}}`;
    expect(JSON.parse(afterBackslash).s).toBe('x\\');
    expect(await codeFor(afterBackslash)).toBe(-1004);
  });
});
