/**
 * post/delete, on PostgreSQL (behaviour: one engine): the author only; the post leaves
 * every list (feed tabs, its channels, its topics, the author's posts) and its detail answers
 * -1005; channel, topic and user counters follow in the same transaction.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api, type Endpoint } from '../../src/shared/api.ts';
import type { ChannelDetail, Paged, Post, TopicDetail, UserInfo } from '../../src/shared/schemas.ts';
import { posts } from '../../src/server/db/schema.ts';
import { codeOf, errorOf, isChineseMessage, newClientId, phoneSource, testAppFor, behaviourDatabases } from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';
import { givePost } from './fixtures.ts';

describe.each(behaviourDatabases)('post/delete on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560004');

  const allZero = async () => {
    const mismatches = await counterMismatches(app.database.db);
    expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
  };

  /** A live post with a channel and a topic, not used by another test (the n-th from the newest). */
  async function postWithChannelAndTopic(n: number): Promise<{ id: number; channelId: number; topicId: number }> {
    const rows = await queryRows<{ id: number; channel_id: number; topic_id: number }>(
      app.database.db,
      sql`select p.id::int as id, min(pc.channel_id) as channel_id, min(pt.topic_id) as topic_id
        from posts p join post_channels pc on pc.post_id = p.id join post_topics pt on pt.post_id = p.id
        where p.deleted_at is null group by p.id order by p.id desc limit ${n + 1}`,
    );
    const row = rows[n]!;
    return { id: row.id, channelId: row.channel_id, topicId: row.topic_id };
  }

  it('takes the post out of every list and answers -1005 on its detail; counters follow', async () => {
    const alice = await app.t.login(freshPhone());
    const post = await postWithChannelAndTopic(0);
    await givePost(app.database.db, alice.uid, post.id);
    await app.database.db.update(posts).set({ isGood: true }).where(eq(posts.id, post.id));
    await app.t.call(api.followChannel, { channel_id: post.channelId }, { ticket: alice.ticket });
    // A like and a comment on it, so the author's like count has something to drop.
    const fan = await app.t.login(freshPhone());
    await app.t.call(api.likeAdd, { post_id: post.id }, { ticket: fan.ticket });
    await app.t.call(api.commentAdd, { post_id: post.id, content: '删除前的评论', client_id: newClientId() }, { ticket: fan.ticket });

    // Each list, started just above the post (keyset index = id + 1), shows it first.
    const lists: [Endpoint, Record<string, unknown>][] = [
      [api.channelPosts, { tab: 'all' }],
      [api.channelPosts, { tab: 'good' }],
      [api.channelPosts, { tab: 'follow' }],
      [api.channelPosts, { channel_id: post.channelId }],
      [api.topicPosts, { topic_id: post.topicId }],
      [api.userPosts, { visit_user_id: alice.uid }],
    ];
    const firstOf = async (endpoint: Endpoint, body: Record<string, unknown>) =>
      (await app.t.call<Paged<Post>>(endpoint, { ...body, index: post.id + 1, size: 1 }, { ticket: alice.ticket })).data().list[0]?.id;
    for (const [endpoint, body] of lists) expect(await firstOf(endpoint, body), JSON.stringify(body)).toBe(post.id);
    const channel = async () => (await app.t.call<ChannelDetail>(api.channelDetail, { channel_id: post.channelId })).data().post_count;
    const topic = async () => (await app.t.call<TopicDetail>(api.topicDetail, { topic_id: post.topicId })).data().post_count;
    const author = async () => (await app.t.call<UserInfo>(api.userInfo, { visit_user_id: alice.uid })).data();
    const [channelBefore, topicBefore, authorBefore] = [await channel(), await topic(), await author()];
    expect([authorBefore.post_count, authorBefore.like_count]).toEqual([1, expect.any(Number)]);

    expect((await app.t.call(api.postDelete, { post_id: String(post.id) }, { ticket: alice.ticket })).data()).toEqual({ post_id: post.id });

    for (const [endpoint, body] of lists) expect(await firstOf(endpoint, body), JSON.stringify(body)).not.toBe(post.id);
    expect(errorOf((await app.t.call(api.postDetail, { post_id: post.id })).body)?.code).toBe(-1005);
    expect(codeOf(await app.t.call(api.commentList, { post_id: post.id }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.likeList, { post_id: post.id }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.likeCancel, { post_id: post.id }, { ticket: fan.ticket }))).toBe(-1005);
    expect(await channel()).toBe(channelBefore - 1);
    expect(await topic()).toBe(topicBefore - 1);
    const authorAfter = await author();
    expect(authorAfter.post_count).toBe(0);
    expect(authorAfter.like_count).toBe(authorBefore.like_count - (await queryRows<{ n: number }>(
      app.database.db,
      sql`select like_count as n from posts where id = ${post.id}`,
    ))[0]!.n);
    // Deleting again: already gone.
    expect(codeOf(await app.t.call(api.postDelete, { post_id: post.id }, { ticket: alice.ticket }))).toBe(-1005);
    await allZero();
  });

  it("refuses someone else's post (-1006), visitors (-2000), missing posts (-1005) and bad bodies (Chinese -1004)", async () => {
    const me = await app.t.login(freshPhone());
    const post = await postWithChannelAndTopic(1);
    expect(codeOf(await app.t.call(api.postDelete, { post_id: post.id }, { ticket: me.ticket }))).toBe(-1006);
    expect(codeOf(await app.t.call(api.postDelete, { post_id: post.id }))).toBe(-2000);
    expect(codeOf(await app.t.call(api.postDelete, { post_id: 2_147_483_647 }, { ticket: me.ticket }))).toBe(-1005);
    for (const body of [{}, { post_id: 'x' }, { post_id: 2_147_483_648 }, { post_id: '1e3' }, { post_id: [1] }, { post_id: 1, client_id: 'short' }]) {
      const answer = await app.t.call(api.postDelete, body, { ticket: me.ticket });
      expect(codeOf(answer), JSON.stringify(body)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg)).toBe(true);
    }
    expect((await app.t.call<Post>(api.postDetail, { post_id: post.id })).data().id).toBe(post.id);
  });

  it('answers a replayed client_id with the original success; another body under it is -1009', async () => {
    const alice = await app.t.login(freshPhone());
    const [first, second] = [await postWithChannelAndTopic(2), await postWithChannelAndTopic(3)];
    await givePost(app.database.db, alice.uid, first.id);
    await givePost(app.database.db, alice.uid, second.id);
    const body = { post_id: first.id, client_id: newClientId('post-delete') };
    const answers = await Promise.all(Array.from({ length: 3 }, () => app.t.call(api.postDelete, body, { ticket: alice.ticket })));
    for (const answer of answers) expect(answer.data()).toEqual({ post_id: first.id });
    expect(codeOf(await app.t.call(api.postDelete, { ...body, post_id: second.id }, { ticket: alice.ticket }))).toBe(-1009);
    expect((await app.t.call<Post>(api.postDetail, { post_id: second.id })).data().id).toBe(second.id);
    await allZero();
  });
});
