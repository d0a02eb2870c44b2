/**
 * Follows of channels and users go through one edge toggle (src/server/services/edges.ts):
 * insert or delete the edge and move its counters in one transaction, only when a row changed.
 * Checked on a real PostgreSQL, where concurrent calls really interleave.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { ChannelDetail, Paged, Post, UserInfo } from '../../src/shared/schemas.ts';
import { channelFollows, channels, likes, posts, userFollows, users } from '../../src/server/db/schema.ts';
import { counter, toggleEdge } from '../../src/server/services/edges.ts';
import { FOLLOWED_LIST_MAX, LIKED_RANGE_MAX } from '../../src/server/services/posts.ts';
import { KEPT_FOLLOWS_MAX, KEPT_LIKES_MAX } from '../../src/server/services/viewer-marks.ts';
import { errorOf, newClientId, testAppFor, behaviourDatabases } from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';

/** A deterministic sequence in [0, 1) (mulberry32), so a failure can be replayed. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(behaviourDatabases)('follows on $name', ({ open }) => {
  const app = testAppFor(open);
  let phone = 0;
  const freshPhone = () => `1570000${String(++phone).padStart(4, '0')}`;


  const count = async (query: ReturnType<typeof sql>) => Number((await queryRows<{ n: number }>(app.database.db, query))[0]?.n);

  it('follows and unfollows a user, counting both sides exactly; repeats change nothing', async () => {
    const me = await app.t.login(freshPhone());
    const info = async (uid: number) => (await app.t.call<UserInfo>(api.userInfo, { visit_user_id: uid }, { ticket: me.ticket })).data();
    const before = await info(2);
    expect((await app.t.call(api.followUser, { user_id: 2 }, { ticket: me.ticket })).data()).toEqual({ is_follow: true });
    expect((await app.t.call(api.followUser, { user_id: 2 }, { ticket: me.ticket })).data()).toEqual({ is_follow: true });
    const followed = await info(2);
    expect(followed.is_follow).toBe(true);
    expect(followed.follower_count).toBe(before.follower_count + 1);
    expect((await info(me.uid)).following_count).toBe(1);

    expect((await app.t.call(api.unfollowUser, { user_id: 2 }, { ticket: me.ticket })).data()).toEqual({ is_follow: false });
    expect((await app.t.call(api.unfollowUser, { user_id: 2 }, { ticket: me.ticket })).data()).toEqual({ is_follow: false });
    expect((await info(2)).follower_count).toBe(before.follower_count);
    expect((await info(me.uid)).following_count).toBe(0);

    expect(errorOf((await app.t.call(api.followUser, { user_id: me.uid }, { ticket: me.ticket })).body)?.code).toBe(-1004);
    expect(errorOf((await app.t.call(api.followUser, { user_id: 987654 }, { ticket: me.ticket })).body)?.code).toBe(-1005);
    expect(errorOf((await app.t.call(api.followUser, { user_id: 2 })).body)?.code).toBe(-2000);
  });

  it('tells on every post of a page and a detail whether the viewer follows its author and liked it, each apart', async () => {
    const me = await app.t.login(freshPhone());
    const page = async () => (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 50 }, { ticket: me.ticket })).data().list;
    const detail = async (id: number) => (await app.t.call<Post>(api.postDetail, { post_id: id }, { ticket: me.ticket })).data();
    const post = (await page()).find((item) => item.user.uid !== me.uid)!;
    const author = post.user.uid;
    expect((await page()).every((item) => !item.user.is_follow && !item.is_like)).toBe(true);

    await app.t.call(api.followUser, { user_id: author }, { ticket: me.ticket });
    for (const item of await page()) {
      expect({ id: item.id, is_follow: item.user.is_follow, is_like: item.is_like }).toEqual({ id: item.id, is_follow: item.user.uid === author, is_like: false });
    }
    expect(await app.t.call(api.likeAdd, { post_id: post.id }, { ticket: me.ticket }).then((answer) => answer.data())).toMatchObject({ is_success: true });
    for (const item of await page()) {
      expect({ id: item.id, is_follow: item.user.is_follow, is_like: item.is_like }).toEqual({
        id: item.id,
        is_follow: item.user.uid === author,
        is_like: item.id === post.id,
      });
    }
    await app.t.call(api.unfollowUser, { user_id: author }, { ticket: me.ticket });
    expect(await detail(post.id)).toMatchObject({ user: { is_follow: false }, is_like: true });
    await app.t.call(api.followUser, { user_id: author }, { ticket: me.ticket });
    await app.t.call(api.likeCancel, { post_id: post.id }, { ticket: me.ticket });
    expect(await detail(post.id)).toMatchObject({ user: { is_follow: true }, is_like: false });
  });

  it('tells whether the viewer liked each post and follows its author from their marks kept in memory, or per post when they liked or follow too many to keep', async () => {
    const author = await app.t.login(freshPhone());
    const me = await app.t.login(freshPhone());
    const write = async (content: string) =>
      (await app.t.call<Post>(api.postAdd, { content, channel_id: [1], client_id: newClientId('liked-span') }, { ticket: author.ticket })).data().id;
    const older = await write('点赞范围之前的动态');
    // Room for likes between the older post and the next ones.
    const gap = LIKED_RANGE_MAX + 10;
    await queryRows(app.database.db, sql`select setval(pg_get_serial_sequence('posts', 'id'), (select max(id) from posts) + ${gap})`);
    await write('点赞范围之后的第一条动态');
    const newer = await write('点赞范围之后的动态');
    for (const content of ['又一条动态', '再一条动态']) await write(content);
    const likedOn = async (endpoint: typeof api.userPosts | typeof api.channelPosts, input: object) =>
      Object.fromEntries(
        (await app.t.call<Paged<Post>>(endpoint, input, { ticket: me.ticket })).data().list
          .filter((post) => post.id === older || post.id === newer)
          .map((post) => [post.id, post.is_like]),
      );
    const authorsPage = () => likedOn(api.userPosts, { visit_user_id: author.uid, size: 10 });
    const authorsOnPage = async () => (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 3 }, { ticket: me.ticket })).data().list.map((post) => post.user);
    // The newest three posts (the newer and the two after it) and the one more a page reads.
    const newest = () => likedOn(api.channelPosts, { tab: 'all', size: 3 });

    expect(await authorsPage()).toEqual({ [older]: false, [newer]: false });
    await app.t.call(api.likeAdd, { post_id: older }, { ticket: me.ticket });
    expect(await authorsPage()).toEqual({ [older]: true, [newer]: false });
    expect(await newest()).toEqual({ [newer]: false });
    // More likes of the viewer within the author's page than one read takes (of ids with no post:
    // only the count matters), and more in all than the process keeps (services/viewer-marks.ts):
    // the page's statement reads them, each post's like looked up.
    await queryRows(
      app.database.db,
      sql`insert into likes (user_id, target_type, target_id) select ${me.uid}::int, 'post', ${older}::bigint + n from generate_series(1, ${LIKED_RANGE_MAX + 1}) n
          union all select ${me.uid}::int, 'post', -n from generate_series(1, ${KEPT_LIKES_MAX}) n`,
    );
    expect(await authorsPage()).toEqual({ [older]: true, [newer]: false });
    await app.t.call(api.likeAdd, { post_id: newer }, { ticket: me.ticket });
    expect(await authorsPage()).toEqual({ [older]: true, [newer]: true });
    expect(await newest()).toEqual({ [newer]: true });
    // More followed users than one read takes, and than the process keeps: each author is then looked up.
    expect((await authorsOnPage()).every((user) => !user.is_follow)).toBe(true);
    const MANY_FOLLOWED = Math.max(FOLLOWED_LIST_MAX, KEPT_FOLLOWS_MAX) + 1;
    await app.t.call(api.followUser, { user_id: author.uid }, { ticket: me.ticket });
    expect((await authorsOnPage()).every((user) => user.is_follow)).toBe(true);
    await queryRows(
      app.database.db,
      sql`with many as (insert into users (ucode, nick, avatar, follower_count)
            select 'liked-span-' || n || '-' || ${me.uid}, '关注很多人' || n || '-' || ${me.uid}, '', 1 from generate_series(1, ${MANY_FOLLOWED}) n returning id),
          counted as (update users set following_count = following_count + ${MANY_FOLLOWED} where id = ${me.uid})
          insert into user_follows (follower_id, followee_id) select ${me.uid}, id from many`,
    );
    expect((await authorsOnPage()).every((user) => user.is_follow)).toBe(true);
    await app.t.call(api.unfollowUser, { user_id: author.uid }, { ticket: me.ticket });
    expect((await authorsOnPage()).every((user) => !user.is_follow)).toBe(true);
    // The author's own likes are theirs, not the viewer's.
    const authorSees = (await app.t.call<Paged<Post>>(api.userPosts, { visit_user_id: author.uid }, { ticket: author.ticket })).data().list;
    expect(authorSees.map((post) => post.is_like)).toEqual([false, false, false, false, false]);
  });

  it('keeps every counter exact under 50 concurrent follow and unfollow calls', async () => {
    const people: { ticket: string; uid: number }[] = [];
    for (let i = 0; i < 5; i++) people.push(await app.t.login(freshPhone()));
    const channelId = 3;
    const random = sequence(20_261_124);
    const calls = Array.from({ length: 50 }, (_, i) => {
      const who = people[i % people.length]!;
      const on = random() < 0.6;
      const pick = random();
      if (pick < 0.4) return app.t.call(on ? api.followChannel : api.unfollowChannel, { channel_id: channelId }, { ticket: who.ticket });
      // Users of the group follow one another (A -> B while B -> A) and a seeded user.
      const others = [...people.filter((p) => p !== who).map((p) => p.uid), 2];
      const target = others[Math.floor(random() * others.length)]!;
      return app.t.call(on ? api.followUser : api.unfollowUser, { user_id: target }, { ticket: who.ticket });
    });
    const answers = await Promise.all(calls);
    for (const answer of answers) expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);

    const channel = (await app.t.call<ChannelDetail>(api.channelDetail, { channel_id: channelId })).data();
    expect(channel.follower_count).toBe(await count(sql`select count(*)::int as n from channel_follows where channel_id = ${channelId}`));
    for (const person of [...people.map((p) => p.uid), 2]) {
      const info = (await app.t.call<UserInfo>(api.userInfo, { visit_user_id: person })).data();
      expect(info.follower_count).toBe(await count(sql`select count(*)::int as n from user_follows where followee_id = ${person}`));
      expect(info.following_count).toBe(await count(sql`select count(*)::int as n from user_follows where follower_id = ${person}`));
    }
    const mismatches = await counterMismatches(app.database.db);
    expect(mismatches['channels.follower_count']).toBe(0);
    expect(mismatches['users.follower_count']).toBe(0);
    expect(mismatches['users.following_count']).toBe(0);
  });

  it('toggles any edge with any counters: a like of a post moves the post and its author', async () => {
    // The shape likes will use: edge likes(user, 'post', id); counters posts.like_count and the author's users.like_count.
    const [post] = await app.database.db.select().from(posts).where(eq(posts.id, 7));
    const [author] = await app.database.db.select().from(users).where(eq(users.id, post!.userId));
    // A user who has not liked the post yet.
    const [liker] = await queryRows<{ id: number }>(
      app.database.db,
      sql`select id from users u where u.id <> ${post!.userId}
        and not exists (select 1 from likes l where l.target_type = 'post' and l.target_id = 7 and l.user_id = u.id)
        order by id limit 1`,
    );
    const like = (on: boolean) =>
      app.database.db.transaction((tx) =>
        toggleEdge(tx, {
          table: likes,
          key: { userId: liker!.id, targetType: 'post', targetId: 7 },
          on,
          counters: [counter(posts.likeCount, 7), counter(users.likeCount, author!.id)],
        }),
      );
    const postLikes = async () => (await app.database.db.select().from(posts).where(eq(posts.id, 7)))[0]!.likeCount;
    const authorLikes = async () => (await app.database.db.select().from(users).where(eq(users.id, author!.id)))[0]!.likeCount;
    const [likesBefore, authorBefore] = [await postLikes(), await authorLikes()];

    expect(await like(true)).toBe(true);
    expect(await like(true)).toBe(false);
    expect([await postLikes(), await authorLikes()]).toEqual([likesBefore + 1, authorBefore + 1]);
    expect(await like(false)).toBe(true);
    expect(await like(false)).toBe(false);
    expect([await postLikes(), await authorLikes()]).toEqual([likesBefore, authorBefore]);
    const mismatches = await counterMismatches(app.database.db);
    expect(mismatches['posts.like_count']).toBe(0);
    expect(mismatches['users.like_count']).toBe(0);
  });

  it('moves nothing when the transaction around the toggle fails', async () => {
    const me = await app.t.login(freshPhone());
    const followers = async () => (await app.database.db.select().from(channels).where(eq(channels.id, 5)))[0]!.followerCount;
    const before = await followers();
    await expect(
      app.database.db.transaction(async (tx) => {
        await toggleEdge(tx, { table: channelFollows, key: { userId: me.uid, channelId: 5 }, on: true, counters: [counter(channels.followerCount, 5)] });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await followers()).toBe(before);
    expect(await app.database.db.select().from(channelFollows).where(eq(channelFollows.userId, me.uid))).toEqual([]);
    expect(await app.database.db.select().from(userFollows).where(eq(userFollows.followerId, me.uid))).toEqual([]);
  });
});
