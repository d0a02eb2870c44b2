/**
 * Notices bulk-loaded for one user (the bench's notice/list cases and their EXPLAIN): every type,
 * follows one in a hundred, a quarter unread, one actor each, about posts of a given range; the
 * user's unread count set to match. Only what the user lacks of `count` is added, so a reused
 * database keeps its rows.
 */
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
  if (missing <= 0) return 0;
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
  await runner.query(`update users set notice_unread = (select count(*) from notices where user_id = ${userId} and unread) where id = ${userId}`);
  await runner.query('analyze notices');
  await runner.query('analyze notice_actors');
  return missing;
}
