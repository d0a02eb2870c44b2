/**
 * Demo data: a believable learning community of a paid learning platform (channels, users,
 * posts with topics, images, code snippets and votes, comments, likes, follows, notes, the
 * sidebar's explore items, the race_medals config and two joint book lists).
 *
 * This file builds the rows and inserts them; its chance comes from random.ts and its pictures
 * are drawn by pictures.ts. The content it draws from (names, texts, code samples, votes, links,
 * medals) is data in seed-data/*.json, read from disk by seed-content.ts when a database is
 * seeded. main.ts imports this module only when the database is empty, so an ordinary start
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
import { lacksDemoBooklists, type Db } from '../db/client.ts';
import { cardAttach } from '../db/post-attach.ts';
import {
  BOOK_COVER_SIZE,
  BOOKLIST_COVER_SIZE,
  IMAGE_SIZES,
  imageId,
  PALETTES,
  svgAvatar,
  svgBookCover,
  svgBooklistBanner,
  svgIcon,
  svgMedal,
  svgPicture,
} from './pictures.ts';
import { at, Rng } from './random.ts';
import { moveSequencesPast, told, write, writeBooklists, type SeedProgress } from './insert.ts';

import { loadSeedContent, type BooklistDef, type SeedContent, type SnippetDef, type VoteDef } from './seed-content.ts';
import {
  type booklistBooks,
  type booklists,
  type channelCategories,
  type channelFollows,
  type channels,
  type codeSnippets,
  type comments,
  type configItems,
  type exploreItems,
  type images,
  type likes,
  type notes,
  type postChannels,
  type postImages,
  type posts,
  type postTopics,
  type topics,
  type userFollows,
  users,
  type voteOptions,
  type voteRecords,
  type votes,
} from '../db/schema.ts';

export { SEED_STEPS, type SeedProgress, type SeedStep } from './insert.ts';

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
export const DEMO_MODERATOR_CELLPHONE = '13835303380';
export const POST_COUNT = 520;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BEIJING_OFFSET = 8 * HOUR;

// ---------------------------------------------------------------------------------------------
// Building the rows

type ImageRow = typeof images.$inferInsert;
type UserRow = typeof users.$inferInsert & { id: number };
type PostRow = typeof posts.$inferInsert & { id: number; userId: number; createdAt: Date };
type CommentRow = typeof comments.$inferInsert & { id: number; createdAt: Date };

export interface Built {
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
export interface BuiltBooklists {
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
