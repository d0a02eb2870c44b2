/**
 * search/: posts (their content, their topics' names, their code snippet's title), topics by
 * name, channels by name and intro, users by nickname.
 *
 * Matching is the database's (migration 0010_search): text folded (NFKC, lower case) and cut
 * into overlapping bigrams of CJK characters and whole words, kept as a tsvector behind a GIN
 * index. A query matches a text holding every bigram of its CJK runs and every one of its words as
 * the start of a word: 分布式 finds 分布式事务, 落算法 finds 鲸落算法, ＫＯＴＬＩＮ finds Kotlin, kot
 * finds Kotlin协程. A query of punctuation and spaces alone has nothing to match and finds nothing.
 *
 * Posts: those matching in their head (first line, topic names, code title) first, each group
 * newest first, paged by that ranking key (posts.ts, searchPosts); each post as the feeds write
 * it, with an excerpt. Topics, channels and users: an exact name first, then (channels) a match in
 * the name, then the most followed or used; paged by position, as topic/list is. Users and topics
 * rank a bounded set of their matches (rankedNameMatches); channels are the operator's few.
 *
 * An excerpt is the text around the first match, about EXCERPT_CHARS characters, in pieces marked
 * as matching or not: plain text the client draws, never HTML. A post matched only in its topics
 * or its code snippet's title shows that name or title, marked: the card below the excerpt shows
 * its content already.
 */
import { endianness } from 'node:os';
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { DEFAULT_PAGE_SIZE, type SearchType } from '#shared/constants.ts';
import type { Paged, SearchExcerpt, SearchHit } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { boundText, preparedStatement, queryPrepared, statementNamed, type PreparedStatement } from '../db/prepared.ts';
import { channels } from '../db/schema.ts';
import { JsonText, jsonArray } from './json-text.ts';
import { followedChannelIds, toDetail as channelDetail } from './channels.ts';
import type { KeysetRequest } from './paging.ts';
import { searchPosts, type PostHeads, type PostViewer } from './posts.ts';
import { StaleTicket, ticketStillLive } from './sessions.ts';
import { toDetail as topicDetail } from './topics.ts';
import { userBriefs } from './users.ts';

export interface SearchRequest extends KeysetRequest {
  /** Trimmed, 1 to SEARCH_QUERY_MAX_CHARS characters (the contract's schema). */
  q: string;
  type: SearchType;
}

/** About how many characters an excerpt shows. */
export const EXCERPT_CHARS = 80;
/** How many of them come before the first match, when the text has that many. */
const EXCERPT_LEAD = 20;

// The characters of the database's runs (search_run_pattern(), 0020_search_documents_cheaper.sql): the same ranges.
const CJK = '\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uac00-\\ud7af\\u{20000}-\\u{3134f}';
const WORD = '0-9a-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u017f\\u0370-\\u03ff\\u0400-\\u04ff';
const RUNS = new RegExp(`([${CJK}]+)|([${WORD}]+)`, 'gu');
const WORD_CHAR = new RegExp(`[${WORD}]`, 'u');

/** The folds of the characters met that need work (punctuation, full-width forms), kept: a page meets the same few. */
const foldedChars = new Map<string, string>();
const FOLDED_CHARS_KEPT = 4_096;

/** One character as the database folds it (NFKC, lower case); ASCII and common CJK need no work. */
function foldChar(char: string): string {
  const code = char.codePointAt(0)!;
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : char;
  if (code >= 0x4e00 && code <= 0x9fff) return char;
  let folded = foldedChars.get(char);
  if (folded === undefined) {
    folded = char.normalize('NFKC').toLowerCase();
    if (foldedChars.size < FOLDED_CHARS_KEPT) foldedChars.set(char, folded);
  }
  return folded;
}

/** A text folded, and how to reach its characters from the folded text's UTF-16 units. */
interface Folded {
  text: string;
  /** How many characters the text has. */
  length: number;
  /** Characters [from, to) of the text, as written. */
  slice(from: number, to: number): string;
  /** The character of the text a UTF-16 unit of the folded text came from. */
  charOf(unit: number): number;
}

/**
 * Per unit of the basic plane: 0 not yet known, 1 folds to itself, 2 folds to one other unit (the
 * one unitFoldsTo holds), 3 to more than one (ﬁ is fi). Filled as units are met: a text is folded
 * in one pass over its units, never a call per character.
 */
const unitFolds = new Uint8Array(0x10000);
const unitFoldsTo = new Uint16Array(0x10000);

function unitFold(code: number): number {
  let kind = unitFolds[code]!;
  if (kind === 0) {
    const char = String.fromCharCode(code);
    const folded = foldChar(char);
    kind = folded === char ? 1 : folded.length === 1 ? 2 : 3;
    if (kind === 2) unitFoldsTo[code] = folded.charCodeAt(0);
    unitFolds[code] = kind;
  }
  return kind;
}

/**
 * A text with at most this many units that change is folded by joining its runs between them; one
 * with more, through a typed array decoded to text (a fixed cost, where each run joined adds more).
 */
const FOLD_BY_RUNS_MAX = 16;

/** ASCII but capitals, and common CJK, are their own fold: most units, told apart without the table. */
const foldsToItself = (code: number) => code < 0x41 || (code > 0x5a && code < 0x80) || (code >= 0x4e00 && code <= 0x9fff);

function fold(text: string): Folded {
  // Most texts: no character outside the basic plane, each folded to one unit, so units and characters line up.
  let folded = '';
  let copiedTo = 0;
  let changed = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (foldsToItself(code)) continue;
    if (code >= 0xd800 && code <= 0xdfff) return foldByChar(text);
    const kind = unitFold(code);
    if (kind === 3) return foldByChar(text);
    if (kind === 2) {
      if (++changed > FOLD_BY_RUNS_MAX) return foldByUnits(text);
      folded += text.slice(copiedTo, at) + String.fromCharCode(unitFoldsTo[code]!);
      copiedTo = at + 1;
    }
  }
  return sameUnits(text, copiedTo === 0 ? text : folded + text.slice(copiedTo));
}

/** A text whose fold has a unit for each of its units, `folded`. */
const sameUnits = (text: string, folded: string): Folded => ({ text: folded, length: text.length, slice: (from, to) => text.slice(from, to), charOf: (unit) => unit });

/** The folded units as text, a Uint16Array being in the machine's byte order. */
const UTF16 = new TextDecoder(endianness() === 'LE' ? 'utf-16le' : 'utf-16be');

/** fold() for a text with many units that change: each unit's fold put in a typed array. */
function foldByUnits(text: string): Folded {
  const units = new Uint16Array(text.length);
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (foldsToItself(code)) {
      units[at] = code;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) return foldByChar(text);
    const kind = unitFold(code);
    if (kind === 3) return foldByChar(text);
    units[at] = kind === 2 ? unitFoldsTo[code]! : code;
  }
  return sameUnits(text, UTF16.decode(units));
}

/** A text folded character by character, with where each unit of the fold came from. */
function foldByChar(text: string): Folded {
  const chars: string[] = [];
  const parts: string[] = [];
  const source: number[] = [];
  for (const char of text) {
    const folded = foldChar(char);
    for (let k = 0; k < folded.length; k++) source.push(chars.length);
    chars.push(char);
    parts.push(folded);
  }
  return { text: parts.join(''), length: chars.length, slice: (from, to) => chars.slice(from, to).join(''), charOf: (unit) => source[unit]! };
}

/** What to look for in a text to mark a query's matches: each CJK run whole (else its bigrams), each word as a word's start. */
interface Needles {
  runs: { cjk: boolean; text: string }[];
}

function needlesOf(query: string): Needles {
  const runs: Needles['runs'] = [];
  for (const match of fold(query).text.matchAll(RUNS)) {
    if (match[1]) runs.push({ cjk: true, text: match[1] });
    else if (match[2]) runs.push({ cjk: false, text: match[2].slice(0, 64) });
  }
  return { runs };
}

/** The first occurrence of `needle` in `haystack` at or after unit `from`, or -1; `wordStart`: only where a word begins. */
function occurrenceFrom(haystack: string, needle: string, wordStart: boolean, from: number): number {
  for (let at = haystack.indexOf(needle, from); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    if (!(wordStart && at > 0 && WORD_CHAR.test(String.fromCodePoint(haystack.codePointAt(at - 1)!)))) return at;
  }
  return -1;
}

/** The characters [start, end) an excerpt of `limit` characters shows of a text of `total`, its first match at `first`. */
function excerptWindow(first: number, total: number, limit: number): [number, number] {
  const start = Math.max(0, Math.min(first - EXCERPT_LEAD, total - limit));
  return [start, Math.min(total, start + limit)];
}

/**
 * The characters of `folded` that match, within what an excerpt of `limit` characters around the
 * first match shows, as sorted, merged [start, end) ranges of its chars. Each CJK run is looked for
 * whole, or as its bigrams when the text holds it nowhere whole; each word where a word begins.
 * Occurrences past the excerpt's end are not looked for: a long text is read once, to its first.
 */
function matchedChars(folded: Folded, needles: Needles, limit: number): [number, number][] {
  const found: { text: string; wordStart: boolean; at: number }[] = [];
  for (const run of needles.runs) {
    const whole = occurrenceFrom(folded.text, run.text, !run.cjk, 0);
    if (whole >= 0) found.push({ text: run.text, wordStart: !run.cjk, at: whole });
    else if (run.cjk) {
      // A CJK run the text holds only in parts (its bigrams apart): mark the parts.
      const chars = Array.from(run.text);
      for (let i = 0; i + 1 < chars.length; i++) {
        const bigram = chars[i]! + chars[i + 1]!;
        const at = occurrenceFrom(folded.text, bigram, false, 0);
        if (at >= 0) found.push({ text: bigram, wordStart: false, at });
      }
    }
  }
  if (found.length === 0) return [];
  const first = Math.min(...found.map((needle) => folded.charOf(needle.at)));
  const [, end] = excerptWindow(first, folded.length, limit);
  const ranges: [number, number][] = [];
  for (const needle of found) {
    // Its first occurrence always (the first of all sets where the excerpt starts), then those before the end.
    for (let at = needle.at; at >= 0 && (at === needle.at || folded.charOf(at) < end); at = occurrenceFrom(folded.text, needle.text, needle.wordStart, at + 1)) {
      ranges.push([folded.charOf(at), folded.charOf(at + needle.text.length - 1) + 1]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/**
 * The excerpts of texts for `query` (its needles made once for a page): about EXCERPT_CHARS
 * characters from a little before the first match (the start when nothing in the text matches),
 * runs of white space as one space, … where the text was cut.
 */
export function excerpter(query: string, limit = EXCERPT_CHARS): (text: string) => SearchExcerpt {
  const needles = needlesOf(query);
  return (text) => {
    const folded = fold(text);
    return cutExcerpt(folded, matchedChars(folded, needles, limit), limit);
  };
}

/**
 * The excerpt of a post found for `query`: its content's, when the match is there; else the first
 * of its topics (as the card writes one, #name#) and its code snippet's title that matches, whole;
 * else (its words matched apart, across those) the start of its content. `heads` are read only
 * when the content holds no match, the code titles only when no topic does.
 */
export function postExcerpter(query: string, limit = EXCERPT_CHARS): (content: string, heads: PostHeads) => SearchExcerpt {
  const needles = needlesOf(query);
  const headExcerpt = (heads: string[]) => {
    for (const head of heads) {
      const folded = fold(head);
      const ranges = matchedChars(folded, needles, limit);
      if (ranges.length > 0) return cutExcerpt(folded, ranges, limit);
    }
    return null;
  };
  return (content, heads) => {
    const folded = fold(content);
    const ranges = matchedChars(folded, needles, limit);
    if (ranges.length > 0) return cutExcerpt(folded, ranges, limit);
    return headExcerpt(heads.topicNames().map((name) => `#${name}#`)) ?? headExcerpt(heads.codeTitles()) ?? cutExcerpt(folded, ranges, limit);
  };
}

/** The excerpt of a folded text whose matches are `ranges` (matchedChars). */
function cutExcerpt(folded: Folded, ranges: [number, number][], limit: number): SearchExcerpt {
  const total = folded.length;
  const [start, end] = excerptWindow(ranges[0]?.[0] ?? 0, total, limit);
  const pieces: SearchExcerpt = [];
  const add = (from: number, to: number, hit: boolean) => {
    if (to <= from) return;
    const piece = folded.slice(from, to).replace(/\s+/g, ' ');
    const last = pieces.at(-1);
    if (last && last.hit === hit) last.text += piece;
    else pieces.push({ text: piece, hit });
  };
  let at = start;
  for (const [from, to] of ranges) {
    if (to <= at || from >= end) continue;
    add(at, Math.max(at, from), false);
    add(Math.max(at, from), Math.min(to, end), true);
    at = Math.min(to, end);
  }
  add(at, end, false);
  const head = pieces[0];
  if (head && !head.hit) head.text = head.text.trimStart();
  const tail = pieces.at(-1);
  if (tail && !tail.hit) tail.text = tail.text.trimEnd();
  if (start > 0) pieces.unshift({ text: '…', hit: false });
  if (end < total) pieces.push({ text: '…', hit: false });
  // Neighbouring plain pieces (an ellipsis beside text) as one; nothing empty.
  return pieces.reduce<SearchExcerpt>((out, piece) => {
    const last = out.at(-1);
    if (piece.text === '') return out;
    if (last && !last.hit && !piece.hit) last.text += piece.text;
    else out.push(piece);
    return out;
  }, []);
}

const hasHit = (excerpt: SearchExcerpt) => excerpt.some((piece) => piece.hit);

/** The page of an offset-paged list: `index` is how many came before. */
function offsetPage<T>(rows: T[], size: number, offset: number): { rows: T[]; page: { more: boolean; next_index: number } } {
  const shown = rows.slice(0, size);
  return { rows: shown, page: { more: rows.length > size, next_index: offset + shown.length } };
}

/**
 * The order that puts the rows named exactly as the query (once folded) first: those few found
 * once through the name's folded index (migration 0017_search_documents), not every match's name
 * folded to compare.
 */
const exactFirst = (id: AnyPgColumn, exact: SQL) => sql`${id} = any(array(${exact})) desc`;

/** A table whose rows are found by name, ranked by how followed or used they are. */
interface NameTable {
  table: 'users' | 'topics';
  /** The columns a hit shows. */
  columns: string;
  name: 'nick' | 'name';
  /** The rank after an exact name, as its index (migration 0019_name_search_walks) walks it. */
  popular: string;
}
const USER_NAMES: NameTable = { table: 'users', columns: 'id, nick, follower_count', name: 'nick', popular: 'follower_count desc nulls last, id' };
const TOPIC_NAMES: NameTable = { table: 'topics', columns: 'id, name, intro, cover, post_count', name: 'name', popular: 'post_count desc nulls last, id desc nulls last' };

/** How many of the most followed users (the most used topics) a name search looks through for matches. */
export const NAME_POPULAR_WALK = 1_000;
/** How many other matches, as the GIN index finds them, a name search ranks beside those. */
export const NAME_MATCHES_SAMPLED = 1_000;

/**
 * The statement of a page of the users or topics named like $1 ($2 rows from the $3rd): the exact
 * names first, then the most followed (used). Ranking every match would read them all, and a word
 * thousands of names hold (学员, a default nickname) would cost a visitor's every search that many
 * rows. So the NAME_POPULAR_WALK most followed are walked first, until the page's end: the matches
 * found there lead every other, so a page they fill is the page. Only when they fall short is the
 * GIN index read, its first NAME_MATCHES_SAMPLED matches ranked beside them and the exact names
 * (looked up once), so a rare name's every match is ranked and the pages end after at most those.
 * Walking first bounds a common word's cost by the walk, not by how many hold it. The query is
 * made once (a row's filter would make it again for every row read). Prepared: planning it cost
 * more than running it.
 */
function rankedNameMatches({ table, columns, name, popular }: NameTable): PreparedStatement {
  return statementNamed(`name_search_${table}`, (statementName) =>
    preparedStatement(
      statementName,
      ['text', 'bigint', 'bigint'],
      `with query as materialized (select search_query($1, false) as matches),
        exact as materialized (select array(select id from ${table} where search_fold(${name}) = search_fold($1)) as ids),
        walked as materialized (
          select ${columns} from (select ${columns}, search from ${table} order by ${popular} limit ${NAME_POPULAR_WALK}) popular
          where popular.search @@ (select matches from query) order by ${popular} limit $2::bigint + $3::bigint),
        sampled as materialized (
          select ${columns} from ${table} where (select count(*) from walked) < $2::bigint + $3::bigint and search @@ (select matches from query)
          limit ${NAME_MATCHES_SAMPLED})
      select ${columns} from (
        select * from walked
        union select * from sampled
        union select ${columns} from ${table} where id = any((select ids from exact)::int[])) ranked
      order by ranked.id = any((select ids from exact)::int[]) desc, ${popular}
      limit $2 offset $3`,
    ),
  );
}

/** The rows of a name search's page (one more than `size`, to tell whether more follow). */
const nameMatches = <Row>(db: Db, names: NameTable, q: string, size: number, offset: number) =>
  queryPrepared<Row>(db, rankedNameMatches(names), [boundText(q), size + 1, offset]);

async function searchTopics(db: Db, q: string, size: number, offset: number): Promise<Paged<SearchHit>> {
  const rows = await nameMatches<{ id: number; name: string; intro: string; cover: string; post_count: number }>(db, TOPIC_NAMES, q, size, offset);
  const { rows: shown, page } = offsetPage(rows, size, offset);
  const excerptOf = excerpter(q);
  return {
    list: shown.map((row) => ({ type: 'topic', topic: topicDetail({ id: row.id, name: row.name, intro: row.intro, cover: row.cover, postCount: row.post_count }), excerpt: excerptOf(row.name) })),
    page,
  };
}

async function searchChannels(db: Db, q: string, size: number, offset: number, viewerId: number | null): Promise<Paged<SearchHit>> {
  const rows = await db
    .select()
    .from(channels)
    // Each query made once (a scalar subquery), not again for every channel read.
    .where(sql`${channels.search} @@ (select search_query(${q}, false))`)
    .orderBy(
      exactFirst(channels.id, sql`select id from channels where search_fold(name) = search_fold(${q})`),
      sql`${channels.search} @@ (select search_query(${q}, true)) desc`,
      desc(channels.followerCount),
      asc(channels.id),
    )
    .limit(size + 1)
    .offset(offset);
  const { rows: shown, page } = offsetPage(rows, size, offset);
  const followed = await followedChannelIds(db, viewerId, shown.map((row) => row.id));
  const excerptOf = excerpter(q);
  return {
    list: shown.map((row) => {
      const name = excerptOf(row.name);
      return { type: 'channel', channel: channelDetail(row, followed), excerpt: hasHit(name) ? name : excerptOf(row.intro) };
    }),
    page,
  };
}

async function searchUsers(db: Db, q: string, size: number, offset: number, viewerId: number | null): Promise<Paged<SearchHit>> {
  const rows = await nameMatches<{ id: number; nick: string }>(db, USER_NAMES, q, size, offset);
  const { rows: shown, page } = offsetPage(rows, size, offset);
  const briefs = await userBriefs(db, shown.map((row) => row.id), viewerId);
  const excerptOf = excerpter(q);
  return {
    list: shown.flatMap((row) => {
      const user = briefs.get(row.id);
      return user ? [{ type: 'user' as const, user, excerpt: excerptOf(row.nick) }] : [];
    }),
    page,
  };
}

export async function search(db: Db, input: SearchRequest, viewer: PostViewer | null): Promise<Paged<SearchHit> | JsonText<Paged<SearchHit>>> {
  const size = input.size ?? DEFAULT_PAGE_SIZE;
  const offset = input.index ?? 0;
  const viewerId = viewer?.userId ?? null;
  // A remembered ticket (http/auth.ts) is checked by the posts' statement; channels and users tell
  // the viewer's follows, so their ticket is checked first. Topics answer everyone alike.
  if ((input.type === 'channel' || input.type === 'user') && viewer && !(await ticketStillLive(db, viewer))) throw new StaleTicket();
  switch (input.type) {
    case 'topic':
      return searchTopics(db, input.q, size, offset);
    case 'channel':
      return searchChannels(db, input.q, size, offset, viewerId);
    case 'user':
      return searchUsers(db, input.q, size, offset, viewerId);
    case 'post': {
      const { posts, page } = await searchPosts(db, input.q, input, viewer);
      // Each post's text as the feeds write it, beside its excerpt: the page is never parsed again.
      const excerptOf = postExcerpter(input.q);
      const list = posts.map((post) => `{"type":"post","post":${post.json},"excerpt":${JSON.stringify(excerptOf(post.content, post.heads))}}`);
      return new JsonText(`{"list":${jsonArray(list)},"page":{"more":${page.more},"next_index":${page.next_index}}}`);
    }
  }
}
