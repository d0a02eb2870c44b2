/**
 * Post reads: keyset pages (id descending) filtered by channel, topic, author, featured or
 * followed channels.
 */
import { and, desc, eq, isNull, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
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
  userFollows,
  users,
  voteOptions,
  voteRecords,
  votes,
} from '../db/schema.ts';
import { forbidden, notFound, notLoggedIn } from '../errors.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';

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
  const where = and(isNull(posts.deletedAt), filterCondition(filter), paging.index ? lt(posts.id, paging.index) : undefined);
  const list = await selectPosts(db, where, size + 1, viewerId);
  return keysetPage(list, size, (post) => post.id, (page) => page);
}

/** The `channel/posts` call: tab all / good / follow, or one channel. */
export function channelPostsFilter(
  input: { channel_id?: number | undefined; tab: 'all' | 'follow' | 'good' },
  viewerId: number | null,
): PostFilter {
  if (input.channel_id) return { kind: 'channel', channelId: input.channel_id };
  if (input.tab === 'good') return { kind: 'good' };
  if (input.tab === 'follow') {
    if (viewerId === null) throw notLoggedIn();
    return { kind: 'followed-channels', userId: viewerId };
  }
  return { kind: 'all' };
}

export async function getPost(db: Db, postId: number, viewerId: number | null): Promise<Post> {
  const [post] = await selectPosts(db, and(eq(posts.id, postId), isNull(posts.deletedAt)), 1, viewerId);
  if (!post) throw notFound('动态');
  return post;
}

/**
 * Deletes the author's own post (else -1006; deleted or missing: -1005). Soft delete: the row
 * stays, every list and the detail skip it. In the same transaction the author's post and like
 * counts, and the post counts of its channels and topics, drop (each row locked in id order).
 */
export async function deletePost(tx: Db, userId: number, postId: number): Promise<{ post_id: number }> {
  const [post] = await tx
    .select({ authorId: posts.userId, likeCount: posts.likeCount })
    .from(posts)
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt)))
    .for('update');
  if (!post) throw notFound('动态');
  if (post.authorId !== userId) throw forbidden();
  await tx.update(posts).set({ deletedAt: sql`now()` }).where(eq(posts.id, postId));
  const channelIds = await tx
    .select({ id: postChannels.channelId })
    .from(postChannels)
    .where(eq(postChannels.postId, postId))
    .orderBy(postChannels.channelId);
  for (const { id } of channelIds) {
    await tx
      .update(channels)
      .set({ postCount: sql`${channels.postCount} - 1` })
      .where(eq(channels.id, id));
  }
  const topicIds = await tx
    .select({ id: postTopics.topicId })
    .from(postTopics)
    .where(eq(postTopics.postId, postId))
    .orderBy(postTopics.topicId);
  for (const { id } of topicIds) {
    await tx
      .update(topics)
      .set({ postCount: sql`${topics.postCount} - 1` })
      .where(eq(topics.id, id));
  }
  await tx
    .update(users)
    .set({ postCount: sql`${users.postCount} - 1`, likeCount: sql`${users.likeCount} - ${post.likeCount}` })
    .where(eq(users.id, post.authorId));
  return { post_id: postId };
}

const epochMs = (column: SQL | AnyColumn) => sql`(extract(epoch from ${column}) * 1000)::bigint`;

/**
 * One query per page: the page of post rows, and for each row its author, channels, topics,
 * attachments, vote and the viewer's like, built as the wire JSON by PostgreSQL. A page
 * costs one round trip whatever its size (PGlite answers one query at a time).
 */
async function selectPosts(db: Db, where: SQL | undefined, limit: number, viewerId: number | null): Promise<Post[]> {
  const viewer = viewerId ?? 0;
  const page = db
    .select()
    .from(posts)
    .where(where)
    .orderBy(desc(posts.id))
    .limit(limit)
    .as('page');
  const p = sql.raw('"page"');
  const post = sql`json_build_object(
    'id', ${p}.id,
    'user', json_build_object(
      'uid', ${users.id}, 'ucode', ${users.ucode}, 'nick', ${users.nick}, 'avatar', ${users.avatar},
      'is_follow', exists (select 1 from ${userFollows} where ${userFollows.followerId} = ${viewer} and ${userFollows.followeeId} = ${users.id})),
    'content', ${p}.content,
    'channels', coalesce((
      select json_agg(json_build_object('channel_id', ${channels.id}, 'channel_name', ${channels.name}) order by ${channels.sort}, ${channels.id})
      from ${postChannels} join ${channels} on ${channels.id} = ${postChannels.channelId}
      where ${postChannels.postId} = ${p}.id), '[]'::json),
    'topics', coalesce((
      select json_agg(json_build_object('topic_id', ${topics.id}, 'topic_name', ${topics.name}) order by ${topics.id})
      from ${postTopics} join ${topics} on ${topics.id} = ${postTopics.topicId}
      where ${postTopics.postId} = ${p}.id), '[]'::json),
    'images', coalesce((
      select json_agg(json_build_object('type', 'image', 'url', ${postImages.url}, 'width', ${postImages.width}, 'height', ${postImages.height}) order by ${postImages.sort})
      from ${postImages} where ${postImages.postId} = ${p}.id), '[]'::json),
    'codes', coalesce((
      select json_agg(json_build_object('type', 'code', 'uuid', ${codeSnippets.uuid}, 'language', ${codeSnippets.language},
        'title', ${codeSnippets.title},
        'preview', array_to_string((string_to_array(${codeSnippets.code}, E'\n'))[1:${sql.raw(String(CODE_PREVIEW_LINES))}], E'\n'))
        order by ${codeSnippets.sort})
      from ${codeSnippets} where ${codeSnippets.postId} = ${p}.id), '[]'::json),
    'vote', (
      select json_build_object('vote_id', ${votes.id}, 'title', ${votes.title}, 'multiple', ${votes.multiple},
        'end_time', ${epochMs(votes.endTime)}, 'total', ${votes.total},
        'options', coalesce((
          select json_agg(json_build_object('option_id', ${voteOptions.id}, 'text', ${voteOptions.text}, 'count', ${voteOptions.count},
            'is_voted', exists (select 1 from ${voteRecords} where ${voteRecords.optionId} = ${voteOptions.id} and ${voteRecords.userId} = ${viewer}))
            order by ${voteOptions.sort}, ${voteOptions.id})
          from ${voteOptions} where ${voteOptions.voteId} = ${votes.id}), '[]'::json))
      from ${votes} where ${votes.postId} = ${p}.id),
    'like_count', ${p}.like_count,
    'comment_count', ${p}.comment_count,
    'is_like', exists (select 1 from ${likes} where ${likes.targetType} = 'post' and ${likes.targetId} = ${p}.id and ${likes.userId} = ${viewer}),
    'is_good', ${p}.is_good,
    'create_time', ${epochMs(sql`${p}.created_at`)}
  )`;
  const rows = await db
    .select({ post: sql<PostJson>`${post}` })
    .from(page)
    .innerJoin(users, eq(users.id, sql`${p}.user_id`))
    .orderBy(sql`${p}.id desc`);
  return rows.map(({ post: row }) => toPost(typeof row === 'string' ? (JSON.parse(row) as PostJson) : row));
}

type PostJson = Omit<Post, 'attach' | 'vote'> & {
  images: Attach[];
  codes: Attach[];
  vote: (Omit<Vote, 'is_voted'> & { is_voted?: boolean }) | null;
};

function toPost({ images, codes, vote, ...rest }: PostJson): Post {
  return {
    ...rest,
    attach: [...images, ...codes],
    vote: vote ? { ...vote, is_voted: vote.options.some((option) => option.is_voted) } : null,
  };
}
