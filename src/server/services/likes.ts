/** Likes of posts and comments (each one statement: the edge, its counters, the exactly-once key), and who liked a post, newest first. */
import type { UserBrief } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { existsPerRow, preparedStatement, queryPrepared, statementNamed, type PreparedStatement } from '../db/prepared.ts';
import { notFound } from '../errors.ts';
import { inOneTrip } from '../db/transaction.ts';
import { likeNotice } from './notices.ts';
import { keepLikeMade, marksVersionSql } from './viewer-marks.ts';
import { onceParts, type InStatement, type OnceCall, type OnceOutcome } from './once.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';

export type LikeTarget = { post_id: number } | { comment_id: number };

type LikeKind = 'post' | 'comment';

/**
 * The like (`on`) or unlike of target $2 by user $1, as one statement, then the write's
 * exactly-once part (once.ts, onceParts): the target row locked first (live, and for a comment its
 * post live too), so a like and a delete of the same target never interleave; the edge inserted
 * or deleted; and only when it changed, the target's like count, then its author's (the order of
 * every counter toggle, edges.ts). Answers the author, the target's post, the count after the call
 * and whether the edge changed, the answer stored with the key; no author when the target is
 * missing, deleted, or hidden by a moderator (its author's alone). A post's also answers the
 * version of the user's marks its snapshot saw (viewer-marks.ts), before its own change moves it.
 */
function likeStatementText(kind: LikeKind, on: boolean, keyed: boolean): string {
  const once = onceParts(3, keyed);
  const table = kind === 'post' ? 'posts' : 'comments';
  const target =
    kind === 'post'
      ? `select id, user_id, like_count, id as post_id from posts
          where id = $2 and deleted_at is null and (hidden_at is null or user_id = $1) and exists (select from once_go) for update`
      : `select c.id, c.user_id, c.like_count, c.post_id from comments c join posts p on p.id = c.post_id
          where c.id = $2 and c.deleted_at is null and p.deleted_at is null
            and (c.hidden_at is null or c.user_id = $1) and (p.hidden_at is null or p.user_id = $1)
            and exists (select from once_go) for update of c`;
  const edge = on
    ? `insert into likes (user_id, target_type, target_id) select $1, '${kind}', id from target on conflict do nothing returning 1`
    : `delete from likes where target_type = '${kind}' and target_id = (select id from target) and user_id = $1 returning 1`;
  const step = on ? '+ 1' : '- 1';
  return `with ${once.ctes},
    target as (${target}),
    edge as (${edge}),
    counted as (
      update ${table} set like_count = like_count ${step} where id = (select id from target) and exists (select from edge)
      returning like_count),
    author as (
      update users set like_count = like_count ${step} where id = (select user_id from target) and exists (select from edge)
      returning id),
    result as (
      select t.user_id as author_id, t.post_id, coalesce(c.like_count, t.like_count) as like_count, c.like_count is not null as changed
      from target t left join counted c on true left join author a on a.id = t.user_id),
    ${once.store("jsonb_build_object('is_success', true, 'like_count', like_count)", 'result')}
    select ${once.outcome}, r.author_id, r.post_id, r.like_count, r.changed${kind === 'post' ? `, ${marksVersionSql('$1')} as marks_version` : ''}
    from (select 1) one left join result r on true`;
}

function likeStatement(kind: LikeKind, on: boolean, keyed: boolean): PreparedStatement {
  return statementNamed(`like_${kind}_${on ? 'on' : 'off'}${keyed ? '' : '_unkeyed'}`, (name) =>
    preparedStatement(name, ['int', 'bigint', ...onceParts(3, keyed).types], likeStatementText(kind, on, keyed)),
  );
}

interface LikeRow extends OnceOutcome {
  author_id: number | null;
  post_id: number | string | null;
  like_count: number;
  changed: boolean | null;
  /** A post's alone. */
  marks_version?: number | string;
}

/**
 * Likes (`on`) or unlikes the target (writer's inStatement), in one transaction with the author's
 * notice (notices.ts, likeNotice) when the edge changed, both sent at once; answers the count
 * after the call. Repeating either is harmless and answers the same. A deleted or missing target
 * (or a comment of a deleted post): -1005.
 */
export async function setLike(
  db: Db,
  userId: number,
  target: LikeTarget,
  on: boolean,
  once: OnceCall,
): Promise<InStatement<{ is_success: true; like_count: number }>> {
  const kind: LikeKind = 'post_id' in target ? 'post' : 'comment';
  const id = 'post_id' in target ? target.post_id : target.comment_id;
  const [[row]] = await inOneTrip(
    db,
    (tx) => queryPrepared<LikeRow>(tx, likeStatement(kind, on, once.keyed), [userId, id, ...once.values]),
    (tx) => likeNotice(tx, kind, id, userId, on),
  );
  if (!row) throw new Error('like answered nothing');
  if (row.changed && row.marks_version !== undefined) keepLikeMade(db, userId, id, on, Number(row.marks_version));
  return {
    outcome: row,
    answer: () => {
      if (row.author_id === null) throw notFound(kind === 'post' ? '动态' : '评论');
      return { is_success: true as const, like_count: row.like_count };
    },
  };
}

/** The keyset bound of a first page: above every id. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Likers of post $1 below like id $2, newest first, with each liker's brief; logged in (`viewer`
 * is $3), whether the viewer follows them. One prepared statement (db/prepared.ts) per page size,
 * ordered `desc nulls last` as likes_target_order_idx is (a plain `desc` would not walk it).
 */
function likersStatementText(limit: number, withViewer: boolean): string {
  return `select l.id, l.user_id, u.ucode, u.nick, u.avatar
      ${withViewer ? `, ${existsPerRow('user_follows f where f.follower_id = $3 and f.followee_id = l.user_id')} as is_follow` : ''}
    from likes l join users u on u.id = l.user_id
    where l.target_type = 'post' and l.target_id = $1 and l.id < $2
    order by l.id desc nulls last limit ${limit}`;
}

function likersStatement(limit: number, withViewer: boolean): PreparedStatement {
  return statementNamed(`likers_${limit}${withViewer ? '_viewer' : ''}`, (name) =>
    preparedStatement(name, withViewer ? ['bigint', 'bigint', 'int'] : ['bigint', 'bigint'], likersStatementText(limit, withViewer)),
  );
}

interface LikerRow {
  id: number | string;
  user_id: number;
  ucode: string;
  nick: string;
  avatar: string;
  is_follow?: boolean;
}

/** Who liked a post, newest like first; the cursor is the like's id. */
export async function listLikers(db: Db, postId: number, paging: KeysetRequest, viewerId: number | null): Promise<Page<UserBrief>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const values = [postId, paging.index || NO_BOUND];
  const rows = await queryPrepared<LikerRow>(
    db,
    likersStatement(size + 1, viewerId !== null),
    viewerId === null ? values : [...values, viewerId],
  );
  return keysetPage(rows, size, (row) => Number(row.id), (page) =>
    page.map((row) => ({ uid: row.user_id, ucode: row.ucode, nick: row.nick, avatar: row.avatar, is_follow: row.is_follow ?? false })),
  );
}
