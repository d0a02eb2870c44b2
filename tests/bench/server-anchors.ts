/**
 * The benchmark's anchors (`npm run bench`), served beside the real calls by the bench's own
 * server (anchored-server.ts), never by the production one: figures of the real calls are read
 * beside what the same Fastify, process and database do with the least work, measured in the
 * same run.
 *
 * - constant: a fixed JSON answer (HTTP, routing, serialization: the ceiling of any call);
 * - raw keyset: one page of posts from one table by keyset, no schema, no joins, no viewer,
 *   sent as the rows come (the floor cost of reading a page from this database). It is a
 *   prepared statement through db/prepared.ts like the feed's own reads: an anchor parsed and
 *   planned on every call would be slower than it need be and flatter every ratio beside it.
 * - raw feed (the logged-in group): the same for one channel's, one topic's and the followed
 *   channels' page, read through the index its feed walks: the floor cost of that feed's rows.
 * - raw search (the search group): the first page of the posts matching a query, read by
 *   search/'s own statement (services/posts.ts, searchPageText: each rank walked newest first or
 *   read through posts_search_idx), the same columns of each post as raw keyset sends: no JSON
 *   made of them, no authors, no viewer, no excerpt, prepared as search/'s page is.
 * - cards (the logged-in and search groups): a visitor's page of tab all or of search/'s posts
 *   read by the app's own statement, each post's card as the database writes it (services/posts.ts,
 *   postStatementText) sent as it comes: no author, channel or topic names, no viewer, no excerpt.
 *   What the API's card costs beside the raw read, the least any server sending it could do.
 * - raw user search (the search group): a page of the users whose nickname matches, as the GIN
 *   index finds them, unranked: no exact names first, no most followed, no excerpt.
 * - raw writes (the writes group): the row a write adds or removes with the counter that counts
 *   it, as one prepared statement on a connection taken as the app's writes take theirs, the
 *   user named in the body: no login,
 *   no exactly-once key, no limits, no notices, no answer beyond the counter (the floor cost of
 *   the same change in this database).
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../src/shared/envelope.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/shared/constants.ts';
import { buildApp, type AppOptions } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/client.ts';
import { boundText, preparedStatement, queryPrepared, type BoundText, type PreparedStatement, type PreparedValue } from '../../src/server/db/prepared.ts';
import { onWriteConnection } from '../../src/server/db/transaction.ts';
import { jsonArray } from '../../src/server/services/json-text.ts';
import { searchPageText, visitorPageStatement } from '../../src/server/services/posts.ts';

export const BENCH_ANCHOR_PATHS = {
  constant: '/bench/anchor/constant',
  rawKeyset: '/bench/anchor/raw-keyset',
  rawSearch: '/bench/anchor/raw-search',
  rawUserSearch: '/bench/anchor/raw-user-search',
  cardKeyset: '/bench/anchor/card-keyset',
  cardSearch: '/bench/anchor/card-search',
  // A feed's own raw read (body: `of`, the channel's, topic's or following user's id).
  rawChannel: '/bench/anchor/raw-channel',
  rawTopic: '/bench/anchor/raw-topic',
  rawFollow: '/bench/anchor/raw-follow',
  rawLikeAdd: '/bench/anchor/raw-like-add',
  rawLikeCancel: '/bench/anchor/raw-like-cancel',
  rawCommentAdd: '/bench/anchor/raw-comment-add',
  rawPostAdd: '/bench/anchor/raw-post-add',
} as const;

/** Like of post $2 by user $1 and the post's count; the same like's removal. */
const rawLikeAdd = preparedStatement(
  'bench_raw_like_add',
  ['int', 'bigint'],
  `with edge as (insert into likes (user_id, target_type, target_id) values ($1, 'post', $2) on conflict do nothing returning target_id)
   update posts set like_count = like_count + 1 from edge where posts.id = edge.target_id returning like_count`,
);
const rawLikeCancel = preparedStatement(
  'bench_raw_like_cancel',
  ['int', 'bigint'],
  `with edge as (delete from likes where target_type = 'post' and target_id = $2 and user_id = $1 returning target_id)
   update posts set like_count = like_count - 1 from edge where posts.id = edge.target_id returning like_count`,
);
/** Comment $3 of user $1 on post $2, and the post's count. */
const rawCommentAdd = preparedStatement(
  'bench_raw_comment_add',
  ['int', 'bigint', 'text'],
  `with added as (insert into comments (post_id, user_id, content) values ($2, $1, $3) returning id, post_id)
   update posts set comment_count = comment_count + 1 from added where posts.id = added.post_id returning added.id`,
);
/** Post $3 of user $1 in channel $2, with its channel row and the channel's and the author's counts. */
const rawPostAdd = preparedStatement(
  'bench_raw_post_add',
  ['int', 'int', 'text'],
  `with added as (insert into posts (user_id, content, channel_ids) values ($1, $3, array[$2::int]) returning id),
     in_channel as (insert into post_channels (post_id, channel_id) select id, $2 from added),
     channel as (update channels set post_count = post_count + 1 where id = $2)
   update users set post_count = post_count + 1 from added where users.id = $1 returning added.id`,
);

/** The raw write anchors' statements, also run without HTTP by write-floor.ts (the write-floor group). */
export const RAW_WRITE_STATEMENTS = { likeAdd: rawLikeAdd, likeCancel: rawLikeCancel, commentAdd: rawCommentAdd, postAdd: rawPostAdd } as const;

const CONSTANT = ok({ list: [{ id: 1, content: '常量' }], page: { more: false, next_index: 0 } });

/** The keyset bound of a first page: above every id. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

const wholeOr = (value: unknown, fallback: number, max: number) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? Math.min(value, max) : fallback;

/** A statement per page size (the limit a constant in the text, as db/prepared.ts asks), made once. */
function perPageSize(name: string, types: string[], text: (limit: number) => string): (size: number) => PreparedStatement {
  const made = new Map<number, PreparedStatement>();
  return (size) => {
    let statement = made.get(size);
    if (!statement) {
      statement = preparedStatement(`${name}_${size}`, types, text(size + 1));
      made.set(size, statement);
    }
    return statement;
  };
}

const RAW_COLUMNS = 'p.id, p.user_id, p.content, p.is_good, p.like_count, p.comment_count, p.created_at';

/** Posts below the keyset bound $1, newest first. */
const rawKeysetStatement = perPageSize(
  'bench_raw_keyset',
  ['bigint'],
  (limit) => `select ${RAW_COLUMNS} from posts p where deleted_at is null and id < $1 order by id desc nulls last limit ${limit}`,
);

/**
 * A feed's own raw read, the rows of its page through the same index as the feed walks: channel
 * $2's posts below $1 (post_channels), topic $2's (post_topics), and the newest of the channels
 * user $2 follows, merged (each channel's own index read, as the follow tab reads them; the
 * planner's own plan for the plain `in` reads every post down to the page).
 */
const rawFeedStatements = {
  [BENCH_ANCHOR_PATHS.rawChannel]: perPageSize(
    'bench_raw_channel',
    ['bigint', 'int'],
    (limit) => `select ${RAW_COLUMNS} from post_channels pc join posts p on p.id = pc.post_id
      where pc.channel_id = $2 and pc.post_id < $1 and p.deleted_at is null order by pc.post_id desc nulls last limit ${limit}`,
  ),
  [BENCH_ANCHOR_PATHS.rawTopic]: perPageSize(
    'bench_raw_topic',
    ['bigint', 'int'],
    (limit) => `select ${RAW_COLUMNS} from post_topics pt join posts p on p.id = pt.post_id
      where pt.topic_id = $2 and pt.post_id < $1 and p.deleted_at is null order by pt.post_id desc nulls last limit ${limit}`,
  ),
  [BENCH_ANCHOR_PATHS.rawFollow]: perPageSize(
    'bench_raw_follow',
    ['bigint', 'int'],
    (limit) => `select ${RAW_COLUMNS} from (
        select distinct newest.post_id from channel_follows f
        cross join lateral (select pc.post_id from post_channels pc where pc.channel_id = f.channel_id and pc.post_id < $1
          order by pc.post_id desc nulls last limit ${limit}) newest
        where f.user_id = $2 order by newest.post_id desc nulls last limit ${limit}) k
      join posts p on p.id = k.post_id where p.deleted_at is null order by p.id desc nulls last`,
  ),
} as const;

/** The first page of the posts matching query $2, read as search/ reads them ($1 the keyset bound, none here), each post's row as raw keyset sends it. */
const rawSearchStatement = perPageSize('bench_raw_search', ['bigint', 'text'], (limit) => `select ${RAW_COLUMNS} from (${searchPageText(limit)}) p`);
const rawUserSearchStatement = perPageSize(
  'bench_raw_user_search',
  ['text'],
  (limit) => `select id, nick, avatar, follower_count from users where search @@ search_query($1, false) limit ${limit}`,
);

async function registerBenchAnchors(app: FastifyInstance, db: Db): Promise<void> {
  const hidden = { schema: { hide: true } };
  app.post(BENCH_ANCHOR_PATHS.constant, hidden, async () => CONSTANT);
  // A keyset page of raw rows: the raw keyset read's ($1 the bound), or a feed's own (`of` its $2).
  const rawPage = (path: string, statement: (size: number) => PreparedStatement, filtered: boolean) =>
    app.post(path, hidden, async (request) => {
      const body = (request.body ?? {}) as { index?: unknown; size?: unknown; of?: unknown };
      const index = wholeOr(body.index, NO_BOUND, NO_BOUND);
      const size = wholeOr(body.size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      const values = filtered ? [index, wholeOr(body.of, 1, NO_BOUND)] : [index];
      const rows = await queryPrepared<{ id: number | string }>(db, statement(size), values);
      const more = rows.length > size;
      const list = more ? rows.slice(0, size) : rows;
      return ok({ list, page: { more, next_index: Number(list.at(-1)?.id ?? 0) } });
    });
  rawPage(BENCH_ANCHOR_PATHS.rawKeyset, rawKeysetStatement, false);
  for (const [path, statement] of Object.entries(rawFeedStatements)) rawPage(path, statement, true);
  // The first page of what matches the body's `q`: search/'s posts, or users by nickname.
  const rawMatches = (path: string, statement: (size: number) => PreparedStatement, values: (q: BoundText) => PreparedValue[]) =>
    app.post(path, hidden, async (request) => {
      const body = (request.body ?? {}) as { q?: unknown; size?: unknown };
      const size = wholeOr(body.size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      const rows = await queryPrepared<{ id: number | string }>(db, statement(size), values(boundText(String(body.q ?? ''))));
      const more = rows.length > size;
      return ok({ list: more ? rows.slice(0, size) : rows, page: { more } });
    });
  rawMatches(BENCH_ANCHOR_PATHS.rawSearch, rawSearchStatement, (q) => [NO_BOUND, q]);
  rawMatches(BENCH_ANCHOR_PATHS.rawUserSearch, rawUserSearchStatement, (q) => [q]);
  // The cards of a page, each body closed where the app adds the author, channels and topics.
  const cards = (path: string, source: 'all' | 'search') =>
    app.post(path, hidden, async (request, reply) => {
      const body = (request.body ?? {}) as { index?: unknown; size?: unknown; q?: unknown };
      const size = wholeOr(body.size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
      const index = wholeOr(body.index, NO_BOUND, NO_BOUND);
      const values = source === 'all' ? [index] : [index, boundText(String(body.q ?? ''))];
      const rows = await queryPrepared<{ body: string }>(db, visitorPageStatement(source, size), values);
      const list = (rows.length > size ? rows.slice(0, size) : rows).map((row) => `${row.body}}`);
      return reply.type('application/json; charset=utf-8').send(`{"code":0,"data":{"list":${jsonArray(list)},"page":{"more":${rows.length > size}}}}`);
    });
  cards(BENCH_ANCHOR_PATHS.cardKeyset, 'all');
  cards(BENCH_ANCHOR_PATHS.cardSearch, 'search');
  const rawWrite = (path: string, statement: PreparedStatement, withText: boolean, target: 'post_id' | 'channel_id') =>
    app.post(path, hidden, async (request) => {
      const body = (request.body ?? {}) as { user_id?: unknown; post_id?: unknown; channel_id?: unknown; content?: unknown };
      const values = [wholeOr(body.user_id, 1, NO_BOUND), wholeOr(body[target], 1, NO_BOUND)];
      // On a connection taken as the app's writes take theirs: the same share of the pool.
      const rows = await onWriteConnection(db, (connection) =>
        queryPrepared(connection, statement, withText ? [...values, boundText(String(body.content ?? ''))] : values),
      );
      return ok(rows[0] ?? {});
    });
  rawWrite(BENCH_ANCHOR_PATHS.rawLikeAdd, rawLikeAdd, false, 'post_id');
  rawWrite(BENCH_ANCHOR_PATHS.rawLikeCancel, rawLikeCancel, false, 'post_id');
  rawWrite(BENCH_ANCHOR_PATHS.rawCommentAdd, rawCommentAdd, true, 'post_id');
  rawWrite(BENCH_ANCHOR_PATHS.rawPostAdd, rawPostAdd, true, 'channel_id');
}

/** The server's app as it builds it, with the anchors beside its calls. */
export async function buildAnchoredApp(options: AppOptions): Promise<FastifyInstance> {
  const app = await buildApp(options);
  await registerBenchAnchors(app, options.db);
  return app;
}
