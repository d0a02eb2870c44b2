/**
 * Notices bulk-loaded for one user (the bench's notice/list cases and their EXPLAIN): every type,
 * follows one in a hundred, a quarter unread, one actor each, about posts of a given range, each
 * with its previews (its post's text, a comment's own); the
 * user's unread count set to match. Only what the user lacks of `count` is added, so a reused
 * database keeps its rows.
 */
import { NOTICE_EXCERPT_CHARS } from '../../src/shared/constants.ts';
import type { SqlRunner } from './bulk-load.ts';

export interface NoticeLoad {
  userId: number;
  count: number;
  /** Posts the notices are about, and users who act (ids that exist). */
  posts: [number, number];
  actors: [number, number];
}

/** Adds notices until the user has `count`; answers how many were added. */
export async function bulkLoadNotices(runner: SqlRunner, load: NoticeLoad): Promise<number> {
  const { userId, count, posts, actors } = load;
  const present = Number(((await runner.query(`select count(*) as n from notices where user_id = ${userId}`)).rows[0] as { n: string }).n);
  const missing = count - present;
  if (missing <= 0) {
    await fillPreviews(runner, userId);
    return 0;
  }
  const postSpan = posts[1] - posts[0] + 1;
  const actorSpan = actors[1] - actors[0] + 1;
  await runner.query(`insert into notices (user_id, type, tab, post_id, comment_id, day, unread)
    select ${userId}, k.type, case k.type when 'reply' then 'comment' else k.type end,
      case k.type when 'follow' then 0 else ${posts[0]} + g % ${postSpan} end, 0, ${present} + g, g % 4 = 0
    from generate_series(1, ${missing}) g
    cross join lateral (select case when g % 100 < 40 then 'comment' when g % 100 < 60 then 'reply'
      when g % 100 < 99 then 'like' else 'follow' end as type) k`);
  await runner.query(`insert into notice_actors (notice_id, actor_id, seq)
    select n.id, ${actors[0]} + n.id % ${actorSpan}, n.seq from notices n
    where n.user_id = ${userId} and not exists (select 1 from notice_actors a where a.notice_id = n.id)`);
  await fillPreviews(runner, userId);
  await runner.query(`update users set notice_unread = (select count(*) from notices where user_id = ${userId} and unread) where id = ${userId}`);
  await runner.query('analyze notices');
  await runner.query('analyze notice_actors');
  return missing;
}

/** The previews a notice carries (migration 0015_notice_previews), where they are missing: its post's text, a comment's own. */
async function fillPreviews(runner: SqlRunner, userId: number): Promise<void> {
  await runner.query(`update notices n set target_excerpt = notice_excerpt(p.content, ${NOTICE_EXCERPT_CHARS}),
      content_excerpt = case when n.type in ('comment', 'reply') then '写得很好，请问第二步怎么做？我按文档试了两次都没有成功。' else '' end
    from posts p where n.user_id = ${userId} and n.type <> 'follow' and p.id = n.post_id
      and (n.target_excerpt = '' or (n.type in ('comment', 'reply') and n.content_excerpt = ''))`);
}
