/**
 * The demo community's content (channel names, people, post texts, code samples, votes,
 * comments, notes, sidebar links, medals, joint book lists) lives in JSON under seed-data/, read
 * from disk when a database is seeded, so none of it is parsed on an ordinary start. Channels are named by key
 * (`"go"`, `"db"`) in the files; ids follow the order of channels.json (1 java ... 16 algo).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { serverFilesFolder } from '../config.ts';

const text = z.string().min(1);
const key = z.string().regex(/^[a-z][a-z0-9]*$/);
/** Texts per channel key. */
const perChannel = z.record(key, z.array(text).min(1));

const files = {
  'channels.json': z.array(
    z.object({ name: text, channels: z.array(z.object({ key, name: text, intro: text })).min(1) }),
  ),
  'topics.json': z.array(z.object({ name: text, intro: text, channels: z.array(key).min(1) })),
  'users.json': z.array(
    z.object({
      nick: text,
      intro: text,
      student: z.boolean().optional(),
      university: z.boolean().optional(),
      interests: z.array(key).min(1),
      activity: z.number().int().positive(),
    }),
  ),
  'posts.json': z.object({
    bodies: perChannel,
    columns: perChannel,
    takeaways: z.array(text).min(1),
    /** Empty strings weigh the draw towards "no closer". */
    closers: z.array(z.string()).min(1),
    imageLabels: perChannel,
  }),
  'snippets.json': z.array(
    z.object({ channel: key, language: text, title: z.string(), text, code: z.array(z.string()).min(1) }),
  ),
  'votes.json': z.array(
    z.object({ channel: key, title: text, intro: text, multiple: z.boolean(), options: z.array(text).min(2) }),
  ),
  'comments.json': z.object({ comments: z.array(text).min(1), replies: z.array(text).min(1) }),
  'notes.json': z.array(text).min(1),
  'booklists.json': z.array(
    z.object({
      code: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
      title: text,
      intro: text,
      books: z
        .array(
          z.object({
            title: text,
            author: text,
            reason: text,
            /** A course or a column of the learning site by id, or the reading app's search for these words. */
            link: z.union([
              z.object({ course: z.number().int().positive(), title: text }).strict(),
              z.object({ column: z.number().int().positive(), title: text }).strict(),
              z.object({ reading: text, title: text }).strict(),
            ]),
          }),
        )
        .min(1),
    }),
  ),
  'site.json': z.object({
    explore: z.array(
      z.object({ page: text, block_name: text, title: text, sort: z.number().int(), redirect: text }),
    ),
    medals: z.array(z.object({ key: z.string().regex(/^[a-z][a-z0-9_]*$/), name: text, desc: text, color: z.string().regex(/^#[0-9a-f]{6}$/i) })),
  }),
} as const;

type Files = { [F in keyof typeof files]: z.output<(typeof files)[F]> };

export interface CategoryDef {
  name: string;
  channels: { name: string; intro: string }[];
}

export interface SnippetDef {
  channel: number;
  language: string;
  title: string;
  text: string;
  code: string;
}

export interface VoteDef {
  channel: number;
  title: string;
  intro: string;
  multiple: boolean;
  options: string[];
}

/** Where a book of a joint book list leads, as booklist_books stores it. */
export type BooklistLinkDef =
  | { type: 'course' | 'column'; id: number; title: string }
  | { type: 'reading'; url: string; title: string };

export interface BooklistDef {
  code: string;
  title: string;
  intro: string;
  books: { title: string; author: string; reason: string; link: BooklistLinkDef }[];
}

/** The reading app's page of a book: its search for the book's words (a page that exists for any book). */
export const READING_APP_SEARCH_URL = 'https://weread.qq.com/web/search/books?keyword=';

export interface UserDef {
  nick: string;
  intro: string;
  student?: boolean | undefined;
  university?: boolean | undefined;
  /** Channels the user writes in and follows. */
  interests: number[];
  /** Relative posting activity. */
  activity: number;
}

/** The content with channel keys resolved to ids: what the seed's generator draws from. */
export interface SeedContent {
  categories: CategoryDef[];
  topics: { name: string; intro: string; channels: number[] }[];
  users: UserDef[];
  bodies: Record<number, string[]>;
  columns: Record<number, string[]>;
  takeaways: string[];
  closers: string[];
  imageLabels: Record<number, string[]>;
  snippets: SnippetDef[];
  votes: VoteDef[];
  comments: string[];
  replies: string[];
  notes: string[];
  explore: Files['site.json']['explore'];
  medals: Files['site.json']['medals'];
  booklists: BooklistDef[];
}

export function seedDataDir(): string {
  return serverFilesFolder('seed-data', 'src/server/seed/seed-data');
}

async function readData<F extends keyof typeof files>(dir: string, file: F): Promise<Files[F]> {
  const path = join(dir, file);
  const parsed = files[file].safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`seed data ${path}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data as Files[F];
}

export async function loadSeedContent(dir = seedDataDir()): Promise<SeedContent> {
  const read = <F extends keyof typeof files>(file: F) => readData(dir, file);
  const [channelFile, topics, users, posts, snippets, votes, comments, notes, site, booklists] = await Promise.all([
    read('channels.json'),
    read('topics.json'),
    read('users.json'),
    read('posts.json'),
    read('snippets.json'),
    read('votes.json'),
    read('comments.json'),
    read('notes.json'),
    read('site.json'),
    read('booklists.json'),
  ]);

  const ids = new Map<string, number>();
  for (const channel of channelFile.flatMap((category) => category.channels)) {
    if (ids.has(channel.key)) throw new Error(`seed data: channel key ${channel.key} twice`);
    ids.set(channel.key, ids.size + 1);
  }
  const id = (channelKey: string, where: string): number => {
    const found = ids.get(channelKey);
    if (found === undefined) throw new Error(`seed data ${where}: no channel with key ${channelKey}`);
    return found;
  };
  const byId = (texts: Record<string, string[]>, where: string): Record<number, string[]> =>
    Object.fromEntries(Object.entries(texts).map(([channelKey, list]) => [id(channelKey, where), list]));

  return {
    categories: channelFile.map((category) => ({
      name: category.name,
      channels: category.channels.map(({ name, intro }) => ({ name, intro })),
    })),
    topics: topics.map((topic) => ({ ...topic, channels: topic.channels.map((c) => id(c, 'topics.json')) })),
    users: users.map((user) => ({ ...user, interests: user.interests.map((c) => id(c, 'users.json')) })),
    bodies: byId(posts.bodies, 'posts.json bodies'),
    columns: byId(posts.columns, 'posts.json columns'),
    takeaways: posts.takeaways,
    closers: posts.closers,
    imageLabels: byId(posts.imageLabels, 'posts.json imageLabels'),
    snippets: snippets.map((snippet) => ({
      ...snippet,
      channel: id(snippet.channel, 'snippets.json'),
      code: snippet.code.join('\n'),
    })),
    votes: votes.map((vote) => ({ ...vote, channel: id(vote.channel, 'votes.json') })),
    comments: comments.comments,
    replies: comments.replies,
    notes,
    explore: site.explore,
    medals: site.medals,
    booklists: booklists.map((list) => ({
      ...list,
      books: list.books.map(({ link, ...book }): BooklistDef['books'][number] => ({
        ...book,
        link:
          'course' in link
            ? { type: 'course', id: link.course, title: link.title }
            : 'column' in link
              ? { type: 'column', id: link.column, title: link.title }
              : { type: 'reading', url: `${READING_APP_SEARCH_URL}${encodeURIComponent(link.reading)}`, title: link.title },
      })),
    })),
  };
}
