/**
 * The demo user's first unread notices, made from what the demo community already did to them
 * (a comment on their post, a reply to their comment, likes of their post, new followers) through
 * the very calls a write makes (services/notices.ts), so a newcomer who logs in as the demo user
 * sees 消息 at work at once. Nothing else of the demo changes.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { joinNoticeGroup, noticeComment } from '../services/notices.ts';

/** How many of the latest likers of the demo user's most liked post, and of their followers, join a group. */
const DEMO_LIKERS = 5;
const DEMO_FOLLOWERS = 2;

async function rows<T>(tx: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Gives `demoUserId` a few unread notices of every kind the demo has a cause for; answers how many. */
export async function seedDemoNotices(tx: Db, demoUserId: number): Promise<number> {
  let made = 0;
  const [commented] = await rows<{ id: number; user_id: number; post_id: number }>(
    tx,
    sql`select c.id::int as id, c.user_id, c.post_id::int as post_id from comments c join posts p on p.id = c.post_id
      where p.user_id = ${demoUserId} and p.deleted_at is null and c.user_id <> ${demoUserId} and c.root_id is null and c.deleted_at is null
      order by c.id desc limit 1`,
  );
  if (commented) {
    await noticeComment(tx, { type: 'comment', recipientId: demoUserId, actorId: commented.user_id, postId: commented.post_id, commentId: commented.id });
    made++;
  }
  const [replied] = await rows<{ id: number; user_id: number; post_id: number; root_id: number }>(
    tx,
    sql`select r.id::int as id, r.user_id, r.post_id::int as post_id, r.root_id::int as root_id
      from comments r join comments root on root.id = r.root_id join posts p on p.id = r.post_id
      where root.user_id = ${demoUserId} and r.reply_user_id = ${demoUserId} and r.user_id <> ${demoUserId}
        and r.deleted_at is null and root.deleted_at is null and p.deleted_at is null
      order by r.id desc limit 1`,
  );
  if (replied) {
    await noticeComment(tx, {
      type: 'reply', recipientId: demoUserId, actorId: replied.user_id, postId: replied.post_id, commentId: replied.id, targetCommentId: replied.root_id,
    });
    made++;
  }
  const [liked] = await rows<{ id: number }>(
    tx,
    sql`select id::int as id from posts where user_id = ${demoUserId} and deleted_at is null order by like_count desc, id desc limit 1`,
  );
  if (liked) {
    // Oldest first, so the newest liker is the group's first actor.
    const likers = await rows<{ user_id: number }>(
      tx,
      sql`select user_id from (select user_id, id from likes where target_type = 'post' and target_id = ${liked.id} and user_id <> ${demoUserId}
        order by id desc limit ${DEMO_LIKERS}) l order by id`,
    );
    for (const { user_id } of likers) await joinNoticeGroup(tx, { type: 'like', recipientId: demoUserId, postId: liked.id, commentId: 0 }, user_id);
    if (likers.length > 0) made++;
  }
  const followers = await rows<{ follower_id: number }>(
    tx,
    sql`select follower_id from (select follower_id, created_at from user_follows where followee_id = ${demoUserId}
      order by created_at desc, follower_id limit ${DEMO_FOLLOWERS}) f order by created_at, follower_id desc`,
  );
  for (const { follower_id } of followers) await joinNoticeGroup(tx, { type: 'follow', recipientId: demoUserId, postId: 0, commentId: 0 }, follower_id);
  if (followers.length > 0) made++;
  return made;
}
