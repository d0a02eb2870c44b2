/**
 * Demo data: a believable learning community of a paid learning platform (channels, users,
 * posts with topics, images, code snippets and votes, comments, likes, follows, notes, the
 * sidebar's explore items, the race_medals config and two joint book lists).
 *
 * This file is the generator; the content it draws from (names, texts, code samples, votes,
 * links, medals) is data in seed-data/*.json, read from disk by seed-content.ts when a database
 * is seeded. main.ts imports this module only when the database is empty, so an ordinary start
 * never loads either.
 *
 * Deterministic: every choice comes from a fixed-seed PRNG and every time from a fixed base
 * time, so two seeded databases are identical row for row (tests compare digests). Explicit
 * ids are inserted (id order = time order for posts and comments) and the sequences are moved
 * past them at the end. Every denormalised counter is computed here and inserted with its row;
 * tests/api/seed.test.ts recounts them all.
 *
 * Counter definitions (the services keep the same ones):
 * - posts.like_count: likes(target_type 'post'); posts.comment_count: all comments of the post
 *   (top-level and replies).
 * - comments.like_count: likes(target_type 'comment'); comments.reply_count: comments whose
 *   root_id is this comment.
 * - users.follower_count / following_count: user_follows rows as followee / follower;
 *   users.post_count: posts written; users.like_count: likes received on the user's posts
 *   and comments.
 * - channels.follower_count: channel_follows; channels.post_count: post_channels.
 * - topics.post_count: post_topics.
 * - votes.total: distinct voters; vote_options.count: vote_records of the option.
 */
import { createHash } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import { lacksDemoBooklists, type Db } from '../db/client.ts';
import { cardAttach } from '../db/post-attach.ts';
import { seedDemoNotices } from './seed-notices.ts';
import { loadSeedContent, type BooklistDef, type SeedContent, type SnippetDef, type VoteDef } from './seed-content.ts';
import {
  booklistBooks,
  booklists,
  channelCategories,
  channelFollows,
  channels,
  codeSnippets,
  comments,
  configItems,
  exploreItems,
  images,
  likes,
  moderators,
  notes,
  postChannels,
  postImages,
  posts,
  postTopics,
  topics,
  userFollows,
  users,
  voteOptions,
  voteRecords,
  votes,
} from '../db/schema.ts';

/** Rows inserted per table. */
export interface SeedSummary {
  users: number;
  channelCategories: number;
  channels: number;
  channelFollows: number;
  userFollows: number;
  topics: number;
  posts: number;
  postChannels: number;
  postTopics: number;
  images: number;
  postImages: number;
  codeSnippets: number;
  votes: number;
  voteOptions: number;
  voteRecords: number;
  comments: number;
  likes: number;
  notes: number;
  exploreItems: number;
  configItems: number;
  booklists: number;
  booklistBooks: number;
  /** The demo user's unread notices (seed-notices.ts). */
  notices: number;
}

export interface SeedOptions {
  /**
   * The "now" of the demo: the newest post is shortly before it. Fixed by default so that
   * seeding is deterministic; pass another date for a fresh-looking demo.
   */
  now?: Date;
}

/** 2026-11-20 12:00 in Beijing (UTC+8). */
export const SEED_NOW = new Date(Date.UTC(2026, 10, 20, 4, 0, 0));
export const SEED_PRNG_SEED = 20_261_120;
export const DEMO_USER_CELLPHONE = '13800000000';
/** The demo user's id: the first user seeded. */
const DEMO_USER_ID = 1;
/**
 * The demo's moderator: the second user seeded (码农老王), whose phone the seed's generator fixes
 * (tests/api/seed.test.ts holds it), so a demo can log in as them and work the review queue.
 */
const DEMO_MODERATOR_ID = 2;
export const DEMO_MODERATOR_CELLPHONE = '13835303380';
export const POST_COUNT = 520;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BEIJING_OFFSET = 8 * HOUR;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** mulberry32: [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.next() * items.length));
  }
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= at(weights, i);
      if (r < 0) return at(items, i);
    }
    return at(items, items.length - 1);
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const a = at(out, i);
      out[i] = at(out, j);
      out[j] = a;
    }
    return out;
  }
  /** k distinct items (all of them when k >= length). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, k));
  }
  hex(length: number): string {
    let s = '';
    while (s.length < length) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'.charAt(parseInt(h[16] ?? '0', 16) & 3);
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

function at<T>(items: readonly T[], index: number): T {
  const v = items[index];
  if (v === undefined) throw new Error(`seed: index ${index} out of range (${items.length})`);
  return v;
}

function imageId(key: string): string {
  return createHash('sha256').update(`seed-image:${key}`).digest('hex').slice(0, 32);
}

// ---------------------------------------------------------------------------------------------
// Pictures (generated SVG; the texts come from seed-data/, see seed-content.ts)

const PALETTES: [string, string][] = [
  ['#fa8919', '#f5576c'],
  ['#4facfe', '#00c6fb'],
  ['#43e97b', '#38a9d7'],
  ['#667eea', '#764ba2'],
  ['#f093fb', '#f5576c'],
  ['#30cfd0', '#330867'],
  ['#f6d365', '#fda085'],
  ['#5ee7df', '#b490ca'],
  ['#0ba360', '#3cba92'],
  ['#ff9a9e', '#a18cd1'],
  ['#2b5876', '#4e4376'],
  ['#e96443', '#904e95'],
];

const IMAGE_SIZES: [number, number][] = [
  [1200, 800],
  [800, 1200],
  [1080, 1080],
  [1280, 720],
  [750, 1334],
  [1000, 750],
];

const FONT = "'PingFang SC','Microsoft YaHei','Noto Sans CJK SC',sans-serif";

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function svgPicture(rng: Rng, width: number, height: number, label: string, caption: string): string {
  const [c1, c2] = rng.pick(PALETTES);
  const min = Math.min(width, height);
  const parts: string[] = [];
  const variant = rng.int(0, 2);
  if (variant === 0) {
    for (let i = 0; i < 5; i++) {
      parts.push(
        `<circle cx="${rng.int(0, width)}" cy="${rng.int(0, height)}" r="${rng.int(min / 10, min / 3)}" fill="#fff" fill-opacity="${(0.06 + rng.next() * 0.14).toFixed(2)}"/>`,
      );
    }
  } else if (variant === 1) {
    const bars = rng.int(5, 9);
    const bw = (width * 0.7) / bars;
    for (let i = 0; i < bars; i++) {
      const bh = Math.round(height * (0.15 + rng.next() * 0.35));
      parts.push(
        `<rect x="${Math.round(width * 0.15 + i * bw + bw * 0.15)}" y="${Math.round(height * 0.88 - bh)}" width="${Math.round(bw * 0.7)}" height="${bh}" rx="6" fill="#fff" fill-opacity="0.22"/>`,
      );
    }
  } else {
    for (let i = 0; i < 4; i++) {
      const y = rng.int(0, height);
      const amp = rng.int(20, Math.round(min / 6));
      parts.push(
        `<path d="M0 ${y} Q ${Math.round(width / 4)} ${y - amp} ${Math.round(width / 2)} ${y} T ${width} ${y} V ${height} H 0 Z" fill="#fff" fill-opacity="${(0.05 + rng.next() * 0.08).toFixed(2)}"/>`,
      );
    }
  }
  // Wide banners (topic covers) get a larger label than pictures.
  const fs = Math.round(width / height > 2 ? height / 5 : min / 9);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
    parts.join('') +
    `<text x="50%" y="46%" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${fs}" font-weight="600" fill="#fff">${xml(label)}</text>` +
    `<text x="50%" y="${Math.round(height * 0.46 + fs * 1.1)}" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${Math.round(fs * 0.38)}" fill="#fff" fill-opacity="0.85">${xml(caption)}</text>` +
    `</svg>`
  );
}

function svgAvatar(nick: string, color: string): string {
  const ch = xml(Array.from(nick)[0] ?? '?');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">` +
    `<circle cx="100" cy="100" r="100" fill="${color}"/>` +
    `<text x="100" y="104" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="92" font-weight="600" fill="#fff">${ch}</text>` +
    `</svg>`
  );
}

function svgIcon(text: string, c1: string, c2: string, size: number): string {
  const ch = xml(Array.from(text)[0] ?? '?');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${size}" height="${size}" rx="${Math.round(size / 5)}" fill="url(#g)"/>` +
    `<text x="50%" y="53%" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${Math.round(size * 0.48)}" font-weight="700" fill="#fff">${ch}</text>` +
    `</svg>`
  );
}

function svgMedal(name: string, c1: string, c2: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<path d="M56 8h48l-8 40H64z" fill="${c2}" fill-opacity="0.8"/>` +
    `<circle cx="80" cy="96" r="56" fill="url(#g)" stroke="#fff" stroke-width="6"/>` +
    `<text x="80" y="100" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="22" font-weight="700" fill="#fff">${xml(name.slice(0, 4))}</text>` +
    `</svg>`
  );
}

/** Text cut into lines of at most `width` characters, at most `lines` of them (the last ends in … when cut). */
function wrapText(text: string, width: number, lines: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length && out.length < lines; i += width) out.push(chars.slice(i, i + width).join(''));
  if (chars.length > width * lines) out[lines - 1] = `${Array.from(out[lines - 1]!).slice(0, width - 1).join('')}…`;
  return out;
}

/** A book's cover (3:4): its title in up to four lines, a rule, its author at the foot. */
function svgBookCover(title: string, author: string, c1: string, c2: string): string {
  const [w, h] = BOOK_COVER_SIZE;
  const lines = wrapText(title, 7, 4);
  const byline = wrapText(author, 16, 1)[0] ?? '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>` +
    `<rect x="0" y="0" width="18" height="${h}" fill="#000" fill-opacity="0.12"/>` +
    lines
      .map(
        (line, i) =>
          `<text x="44" y="${96 + i * 46}" font-family="${FONT}" font-size="34" font-weight="700" fill="#fff">${xml(line)}</text>`,
      )
      .join('') +
    `<rect x="44" y="${120 + lines.length * 46}" width="64" height="4" fill="#fff" fill-opacity="0.8"/>` +
    `<text x="44" y="${h - 44}" font-family="${FONT}" font-size="18" fill="#fff" fill-opacity="0.9">${xml(byline)}</text>` +
    `</svg>`
  );
}

/**
 * A book list's banner (3:1): its title large, in two lines where it has a colon (the name, then
 * what it is about), beside a shelf of book spines.
 */
function svgBooklistBanner(title: string, c1: string, c2: string): string {
  const [w, h] = BOOKLIST_COVER_SIZE;
  const colon = title.search(/[：:]/);
  const [head, tail] = colon > 0 ? [title.slice(0, colon), title.slice(colon + 1)] : wrapText(title, 12, 2);
  const spines = [0, 1, 2, 3, 4, 5]
    .map((i) => {
      const sh = 200 + ((i * 37) % 5) * 16;
      return `<rect x="${w - 470 + i * 66}" y="${h - 60 - sh}" width="${48 + (i % 3) * 6}" height="${sh}" rx="6" fill="#fff" fill-opacity="${(0.14 + (i % 3) * 0.06).toFixed(2)}"/>`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>` +
    spines +
    `<rect x="${w - 500}" y="${h - 60}" width="440" height="10" rx="5" fill="#fff" fill-opacity="0.35"/>` +
    `<text x="80" y="${tail ? 176 : 216}" font-family="${FONT}" font-size="64" font-weight="700" fill="#fff">${xml(head ?? '')}</text>` +
    (tail ? `<text x="80" y="256" font-family="${FONT}" font-size="40" fill="#fff" fill-opacity="0.9">${xml(tail)}</text>` : '') +
    `</svg>`
  );
}

const BOOK_COVER_SIZE = [300, 400] as const;
const BOOKLIST_COVER_SIZE = [1200, 400] as const;

// ---------------------------------------------------------------------------------------------
// Building the rows

type ImageRow = typeof images.$inferInsert;
type UserRow = typeof users.$inferInsert & { id: number };
type PostRow = typeof posts.$inferInsert & { id: number; userId: number; createdAt: Date };
type CommentRow = typeof comments.$inferInsert & { id: number; createdAt: Date };

interface Built {
  users: UserRow[];
  images: ImageRow[];
  categories: (typeof channelCategories.$inferInsert)[];
  channels: (typeof channels.$inferInsert)[];
  topics: (typeof topics.$inferInsert)[];
  posts: PostRow[];
  postChannels: (typeof postChannels.$inferInsert)[];
  postTopics: (typeof postTopics.$inferInsert)[];
  postImages: (typeof postImages.$inferInsert)[];
  codeSnippets: (typeof codeSnippets.$inferInsert)[];
  votes: (typeof votes.$inferInsert)[];
  voteOptions: (typeof voteOptions.$inferInsert)[];
  voteRecords: (typeof voteRecords.$inferInsert)[];
  comments: CommentRow[];
  likes: (typeof likes.$inferInsert)[];
  channelFollows: (typeof channelFollows.$inferInsert)[];
  userFollows: (typeof userFollows.$inferInsert)[];
  notes: (typeof notes.$inferInsert)[];
  exploreItems: (typeof exploreItems.$inferInsert)[];
  configItems: (typeof configItems.$inferInsert)[];
  booklists: BuiltBooklists;
}

/** The joint book lists, their books and their covers: drawn from no PRNG, so a database made before them gets the same rows. */
interface BuiltBooklists {
  lists: (typeof booklists.$inferInsert)[];
  books: (typeof booklistBooks.$inferInsert)[];
  images: ImageRow[];
}

function mmdd(ms: number): string {
  const d = new Date(ms + BEIJING_OFFSET);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** A time between from and to (to > from), skewed towards from when skew > 1. */
function between(rng: Rng, from: number, to: number, skew = 1): number {
  return Math.round(from + (to - from) * Math.pow(rng.next(), skew));
}

// Every step below draws from the one PRNG: the steps run in a fixed order, and each draws in a
// fixed order, so that moving one draw changes every row after it (tests compare digests).

/** What every step reads and adds to. */
interface Seeding {
  demo: SeedContent;
  rng: Rng;
  /** The demo's "now", in ms. */
  now: number;
  /** Midnight (Beijing) of the day of `now`, in ms. */
  todayStart: number;
  /** When the community was set up: the time of its channels', topics' and medals' images. */
  setupTime: Date;
  out: Built;
}

/** A time strictly between t and limit (default now), skewed towards t when skew > 1. */
function after(s: Seeding, t: number, skew = 1, limit = s.now): number {
  const gap = Math.min(MINUTE, Math.floor((limit - t) / 3));
  return between(s.rng, t + gap, limit - gap, skew);
}

/** The users, as the later steps draw them. */
interface Members {
  ids: number[];
  /** How much each user writes and is followed, by index in `ids`. */
  activity: number[];
  joinedAt(id: number): number;
}

type PostKind = 'vote' | 'code' | 'images';

/** A picture of a post, as post_images and the card's attachments hold it. */
type Picture = { url: string; width: number; height: number };

/** When each post is written and what kind it is, drawn before any post is. */
interface PostPlan {
  /** Increasing; post i + 1 is written at times[i]. */
  times: number[];
  /** By index in `times`; a post without one is text. */
  kind: Map<number, PostKind>;
  /** Indexes of the 精选 posts. */
  good: Set<number>;
}

function build(demo: SeedContent, nowDate: Date): Built {
  const now = nowDate.getTime();
  const s: Seeding = {
    demo,
    rng: new Rng(SEED_PRNG_SEED),
    now,
    todayStart: Math.floor((now + BEIJING_OFFSET) / DAY) * DAY - BEIJING_OFFSET,
    setupTime: new Date(now - 400 * DAY),
    out: {
      users: [],
      images: [],
      categories: [],
      channels: [],
      topics: [],
      posts: [],
      postChannels: [],
      postTopics: [],
      postImages: [],
      codeSnippets: [],
      votes: [],
      voteOptions: [],
      voteRecords: [],
      comments: [],
      likes: [],
      channelFollows: [],
      userFollows: [],
      notes: [],
      exploreItems: [],
      configItems: [],
      booklists: { lists: [], books: [], images: [] },
    },
  };
  addChannels(s);
  const topicsByChannel = addTopics(s);
  const members = addUsers(s);
  const plan = planPosts(s);
  addPosts(s, plan, members, topicsByChannel);
  addComments(s, members);
  addLikes(s, plan, members);
  addChannelFollows(s, members);
  addUserFollows(s, members);
  addNotes(s, members);
  addExploreItems(s);
  addMedals(s);
  s.out.booklists = buildBooklists(demo.booklists, s.setupTime, new Date(now - 20 * DAY));
  countEverything(s.out);
  return s.out;
}

/** Categories and their channels, each channel with an icon. */
function addChannels({ demo, out, setupTime }: Seeding): void {
  let channelId = 0;
  demo.categories.forEach((cat, ci) => {
    out.categories.push({ id: ci + 1, name: cat.name, sort: ci + 1 });
    cat.channels.forEach((ch, si) => {
      channelId++;
      const [c1, c2] = at(PALETTES, channelId % PALETTES.length);
      const id = imageId(`channel:${channelId}`);
      out.images.push({
        id,
        userId: null,
        mime: 'image/svg+xml',
        width: 96,
        height: 96,
        bytes: Buffer.from(svgIcon(ch.name, c1, c2, 96), 'utf8'),
        createdAt: setupTime,
      });
      out.channels.push({
        id: channelId,
        categoryId: ci + 1,
        name: ch.name,
        intro: ch.intro,
        icon: `/img/${id}`,
        sort: si + 1,
      });
    });
  });
}

/** Topics with their covers. Returns the topics of each channel, which posts there may join. */
function addTopics({ demo, rng, now, out, setupTime }: Seeding): Map<number, number[]> {
  demo.topics.forEach((t, i) => {
    const id = imageId(`topic:${i + 1}`);
    out.images.push({
      id,
      userId: null,
      mime: 'image/svg+xml',
      width: 750,
      height: 300,
      bytes: Buffer.from(svgPicture(rng, 750, 300, `#${t.name}#`, '话题'), 'utf8'),
      createdAt: setupTime,
    });
    out.topics.push({
      id: i + 1,
      name: t.name,
      intro: t.intro,
      cover: `/img/${id}`,
      createdAt: new Date(now - (120 - i * 3) * DAY),
    });
  });
  const topicsByChannel = new Map<number, number[]>();
  demo.topics.forEach((t, i) => {
    for (const c of t.channels) topicsByChannel.set(c, [...(topicsByChannel.get(c) ?? []), i + 1]);
  });
  return topicsByChannel;
}

/** Users with their avatars; user 1 is the demo user (DEMO_USER_CELLPHONE). */
function addUsers({ demo, rng, now, out }: Seeding): Members {
  const phones = new Set<string>([DEMO_USER_CELLPHONE]);
  demo.users.forEach((u, i) => {
    const id = i + 1;
    let phone = DEMO_USER_CELLPHONE;
    if (id > 1) {
      do phone = `138${String(rng.int(0, 99_999_999)).padStart(8, '0')}`;
      while (phones.has(phone));
      phones.add(phone);
    }
    const [color] = at(PALETTES, (id * 5) % PALETTES.length);
    const avatarId = imageId(`avatar:${id}`);
    const createdAt = new Date(now - rng.int(90, 1200) * DAY - rng.int(0, DAY));
    out.images.push({
      id: avatarId,
      userId: id,
      mime: 'image/svg+xml',
      width: 200,
      height: 200,
      bytes: Buffer.from(svgAvatar(u.nick, color), 'utf8'),
      createdAt,
    });
    out.users.push({
      id,
      ucode: createHash('sha256').update(`seed-user:${id}`).digest('hex').slice(0, 14).toUpperCase(),
      nick: u.nick,
      avatar: `/img/${avatarId}`,
      cellphone: phone,
      intro: u.intro,
      isStudent: u.student ?? false,
      isUniversity: u.university ?? false,
      usertype: 1,
      createdAt,
    });
  });
  return {
    ids: out.users.map((u) => u.id),
    activity: demo.users.map((u) => u.activity),
    joinedAt: (id) => at(out.users, id - 1).createdAt?.getTime() ?? 0,
  };
}

/** POST_COUNT times over the last 60 days, at the hours people read, and the kind of each post. */
function planPosts({ rng, now, todayStart }: Seeding): PostPlan {
  const times: number[] = [];
  const hourWeights = [0, 0, 0, 0, 0, 0, 0, 1, 3, 4, 3, 3, 4, 5, 3, 3, 3, 3, 3, 4, 6, 7, 7, 5];
  const hours = hourWeights.map((_, h) => h);
  while (times.length < POST_COUNT) {
    const day = rng.int(0, 59);
    const t = todayStart - day * DAY + rng.weighted(hours, hourWeights) * HOUR + rng.int(0, HOUR - 1);
    if (t < now - 20 * MINUTE) times.push(t);
  }
  times.sort((a, b) => a - b);
  for (let i = 1; i < times.length; i++) if (at(times, i) <= at(times, i - 1)) times[i] = at(times, i - 1) + 1000;

  const indices = rng.shuffle(times.map((_, i) => i));
  const voteCount = Math.round(POST_COUNT * 0.05);
  const codeCount = Math.round(POST_COUNT * 0.1);
  const imageCount = Math.round(POST_COUNT * 0.15);
  const kind = new Map<number, PostKind>();
  indices.slice(0, voteCount).forEach((i) => kind.set(i, 'vote'));
  indices.slice(voteCount, voteCount + codeCount).forEach((i) => kind.set(i, 'code'));
  indices.slice(voteCount + codeCount, voteCount + codeCount + imageCount).forEach((i) => kind.set(i, 'images'));
  const good = new Set(rng.sample(indices, Math.round(POST_COUNT * 0.08)));
  return { times, kind, good };
}

/** What a post says, and the channel it is written in. */
interface PostText {
  primary: number;
  content: string;
  snippet?: SnippetDef | undefined;
  voteDef?: VoteDef | undefined;
}

/** Serial numbers of the post parts that have ids of their own. */
interface PartIds {
  image: number;
  postImage: number;
  vote: number;
  option: number;
}

/**
 * The posts, each with its channels, topics and parts (pictures, a code snippet or a poll with
 * its votes); what a post is made of is copied onto its row (schema.ts).
 */
function addPosts(s: Seeding, plan: PostPlan, members: Members, topicsByChannel: Map<number, number[]>): void {
  const { rng, out } = s;
  const parts: PartIds = { image: 0, postImage: 0, vote: 0, option: 0 };
  const checkinDay = new Map<number, number>();
  const allChannelIds = out.channels.map((c) => c.id ?? 0);

  plan.times.forEach((time, i) => {
    const id = i + 1;
    const k = plan.kind.get(i);
    let authorId = rng.weighted(members.ids, members.activity);
    // The author joined before writing.
    if (members.joinedAt(authorId) > time) authorId = 1;
    const { primary, content, snippet, voteDef } = drawPostText(s, k, authorId, checkinDay);
    const channelSet = [primary];
    if (rng.chance(0.3)) {
      const sameCategory = out.channels.filter(
        (c) => c.categoryId === at(out.channels, primary - 1).categoryId && c.id !== primary,
      );
      const extra = sameCategory.length > 0 && rng.chance(0.7) ? rng.pick(sameCategory).id : rng.pick(allChannelIds);
      if (extra !== undefined && extra !== primary) channelSet.push(extra);
    }
    const createdAt = new Date(time);
    // The copies of the post's parts on its row are filled in below, as each part is drawn.
    const post: PostRow = { id, userId: authorId, content, isGood: plan.good.has(i), createdAt };
    const channelIds: number[] = [];
    const topicIds: number[] = [];
    out.posts.push(post);
    for (const c of channelSet) {
      out.postChannels.push({ postId: id, channelId: c });
      channelIds.push(c);
    }

    // Topics: about 45% of posts, a few with two.
    const candidates = topicsByChannel.get(primary) ?? [];
    if (candidates.length > 0 && rng.chance(0.45)) {
      for (const t of rng.sample(candidates, rng.chance(0.15) ? 2 : 1)) {
        out.postTopics.push({ postId: id, topicId: t });
        topicIds.push(t);
      }
    }
    post.channelIds = channelIds.sort((a, b) => a - b);
    post.topicIds = topicIds.sort((a, b) => a - b);
    post.hasVote = Boolean(voteDef);

    const pictures = k === 'images' ? addPostPictures(s, post, primary, parts) : [];
    const code = snippet ? { uuid: rng.uuid(), language: snippet.language, title: snippet.title, code: snippet.code } : null;
    if (code) out.codeSnippets.push({ ...code, postId: id, sort: 0 });
    post.attach = cardAttach(pictures, code);
    if (voteDef) addPoll(s, post, voteDef, members, parts);
  });
}

/**
 * A post's text by its kind: a snippet's or a poll's own, a check-in (学习打卡) counting the
 * author's days, or one or two paragraphs of the channel's with a closing line.
 */
function drawPostText({ demo, rng }: Seeding, k: PostKind | undefined, authorId: number, checkinDay: Map<number, number>): PostText {
  const author = at(demo.users, authorId - 1);
  const primary = rng.pick(author.interests);
  if (k === 'code') {
    const mine = demo.snippets.filter((d) => author.interests.includes(d.channel));
    const snippet = mine.length > 0 && rng.chance(0.7) ? rng.pick(mine) : rng.pick(demo.snippets);
    return { primary: snippet.channel, content: snippet.text, snippet };
  }
  if (k === 'vote') {
    const voteDef = rng.pick(demo.votes);
    return { primary: voteDef.channel, content: voteDef.intro, voteDef };
  }
  if (rng.chance(0.18)) {
    const n = (checkinDay.get(authorId) ?? rng.int(3, 40)) + rng.int(1, 3);
    checkinDay.set(authorId, n);
    return {
      primary,
      content: `学习打卡 Day ${n}：今天学完了《${rng.pick(demo.columns[primary] ?? ['数据结构与算法之美'])}》的第 ${rng.int(1, 45)} 讲。${rng.pick(demo.takeaways)}`,
    };
  }
  const pool = demo.bodies[primary] ?? [];
  let content = rng.pick(pool);
  if (rng.chance(0.2)) {
    const second = rng.pick(pool);
    if (second !== content) content = `${content}\n\n${second}`;
  }
  const closer = rng.pick(demo.closers);
  if (closer && !content.endsWith('？')) content = `${content}${closer}`;
  return { primary, content };
}

/** One to four pictures of a post, labelled by its channel and signed by its author. */
function addPostPictures({ demo, rng, out }: Seeding, post: PostRow, primary: number, parts: PartIds): Picture[] {
  const pictures: Picture[] = [];
  const { nick } = at(demo.users, post.userId - 1);
  const n = rng.weighted([1, 2, 3, 4], [4, 3, 2, 2]);
  const labels = demo.imageLabels[primary] ?? ['学习笔记'];
  const time = post.createdAt.getTime();
  for (let s = 0; s < n; s++) {
    const [w, h] = rng.pick(IMAGE_SIZES);
    const imgId = imageId(`post:${post.id}:${s}:${++parts.image}`);
    out.images.push({
      id: imgId,
      userId: post.userId,
      mime: 'image/svg+xml',
      width: w,
      height: h,
      bytes: Buffer.from(svgPicture(rng, w, h, rng.pick(labels), `${nick} · ${mmdd(time)}`), 'utf8'),
      createdAt: post.createdAt,
    });
    const picture: Picture = { url: `/img/${imgId}`, width: w, height: h };
    pictures.push(picture);
    out.postImages.push({ id: ++parts.postImage, postId: post.id, ...picture, sort: s });
  }
  return pictures;
}

/** A post's poll and its votes: users who had joined by then, until the poll ends (or now). */
function addPoll(s: Seeding, post: PostRow, voteDef: VoteDef, members: Members, parts: PartIds): void {
  const { rng, now, out } = s;
  const time = post.createdAt.getTime();
  const vId = ++parts.vote;
  const optionIds: number[] = [];
  voteDef.options.forEach((text, sort) => {
    optionIds.push(++parts.option);
    out.voteOptions.push({ id: parts.option, voteId: vId, text, sort });
  });
  const optionWeights = optionIds.map(() => 1 + rng.int(0, 6));
  const endTime = rng.chance(0.4) ? null : new Date(time + rng.int(3, 14) * DAY);
  const voteLimit = endTime ? Math.min(now, endTime.getTime()) : now;
  const voters = rng.sample(
    members.ids.filter((u) => members.joinedAt(u) < time),
    rng.int(5, 28),
  );
  for (const voter of voters) {
    const chosen = voteDef.multiple
      ? rng.sample(optionIds, rng.int(1, Math.min(3, optionIds.length)))
      : [rng.weighted(optionIds, optionWeights)];
    const votedAt = new Date(after(s, time, 2.5, voteLimit));
    for (const o of chosen) out.voteRecords.push({ voteId: vId, userId: voter, optionId: o, createdAt: votedAt });
  }
  out.votes.push({ id: vId, postId: post.id, title: voteDef.title, multiple: voteDef.multiple, endTime });
}

/**
 * Comments within six days of their post (精选 posts get more), a few with one to three replies,
 * numbered in time order.
 */
function addComments(s: Seeding, members: Members): void {
  const { demo, rng, now, out } = s;
  interface DraftComment {
    postId: number;
    userId: number;
    root: DraftComment | null;
    replyUserId: number | null;
    content: string;
    time: number;
    id: number;
  }
  const drafts: DraftComment[] = [];
  for (const post of out.posts) {
    const postTime = post.createdAt.getTime();
    const limit = Math.min(now, postTime + 6 * DAY);
    const roots = rng.int(0, 4) + (post.isGood ? rng.int(3, 7) : 0) + (rng.chance(0.1) ? rng.int(2, 5) : 0);
    // No comment text twice under one post: a reader sees them side by side.
    const texts = rng.shuffle(demo.comments);
    for (let r = 0; r < roots; r++) {
      const userId = rng.pick(members.ids);
      const root: DraftComment = {
        postId: post.id,
        userId,
        root: null,
        replyUserId: null,
        content: texts[r % texts.length]!,
        time: after(s, postTime, 2.2, limit),
        id: 0,
      };
      drafts.push(root);
      if (rng.chance(0.4)) {
        const replies = rng.int(1, 3);
        let last = root;
        for (let p = 0; p < replies; p++) {
          const replier = p === 0 && rng.chance(0.6) ? post.userId : rng.pick(members.ids);
          const answered = rng.chance(0.7) ? root.userId : last.userId;
          const reply: DraftComment = {
            postId: post.id,
            userId: replier,
            root,
            replyUserId: answered === replier ? root.userId : answered,
            content: rng.pick(demo.replies),
            time: after(s, last.time, 2, Math.min(now, last.time + 2 * DAY)),
            id: 0,
          };
          drafts.push(reply);
          last = reply;
        }
      }
    }
  }
  const sortedDrafts = drafts
    .map((d, order) => ({ d, order }))
    .sort((a, b) => a.d.time - b.d.time || a.order - b.order)
    .map((x) => x.d);
  sortedDrafts.forEach((d, i) => {
    d.id = i + 1;
    // Strictly increasing times, so that id order is time order.
    const prev = sortedDrafts[i - 1];
    if (prev && d.time <= prev.time) d.time = prev.time + 1;
  });
  for (const d of sortedDrafts) {
    out.comments.push({
      id: d.id,
      postId: d.postId,
      userId: d.userId,
      rootId: d.root ? d.root.id : null,
      replyUserId: d.replyUserId,
      content: d.content,
      createdAt: new Date(d.time),
    });
  }
}

/** Likes on posts (精选 posts and pictures get more) and on comments, numbered in time order. */
function addLikes(s: Seeding, plan: PostPlan, members: Members): void {
  const { rng, out } = s;
  const like = (userId: number, targetType: 'post' | 'comment', targetId: number, createdAt: Date) =>
    out.likes.push({ userId, targetType, targetId, createdAt });
  for (const post of out.posts) {
    const postTime = post.createdAt.getTime();
    let n = Math.floor(Math.pow(rng.next(), 1.6) * 12);
    if (post.isGood) n += rng.int(8, 22);
    if (plan.kind.get(post.id - 1) === 'images') n += rng.int(0, 5);
    const likers = rng.sample(
      members.ids.filter((u) => u !== post.userId),
      n,
    );
    for (const u of likers) like(u, 'post', post.id, new Date(after(s, postTime, 3)));
  }
  for (const c of out.comments) {
    const n = Math.floor(Math.pow(rng.next(), 2.5) * 7);
    if (n === 0) continue;
    const cTime = c.createdAt.getTime();
    const likers = rng.sample(
      members.ids.filter((u) => u !== c.userId),
      n,
    );
    for (const u of likers) like(u, 'comment', c.id, new Date(after(s, cTime, 3)));
  }
  // Likes are numbered in the order they were made: likers page newest first by this id.
  out.likes.sort(
    (a, b) =>
      (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0) ||
      a.targetType.localeCompare(b.targetType) ||
      a.targetId - b.targetId ||
      a.userId - b.userId,
  );
  out.likes.forEach((like, i) => (like.id = i + 1));
}

/** Each user follows the channels of their interests and up to three more. */
function addChannelFollows({ demo, rng, now, out }: Seeding, members: Members): void {
  const allChannelIds = out.channels.map((c) => c.id ?? 0);
  for (const u of out.users) {
    const def = at(demo.users, u.id - 1);
    const extra = rng.sample(
      allChannelIds.filter((c) => !def.interests.includes(c)),
      rng.int(0, 3),
    );
    for (const c of [...def.interests, ...extra]) {
      out.channelFollows.push({
        userId: u.id,
        channelId: c,
        createdAt: new Date(between(rng, members.joinedAt(u.id), now - HOUR)),
      });
    }
  }
}

/** Each user follows a few others, the more active the likelier; the demo user has an audience. */
function addUserFollows({ rng, now, out }: Seeding, members: Members): void {
  const followPairs = new Set<string>();
  const follow = (a: number, b: number) => {
    if (a === b || followPairs.has(`${a}:${b}`)) return;
    followPairs.add(`${a}:${b}`);
    out.userFollows.push({
      followerId: a,
      followeeId: b,
      createdAt: new Date(between(rng, Math.max(members.joinedAt(a), members.joinedAt(b)), now - HOUR)),
    });
  };
  for (const u of members.ids) {
    const n = u === 1 ? 9 : rng.int(2, 10);
    for (let f = 0; f < n; f++) follow(u, rng.weighted(members.ids, members.activity));
  }
  for (const u of rng.sample(members.ids, 14)) follow(u, 1);
}

/** Every denormalised counter, counted from the rows (the definitions at the top of this file). */
function countEverything(out: Built): void {
  /** How many times each key occurs. */
  const tally = <K>(keys: readonly K[]): ((key: K) => number) => {
    const counts = new Map<K, number>();
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    return (key) => counts.get(key) ?? 0;
  };
  const postLikes = tally(out.likes.filter((l) => l.targetType === 'post').map((l) => l.targetId));
  const commentLikes = tally(out.likes.filter((l) => l.targetType === 'comment').map((l) => l.targetId));
  const postComments = tally(out.comments.map((c) => c.postId));
  const replies = tally(out.comments.flatMap((c) => (c.rootId ? [c.rootId] : [])));
  for (const p of out.posts) {
    p.likeCount = postLikes(p.id);
    p.commentCount = postComments(p.id);
  }
  for (const c of out.comments) {
    c.likeCount = commentLikes(c.id);
    c.replyCount = replies(c.id);
  }

  const followers = tally(out.userFollows.map((f) => f.followeeId));
  const following = tally(out.userFollows.map((f) => f.followerId));
  const written = tally(out.posts.map((p) => p.userId));
  const likesReceived = tally(out.likes.map((l) => (l.targetType === 'post' ? at(out.posts, l.targetId - 1) : at(out.comments, l.targetId - 1)).userId));
  for (const u of out.users) {
    u.followerCount = followers(u.id);
    u.followingCount = following(u.id);
    u.postCount = written(u.id);
    u.likeCount = likesReceived(u.id);
  }

  const channelPosts = tally(out.postChannels.map((pc) => pc.channelId));
  const channelFollowers = tally(out.channelFollows.map((f) => f.channelId));
  for (const c of out.channels) {
    c.postCount = channelPosts(c.id ?? 0);
    c.followerCount = channelFollowers(c.id ?? 0);
  }
  const topicPosts = tally(out.postTopics.map((pt) => pt.topicId));
  for (const t of out.topics) t.postCount = topicPosts(t.id ?? 0);

  const optionVotes = tally(out.voteRecords.map((r) => r.optionId));
  for (const o of out.voteOptions) o.count = optionVotes(o.id ?? 0);
  const voters = new Map<number, Set<number>>();
  for (const r of out.voteRecords) voters.set(r.voteId, (voters.get(r.voteId) ?? new Set()).add(r.userId));
  for (const v of out.votes) v.total = voters.get(v.id ?? 0)?.size ?? 0;
}

/** Notes (笔记) of the demo user and fourteen others, a few edited after they were written. */
function addNotes({ demo, rng, now, out }: Seeding, members: Members): void {
  let noteId = 0;
  const noteUsers = [1, ...rng.sample(members.ids.slice(1), 14)];
  for (const u of noteUsers) {
    const n = u === 1 ? 5 : rng.int(1, 3);
    const texts = rng.sample(demo.notes, n);
    const created = texts.map(() => between(rng, now - 60 * DAY, now - HOUR)).sort((a, b) => a - b);
    texts.forEach((content, i) => {
      const c = at(created, i);
      out.notes.push({
        id: ++noteId,
        userId: u,
        content,
        createdAt: new Date(c),
        updatedAt: new Date(rng.chance(0.3) ? between(rng, c, now - MINUTE) : c),
      });
    });
  }
}

/** The sidebar's explore items, as written in seed-data. */
function addExploreItems({ demo, out }: Seeding): void {
  demo.explore.forEach((item, i) => {
    out.exploreItems.push({
      id: i + 1,
      page: item.page,
      blockName: item.block_name,
      title: item.title,
      redirectParam: item.redirect,
      sort: item.sort,
    });
  });
}

/** The race_medals config: the medals of a 90-day season that began 30 days ago, with their icons. */
function addMedals({ demo, out, todayStart, setupTime }: Seeding): void {
  const seasonStart = todayStart - 30 * DAY;
  const medals = demo.medals.map(({ key, name, desc, color }, i) => {
    const id = imageId(`medal:${key}`);
    out.images.push({
      id,
      userId: null,
      mime: 'image/svg+xml',
      width: 160,
      height: 160,
      bytes: Buffer.from(svgMedal(name, color, at(PALETTES, (i * 3 + 1) % PALETTES.length)[1]), 'utf8'),
      createdAt: setupTime,
    });
    return {
      id: i + 1,
      key,
      name,
      desc,
      icon: `/img/${id}`,
      start_time: seasonStart,
      end_time: seasonStart + 90 * DAY,
    };
  });
  out.configItems.push({ key: 'race_medals', content: JSON.stringify(medals) });
}

/**
 * The joint book lists of seed-data (the sidebar's 读书会书单 opens the first), ids in file order,
 * each list's and each book's cover a generated picture of its own.
 */
function buildBooklists(defs: readonly BooklistDef[], setupTime: Date, listedAt: Date): BuiltBooklists {
  const out: BuiltBooklists = { lists: [], books: [], images: [] };
  let bookId = 0;
  const picture = (key: string, [width, height]: readonly [number, number], svg: string) => {
    const id = imageId(key);
    out.images.push({ id, userId: null, mime: 'image/svg+xml', width, height, bytes: Buffer.from(svg, 'utf8'), createdAt: setupTime });
    return { url: `/img/${id}`, width, height };
  };
  defs.forEach((def, li) => {
    const [c1, c2] = at(PALETTES, (li * 7 + 3) % PALETTES.length);
    const cover = picture(`booklist:${def.code}`, BOOKLIST_COVER_SIZE, svgBooklistBanner(def.title, c1, c2));
    const booklistId = li + 1;
    out.lists.push({
      id: booklistId,
      code: def.code,
      title: def.title,
      intro: def.intro,
      coverUrl: cover.url,
      coverWidth: cover.width,
      coverHeight: cover.height,
      createdAt: listedAt,
    });
    def.books.forEach((book, bi) => {
      const [b1, b2] = at(PALETTES, (li * 5 + bi * 3) % PALETTES.length);
      const bookCover = picture(`booklist:${def.code}:${bi + 1}`, BOOK_COVER_SIZE, svgBookCover(book.title, book.author, b1, b2));
      out.books.push({
        id: ++bookId,
        booklistId,
        sort: bi + 1,
        title: book.title,
        author: book.author,
        coverUrl: bookCover.url,
        coverWidth: bookCover.width,
        coverHeight: bookCover.height,
        reason: book.reason,
        linkType: book.link.type,
        linkTitle: book.link.title,
        linkId: book.link.type === 'reading' ? null : book.link.id,
        linkUrl: book.link.type === 'reading' ? book.link.url : null,
      });
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writing

const SERIAL_TABLES = [
  'users',
  'channel_categories',
  'channels',
  'topics',
  'posts',
  'post_images',
  'votes',
  'vote_options',
  'comments',
  'likes',
  'notes',
  'explore_items',
  'booklists',
  'booklist_books',
] as const;

async function insertAll<T extends PgTable>(db: Db, table: T, rows: PgInsertValue<T>[], chunk = 500): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await db.insert(table).values(rows.slice(i, i + chunk));
    // PGlite runs each statement on this thread and answers through microtasks: without a turn
    // of the event loop between chunks, no probe or page would be answered until the seed ends.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The steps of a seed, in order, as progress names them. */
export const SEED_STEPS = [
  'content',
  'community',
  'users',
  'images',
  'channels and topics',
  'posts',
  'pictures and code',
  'polls',
  'comments',
  'likes',
  'follows',
  'notes',
  'sidebar',
  'book lists',
  'notices',
  'moderators',
] as const;
export type SeedStep = (typeof SEED_STEPS)[number];

/** Told as each step of a seed starts: its name, and its place among SEED_STEPS (from 1). */
export type SeedProgress = (step: SeedStep, number: number, of: number) => void;

const told = (progress: SeedProgress | undefined, step: SeedStep) => progress?.(step, SEED_STEPS.indexOf(step) + 1, SEED_STEPS.length);

async function write(db: Db, b: Built, progress?: SeedProgress): Promise<SeedSummary> {
  told(progress, 'users');
  await insertAll(db, users, b.users);
  told(progress, 'images');
  await insertAll(db, images, b.images, 100);
  told(progress, 'channels and topics');
  await insertAll(db, channelCategories, b.categories);
  await insertAll(db, channels, b.channels);
  await insertAll(db, topics, b.topics);
  told(progress, 'posts');
  await insertAll(db, posts, b.posts);
  await insertAll(db, postChannels, b.postChannels, 1000);
  await insertAll(db, postTopics, b.postTopics, 1000);
  // Each post's search document, as post/add writes it (migration 0010_search).
  await db.execute(sql`update posts set search = post_search_document(content, topic_ids, attach)`);
  told(progress, 'pictures and code');
  await insertAll(db, postImages, b.postImages);
  await insertAll(db, codeSnippets, b.codeSnippets);
  told(progress, 'polls');
  await insertAll(db, votes, b.votes);
  await insertAll(db, voteOptions, b.voteOptions);
  await insertAll(db, voteRecords, b.voteRecords, 1000);
  told(progress, 'comments');
  await insertAll(db, comments, b.comments);
  told(progress, 'likes');
  await insertAll(db, likes, b.likes, 1000);
  told(progress, 'follows');
  await insertAll(db, channelFollows, b.channelFollows, 1000);
  await insertAll(db, userFollows, b.userFollows, 1000);
  told(progress, 'notes');
  await insertAll(db, notes, b.notes);
  told(progress, 'sidebar');
  await insertAll(db, exploreItems, b.exploreItems);
  await insertAll(db, configItems, b.configItems);
  told(progress, 'book lists');
  await writeBooklists(db, b.booklists);
  await moveSequencesPast(db, SERIAL_TABLES);
  told(progress, 'notices');
  const noticesMade = await seedDemoNotices(db, DEMO_USER_ID);
  told(progress, 'moderators');
  await db.insert(moderators).values({ userId: DEMO_MODERATOR_ID });
  return {
    users: b.users.length,
    channelCategories: b.categories.length,
    channels: b.channels.length,
    channelFollows: b.channelFollows.length,
    userFollows: b.userFollows.length,
    topics: b.topics.length,
    posts: b.posts.length,
    postChannels: b.postChannels.length,
    postTopics: b.postTopics.length,
    images: b.images.length + b.booklists.images.length,
    postImages: b.postImages.length,
    codeSnippets: b.codeSnippets.length,
    votes: b.votes.length,
    voteOptions: b.voteOptions.length,
    voteRecords: b.voteRecords.length,
    comments: b.comments.length,
    likes: b.likes.length,
    notes: b.notes.length,
    exploreItems: b.exploreItems.length,
    configItems: b.configItems.length,
    booklists: b.booklists.lists.length,
    booklistBooks: b.booklists.books.length,
    notices: noticesMade,
  };
}

/** Explicit ids were inserted: moves each table's sequence past them. */
async function moveSequencesPast(db: Db, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await db.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`,
      ),
    );
  }
}

async function writeBooklists(db: Db, b: BuiltBooklists): Promise<void> {
  await insertAll(db, images, b.images, 100);
  await insertAll(db, booklists, b.lists);
  await insertAll(db, booklistBooks, b.books);
}

/** Serialises seeders of one database (several API processes may start at once). */
const SEED_LOCK = 727_402;

/**
 * Fills an empty, migrated database with the demo community, in one transaction.
 * Throws if the database already has users.
 */
export async function seedDemoData(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const built = build(await loadSeedContent(), options.now ?? SEED_NOW);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [row] = await tx.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) throw new Error('seedDemoData: the database already has users');
    return write(tx, built);
  });
}

/** Seeds only when the users table is empty; true if it seeded. `progress` hears each step as it starts. */
export async function seedIfEmpty(db: Db, options: SeedOptions & { progress?: SeedProgress } = {}): Promise<boolean> {
  const [pre] = await db.select({ n: count() }).from(users);
  if ((pre?.n ?? 0) > 0) return false;
  told(options.progress, 'content');
  const content = await loadSeedContent();
  told(options.progress, 'community');
  const built = build(content, options.now ?? SEED_NOW);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [row] = await tx.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) return false;
    await write(tx, built, options.progress);
    return true;
  });
}

/**
 * The demo's joint book lists into a database seeded before they existed (its sidebar's
 * 读书会书单 already leads to /booklist/2024): only when the database has the demo's sidebar item
 * and no book list at all, under the seed's lock; true if it added them. The rows are the
 * ones a fresh seed makes, but for their dates.
 */
export async function seedDemoBooklists(db: Db, options: SeedOptions = {}): Promise<boolean> {
  const now = (options.now ?? SEED_NOW).getTime();
  const built = buildBooklists((await loadSeedContent()).booklists, new Date(now), new Date(now));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (!(await lacksDemoBooklists(tx))) return false;
    await writeBooklists(tx, built);
    await moveSequencesPast(tx, ['booklists', 'booklist_books']);
    return true;
  });
}
