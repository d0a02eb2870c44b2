/**
 * Posts are answered as JSON text the service writes itself (src/server/services/json-text.ts:
 * PostgreSQL writes each post's fields, Node joins the pieces), not checked by the schema on the
 * way out. Here every read that serves posts (search/ too) is held to what the schema would have sent, on
 * PGlite and on PostgreSQL, for posts written with hostile text (quotes, backslashes, control
 * characters, line and paragraph separators, emoji, markup) in the content, the code snippet, the
 * topic and the poll: the answer is JSON, the schema takes it and leaves it as it is (no field
 * missing, none it does not name, every type right), the text comes back exactly as written, and
 * what the viewer did (liked, voted, follows the author) is theirs alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api, type Endpoint } from '../../src/shared/api.ts';
import type { Post } from '../../src/shared/schemas.ts';
import { newClientId, phoneSource, schemaProblem, testAppFor, testDatabases, type TestApp } from '../support/api.ts';

/** Characters JSON must escape or may mishandle, and some that need no escaping but are often broken. */
const TRICKY = ['"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0001', '\u001f', '\u007f', '\u2028', '\u2029', '😀', '👨‍👩‍👧', '中', '</script>', '\\u0041', '{"x":1}', 'a', ' '];
const trickyText = (maxLength: number) =>
  fc.array(fc.constantFrom(...TRICKY), { minLength: 1, maxLength }).map((parts) => `文${parts.join('')}字`);

/** The answer's data, after checking the schema takes it exactly as it is. */
function exactData<T>(endpoint: Endpoint, body: string): T {
  const envelope = JSON.parse(body) as { code: number; data: unknown };
  expect(envelope.code, body.slice(0, 300)).toBe(0);
  expect(schemaProblem(endpoint, envelope.data), endpoint.path).toBeNull();
  return envelope.data as T;
}

describe.each(testDatabases)('posts answered as JSON text on $name', ({ open }) => {
  const app = testAppFor(open, { WRITE_LIMIT_PER_MINUTE: '100000', DAILY_POST_LIMIT: '100000' });
  const freshPhone = phoneSource('1560041');

  const read = async <T>(t: TestApp, endpoint: Endpoint, input: unknown, ticket?: string): Promise<T> => {
    const { response } = await t.call(endpoint, input, { ticket });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return exactData<T>(endpoint, response.body);
  };

  it('serves every read of posts as the schema would, with hostile text exactly as written', { timeout: 120_000 }, async () => {
    const t = app.t;
    const author = await t.login(freshPhone());
    const viewer = await t.login(freshPhone());
    (await t.call(api.followUser, { user_id: author.uid }, { ticket: viewer.ticket })).data();
    // The follow tab lists the followed channels' posts.
    (await t.call(api.followChannel, { channel_id: 1 }, { ticket: viewer.ticket })).data();

    const written = fc.record({
      content: trickyText(40),
      codeTitle: trickyText(10),
      code: trickyText(30),
      pollTitle: trickyText(10),
      options: fc.uniqueArray(trickyText(6), { minLength: 2, maxLength: 4 }),
      topic: fc.array(fc.constantFrom('话', '题', 'a', '😀', '"', '\\'), { minLength: 1, maxLength: 8 }).map((parts) => `话${parts.join('')}`),
    });
    await fc.assert(
      fc.asyncProperty(written, async (w) => {
        const added = await t.call<Post>(
          api.postAdd,
          {
            content: w.content,
            channel_id: [1],
            attach: [{ type: 'code', language: 'python', title: w.codeTitle, code: w.code }],
            topic_tags: `#${w.topic}#`,
            vote: { title: w.pollTitle, options: w.options, multiple: true },
            client_id: newClientId('json-text'),
          },
          { ticket: author.ticket },
        );
        const post = added.data();
        (await t.call(api.likeAdd, { post_id: post.id }, { ticket: viewer.ticket })).data();
        const chosen = post.vote!.options[1]!.option_id;
        (await t.call(api.voteSubmit, { post_id: post.id, option_ids: [chosen], client_id: newClientId('json-vote') }, { ticket: viewer.ticket })).data();
        const topicId = post.topics[0]!.topic_id;

        const lists: [Endpoint, Record<string, unknown>][] = [
          [api.channelPosts, { tab: 'all', size: 5 }],
          [api.channelPosts, { channel_id: 1, size: 5 }],
          [api.channelPosts, { tab: 'follow', size: 5 }],
          [api.userPosts, { visit_user_id: author.uid, size: 5 }],
          [api.topicPosts, { topic_id: topicId, size: 5 }],
        ];
        for (const ticket of [viewer.ticket, undefined]) {
          const seen: Post[] = [await read<Post>(t, api.postDetail, { post_id: post.id }, ticket)];
          for (const [endpoint, input] of lists) {
            if (!ticket && input.tab === 'follow') continue;
            const page = await read<{ list: Post[]; page: { more: boolean; next_index: number } }>(t, endpoint, input, ticket);
            expect(page.page.next_index).toBe(page.list.at(-1)?.id ?? 0);
            const found = page.list.find((item) => item.id === post.id);
            expect(found, `${endpoint.path} ${JSON.stringify(input)} lists the new post first`).toBeDefined();
            seen.push(found!);
          }
          // search/ writes each post as the feeds do, beside its excerpt: the new post (a match in
          // its first line, the newest) first.
          const hits = await read<{ list: { type: string; post?: Post }[] }>(t, api.search, { q: '文', size: 5 }, ticket);
          expect(hits.list[0]?.post?.id, 'search/ lists the new post first').toBe(post.id);
          seen.push(hits.list[0]!.post!);
          const mine = ticket !== undefined;
          for (const item of seen) {
            expect(item.content).toBe(w.content);
            expect(item.attach).toEqual([{ type: 'code', uuid: expect.any(String), language: 'python', title: w.codeTitle, preview: expect.any(String) }]);
            expect(w.code.startsWith((item.attach[0] as { preview: string }).preview)).toBe(true);
            expect(item.topics).toEqual([{ topic_id: topicId, topic_name: w.topic }]);
            expect(item.vote?.title).toBe(w.pollTitle);
            expect(item.vote?.options.map((option) => [option.text, option.count, option.is_voted])).toEqual(
              w.options.map((text, i) => [text, i === 1 ? 1 : 0, mine && i === 1]),
            );
            expect([item.is_like, item.vote?.is_voted, item.user.is_follow]).toEqual([mine, mine, mine]);
            expect([item.like_count, item.vote?.total]).toEqual([1, 1]);
            expect(item.user).toEqual({ uid: author.uid, ucode: post.user.ucode, nick: post.user.nick, avatar: post.user.avatar, is_follow: mine });
          }
        }
      }),
      { numRuns: 12 },
    );
  });

  it('answers a missing post and an empty page in the envelope', async () => {
    const t = app.t;
    const missing = await t.call(api.postDetail, { post_id: 2_000_000_000 });
    expect(missing.body).toEqual({ code: -1, error: { code: -1005, msg: '动态不存在或已被删除' } });
    const empty = await read<{ list: Post[]; page: { more: boolean; next_index: number } }>(t, api.channelPosts, { tab: 'all', size: 5, index: 1 });
    expect(empty).toEqual({ list: [], page: { more: false, next_index: 0 } });
  });
});
