/**
 * The author shown on a post is its author as the users table holds them, though the post reads
 * take authors from memory (services/authors.ts) instead of joining users: on every page and
 * detail, for authors read before, and for a user made after the memory was filled.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Paged, Post } from '../../src/shared/schemas.ts';
import { openTestApp, type TestApp } from '../support/api.ts';
import { queryRows } from '../support/db.ts';
import { givePost } from './fixtures.ts';

describe('authors of posts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  async function usersOf(ids: number[]) {
    const rows = await queryRows<{ uid: number; ucode: string; nick: string; avatar: string }>(
      t.database.db,
      sql`select id as uid, ucode, nick, avatar from users where id in ${ids}`,
    );
    return new Map(rows.map((row) => [row.uid, row]));
  }

  async function expectTrueAuthors(posts: Post[]) {
    expect(posts.length).toBeGreaterThan(0);
    const users = await usersOf([...new Set(posts.map((post) => post.user.uid))]);
    for (const post of posts) {
      const { uid, ucode, nick, avatar } = post.user;
      expect({ uid, ucode, nick, avatar }, `post ${post.id}`).toEqual(users.get(uid));
    }
  }

  it('names each post of a page and a detail by its own author, page after page', async () => {
    const first = (await t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20 })).data();
    await expectTrueAuthors(first.list);
    const second = (await t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20, index: first.page.next_index })).data();
    await expectTrueAuthors(second.list);
    // Read again: now every author comes from memory.
    await expectTrueAuthors((await t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20 })).data().list);
    await expectTrueAuthors([(await t.call<Post>(api.postDetail, { post_id: first.list[3]!.id })).data()]);
  });

  it('names a user made after the authors were read, logged out and logged in', async () => {
    const page = (await t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20 })).data();
    const postId = page.list[0]!.id;
    const { uid, ticket } = await t.login('13912345678');
    await givePost(t.database.db, uid, postId);
    for (const viewer of [undefined, ticket]) {
      const detail = (await t.call<Post>(api.postDetail, { post_id: postId }, { ticket: viewer })).data();
      expect(detail.user.uid).toBe(uid);
      await expectTrueAuthors([detail]);
      const again = (await t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20 }, { ticket: viewer })).data();
      expect(again.list[0]!.user.uid).toBe(uid);
      await expectTrueAuthors(again.list);
    }
  });
});
