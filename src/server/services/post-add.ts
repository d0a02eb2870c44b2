/**
 * post/add: a post with its channels, topics, pictures, code snippet and poll, written in the
 * caller's transaction (routes/posts.ts runs it through writer(): exactly once per client_id).
 *
 * Checks first, each a business error with a Chinese message and nothing written:
 * - every picture is an upload of this user: `/img/{id}`, optionally with a query (`?w=320`), or
 *   an absolute http(s) URL of this host (the request's hostname); stored as `/img/{id}` with the
 *   width and height recorded at upload (what the client says is ignored) (-1004 otherwise);
 * - a poll's end_time (10 digits: seconds, 13: ms, as toMilliseconds reads it) is in the future
 *   and at most VOTE_MAX_DURATION_MS ahead (-1004);
 * - then, in the statement that writes the post, every channel exists (-1005 频道不存在) and the
 *   daily post cap (-2006), counted only when the post is written.
 *
 * Topics: each name of topic_tags (NFC, as splitTopicTags gives it, matched exactly) is an
 * existing topic or a new one; new names are inserted with ON CONFLICT DO NOTHING on the unique
 * name, in name order, so concurrent posts naming the same new topic share one row.
 *
 * Counters, in the same transaction and each row locked in id order (as post/delete does, so the
 * two never deadlock): channels.post_count and topics.post_count of each, users.post_count of
 * the author, moved last, beside the read of the post (readAddedPost: the answer, the same shape
 * every list serves), so the busiest rows stay locked the least. A post of text alone sends its
 * insert, its counts and that read in one round trip: with the claim before and the stored
 * answer with the COMMIT after (services/once.ts), three in all.
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
import { sendTogether } from '../db/transaction.ts';
import { codeSnippets, images, postImages, topics, voteOptions, votes } from '../db/schema.ts';
import { badRequest, BusinessError } from '../errors.ts';
import { DAILY_WINDOW_SECONDS, dailyCapKey } from './limits/daily-caps.ts';
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
  if (urls.length === 0) return [];
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
  if (names.length === 0) return [];
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
 * The post itself, one statement: author $1, content $2, channels $3, topics $4 (sorted ids), the
 * card's attachments $5, whether it has a poll $6 (1 or 0), the day's cap window $7 and its most
 * $8. Only when every channel exists is the day's post counted, and only within the cap is the
 * post written with its channel and topic rows, and its search document (migration 0010_search:
 * the topics are read by then, new ones included), its id noted for the rest of the transaction
 * (ADDED_POST_SETTING: readAddedPost). Answers the channels found, the day's count and the new
 * post's id (null when refused).
 */
const addPostStatement = preparedStatement(
  'post_add',
  ['int', 'text', 'int[]', 'int[]', 'json', 'int', 'text', 'int'],
  `with known as (select coalesce(array_agg(id), '{}') as ids from channels where id = any($3)),
    allowed as (select 1 from known where cardinality(ids) = cardinality($3)),
    cap as (${windowHitText('$7', String(DAILY_WINDOW_SECONDS), '1', 'from allowed')}),
    added as (
      insert into posts (user_id, content, channel_ids, topic_ids, attach, has_vote, search)
      select $1, $2, $3, $4, $5, $6 = 1, post_search_document($2, $4, $5) from allowed where (select count from cap) <= $8
      returning id, set_config('${ADDED_POST_SETTING}', id::text, true)),
    in_channels as (insert into post_channels (post_id, channel_id) select added.id, unnest($3) from added),
    in_topics as (insert into post_topics (post_id, topic_id) select added.id, unnest($4) from added)
    select (select ids from known) as channels_found, (select count from cap) as day_count, (select id from added) as id`,
);

/**
 * The counts of a new post's channels, topics and author, one statement, each table's rows in id
 * order (as post/delete locks them). The last change of post/add: a channel's count is a row every
 * post of the channel writes, so it stays locked only until the COMMIT right behind.
 *
 * One text per number of channels and of topics, each id a parameter of its own ($1.. the
 * channels, then the topics, then the author): the planner then knows how many rows each update
 * touches in the generic plan too, and keeps it. Given arrays of unknown length, it priced the
 * generic plan for ten ids each, and planned every post's counts anew.
 */
function countPostStatement(channels: number, topics: number): PreparedStatement {
  return statementNamed(`post_add_counts_${channels}_${topics}`, (name) => {
    const ids = (first: number, count: number) => Array.from({ length: count }, (_, i) => `$${first + i}`).join(', ');
    const author = `$${channels + topics + 1}`;
    const counted = [
      ['channel_counts', `update channels set post_count = post_count + 1 where id in (${ids(1, channels)}) returning id`],
      ...(topics > 0 ? [['topic_counts', `update topics set post_count = post_count + 1 where id in (${ids(channels + 1, topics)}) returning id`]] : []),
      ['author', `update users set post_count = post_count + 1 where id = ${author} returning id`],
    ];
    return preparedStatement(
      name,
      Array.from({ length: channels + topics + 1 }, () => 'int'),
      `with ${counted.map(([cte, text]) => `${cte} as (${text})`).join(',\n      ')}
      select ${counted.map(([cte]) => `(select count(*) from ${cte})`).join(' + ')} as counted`,
    );
  });
}

export async function addPost(tx: Db, userId: number, input: PostAddData, options: AddPostOptions): Promise<Post> {
  const now = options.now ?? new Date();
  const imageUrls = input.attach.flatMap((item) => (item.type === 'image' ? [item.url] : []));
  const pictures = await checkImages(tx, userId, imageUrls, options.hostname);
  const code = input.attach.find((item) => item.type === 'code');
  const endTime = input.vote ? pollEnd(input.vote.end_time, now) : null;
  const channelIds = [...input.channel_id].sort((a, b) => a - b);

  const topicIds = await topicIdsOf(tx, input.topic_tags ?? []);
  const pictureRows = pictures.map((picture, sort) => ({
    url: `${OTHER_PATHS.images}/${picture.id}`,
    width: picture.width,
    height: picture.height,
    sort,
  }));
  const snippet = code ? { uuid: randomUUID(), language: code.language, title: code.title, code: code.code } : null;
  // What the post is made of rides on its row too, for the reads (schema.ts, posts).
  const insert = () =>
    queryPrepared<AddedRow>(tx, addPostStatement, [
      userId,
      boundText(input.content),
      channelIds,
      topicIds,
      boundText(JSON.stringify(cardAttach(pictureRows, snippet))),
      input.vote ? 1 : 0,
      boundText(dailyCapKey('post', userId, now)),
      options.dailyPostLimit,
    ]);
  const count = () => queryPrepared(tx, countPostStatement(channelIds.length, topicIds.length), [...channelIds, ...topicIds, userId]);

  if (pictureRows.length === 0 && !snippet && !input.vote) {
    // A post of text alone: its counts and its answer go out right behind the insert, in one round
    // trip with it. A post refused has its counts rolled back with it, and its read finds nothing.
    const sent = sendTogether(tx, () => [insert(), count(), readAddedPost(tx, userId)] as const);
    const settled = Promise.allSettled(sent);
    try {
      postIdOf(input, (await sent[0])[0]);
    } catch (error) {
      await settled;
      throw error;
    }
    return (await Promise.all(sent))[2];
  }

  const postId = postIdOf(input, (await insert())[0]);
  if (pictureRows.length > 0) {
    await tx.insert(postImages).values(pictureRows.map((picture) => ({ postId, ...picture })));
  }

  if (snippet) {
    await tx.insert(codeSnippets).values({ postId, ...snippet });
  }

  if (input.vote) {
    const [vote] = await tx
      .insert(votes)
      .values({ postId, title: input.vote.title, multiple: input.vote.multiple, endTime })
      .returning({ id: votes.id });
    if (!vote) throw new Error('vote insert returned nothing');
    await tx.insert(voteOptions).values(input.vote.options.map((text, sort) => ({ voteId: vote.id, text, sort })));
  }

  // The counts go out right behind the read of the answer, in one round trip with it.
  const [answer] = await Promise.all(sendTogether(tx, () => [readAddedPost(tx, userId), count()] as const));
  return answer;
}

interface AddedRow {
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
