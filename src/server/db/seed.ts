/**
 * Demo data: a believable learning community of a paid learning platform (channels, users,
 * posts with topics, images, code snippets and votes, comments, likes, follows, notes, the
 * sidebar's explore items and the race_medals config).
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
import type { Db } from './client.ts';
import { cardAttach } from './post-attach.ts';
import { loadSeedContent, type SeedContent, type SnippetDef, type VoteDef } from './seed-content.ts';
import {
  channelCategories,
  channelFollows,
  channels,
  codeSnippets,
  comments,
  configItems,
  exploreItems,
  images,
  likes,
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
} from './schema.ts';

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
}

function mmdd(ms: number): string {
  const d = new Date(ms + BEIJING_OFFSET);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** A time between from and to (to > from), skewed towards from when skew > 1. */
function between(rng: Rng, from: number, to: number, skew = 1): number {
  return Math.round(from + (to - from) * Math.pow(rng.next(), skew));
}

function build(demo: SeedContent, nowDate: Date): Built {
  const rng = new Rng(SEED_PRNG_SEED);
  const now = nowDate.getTime();
  /** A time strictly between t and limit (default now), skewed towards t when skew > 1. */
  const after = (t: number, skew = 1, limit = now): number => {
    const gap = Math.min(MINUTE, Math.floor((limit - t) / 3));
    return between(rng, t + gap, limit - gap, skew);
  };
  const out: Built = {
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
  };

  // ---- categories, channels, topics (with icon and cover images) ----
  const channelCount = demo.categories.reduce((n, c) => n + c.channels.length, 0);
  const channelPostCount = new Array<number>(channelCount + 1).fill(0);
  const channelFollowerCount = new Array<number>(channelCount + 1).fill(0);
  const setupTime = new Date(now - 400 * DAY);
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
  const topicPostCount = new Array<number>(demo.topics.length + 1).fill(0);
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

  // ---- users ----
  const userCount = demo.users.length;
  const phones = new Set<string>([DEMO_USER_CELLPHONE]);
  const stats = Array.from({ length: userCount + 1 }, () => ({ followers: 0, following: 0, posts: 0, likes: 0 }));
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
  const userIds = out.users.map((u) => u.id);
  const userCreated = (id: number) => at(out.users, id - 1).createdAt?.getTime() ?? 0;
  const popularity = demo.users.map((u) => u.activity);

  // ---- posts ----
  const times: number[] = [];
  const hourWeights = [0, 0, 0, 0, 0, 0, 0, 1, 3, 4, 3, 3, 4, 5, 3, 3, 3, 3, 3, 4, 6, 7, 7, 5];
  const hours = hourWeights.map((_, h) => h);
  const todayStart = Math.floor((now + BEIJING_OFFSET) / DAY) * DAY - BEIJING_OFFSET;
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
  const kind = new Map<number, 'vote' | 'code' | 'images'>();
  indices.slice(0, voteCount).forEach((i) => kind.set(i, 'vote'));
  indices.slice(voteCount, voteCount + codeCount).forEach((i) => kind.set(i, 'code'));
  indices.slice(voteCount + codeCount, voteCount + codeCount + imageCount).forEach((i) => kind.set(i, 'images'));
  const good = new Set(rng.sample(indices, Math.round(POST_COUNT * 0.08)));

  let imageSerial = 0;
  let postImageId = 0;
  let voteId = 0;
  let optionId = 0;
  const checkinDay = new Map<number, number>();
  const allChannelIds = out.channels.map((c) => c.id ?? 0);

  times.forEach((time, i) => {
    const id = i + 1;
    const k = kind.get(i);
    let authorId = rng.weighted(userIds, popularity);
    // The author joined before writing.
    if (userCreated(authorId) > time) authorId = 1;
    const author = at(demo.users, authorId - 1);
    let primary = rng.pick(author.interests);
    let content: string;
    let snippet: SnippetDef | undefined;
    let voteDef: VoteDef | undefined;
    if (k === 'code') {
      const mine = demo.snippets.filter((s) => author.interests.includes(s.channel));
      snippet = mine.length > 0 && rng.chance(0.7) ? rng.pick(mine) : rng.pick(demo.snippets);
      primary = snippet.channel;
      content = snippet.text;
    } else if (k === 'vote') {
      voteDef = rng.pick(demo.votes);
      primary = voteDef.channel;
      content = voteDef.intro;
    } else if (rng.chance(0.18)) {
      const n = (checkinDay.get(authorId) ?? rng.int(3, 40)) + rng.int(1, 3);
      checkinDay.set(authorId, n);
      content = `学习打卡 Day ${n}：今天学完了《${rng.pick(demo.columns[primary] ?? ['数据结构与算法之美'])}》的第 ${rng.int(1, 45)} 讲。${rng.pick(demo.takeaways)}`;
    } else {
      const pool = demo.bodies[primary] ?? [];
      content = rng.pick(pool);
      if (rng.chance(0.2)) {
        const second = rng.pick(pool);
        if (second !== content) content = `${content}\n\n${second}`;
      }
      const closer = rng.pick(demo.closers);
      if (closer && !content.endsWith('？')) content = `${content}${closer}`;
    }
    const channelSet = [primary];
    if (rng.chance(0.3)) {
      const sameCategory = out.channels.filter(
        (c) => c.categoryId === at(out.channels, primary - 1).categoryId && c.id !== primary,
      );
      const extra = sameCategory.length > 0 && rng.chance(0.7) ? rng.pick(sameCategory).id : rng.pick(allChannelIds);
      if (extra !== undefined && extra !== primary) channelSet.push(extra);
    }
    const createdAt = new Date(time);
    // What the post is made of is copied onto its row (schema.ts): filled in below, as each part is drawn.
    const post: PostRow = { id, userId: authorId, content, isGood: good.has(i), likeCount: 0, commentCount: 0, createdAt };
    const channelIds: number[] = [];
    const topicIds: number[] = [];
    out.posts.push(post);
    at(stats, authorId).posts++;
    for (const c of channelSet) {
      out.postChannels.push({ postId: id, channelId: c });
      channelIds.push(c);
      channelPostCount[c] = at(channelPostCount, c) + 1;
    }

    // Topics: about 45% of posts, a few with two.
    const candidates = topicsByChannel.get(primary) ?? [];
    if (candidates.length > 0 && rng.chance(0.45)) {
      for (const t of rng.sample(candidates, rng.chance(0.15) ? 2 : 1)) {
        out.postTopics.push({ postId: id, topicId: t });
        topicIds.push(t);
        topicPostCount[t] = at(topicPostCount, t) + 1;
      }
    }
    post.channelIds = channelIds.sort((a, b) => a - b);
    post.topicIds = topicIds.sort((a, b) => a - b);
    post.hasVote = Boolean(voteDef);

    const pictures: { url: string; width: number; height: number }[] = [];
    if (k === 'images') {
      const n = rng.weighted([1, 2, 3, 4], [4, 3, 2, 2]);
      const labels = demo.imageLabels[primary] ?? ['学习笔记'];
      for (let s = 0; s < n; s++) {
        const [w, h] = rng.pick(IMAGE_SIZES);
        const imgId = imageId(`post:${id}:${s}:${++imageSerial}`);
        out.images.push({
          id: imgId,
          userId: authorId,
          mime: 'image/svg+xml',
          width: w,
          height: h,
          bytes: Buffer.from(svgPicture(rng, w, h, rng.pick(labels), `${author.nick} · ${mmdd(time)}`), 'utf8'),
          createdAt,
        });
        const picture = { url: `/img/${imgId}`, width: w, height: h };
        pictures.push(picture);
        out.postImages.push({ id: ++postImageId, postId: id, ...picture, sort: s });
      }
    }
    const code = snippet ? { uuid: rng.uuid(), language: snippet.language, title: snippet.title, code: snippet.code } : null;
    if (code) out.codeSnippets.push({ ...code, postId: id, sort: 0 });
    post.attach = cardAttach(pictures, code);
    if (voteDef) {
      const vId = ++voteId;
      const optionIds: number[] = [];
      const counts = new Map<number, number>();
      voteDef.options.forEach((text, s) => {
        optionIds.push(++optionId);
        counts.set(optionId, 0);
        out.voteOptions.push({ id: optionId, voteId: vId, text, sort: s, count: 0 });
      });
      const optionWeights = optionIds.map(() => 1 + rng.int(0, 6));
      const endTime = rng.chance(0.4) ? null : new Date(time + rng.int(3, 14) * DAY);
      const voteLimit = endTime ? Math.min(now, endTime.getTime()) : now;
      const voters = rng.sample(
        userIds.filter((u) => userCreated(u) < time),
        rng.int(5, 28),
      );
      for (const voter of voters) {
        const chosen = voteDef.multiple
          ? rng.sample(optionIds, rng.int(1, Math.min(3, optionIds.length)))
          : [rng.weighted(optionIds, optionWeights)];
        const at0 = new Date(after(time, 2.5, voteLimit));
        for (const o of chosen) {
          out.voteRecords.push({ voteId: vId, userId: voter, optionId: o, createdAt: at0 });
          counts.set(o, (counts.get(o) ?? 0) + 1);
        }
      }
      for (const opt of out.voteOptions) if (opt.voteId === vId) opt.count = counts.get(opt.id ?? 0) ?? 0;
      out.votes.push({ id: vId, postId: id, title: voteDef.title, multiple: voteDef.multiple, endTime, total: voters.length });
    }
  });

  // ---- comments (time ordered ids) ----
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
      const userId = rng.pick(userIds);
      const root: DraftComment = {
        postId: post.id,
        userId,
        root: null,
        replyUserId: null,
        content: texts[r % texts.length]!,
        time: after(postTime, 2.2, limit),
        id: 0,
      };
      drafts.push(root);
      if (rng.chance(0.4)) {
        const replies = rng.int(1, 3);
        let last = root;
        for (let p = 0; p < replies; p++) {
          const replier = p === 0 && rng.chance(0.6) ? post.userId : rng.pick(userIds);
          const answered = rng.chance(0.7) ? root.userId : last.userId;
          const reply: DraftComment = {
            postId: post.id,
            userId: replier,
            root,
            replyUserId: answered === replier ? root.userId : answered,
            content: rng.pick(demo.replies),
            time: after(last.time, 2, Math.min(now, last.time + 2 * DAY)),
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
  const postById = (id: number) => at(out.posts, id - 1);
  const commentById = (id: number) => at(out.comments, id - 1);
  for (const d of sortedDrafts) {
    out.comments.push({
      id: d.id,
      postId: d.postId,
      userId: d.userId,
      rootId: d.root ? d.root.id : null,
      replyUserId: d.replyUserId,
      content: d.content,
      likeCount: 0,
      replyCount: 0,
      createdAt: new Date(d.time),
    });
    const post = postById(d.postId);
    post.commentCount = (post.commentCount ?? 0) + 1;
  }
  for (const c of out.comments) {
    if (c.rootId) {
      const root = commentById(c.rootId);
      root.replyCount = (root.replyCount ?? 0) + 1;
    }
  }

  // ---- likes ----
  for (const post of out.posts) {
    const postTime = post.createdAt.getTime();
    let n = Math.floor(Math.pow(rng.next(), 1.6) * 12);
    if (post.isGood) n += rng.int(8, 22);
    if (kind.get(post.id - 1) === 'images') n += rng.int(0, 5);
    const likers = rng.sample(
      userIds.filter((u) => u !== post.userId),
      n,
    );
    for (const u of likers) {
      out.likes.push({
        userId: u,
        targetType: 'post',
        targetId: post.id,
        createdAt: new Date(after(postTime, 3)),
      });
    }
    post.likeCount = likers.length;
    at(stats, post.userId).likes += likers.length;
  }
  for (const c of out.comments) {
    const n = Math.floor(Math.pow(rng.next(), 2.5) * 7);
    if (n === 0) continue;
    const cTime = c.createdAt.getTime();
    const likers = rng.sample(
      userIds.filter((u) => u !== c.userId),
      n,
    );
    for (const u of likers) {
      out.likes.push({
        userId: u,
        targetType: 'comment',
        targetId: c.id,
        createdAt: new Date(after(cTime, 3)),
      });
    }
    c.likeCount = likers.length;
    at(stats, c.userId).likes += likers.length;
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

  // ---- follows ----
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
        createdAt: new Date(between(rng, userCreated(u.id), now - HOUR)),
      });
      channelFollowerCount[c] = at(channelFollowerCount, c) + 1;
    }
  }
  const followPairs = new Set<string>();
  const follow = (a: number, b: number) => {
    if (a === b || followPairs.has(`${a}:${b}`)) return;
    followPairs.add(`${a}:${b}`);
    out.userFollows.push({
      followerId: a,
      followeeId: b,
      createdAt: new Date(between(rng, Math.max(userCreated(a), userCreated(b)), now - HOUR)),
    });
    at(stats, a).following++;
    at(stats, b).followers++;
  };
  for (const u of userIds) {
    const n = u === 1 ? 9 : rng.int(2, 10);
    for (let f = 0; f < n; f++) follow(u, rng.weighted(userIds, popularity));
  }
  // The demo user has an audience.
  for (const u of rng.sample(userIds, 14)) follow(u, 1);

  // ---- counters on users, channels, topics ----
  for (const u of out.users) {
    const s = at(stats, u.id);
    u.followerCount = s.followers;
    u.followingCount = s.following;
    u.postCount = s.posts;
    u.likeCount = s.likes;
  }
  for (const c of out.channels) {
    const id = c.id ?? 0;
    c.postCount = at(channelPostCount, id);
    c.followerCount = at(channelFollowerCount, id);
  }
  for (const t of out.topics) t.postCount = at(topicPostCount, t.id ?? 0);

  // ---- notes ----
  let noteId = 0;
  const noteUsers = [1, ...rng.sample(userIds.slice(1), 14)];
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

  // ---- explore items and config ----
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
] as const;

async function insertAll<T extends PgTable>(db: Db, table: T, rows: PgInsertValue<T>[], chunk = 500): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await db.insert(table).values(rows.slice(i, i + chunk));
  }
}

async function write(db: Db, b: Built): Promise<SeedSummary> {
  await insertAll(db, users, b.users);
  await insertAll(db, images, b.images, 100);
  await insertAll(db, channelCategories, b.categories);
  await insertAll(db, channels, b.channels);
  await insertAll(db, topics, b.topics);
  await insertAll(db, posts, b.posts);
  await insertAll(db, postChannels, b.postChannels, 1000);
  await insertAll(db, postTopics, b.postTopics, 1000);
  await insertAll(db, postImages, b.postImages);
  await insertAll(db, codeSnippets, b.codeSnippets);
  await insertAll(db, votes, b.votes);
  await insertAll(db, voteOptions, b.voteOptions);
  await insertAll(db, voteRecords, b.voteRecords, 1000);
  await insertAll(db, comments, b.comments);
  await insertAll(db, likes, b.likes, 1000);
  await insertAll(db, channelFollows, b.channelFollows, 1000);
  await insertAll(db, userFollows, b.userFollows, 1000);
  await insertAll(db, notes, b.notes);
  await insertAll(db, exploreItems, b.exploreItems);
  await insertAll(db, configItems, b.configItems);
  for (const table of SERIAL_TABLES) {
    // Explicit ids were inserted: move each sequence past them.
    await db.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`,
      ),
    );
  }
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
    images: b.images.length,
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
  };
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

/** Seeds only when the users table is empty; true if it seeded. */
export async function seedIfEmpty(db: Db, options: SeedOptions = {}): Promise<boolean> {
  const [pre] = await db.select({ n: count() }).from(users);
  if ((pre?.n ?? 0) > 0) return false;
  const built = build(await loadSeedContent(), options.now ?? SEED_NOW);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [row] = await tx.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) return false;
    await write(tx, built);
    return true;
  });
}
