/**
 * post/add: a post with its channels, topics, pictures, code snippet and poll, written through
 * writer's inStatement (routes/posts.ts): exactly once per client_id, its key claimed by the post's
 * own statement (once.ts, onceParts).
 *
 * Checks first, each a business error with a Chinese message and nothing written:
 * - every picture is an upload of this user: `/img/{id}`, optionally with a query (`?w=320`), or
 *   an absolute http(s) URL of this host (the request's hostname); stored as `/img/{id}` with the
 *   width and height recorded at upload (what the client says is ignored) (-1004 otherwise);
 * - a poll's end_time (10 digits: seconds, 13: ms, as toMilliseconds reads it) is in the future
 *   and at most VOTE_MAX_DURATION_MS ahead (-1004);
 * - then, in the statement that writes the post, the write's own checks (once.ts: the ticket, a
 *   suspension, the key, the write limit), every channel exists (-1005 频道不存在) and the daily
 *   post cap (-2006), counted only when the post is written.
 *
 * Topics: each name of topic_tags (NFC, as splitTopicTags gives it, matched exactly) is an
 * existing topic or a new one; new names are inserted with ON CONFLICT DO NOTHING on the unique
 * name, in name order, so concurrent posts naming the same new topic share one row.
 *
 * Counters, in the same statement as the post, each row locked in id order (as post/delete does,
 * so the two never deadlock): channels.post_count and topics.post_count of each, users.post_count
 * of the author. A post of text alone sends its statement and the read of its answer
 * (readAddedPost: the same shape every list serves) with the BEGIN, and the stored answer with the
 * COMMIT: two round trips, five statements.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { postAddInputSchema } from '#shared/api.ts';
import { VOTE_MAX_DURATION_MS } from '#shared/constants.ts';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import { toMilliseconds } from '#shared/timestamp.ts';
import type { Post } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { cardAttach } from '../db/post-attach.ts';
import { boundText, preparedStatement, queryPrepared, statementNamed, type PreparedStatement } from '../db/prepared.ts';
import { inTransaction, sendTogether } from '../db/transaction.ts';
import { codeSnippets, images, postImages, topics, voteOptions, votes } from '../db/schema.ts';
import { badRequest, BusinessError } from '../errors.ts';
import { DAILY_WINDOW_SECONDS, dailyCapKey } from './limits/daily-caps.ts';
import { onceParts, type InStatement, type OnceCall, type OnceOutcome } from './once.ts';
import { ADDED_POST_SETTING, readAddedPost } from './posts.ts';
import { windowHitText } from './limits/window-counters.ts';

export type PostAddData = z.output<typeof postAddInputSchema>;

export interface AddPostOptions {
  /** The hostname the request came to: absolute image URLs must name it. */
  hostname: string;
  dailyPostLimit: number;
  now?: Date;
}

const IMAGE_PATH = new RegExp(`^${OTHER_PATHS.images}/([A-Za-z0-9_-]{1,64})(?:\\?[^#]*)?$`);

/**
 * The image id of a picture's URL: `/img/{id}`, `/img/{id}?w=320`, or `http(s)://{hostname}/img/{id}`
 * (any port); null for anything else (another host, `//host/...`, `javascript:`, a path elsewhere).
 */
export function imageIdOfUrl(url: string, hostname: string): string | null {
  let path = url.trim();
  if (/^https?:\/\//i.test(path)) {
    let parsed: URL;
    try {
      parsed = new URL(path);
    } catch {
      return null;
    }
    if (parsed.hostname.toLowerCase() !== hostname.toLowerCase().replace(/:\d+$/, '')) return null;
    path = `${parsed.pathname}${parsed.search}`;
  }
  return IMAGE_PATH.exec(path)?.[1] ?? null;
}

/** The poll's end as a Date (absent: never closes); -1004 in the past or too far ahead. */
function pollEnd(endTime: number | undefined, now: Date): Date | null {
  if (endTime === undefined) return null;
  let ms: number;
  try {
    ms = toMilliseconds(endTime);
  } catch {
    throw badRequest('投票截止时间无效');
  }
  if (ms <= now.getTime()) throw badRequest('投票截止时间需要晚于现在');
  if (ms > now.getTime() + VOTE_MAX_DURATION_MS) throw badRequest('投票截止时间不能超过一年');
  return new Date(ms);
}

type ImageRow = { id: string; width: number; height: number };

async function checkImages(tx: Db, userId: number, urls: string[], hostname: string): Promise<ImageRow[]> {
  const ids = urls.map((url, i) => {
    const id = imageIdOfUrl(url, hostname);
    if (!id) throw badRequest(`第 ${i + 1} 张图片的地址无效，请使用上传图片得到的地址`);
    return id;
  });
  if (new Set(ids).size !== ids.length) throw badRequest('同一张图片只能添加一次');
  const rows = await tx
    .select({ id: images.id, width: images.width, height: images.height })
    .from(images)
    .where(and(inArray(images.id, ids), eq(images.userId, userId), isNotNull(images.userId)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id, i) => {
    const row = byId.get(id);
    if (!row) throw badRequest(`第 ${i + 1} 张图片不存在或不是你上传的`);
    return row;
  });
}

/** Topic ids for the names, creating the missing topics; sorted by id (the order their counters are locked in). */
async function topicIdsOf(tx: Db, names: string[]): Promise<number[]> {
  // Name order: two posts creating the same new topics insert them in the same order.
  const sorted = [...names].sort();
  await tx
    .insert(topics)
    .values(sorted.map((name) => ({ name })))
    .onConflictDoNothing({ target: topics.name });
  const rows = await tx.select({ id: topics.id }).from(topics).where(inArray(topics.name, sorted));
  if (rows.length !== sorted.length) throw new Error('topics vanished while a post was written');
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/**
 * The post itself, with the write's exactly-once part (once.ts, onceParts), one statement: author
 * $1, content $2, channels $3, topics $4 (sorted ids), the card's attachments $5, whether it has a
 * poll $6 (1 or 0), the day's cap window $7 and its most $8, then onceParts' placeholders, then
 * each channel id and each topic id again for the counts. Only when the write may go (once_go) and
 * every channel exists is the day's post counted, and only within the cap is the post written with
 * its channel and topic rows, its search document (migration 0010_search: the topics are read by
 * then, new ones included), its counts and its key (claimed with a null answer: the answer is read
 * after, with the names the process adds), its id noted for the rest of the transaction
 * (ADDED_POST_SETTING: readAddedPost). Answers the once outcome, the channels found, the day's
 * count and the new post's id (null when refused).
 *
 * The counts, each table's rows in id order (as post/delete locks them), are written last by the
 * statement. One text per number of channels and of topics, each id a parameter of its own: the
 * planner then knows how many rows each update touches in the generic plan too, and keeps it.
 * Given arrays of unknown length, it priced the generic plan for ten ids each, and planned every
 * post anew.
 */
function addPostStatement(channels: number, topics: number, keyed: boolean): PreparedStatement {
  return statementNamed(`post_add_${channels}_${topics}${keyed ? '' : '_unkeyed'}`, (name) => {
    const once = onceParts(9, keyed);
    const firstId = 9 + once.types.length;
    const ids = (first: number, count: number) => Array.from({ length: count }, (_, i) => `$${first + i}`).join(', ');
    return preparedStatement(
      name,
      ['int', 'text', 'int[]', 'int[]', 'json', 'int', 'text', 'int', ...once.types, ...Array.from({ length: channels + topics }, () => 'int')],
      `with ${once.ctes},
        known as (select coalesce(array_agg(id), '{}') as ids from channels where id = any($3)),
        allowed as (select 1 from known where cardinality(ids) = cardinality($3) and exists (select from once_go)),
        cap as (${windowHitText('$7', String(DAILY_WINDOW_SECONDS), '1', 'from allowed')}),
        added as (
          insert into posts (user_id, content, channel_ids, topic_ids, attach, has_vote, search)
          select $1, $2, $3, $4, $5, $6 = 1, post_search_document($2, $4, $5) from allowed where (select count from cap) <= $8
          returning id, set_config('${ADDED_POST_SETTING}', id::text, true)),
        in_channels as (insert into post_channels (post_id, channel_id) select added.id, unnest($3) from added),
        in_topics as (insert into post_topics (post_id, topic_id) select added.id, unnest($4) from added),
        channel_counts as (update channels set post_count = post_count + 1 where id in (${ids(firstId, channels)}) and exists (select from added)),
        ${topics > 0 ? `topic_counts as (update topics set post_count = post_count + 1 where id in (${ids(firstId + channels, topics)}) and exists (select from added)),` : ''}
        author_count as (update users set post_count = post_count + 1 where id = $1 and exists (select from added)),
        ${once.store(`'null'::jsonb`, 'added')}
      select ${once.outcome}, (select ids from known) as channels_found, (select count from cap) as day_count, (select id from added) as id`,
    );
  });
}

/** The once outcome of a post that may not go (a replay, a stale ticket, a suspension, the write limit): nothing of it is kept. */
class PostHeld extends Error {
  constructor(readonly outcome: OnceOutcome) {
    super('post/add held by its once part');
  }
}

/**
 * Writes a post (writer's inStatement) in one transaction: the checks of its pictures and its new
 * topics first, then its statement with the read of its answer (in the same round trip for a post
 * of text), then the stored answer with the COMMIT. A post refused for any reason keeps nothing.
 */
export async function addPost(db: Db, userId: number, input: PostAddData, options: AddPostOptions, once: OnceCall): Promise<InStatement<Post>> {
  const now = options.now ?? new Date();
  const code = input.attach.find((item) => item.type === 'code');
  const endTime = input.vote ? pollEnd(input.vote.end_time, now) : null;
  const channelIds = [...input.channel_id].sort((a, b) => a - b);
  const snippet = code ? { uuid: randomUUID(), language: code.language, title: code.title, code: code.code } : null;
  try {
    const { outcome, post } = await inTransaction(
      db,
      async (tx) => {
        // Awaited only when there is something to read: a post of text sends its statement with the BEGIN.
        const imageUrls = input.attach.flatMap((item) => (item.type === 'image' ? [item.url] : []));
        const pictures = imageUrls.length > 0 ? await checkImages(tx, userId, imageUrls, options.hostname) : [];
        const topicNames = input.topic_tags ?? [];
        const topicIds = topicNames.length > 0 ? await topicIdsOf(tx, topicNames) : [];
        const pictureRows = pictures.map((picture, sort) => ({
          url: `${OTHER_PATHS.images}/${picture.id}`,
          width: picture.width,
          height: picture.height,
          sort,
        }));
        const textOnly = pictureRows.length === 0 && !snippet && !input.vote;
        // What the post is made of rides on its row too, for the reads (schema.ts, posts).
        const values = [
          userId,
          boundText(input.content),
          channelIds,
          topicIds,
          boundText(JSON.stringify(cardAttach(pictureRows, snippet))),
          input.vote ? 1 : 0,
          boundText(dailyCapKey('post', userId, now)),
          options.dailyPostLimit,
          ...once.values,
          ...channelIds,
          ...topicIds,
        ];
        // A post of text alone has its answer read right behind its statement, in one round trip
        // with it; a post refused leaves that read nothing to find.
        const sent = sendTogether(
          tx,
          () => [queryPrepared<AddedRow>(tx, addPostStatement(channelIds.length, topicIds.length, once.keyed), values), textOnly ? readAddedPost(tx, userId) : undefined] as const,
        );
        const settled = Promise.allSettled(sent);
        let outcome: AddedRow;
        let postId: number;
        try {
          const [row] = await sent[0];
          if (!row) throw new Error('post insert answered nothing');
          outcome = row;
          if (!row.once_went) throw new PostHeld(row);
          postId = postIdOf(input, row);
        } catch (error) {
          await settled;
          throw error;
        }
        if (sent[1]) return { outcome, post: await sent[1] };
        if (pictureRows.length > 0) await tx.insert(postImages).values(pictureRows.map((picture) => ({ postId, ...picture })));
        if (snippet) await tx.insert(codeSnippets).values({ postId, ...snippet });
        if (input.vote) {
          const [vote] = await tx
            .insert(votes)
            .values({ postId, title: input.vote.title, multiple: input.vote.multiple, endTime })
            .returning({ id: votes.id });
          if (!vote) throw new Error('vote insert returned nothing');
          await tx.insert(voteOptions).values(input.vote.options.map((text, sort) => ({ voteId: vote.id, text, sort })));
        }
        return { outcome, post: await readAddedPost(tx, userId) };
      },
      (tx, { post }) => once.store(tx, post),
    );
    return { outcome, answer: () => post };
  } catch (error) {
    // Rolled back: writer answers by the outcome (a replay, a stale ticket, a suspension, the write limit).
    if (error instanceof PostHeld) return { outcome: error.outcome, answer: () => { throw error; } };
    throw error;
  }
}

interface AddedRow extends OnceOutcome {
  channels_found: number[];
  day_count: number | null;
  id: number | string | null;
}

/** The new post's id, or the refusal the insert's answer tells: a channel missing (-1005), the day's cap reached (-2006). */
function postIdOf(input: PostAddData, row: AddedRow | undefined): number {
  if (!row) throw new Error('post insert answered nothing');
  const found = new Set(row.channels_found);
  const missing = input.channel_id.filter((id) => !found.has(id));
  if (missing.length > 0) throw new BusinessError(ErrorCode.NotFound, `频道不存在：${missing.join('、')}`);
  if (row.id === null) throw new BusinessError(ErrorCode.DailyLimit);
  return Number(row.id);
}
