/** Channels, their categories, and who follows which. */
import { and, asc, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Channel, ChannelCategory, ChannelDetail } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { channelCategories, channelFollows, channels } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { counter, toggleEdge } from './edges.ts';

type ChannelRow = typeof channels.$inferSelect;

export function toDetail(row: ChannelRow, followed: Set<number>): ChannelDetail {
  return {
    channel_id: row.id,
    channel_name: row.name,
    intro: row.intro,
    icon: row.icon,
    category_id: row.categoryId,
    follower_count: row.followerCount,
    post_count: row.postCount,
    is_follow: followed.has(row.id),
  };
}

export async function followedChannelIds(db: Db, viewerId: number | null, ids?: number[]): Promise<Set<number>> {
  if (viewerId === null) return new Set();
  const rows = await db
    .select({ id: channelFollows.channelId })
    .from(channelFollows)
    .where(and(eq(channelFollows.userId, viewerId), ids ? inArray(channelFollows.channelId, ids) : undefined));
  return new Set(rows.map((row) => row.id));
}

export async function getChannel(db: Db, channelId: number, viewerId: number | null): Promise<ChannelDetail> {
  const [row] = await db.select().from(channels).where(eq(channels.id, channelId)).limit(1);
  if (!row) throw notFound('频道');
  return toDetail(row, await followedChannelIds(db, viewerId, [row.id]));
}

export async function channelsByCategory(db: Db, viewerId: number | null): Promise<ChannelCategory[]> {
  const [categories, rows, followed] = await Promise.all([
    db.select().from(channelCategories).orderBy(asc(channelCategories.sort), asc(channelCategories.id)),
    db.select().from(channels).orderBy(asc(channels.sort), asc(channels.id)),
    followedChannelIds(db, viewerId),
  ]);
  return categories.map((category) => ({
    category_id: category.id,
    category_name: category.name,
    list: rows.filter((row) => row.categoryId === category.id).map((row) => toDetail(row, followed)),
  }));
}

export async function recommendedChannels(db: Db, viewerId: number | null, size = 10): Promise<ChannelDetail[]> {
  const rows = await db
    .select()
    .from(channels)
    .where(
      viewerId === null
        ? undefined
        : notExists(
            db
              .select({ one: sql`1` })
              .from(channelFollows)
              .where(and(eq(channelFollows.channelId, channels.id), eq(channelFollows.userId, viewerId))),
          ),
    )
    .orderBy(desc(channels.followerCount), asc(channels.id))
    .limit(size);
  return rows.map((row) => toDetail(row, new Set()));
}

export async function userChannels(db: Db, userId: number): Promise<Channel[]> {
  return db
    .select({ channel_id: channels.id, channel_name: channels.name })
    .from(channelFollows)
    .innerJoin(channels, eq(channels.id, channelFollows.channelId))
    .where(eq(channelFollows.userId, userId))
    .orderBy(asc(channelFollows.createdAt), asc(channels.id));
}

/**
 * Follow or unfollow, in the caller's transaction; repeating either is harmless and the follower
 * count stays exact.
 */
export async function setChannelFollow(tx: Db, userId: number, channelId: number, follow: boolean): Promise<boolean> {
  await getChannel(tx, channelId, null);
  await toggleEdge(tx, {
    table: channelFollows,
    key: { userId, channelId },
    on: follow,
    counters: [counter(channels.followerCount, channelId)],
  });
  return follow;
}
