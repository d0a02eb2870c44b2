/**
 * Post reads: keyset pages (id descending) filtered by channel, topic, author, featured or
 * followed channels, and one post.
 *
 * A page is one prepared statement (db/prepared.ts), parsed and planned once per connection:
 * the page's posts walked down one index (never a join or a subquery per row scanned), each
 * row carrying what its card shows (channel and topic ids, pictures, the code preview, the poll's
 * card, kept right by triggers as votes come: schema.ts, posts); logged in, when the viewer's
 * ticket was not looked up for this request, that it is still live (http/auth.ts). What the viewer
 * did (follows the author, liked the post, chose options in its poll) Node marks on the cards
 * (markViewer) from the viewer's marks kept in memory (viewer-marks.ts), the statement then the
 * visitor's with the marks' version checked; for a viewer with too many to keep, the statement
 * reads them for its rows only (one read per page of the viewer's own follows and of their likes
 * within the page's ids, see viewerCtes). Each post comes back as its own fields already written as
 * JSON text and the ids Node looks up (see postStatementText), never the page as one JSON
 * document aggregated by PostgreSQL (building one cost more than the lookups); Node joins the
 * posts' texts into the answer (json-text.ts), naming channels and topics from the post
 * row's ids (reference-names.ts) and the authors from their ids (authors.ts, kept in memory: the
 * join to users was the costliest part of the statement). A detail is the same statement over
 * one id. tests/api/explain.test.ts holds every plan to its indexes; tests/api/json-text.test.ts
 * every answer to its schema. A post a moderator hid (services/moderation.ts) is skipped as a
 * deleted one is, except in its author's own centre and detail, where it carries its reason.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Post } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import {
  boundText,
  existsPerRow,
  preparedStatement,
  queryPrepared,
  statementNamed,
  type PreparedStatement,
  type PreparedValue,
} from '../db/prepared.ts';
import { channels, postChannels, posts, postTopics, topics, users } from '../db/schema.ts';
import { forbidden, notFound, notLoggedIn } from '../errors.ts';
import { JsonText, jsonArray } from './json-text.ts';
import type { KeysetRequest, Page } from './paging.ts';
import { authorsOf } from './authors.ts';
import { referenceNames, type ReferenceNames } from './reference-names.ts';
import { removePostNotices } from './notices.ts';
import { refuseEndedTicket, StaleTicket, TICKET_LIVE_SQL, type Viewer } from './sessions.ts';
import { MARKS_CURRENT_SQL, readMarks, viewerMarks, type ViewerMarks } from './viewer-marks.ts';

/** The keyset bound of a first page: above every id. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/** The setting, local to its transaction, in which post/add's insert notes the id of the post it added (services/post-add.ts). */
export const ADDED_POST_SETTING = 'community.added_post';

export type PostFilter =
  | { kind: 'all' }
  | { kind: 'good' }
  | { kind: 'channel'; channelId: number }
  | { kind: 'followed-channels'; userId: number }
  | { kind: 'topic'; topicId: number }
  | { kind: 'user'; userId: number };

type Source = PostFilter['kind'] | 'one' | 'added' | 'search' | 'moderated';

/**
 * The key search/ pages by: a post matching in its head (first line, topics, code title) ranks
 * above every post matching only in its body, each group newest first, as one number: this plus
 * the id for the head's, the id alone for the others (ids stay far below it).
 */
export const SEARCH_HEAD_RANK = 2 ** 52;

/**
 * How many posts, newest first, search/ walks for a rank's page when every word of the query is
 * common (each lexeme among the column's most common elements in the planner's statistics: a
 * page fills within a few hundred), or when there are no statistics yet. Not filled by then, or
 * with a word that is not common, the rank is read through the GIN index instead, which is cheap
 * exactly when few posts match (and costly, posting list and rows, when many do).
 */
export const SEARCH_WALK_COMMON = 5_000;
export const SEARCH_WALK_UNKNOWN = 1_000;

type Rank = 'head' | 'body';

/**
 * search/'s two ranks: what a post of each matches, and the bound of the keyset $1 on its ids. The
 * bound is a subquery, which the planner estimates alike whether it knows $1 or not: a plan made
 * for the values would look cheaper than the generic one, so PostgreSQL would plan the statement
 * afresh at every call, which costs more than running it.
 */
const SEARCH_RANKS: Record<Rank, { match: (doc: string) => string; bound: string }> = {
  head: { match: (doc) => `${doc} @@ (select head_query from walk)`, bound: `(select $1 - ${SEARCH_HEAD_RANK})` },
  body: {
    match: (doc) => `${doc} @@ (select body_query from walk) and not ${doc} @@ (select head_query from walk)`,
    bound: `(select least($1, ${SEARCH_HEAD_RANK}))`,
  },
};

const POST_COLUMNS =
  'id, user_id, content, is_good, like_count, comment_count, created_at, channel_ids, topic_ids, attach, vote_card, hidden_at, hidden_reason';

/**
 * Posts a moderator hid are read by their author alone (`viewer` the placeholder of the viewer's
 * id, null for a visitor): their own centre and detail. Every feed and search leave them out.
 */
const visibleTo = (viewer: string | null) => (viewer ? `(hidden_at is null or user_id = ${viewer})` : 'hidden_at is null');

/**
 * The page's post rows, newest first: $1 the keyset bound (ids below it), $2 the filter's id
 * (all and good have none); for `one`, $1 the post's id. The limit is written into the text (see
 * db/prepared.ts), so there is one statement per page size asked for. Every ORDER BY says
 * `desc nulls last` as the indexes do (drizzle's .desc()): a plain `desc` is another order to the
 * planner, which then never walks those indexes. A channel's or topic's page walks its own index
 * and looks each post up (`offset 0` keeps the planner from joining a walk of all posts).
 * `viewer` is the viewer's placeholder (null for a visitor): a hidden post is shown to its author
 * only, in their own centre and its detail (visibleTo); the feeds skip it as they skip a deleted one.
 */
const sources: Record<
  Source,
  {
    types: string[];
    text: (limit: number, viewer: string | null) => string;
    planEachCall?: boolean;
    mayHaveGone?: boolean;
    /** The page's order when it is not newest first, and columns the caller reads beside head and body. */
    order?: string;
    extra?: string;
  }
> = {
  all: {
    types: ['bigint'],
    text: (limit) =>
      `select ${POST_COLUMNS} from posts where deleted_at is null and hidden_at is null and id < $1 order by id desc nulls last limit ${limit}`,
  },
  good: {
    types: ['bigint'],
    text: (limit) =>
      `select ${POST_COLUMNS} from posts where deleted_at is null and is_good and hidden_at is null and id < $1 order by id desc nulls last limit ${limit}`,
  },
  // An author may have five posts or a hundred thousand: planned for the author asked for.
  user: {
    types: ['bigint', 'int'],
    text: (limit, viewer) =>
      `select ${POST_COLUMNS} from posts where user_id = $2 and deleted_at is null and ${visibleTo(viewer)} and id < $1 order by id desc nulls last limit ${limit}`,
    planEachCall: true,
  },
  channel: {
    types: ['bigint', 'int'],
    text: (limit) => `select p.* from post_channels pc
      cross join lateral (select ${POST_COLUMNS} from posts where id = pc.post_id and deleted_at is null and hidden_at is null offset 0) p
      where pc.channel_id = $2 and pc.post_id < $1 order by pc.post_id desc nulls last limit ${limit}`,
  },
  topic: {
    types: ['bigint', 'int'],
    text: (limit) => `select p.* from post_topics pt
      cross join lateral (select ${POST_COLUMNS} from posts where id = pt.post_id and deleted_at is null and hidden_at is null offset 0) p
      where pt.topic_id = $2 and pt.post_id < $1 order by pt.post_id desc nulls last limit ${limit}`,
  },
  // The newest of each followed channel's own index (read alone, no post looked up), merged:
  // never a walk over other channels' posts. Only the page's own posts are looked up, deleted
  // and hidden ones among them kept as `gone` rows (readPosts reads on past them).
  'followed-channels': {
    types: ['bigint', 'int'],
    text: (limit) => `select p.* from (
        select distinct newest.post_id from channel_follows f
        cross join lateral (
          select pc.post_id from post_channels pc
          where pc.channel_id = f.channel_id and pc.post_id < $1
          order by pc.post_id desc nulls last limit ${limit}) newest
        where f.user_id = $2 order by newest.post_id desc nulls last limit ${limit}) k
      cross join lateral (
        select ${POST_COLUMNS}, deleted_at is not null or hidden_at is not null as gone from posts where id = k.post_id offset 0) p`,
    mayHaveGone: true,
  },
  // search/ (services/search.ts): the posts whose document (migration 0010_search) matches the
  // query $2, ranked by SEARCH_HEAD_RANK; $1 the keyset bound of that key. Each rank (the head's
  // matches; then, only when those did not fill the page, the body's alone) is first walked newest
  // first over at most `walk` posts (SEARCH_WALK_COMMON when the statistics call all its words
  // common, none when one is not), and read through the GIN index only when the walk did not fill
  // it. The planner cannot choose between the two: its estimate for several bigrams together is
  // their product, far below the truth for the bigrams of one word. So one plan serves every
  // query (prepared: planning it cost more than running it), the query's tsqueries made once in
  // `walk`; in the index reads, `id + 0` keeps it from walking the ids instead.
  search: {
    types: ['bigint', 'text'],
    text: (limit) => {
      const rankKey = (rank: Rank) => (rank === 'head' ? `id + ${SEARCH_HEAD_RANK}` : 'id');
      const walked = (rank: Rank) => `select ${POST_COLUMNS}, ${rankKey(rank)} as rank_key from (
          select ${POST_COLUMNS}, search from posts where deleted_at is null and id < ${SEARCH_RANKS[rank].bound}${rank === 'body' ? ` and (select count(*) from head) < ${limit}` : ''}
          order by id desc nulls last limit (select ${rank} from walk)) w
        where ${SEARCH_RANKS[rank].match('w.search')} and w.hidden_at is null order by id desc nulls last limit ${limit}`;
      const indexed = (rank: Rank, only: string) => `(select ${POST_COLUMNS}, ${rankKey(rank)} as rank_key from posts
          where ${SEARCH_RANKS[rank].match('search')} and deleted_at is null and hidden_at is null and id + 0 < ${SEARCH_RANKS[rank].bound} and ${only}
          order by id + 0 desc limit ${limit})`;
      // A walk's length: none when one of the query's lexemes (marked as the rank reads it) is not common.
      const walkLength = (marked: string) => `case when q.body_query is null then 0 when q.elems is null then ${SEARCH_WALK_UNKNOWN}
          when exists (select 1 from unnest(q.lexemes) lexeme where ${marked} <> all(q.elems)) then 0
          else ${SEARCH_WALK_COMMON} end`;
      // The query's lexemes and the statistics read once (a CTE read twice is still run once).
      // (`offset 0` keeps the planner from copying the query's making into each use of it.)
      return `with query as materialized (
        select q.head_query, q.body_query, array(select m[1] from regexp_matches(q.body_query::text, '''([^'']*)''', 'g') m) as lexemes,
          (select most_common_elems::text::text[] from pg_stats
            where schemaname = current_schema() and tablename = 'posts' and attname = 'search') as elems
        from (select search_query($2, true) as head_query, search_query($2, false) as body_query offset 0) q),
      walk as materialized (
        select q.head_query, q.body_query, ${walkLength(`'#' || lexeme`)} as head, ${walkLength('lexeme')} as body from query q),
      head_walked as (${walked('head')}),
      head as (
        select * from head_walked where (select count(*) from head_walked) >= ${limit}
        union all
        ${indexed('head', `(select count(*) from head_walked) < ${limit}`)}),
      body_walked as (${walked('body')})
      select * from head
      union all
      select * from body_walked where (select count(*) from body_walked) >= ${limit}
      union all
      ${indexed('body', `(select count(*) from head) < ${limit} and (select count(*) from body_walked) < ${limit}`)}
      order by rank_key desc limit ${limit}`;
    },
    order: 'p.rank_key desc',
    extra: ', p.rank_key',
  },
  // One post (a detail): by `= $1`, whose generic plan is the custom one.
  one: {
    types: ['bigint'],
    text: (_limit, viewer) => `select ${POST_COLUMNS} from posts where id = $1 and deleted_at is null and ${visibleTo(viewer)}`,
  },
  // The post its transaction has just added (post/add): sent right behind the insert, before its
  // answer tells the id, which the insert noted in the transaction's ADDED_POST_SETTING. Read by
  // the author, who sees their own post. No row when no post was added: the insert's answer says why.
  added: {
    types: [],
    text: () => `select ${POST_COLUMNS} from posts where id = nullif(current_setting('${ADDED_POST_SETTING}', true), '')::bigint and deleted_at is null`,
  },
  // One post as a moderator reviews it (services/moderation.ts): hidden or not.
  moderated: {
    types: ['bigint'],
    text: () => `select ${POST_COLUMNS} from posts where id = $1 and deleted_at is null`,
  },
};

/**
 * The post's time in whole milliseconds since 1970, rounded half up, as `round(extract(epoch from
 * created_at) * 1000)` gives it, without its numeric arithmetic (costly per row on
 * PGlite): the timestamp rounded to milliseconds (an integer operation), then its epoch as a
 * float8 (s.mmm is within a rounding error of the exact value, so the product rounds to the exact
 * integer). Only a time before 2000 exactly half-way between two milliseconds would differ (PostgreSQL
 * rounds those away from 2000); tests/api/reads.test.ts holds the two to the same answers.
 */
export const CREATE_TIME_MS = `round(date_part('epoch', p.created_at::timestamptz(3)) * 1000)`;

/**
 * How many of the viewer's likes within a page's span of post ids (its newest to its oldest) are
 * read as one range of the viewer's likes (likes_user_idx: user, type, target), one index read
 * instead of a lookup in every post's likes per row. A viewer with more likes than this within
 * the span has each post's like looked up instead, so no page reads more than this many.
 */
export const LIKED_RANGE_MAX = 400;

/** How many users the viewer follows that are read as one list; a viewer who follows more has each author looked up. */
export const FOLLOWED_LIST_MAX = 200;

/**
 * A logged-in page's rows (`page`, read once), the viewer's likes among them (`liked.ids`) and the
 * users they follow (`followed.ids`); either null beyond its bound above, when each row looks its
 * own up (viewerHas's `perRow`). Each list is read once: without `offset 0` the planner copies
 * the read into both uses of `r.ids`, and reads it twice.
 */
const viewerCtes = (pageText: string, viewer: string) => `with page as materialized (${pageText}),
    liked as materialized (select case when cardinality(r.ids) <= ${LIKED_RANGE_MAX} then r.ids end as ids
      from (select array(select l.target_id from likes l where l.user_id = ${viewer} and l.target_type = 'post' and l.target_id between b.lo and b.hi
          limit ${LIKED_RANGE_MAX + 1}) as ids
        from (select min(id) as lo, max(id) as hi from page) b offset 0) r),
    followed as materialized (select case when cardinality(r.ids) <= ${FOLLOWED_LIST_MAX} then r.ids end as ids
      from (select array(select f.followee_id from user_follows f where f.follower_id = ${viewer} limit ${FOLLOWED_LIST_MAX + 1}) as ids offset 0) r)`;

/** Whether `value` is in the list the CTE `list` read (of type `type`), else (the list was too long) what `perRow` finds. */
const viewerHas = (value: string, list: 'liked' | 'followed', type: string, perRow: string) =>
  `coalesce(${value} = any((select ids from ${list})::${type}[]), ${existsPerRow(perRow)})`;

/**
 * The options the viewer chose in the post's poll (null for a post without one), read for the
 * posts with a poll alone, the poll's id from the card; Node marks them on the card (markViewer).
 */
const chosenOptions = (viewer: string) => `case when p.vote_card is null then null else array(select r.option_id from vote_records r
      where r.vote_id = (p.vote_card::json->>'vote_id')::int and r.user_id = ${viewer}) end`;

/**
 * How a page is read for a logged-in viewer: with their marks kept in memory (viewer-marks.ts),
 * the visitor's statement while the marks' version holds; else with the marks read in it.
 */
type ViewerRead = 'kept-marks' | 'marks-in-statement';

/**
 * Each post as two fields: `head`, the JSON array [id, user_id, channel_ids, topic_ids, and with
 * the marks read in the statement: whether the viewer follows the author, liked the post, and the
 * options they chose in its poll], which Node looks up (authors.ts, reference-names.ts); and
 * `body`, the post's own fields as the JSON text of the API's object as a visitor sees it, its
 * closing brace left for Node to add the author, channels and topics, and to mark what the viewer
 * did (toPostsText, markViewer). PostgreSQL escapes the text once
 * and Node never parses it (json-text.ts). Keys are in the order below, not the schema's:
 * JSON objects have none.
 *
 * A page asks for one row more than it shows, to learn whether another page follows; that row's
 * card is written too, which costs PostgreSQL less than numbering the rows with a window function
 * to skip it (and the sort that comes with it). `viewer` adds $n, the viewer's id; with kept marks,
 * $n+1 (after the ticket's hash, when checked) is the version they were read at.
 *
 * Few fields per row: PGlite decodes every field of every row in JavaScript (a buffer copy and a
 * UTF-8 decode each, whatever it holds), which cost it more than the rest of the statement. Every
 * column written here is NOT NULL (concat would write a null as nothing); the poll, null when
 * missing, is written `null`. A hidden post (only
 * its author and moderators read one) adds `"hidden":true` and its reason; others have neither key.
 */
function postStatementText(source: Source, size: number, viewer: { id: string; read: ViewerRead; ticketCheck: string | null; version: string | null } | null): string {
  const inStatement = viewer?.read === 'marks-in-statement' ? viewer.id : null;
  const pageText = sources[source].text(size + 1, viewer?.id ?? null);
  const conditions = [
    ...(viewer?.ticketCheck ? [TICKET_LIVE_SQL(viewer.ticketCheck, viewer.id)] : []),
    ...(viewer?.version ? [MARKS_CURRENT_SQL(viewer.id, viewer.version)] : []),
  ];
  const marksRead = inStatement
    ? `, ${viewerHas('p.user_id', 'followed', 'int', `user_follows f where f.follower_id = ${inStatement} and f.followee_id = p.user_id`)}
        , ${viewerHas('p.id', 'liked', 'bigint', `likes l where l.target_type = 'post' and l.target_id = p.id and l.user_id = ${inStatement}`)}
        , ${chosenOptions(inStatement)}`
    : '';
  return `${inStatement ? viewerCtes(pageText, inStatement) : ''}
    select json_build_array(p.id, p.user_id, p.channel_ids, p.topic_ids${marksRead}) as head,
      ${sources[source].mayHaveGone ? 'case when p.gone then null else ' : ''}concat('{"id":', p.id, ',"content":', to_json(p.content), ',"attach":', p.attach, ',"vote":', coalesce(p.vote_card, 'null'),
        ',"like_count":', p.like_count, ',"comment_count":', p.comment_count, '${IS_LIKE_UNMARKED}"is_good":', p.is_good::text, ',"create_time":', ${CREATE_TIME_MS}::bigint,
        case when p.hidden_at is not null then concat(',"hidden":true,"hidden_reason":', to_json(coalesce(p.hidden_reason, ''))) end)${sources[source].mayHaveGone ? ' end' : ''} as body
      ${sources[source].extra ?? ''}
    from ${inStatement ? 'page' : `(${pageText})`} p
    ${conditions.length > 0 ? `where ${conditions.join(' and ')}` : ''}
    order by ${sources[source].order ?? 'p.id desc nulls last'}`;
}

/** Who reads: a logged-in viewer, with the ticket to find still live when it was not looked up for this request. */
export type PostViewer = Pick<Viewer, 'userId' | 'ticketCheck'>;

/**
 * search/'s page of matching posts as its statement reads them ($1 the keyset bound, $2 the query),
 * with their ranking key: the bench's raw anchor sends each post's row as read here.
 */
export const searchPageText = (limit: number): string => sources.search.text(limit, null);

/**
 * A visitor's page of tab all ($1 the keyset bound) or of search/'s posts ($1, and $2 the query),
 * as its own statement reads it: the bench's card anchors send each row's body as it comes.
 */
export const visitorPageStatement = (source: 'all' | 'search', size: number): PreparedStatement => postStatement(source, size, null);

/**
 * The statement of a source, page size, how a viewer's marks are read and whether their ticket is
 * checked, made once.
 */
function postStatement(source: Source, size: number, viewer: PostViewer | null, read: ViewerRead = 'marks-in-statement'): PreparedStatement {
  const checked = viewer?.ticketCheck !== undefined;
  const kept = viewer !== null && read === 'kept-marks';
  const suffix = viewer ? `${kept ? '_kept' : '_viewer'}${checked ? '_checked' : ''}` : '';
  return statementNamed(`posts_${source.replace('-', '_')}_${size}${suffix}`, (name) => {
    const types = sources[source].types;
    const viewerTypes = viewer ? ['int', ...(checked ? ['text'] : []), ...(kept ? ['bigint'] : [])] : [];
    const param = (i: number) => `$${types.length + i + 1}`;
    const text = postStatementText(
      source,
      size,
      viewer ? { id: param(0), read, ticketCheck: checked ? param(1) : null, version: kept ? param(checked ? 2 : 1) : null } : null,
    );
    return preparedStatement(name, [...types, ...viewerTypes], text, { planEachCall: sources[source].planEachCall ?? false });
  });
}

/**
 * [id, user_id, channel_ids, topic_ids], and with the marks read in the statement: whether the
 * viewer follows the author and liked the post, and the options they chose in its poll (null: none).
 */
type PostHead = [id: number, userId: number, channelIds: number[], topicIds: number[], follows?: boolean, liked?: boolean, chosen?: number[] | null];

interface PostRow {
  /** A JSON value: PostgreSQL's driver parses it, PGlite's may hand it over as text. */
  head: PostHead | string;
  /** Null for a deleted post a source keeps in its page (mayHaveGone). */
  body: string;
  /** search's own: the ranking key. */
  rank_key?: number | string;
}

const headOf = (row: PostRow): PostHead => (typeof row.head === 'string' ? (JSON.parse(row.head) as PostHead) : row.head);

/** The body's is_like as the statement writes it, for a visitor; markViewer turns it for a post the viewer liked. */
const IS_LIKE_UNMARKED = ',"is_like":false,';
const IS_LIKE_MARKED = ',"is_like":true,';
/** The poll card's own id (poll_card(), migration 0016_poll_cards), right after the body's "vote" key. */
const POLL_ID = /,"vote":\{"vote_id":(\d+),/;

/**
 * The body marked for its viewer: liked, and the options they chose (and the poll as voted). Each
 * text replaced holds quotes no JSON string of the body leaves unescaped, so it is the key itself,
 * never a user's text (content, a picture's or an option's words are all escaped).
 */
function markViewer(body: string, liked: boolean, chosen: readonly number[] | null | undefined): string {
  let marked = liked ? body.replace(IS_LIKE_UNMARKED, IS_LIKE_MARKED) : body;
  if (chosen && chosen.length > 0) {
    marked = marked.replace(',"is_voted":false,"title":', ',"is_voted":true,"title":');
    for (const option of chosen) marked = marked.replace(`{"option_id":${option},"is_voted":false,`, `{"option_id":${option},"is_voted":true,`);
  }
  return marked;
}

/**
 * What the viewer did to a post: from its head when the statement read it, else from the marks
 * kept (`marks`), else nothing (a visitor).
 */
function viewerOf(head: PostHead, body: string, marks: ViewerMarks | null): { follows: boolean; liked: boolean; chosen: readonly number[] | null | undefined } {
  if (head.length > 4) return { follows: head[4] === true, liked: head[5] === true, chosen: head[6] };
  if (!marks) return { follows: false, liked: false, chosen: undefined };
  const poll = marks.choices.size > 0 ? POLL_ID.exec(body) : null;
  return { follows: marks.follows.has(head[1]), liked: marks.liked.has(head[0]), chosen: poll ? marks.choices.get(Number(poll[1])) : undefined };
}

/**
 * The rows as posts' JSON texts, the first `size` of them (the one more only tells that more
 * follow), marked for the viewer whose kept marks the page was read at, if any.
 */
async function toPostsText(db: Db, rows: PostRow[], size: number, marks: ViewerMarks | null): Promise<{ posts: { id: number; json: string; row: PostRow; topicIds: number[] }[]; names: ReferenceNames }> {
  const found = rows.length > size ? rows.slice(0, size) : rows;
  const heads = found.map(headOf);
  const channelIds: number[] = [];
  const topicIds: number[] = [];
  const userIds: number[] = [];
  for (const [, userId, postChannelIds, postTopicIds] of heads) {
    for (const id of postChannelIds) channelIds.push(id);
    for (const id of postTopicIds) topicIds.push(id);
    userIds.push(userId);
  }
  const [names, authors] = await Promise.all([referenceNames(db, channelIds, topicIds), authorsOf(db, userIds)]);
  // Every post has its author (a foreign key); one without would have no card to show.
  const posts: { id: number; json: string; row: PostRow; topicIds: number[] }[] = [];
  found.forEach((row, i) => {
    const head = heads[i]!;
    const [id, userId, postChannelIds, postTopicIds] = head;
    const author = authors.get(userId);
    if (!author) return;
    const viewer = viewerOf(head, row.body, marks);
    posts.push({
      id,
      row,
      topicIds: postTopicIds,
      json: `${markViewer(row.body, viewer.liked, viewer.chosen)},"user":${author.openJson}${viewer.follows ? 'true' : 'false'}},"channels":${names.channelsJson(postChannelIds)},"topics":${names.topicsJson(postTopicIds)}}`,
    });
  });
  return { posts, names };
}

/** Rows read, and the viewer's kept marks they were read at (null: none kept, or a visitor). */
type PageRead = { rows: PostRow[]; marks: ViewerMarks | null };

/** How many times a page is read with kept marks that moved meanwhile before its marks are read in the statement. */
const KEPT_MARKS_TRIES = 2;

/**
 * The rows of one read below `bound`, and the marks kept that they were read at (null: none, the
 * rows carry what the viewer did, or a visitor's). No rows with a ticket to check means the
 * ticket is no longer live or the page is empty: the ticket alone is then asked after (an empty
 * page, a search that found nothing, is not read again), and StaleTicket has the request answered
 * again after a lookup when it is not live. With kept marks, that same one statement reads the
 * marks again (readMarks): when they moved, the page is read again at their new version.
 */
async function readOnce(db: Db, source: Source, size: number, values: readonly PreparedValue[], viewer: PostViewer | null): Promise<PageRead> {
  let marks = viewer ? await viewerMarks(db, viewer.userId) : null;
  for (let tries = 1; ; tries++) {
    const kept = marks !== null && tries <= KEPT_MARKS_TRIES;
    const statement = postStatement(source, size, viewer, kept ? 'kept-marks' : 'marks-in-statement');
    const viewerValues = viewer ? [viewer.userId, ...(viewer.ticketCheck !== undefined ? [viewer.ticketCheck] : []), ...(kept ? [marks!.version] : [])] : [];
    const rows = await queryPrepared<PostRow>(db, statement, [...values, ...viewerValues]);
    if (!kept) {
      await refuseEndedTicket(db, viewer, rows.length);
      return { rows, marks: null };
    }
    if (rows.length > 0) return { rows, marks };
    const now = await readMarks(db, viewer!.userId, viewer!.ticketCheck);
    if (!now.live) throw new StaleTicket();
    if (now.marks?.version === marks!.version) return { rows, marks };
    marks = now.marks;
  }
}

/** The page's rows, and the kept marks they were read at (readOnce). */
async function readPosts(db: Db, source: Source, size: number, values: readonly PreparedValue[], viewer: PostViewer | null): Promise<PageRead> {
  let read = await readOnce(db, source, size, values, viewer);
  if (!sources[source].mayHaveGone) return read;
  // Deleted posts among a full page's: the page reads on below its last post until it has its rows, or there are none.
  const live = read.rows.filter((row) => row.body !== null);
  while (read.rows.length > size && live.length <= size) {
    read = await readOnce(db, source, size, [headOf(read.rows.at(-1)!)[0], ...values.slice(1)], viewer);
    live.push(...read.rows.filter((row) => row.body !== null));
  }
  return { rows: live, marks: read.marks };
}


/** The filter's own value ($2), if it has one. */
function filterValues(filter: PostFilter): number[] {
  switch (filter.kind) {
    case 'all':
    case 'good':
      return [];
    case 'user':
    case 'followed-channels':
      return [filter.userId];
    case 'channel':
      return [filter.channelId];
    case 'topic':
      return [filter.topicId];
  }
}

export async function listPosts(
  db: Db,
  filter: PostFilter,
  paging: KeysetRequest,
  viewer: PostViewer | null,
): Promise<JsonText<Page<Post>>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const { rows, marks } = await readPosts(db, filter.kind, size, [paging.index || NO_BOUND, ...filterValues(filter)], viewer);
  const more = rows.length > size;
  const { posts: list } = await toPostsText(db, rows, size, marks);
  const nextIndex = list.at(-1)?.id ?? 0;
  return new JsonText(`{"list":${jsonArray(list.map((post) => post.json))},"page":{"more":${more},"next_index":${nextIndex}}}`);
}

/** What a post shows besides its content that search/ matches, each read from the texts at hand when asked for. */
export interface PostHeads {
  topicNames(): string[];
  codeTitles(): string[];
}

/** A post search/ found: its JSON text as every list serves it, and what its excerpt is cut from. */
export interface FoundPost {
  id: number;
  json: string;
  content: string;
  /** Its topics' names and code snippets' titles. */
  heads: PostHeads;
}

/**
 * A page of the posts matching `query` (services/search.ts), the best first: each written by the
 * statement and toPostsText every feed uses, so what the viewer sees of it (is_like, the poll,
 * following the author) is what a feed shows. next_index is the last post's ranking key.
 */
export async function searchPosts(
  db: Db,
  query: string,
  paging: KeysetRequest,
  viewer: PostViewer | null,
): Promise<{ posts: FoundPost[]; page: { more: boolean; next_index: number } }> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const { rows, marks } = await readPosts(db, 'search', size, [paging.index || NO_BOUND, boundText(query)], viewer);
  const { posts: found, names } = await toPostsText(db, rows, size, marks);
  const last = found.at(-1);
  return {
    posts: found.map(({ id, json, row, topicIds }) => ({
      id,
      json,
      content: contentOfBody(row.body),
      heads: {
        topicNames: () => names.topicNames(topicIds),
        codeTitles: () => codeTitlesOfBody(row.body),
      },
    })),
    page: { more: rows.length > size, next_index: last ? Number(last.row.rank_key) : 0 },
  };
}

const CONTENT_KEY = ',"content":';

/**
 * A post's content from its body's JSON text, where postStatementText writes it right after the
 * id, so that search/'s statement need not send it a second time for the excerpt: the string
 * ends at the first quote not escaped by an odd run of backslashes.
 */
export function contentOfBody(body: string): string {
  const start = body.indexOf(CONTENT_KEY) + CONTENT_KEY.length;
  let end = body.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (body.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) break;
    end = body.indexOf('"', end + 1);
  }
  return JSON.parse(body.slice(start, end + 1)) as string;
}

const ATTACH_KEY = ',"attach":';
const VOTE_KEY = ',"vote":';

/**
 * The titles of a post's code snippets, from its body's attach, which postStatementText writes
 * between the content and the vote: only that array is parsed, not the card. Every string before
 * them is escaped, so each key, with its bare quotes, is found where it is.
 */
export function codeTitlesOfBody(body: string): string[] {
  const start = body.indexOf(ATTACH_KEY) + ATTACH_KEY.length;
  const attach = JSON.parse(body.slice(start, body.indexOf(VOTE_KEY, start))) as { type: string; title?: string }[];
  return attach.flatMap((item) => (item.type === 'code' && item.title ? [item.title] : []));
}

/** Whether a page of listPosts has no posts. */
export const isEmptyPage = (page: JsonText<Page<Post>>): boolean => page.text.startsWith('{"list":[]');

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

/** One post as its JSON text (post/detail; -1005 when it is missing or deleted). */
export async function getPost(db: Db, postId: number, viewer: PostViewer | null): Promise<JsonText<Post>> {
  const { rows, marks } = await readPosts(db, 'one', 1, [postId], viewer);
  const { posts: [post] } = await toPostsText(db, rows, 1, marks);
  if (!post) throw notFound('动态');
  return new JsonText(post.json);
}

/** One post as a moderator reviews it, hidden or not (null when it is missing or deleted). */
export async function getModeratedPost(db: Db, postId: number): Promise<Post | null> {
  const { rows } = await readPosts(db, 'moderated', 1, [postId], null);
  const { posts: [post] } = await toPostsText(db, rows, 1, null);
  return post ? (JSON.parse(post.json) as Post) : null;
}

/**
 * The post just added in this transaction by `authorId`, as an object: post/add's answer, stored
 * for replays by services/once.ts (the schema checks it as it is sent). Its statement goes out
 * as it is called, so it can follow the insert in the same round trip.
 */
export async function readAddedPost(db: Db, authorId: number): Promise<Post> {
  const rows = await queryPrepared<PostRow>(db, postStatement('added', 1, { userId: authorId }), [authorId]);
  const { posts: [post] } = await toPostsText(db, rows, 1, null);
  if (!post) throw new Error('the post just added was not read back');
  return JSON.parse(post.json) as Post;
}

/**
 * Deletes the author's own post (else -1006; deleted or missing: -1005). Soft delete: the row
 * stays, every list and the detail skip it. In the same transaction the author's post and like
 * counts, and the post counts of its channels and topics, drop (each row locked in id order); a
 * hidden post left the post counts when it was hidden (services/moderation.ts), so only its likes go.
 */
export async function deletePost(tx: Db, userId: number, postId: number): Promise<{ post_id: number }> {
  const [post] = await tx
    .select({ authorId: posts.userId, likeCount: posts.likeCount, hiddenAt: posts.hiddenAt })
    .from(posts)
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt)))
    .for('update');
  if (!post) throw notFound('动态');
  if (post.authorId !== userId) throw forbidden();
  await tx.update(posts).set({ deletedAt: sql`now()` }).where(eq(posts.id, postId));
  const counted = post.hiddenAt === null;
  if (counted) await movePostPlaceCounts(tx, postId, -1);
  // Before the author's counts, so the author's row is locked in id order with the recipients'.
  await removePostNotices(tx, postId, [post.authorId]);
  await tx
    .update(users)
    .set({ postCount: sql`${users.postCount} - ${counted ? 1 : 0}`, likeCount: sql`${users.likeCount} - ${post.likeCount}` })
    .where(eq(users.id, post.authorId));
  return { post_id: postId };
}

/**
 * Moves the post counts of a post's channels and topics by `step` (a post deleted, hidden or
 * restored), each row locked in id order as post/add and post/delete lock them.
 */
export async function movePostPlaceCounts(tx: Db, postId: number, step: 1 | -1): Promise<void> {
  const channelIds = await tx
    .select({ id: postChannels.channelId })
    .from(postChannels)
    .where(eq(postChannels.postId, postId))
    .orderBy(postChannels.channelId);
  for (const { id } of channelIds) {
    await tx
      .update(channels)
      .set({ postCount: sql`${channels.postCount} + ${step}` })
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
      .set({ postCount: sql`${topics.postCount} + ${step}` })
      .where(eq(topics.id, id));
  }
}
