/**
 * Post reads: keyset pages of post rows, then one batch query per related table to turn a
 * page into the wire shape. A page costs a fixed number of queries whatever its size.
 */
import { and, asc, desc, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Attach, Post, Vote } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import {
  channelFollows,
  channels,
  codeSnippets,
  likes,
  postChannels,
  postImages,
  posts,
  postTopics,
  topics,
  voteOptions,
  voteRecords,
  votes,
} from '../db/schema.ts';
import { notFound, notLoggedIn } from '../errors.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';
import { userBriefs } from './users.ts';

type PostRow = typeof posts.$inferSelect;

const CODE_PREVIEW_LINES = 8;

export type PostFilter =
  | { kind: 'all' }
  | { kind: 'good' }
  | { kind: 'channel'; channelId: number }
  | { kind: 'followed-channels'; userId: number }
  | { kind: 'topic'; topicId: number }
  | { kind: 'user'; userId: number };

function filterCondition(filter: PostFilter): SQL | undefined {
  switch (filter.kind) {
    case 'all':
      return undefined;
    case 'good':
      return eq(posts.isGood, true);
    case 'user':
      return eq(posts.userId, filter.userId);
    case 'channel':
      return sql`exists (select 1 from ${postChannels} where ${postChannels.postId} = ${posts.id} and ${postChannels.channelId} = ${filter.channelId})`;
    case 'topic':
      return sql`exists (select 1 from ${postTopics} where ${postTopics.postId} = ${posts.id} and ${postTopics.topicId} = ${filter.topicId})`;
    case 'followed-channels':
      return sql`exists (select 1 from ${postChannels} join ${channelFollows} on ${channelFollows.channelId} = ${postChannels.channelId}
            where ${postChannels.postId} = ${posts.id} and ${channelFollows.userId} = ${filter.userId})`;
  }
}

export async function listPosts(
  db: Db,
  filter: PostFilter,
  paging: KeysetRequest,
  viewerId: number | null,
): Promise<Page<Post>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const rows = await db
    .select()
    .from(posts)
    .where(
      and(isNull(posts.deletedAt), filterCondition(filter), paging.index ? lt(posts.id, paging.index) : undefined),
    )
    .orderBy(desc(posts.id))
    .limit(size + 1);
  return keysetPage(rows, size, (row) => row.id, (page) => hydratePosts(db, page, viewerId));
}

/** The `channel/posts` call: tab all / good / follow, or one channel. */
export function channelPostsFilter(input: { channel_id?: number | undefined; tab: 'all' | 'follow' | 'good' }, viewerId: number | null): PostFilter {
  if (input.channel_id) return { kind: 'channel', channelId: input.channel_id };
  if (input.tab === 'good') return { kind: 'good' };
  if (input.tab === 'follow') {
    if (viewerId === null) throw notLoggedIn();
    return { kind: 'followed-channels', userId: viewerId };
  }
  return { kind: 'all' };
}

export async function getPost(db: Db, postId: number, viewerId: number | null): Promise<Post> {
  const [row] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt)))
    .limit(1);
  if (!row) throw notFound('动态');
  const [post] = await hydratePosts(db, [row], viewerId);
  return post!;
}

export async function hydratePosts(db: Db, rows: PostRow[], viewerId: number | null): Promise<Post[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [authors, channelRows, topicRows, imageRows, codeRows, voteMap, likedIds] = await Promise.all([
    userBriefs(
      db,
      rows.map((row) => row.userId),
      viewerId,
    ),
    db
      .select({ postId: postChannels.postId, channel_id: channels.id, channel_name: channels.name })
      .from(postChannels)
      .innerJoin(channels, eq(channels.id, postChannels.channelId))
      .where(inArray(postChannels.postId, ids))
      .orderBy(asc(channels.sort), asc(channels.id)),
    db
      .select({ postId: postTopics.postId, topic_id: topics.id, topic_name: topics.name })
      .from(postTopics)
      .innerJoin(topics, eq(topics.id, postTopics.topicId))
      .where(inArray(postTopics.postId, ids))
      .orderBy(asc(topics.id)),
    db.select().from(postImages).where(inArray(postImages.postId, ids)).orderBy(asc(postImages.sort)),
    db
      .select({
        postId: codeSnippets.postId,
        uuid: codeSnippets.uuid,
        language: codeSnippets.language,
        title: codeSnippets.title,
        preview: sql<string>`array_to_string((string_to_array(${codeSnippets.code}, E'\n'))[1:${sql.raw(String(CODE_PREVIEW_LINES))}], E'\n')`,
      })
      .from(codeSnippets)
      .where(inArray(codeSnippets.postId, ids))
      .orderBy(asc(codeSnippets.sort)),
    votesForPosts(db, ids, viewerId),
    viewerId === null
      ? Promise.resolve(new Set<number>())
      : db
          .select({ id: likes.targetId })
          .from(likes)
          .where(and(eq(likes.userId, viewerId), eq(likes.targetType, 'post'), inArray(likes.targetId, ids)))
          .then((found) => new Set(found.map((like) => like.id))),
  ]);

  const byPost = <T extends { postId: number }>(items: T[]) => {
    const map = new Map<number, T[]>();
    for (const item of items) {
      const list = map.get(item.postId);
      if (list) list.push(item);
      else map.set(item.postId, [item]);
    }
    return map;
  };
  const channelsByPost = byPost(channelRows);
  const topicsByPost = byPost(topicRows);
  const imagesByPost = byPost(imageRows);
  const codeByPost = byPost(codeRows);

  return rows.map((row) => {
    const attach: Attach[] = [
      ...(imagesByPost.get(row.id) ?? []).map(
        (image): Attach => ({ type: 'image', url: image.url, width: image.width, height: image.height }),
      ),
      ...(codeByPost.get(row.id) ?? []).map(
        (code): Attach => ({ type: 'code', uuid: code.uuid, language: code.language, title: code.title, preview: code.preview }),
      ),
    ];
    return {
      id: row.id,
      user: authors.get(row.userId)!,
      content: row.content,
      channels: (channelsByPost.get(row.id) ?? []).map(({ channel_id, channel_name }) => ({ channel_id, channel_name })),
      topics: (topicsByPost.get(row.id) ?? []).map(({ topic_id, topic_name }) => ({ topic_id, topic_name })),
      attach,
      vote: voteMap.get(row.id) ?? null,
      like_count: row.likeCount,
      comment_count: row.commentCount,
      is_like: likedIds.has(row.id),
      is_good: row.isGood,
      create_time: row.createdAt.getTime(),
    };
  });
}

/** Votes of the given posts, with the options the viewer chose. */
export async function votesForPosts(db: Db, postIds: number[], viewerId: number | null): Promise<Map<number, Vote>> {
  const voteRows = await db.select().from(votes).where(inArray(votes.postId, postIds));
  if (voteRows.length === 0) return new Map();
  const voteIds = voteRows.map((vote) => vote.id);
  const [optionRows, chosen] = await Promise.all([
    db.select().from(voteOptions).where(inArray(voteOptions.voteId, voteIds)).orderBy(asc(voteOptions.sort), asc(voteOptions.id)),
    viewerId === null
      ? Promise.resolve([])
      : db
          .select({ optionId: voteRecords.optionId })
          .from(voteRecords)
          .where(and(eq(voteRecords.userId, viewerId), inArray(voteRecords.voteId, voteIds))),
  ]);
  const chosenIds = new Set(chosen.map((record) => record.optionId));
  const result = new Map<number, Vote>();
  for (const vote of voteRows) {
    const options = optionRows
      .filter((option) => option.voteId === vote.id)
      .map((option) => ({ option_id: option.id, text: option.text, count: option.count, is_voted: chosenIds.has(option.id) }));
    result.set(vote.postId, {
      vote_id: vote.id,
      title: vote.title,
      multiple: vote.multiple,
      end_time: vote.endTime ? vote.endTime.getTime() : null,
      total: vote.total,
      is_voted: options.some((option) => option.is_voted),
      options,
    });
  }
  return result;
}
