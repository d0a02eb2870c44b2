/**
 * The database schema: one definition for PGlite and PostgreSQL. Counters that lists show
 * (likes, comments, followers) are kept on the rows and changed in the same transaction as
 * the write, so reading a feed page never counts.
 */
import { sql } from 'drizzle-orm';
import { MODERATION_ACTIONS, MODERATION_OUTCOMES } from '#shared/constants.ts';
import type { Attach } from '#shared/schemas.ts';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  json,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A text search document (services/search.ts): CJK text as overlapping bigrams, Latin and digit
 * words whole, made by the SQL functions of migration 0010_search; read and written in SQL only.
 */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The search document of a name (and an intro), kept on the row as PostgreSQL writes it: made
 * again for every row a search reads, it cost more than the rest of the search (search_document
 * is SQL, far dearer per row than reading a stored one). PostgreSQL never makes a stored column
 * again by itself: a change to search_document() comes with a migration that drops and adds it.
 */
const searchDocumentOf = (head: string, body: string | null) =>
  tsvector('search')
    .notNull()
    .generatedAlwaysAs(sql.raw(`search_document("${head}", ${body ? `"${body}"` : "''"})`));

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
  id: serial('id').primaryKey(),
  ucode: text('ucode').notNull().unique(),
  /** Unique whatever its case (users.ts): nobody passes for another by a capital letter. */
  nick: text('nick').notNull(),
  avatar: text('avatar').notNull(),
  /** Full number; only the masked form leaves the server. */
  cellphone: text('cellphone').unique(),
  intro: text('intro').notNull().default(''),
  isStudent: boolean('is_student').notNull().default(false),
  isUniversity: boolean('is_university').notNull().default(false),
  usertype: smallint('usertype').notNull().default(1),
  followerCount: integer('follower_count').notNull().default(0),
  followingCount: integer('following_count').notNull().default(0),
  postCount: integer('post_count').notNull().default(0),
  likeCount: integer('like_count').notNull().default(0),
  /** Unread notices, moved in the same transaction as the notices: the badge is one read by id. */
  noticeUnread: integer('notice_unread').notNull().default(0),
  /** Which notices the user receives (收到评论 covers comments and replies, 收到赞, 新增粉丝). */
  noticeComment: boolean('notice_comment').notNull().default(true),
  noticeLike: boolean('notice_like').notNull().default(true),
  noticeFollow: boolean('notice_follow').notNull().default(true),
  /**
   * Until when a moderator suspended the user (services/moderation.ts): every write is refused
   * until then (services/once.ts); 'infinity' for good, null or past when free.
   */
  suspendedUntil: timestamp('suspended_until', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
  search: searchDocumentOf('nick', null),
  },
  (t) => [
    uniqueIndex('users_nick_lower_unique').on(sql`lower(${t.nick})`),
    index('users_search_idx').using('gin', t.search),
    index('users_search_fold_idx').on(sql`search_fold(${t.nick})`),
    // A name search ranks the matches among the most followed first (services/search.ts).
    index('users_popular_idx').on(t.followerCount.desc(), t.id),
  ],
);

export const loginCodes = pgTable(
  'login_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cellphone: text('cellphone').notNull(),
    codeHash: text('code_hash').notNull(),
    ip: text('ip').notNull(),
    tries: smallint('tries').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('login_codes_phone_idx').on(t.cellphone, t.createdAt), index('login_codes_ip_idx').on(t.ip, t.createdAt)],
);

export const tickets = pgTable(
  'tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 of the 256-bit ticket; the ticket itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    deviceId: text('device_id').notNull(),
    deviceKind: text('device_kind', { enum: ['pc', 'mobile'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    /** 'mutex' answers HTTP 452; 'logout' and 'deleted' are plain logged-out. */
    endedReason: text('ended_reason', { enum: ['mutex', 'logout', 'deleted'] }),
    /**
     * How the ticket was handed out, the only way it is taken back: a browser's as its cookie, an
     * app's as the Ticket header with its Device-Id. Null: issued before this was kept, taken either way.
     */
    issuedVia: text('issued_via', { enum: ['cookie', 'headers'] }),
    createdAt: createdAt(),
  },
  (t) => [index('tickets_user_kind_idx').on(t.userId, t.deviceKind)],
);

export const channelCategories = pgTable('channel_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const channels = pgTable(
  'channels',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => channelCategories.id),
    name: text('name').notNull(),
    intro: text('intro').notNull().default(''),
    icon: text('icon').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    followerCount: integer('follower_count').notNull().default(0),
    postCount: integer('post_count').notNull().default(0),
    search: searchDocumentOf('name', 'intro'),
  },
  (t) => [
    index('channels_category_idx').on(t.categoryId, t.sort),
    index('channels_search_idx').using('gin', t.search),
    index('channels_search_fold_idx').on(sql`search_fold(${t.name})`),
  ],
);

export const channelFollows = pgTable(
  'channel_follows',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId] }), index('channel_follows_channel_idx').on(t.channelId)],
);

export const userFollows = pgTable(
  'user_follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: integer('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.followerId, t.followeeId] }), index('user_follows_followee_idx').on(t.followeeId)],
);

export const posts = pgTable(
  'posts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    isGood: boolean('is_good').notNull().default(false),
    likeCount: integer('like_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    /**
     * Hidden by moderation (services/moderation.ts): out of every list, count and search for
     * everyone but its author, who reads it with the reason. hidden_by is the moderator, null
     * while it is hidden automatically, pending review (AUTO_HIDE_COMPLAINTS distinct complaints).
     */
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: integer('hidden_by'),
    /** A moderator restored it: later complaints queue it without hiding it again. */
    clearedAt: timestamp('cleared_at', { withTimezone: true, mode: 'date' }),
    // What the post is made of, copied onto its row when it is written (no call edits a post
    // afterwards): a page of posts reads its channels, topics, pictures and code preview
    // from here, and looks up a poll (whose counts change) only for the posts that have one
    // (services/posts.ts). post_channels and post_topics stay the truth that channel and topic
    // pages walk, post_images and code_snippets what code/detail and the images serve;
    // tests/support's COUNTER_CHECKS hold the copies to them.
    channelIds: integer('channel_ids').array().notNull().default(sql`'{}'`),
    topicIds: integer('topic_ids').array().notNull().default(sql`'{}'`),
    /**
     * The card's attachments as the API answers them (pictures in order, then the code snippet
     * with its first CODE_PREVIEW_LINES lines). json, not jsonb: stored and sent back as written,
     * with nothing to convert on the way out.
     */
    attach: json('attach').$type<Attach[]>().notNull().default(sql`'[]'`),
    // Whether the post has a poll: written by post/add still, for a process of the release before
    // during a rolling restart, which reads it; this release reads voteCard.
    hasVote: boolean('has_vote').notNull().default(false),
    /**
     * The post's poll as its card shows it to a visitor (the API's JSON text, every is_voted false),
     * null when it has none: a page reads it with the post, not from three tables. poll_card()
     * makes it, kept right by triggers on votes and vote_options (migration 0016_poll_cards);
     * services/posts.ts marks a viewer's choices on it.
     */
    voteCard: text('vote_card'),
    /**
     * What search/ matches the post by: its content, its topics' names and its code snippet's
     * title, made by post_search_document() as the post is written (services/post-add.ts).
     */
    search: tsvector('search').notNull().default(sql`''::tsvector`),
  },
  (t) => [
    index('posts_search_idx')
      .using('gin', t.search)
      .where(sql`${t.deletedAt} is null`),
    // Keyset pages walk id downwards; partial indexes keep deleted rows out of them.
    index('posts_live_idx')
      .on(t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    index('posts_good_idx')
      .on(t.id.desc())
      .where(sql`${t.deletedAt} is null and ${t.isGood}`),
    index('posts_user_idx').on(t.userId, t.id.desc()),
  ],
);

export const postChannels = pgTable(
  'post_channels',
  {
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.postId, t.channelId] }), index('post_channels_channel_idx').on(t.channelId, t.postId.desc())],
);

export const topics = pgTable(
  'topics',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    intro: text('intro').notNull().default(''),
    cover: text('cover').notNull().default(''),
    postCount: integer('post_count').notNull().default(0),
    createdAt: createdAt(),
    search: searchDocumentOf('name', null),
  },
  (t) => [
    index('topics_search_idx').using('gin', t.search),
    index('topics_search_fold_idx').on(sql`search_fold(${t.name})`),
    // A name search ranks the matches among the most used first (services/search.ts).
    index('topics_popular_idx').on(t.postCount.desc(), t.id.desc()),
  ],
);

export const postTopics = pgTable(
  'post_topics',
  {
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    topicId: integer('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.postId, t.topicId] }), index('post_topics_topic_idx').on(t.topicId, t.postId.desc())],
);

/** Images are stored in the database so that any API process can serve any image. */
export const images = pgTable('images', {
  id: text('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  mime: text('mime').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});

/**
 * Narrower copies of an image for /img/{id}?w= (a width of IMAGE_VARIANT_WIDTHS), made on the
 * first request and kept here, so every API process serves them without resizing again.
 */
export const imageVariants = pgTable(
  'image_variants',
  {
    imageId: text('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    mime: text('mime').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.imageId, t.width] })],
);

export const postImages = pgTable(
  'post_images',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sort: smallint('sort').notNull().default(0),
  },
  (t) => [index('post_images_post_idx').on(t.postId, t.sort)],
);

export const codeSnippets = pgTable(
  'code_snippets',
  {
    uuid: text('uuid').primaryKey(),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    title: text('title').notNull().default(''),
    code: text('code').notNull(),
    sort: smallint('sort').notNull().default(0),
  },
  (t) => [index('code_snippets_post_idx').on(t.postId, t.sort)],
);

export const votes = pgTable('votes', {
  id: serial('id').primaryKey(),
  postId: bigint('post_id', { mode: 'number' })
    .notNull()
    .unique()
    .references(() => posts.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  multiple: boolean('multiple').notNull().default(false),
  endTime: timestamp('end_time', { withTimezone: true, mode: 'date' }),
  total: integer('total').notNull().default(0),
});

export const voteOptions = pgTable(
  'vote_options',
  {
    id: serial('id').primaryKey(),
    voteId: integer('vote_id')
      .notNull()
      .references(() => votes.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    sort: smallint('sort').notNull().default(0),
    count: integer('count').notNull().default(0),
  },
  // A poll's options in order (sort, then id), read straight off the index: no sort step in every
  // page that shows a poll (tests/api/explain.test.ts).
  (t) => [index('vote_options_vote_sort_idx').on(t.voteId, t.sort, t.id)],
);

export const voteRecords = pgTable(
  'vote_records',
  {
    voteId: integer('vote_id')
      .notNull()
      .references(() => votes.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    optionId: integer('option_id')
      .notNull()
      .references(() => voteOptions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.voteId, t.userId, t.optionId] }),
    // Whether the viewer chose an option (every poll a page shows), and the cascade from a deleted option.
    index('vote_records_option_user_idx').on(t.optionId, t.userId),
    // A viewer's choices, read with their other marks (services/viewer-marks.ts).
    index('vote_records_user_idx').on(t.userId, t.voteId, t.optionId),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The top-level comment a reply belongs to; null for top-level comments. */
    rootId: bigint('root_id', { mode: 'number' }),
    /** The user a reply answers. */
    replyUserId: integer('reply_user_id').references(() => users.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    likeCount: integer('like_count').notNull().default(0),
    replyCount: integer('reply_count').notNull().default(0),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    /**
     * Hidden by moderation (services/moderation.ts): out of every list, count and search for
     * everyone but its author, who reads it with the reason. hidden_by is the moderator, null
     * while it is hidden automatically, pending review (AUTO_HIDE_COMPLAINTS distinct complaints).
     */
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: integer('hidden_by'),
    /** A moderator restored it: later complaints queue it without hiding it again. */
    clearedAt: timestamp('cleared_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('comments_post_idx').on(t.postId, t.rootId, t.id),
    index('comments_root_idx').on(t.rootId, t.id),
    // A post's top-level comments in id order: a page reads its few rows, however many the post has.
    index('comments_post_roots_idx')
      .on(t.postId, t.id)
      .where(sql`${t.rootId} is null`),
  ],
);

export const likes = pgTable(
  'likes',
  {
    /** Order of liking: likers are paged newest first by this id (the key is still user + target). */
    id: bigserial('id', { mode: 'number' }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetType: text('target_type', { enum: ['post', 'comment'] }).notNull(),
    targetId: bigint('target_id', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.targetType, t.targetId, t.userId] }),
    // A viewer's likes in a range of posts, read by a logged-in page (services/posts.ts); the user's likes go with them.
    index('likes_user_idx').on(t.userId, t.targetType, t.targetId),
    index('likes_target_order_idx').on(t.targetType, t.targetId, t.id.desc()),
  ],
);

/**
 * How many times each user's likes of posts, follows of users and poll choices have changed: the
 * version of what a page marks for them as a viewer, moved by triggers on likes, user_follows and
 * vote_records in the change's own transaction. A process that keeps a viewer's marks in memory
 * (services/viewer-marks.ts) reads a page only while the version it read them at is still this
 * one. No foreign key: deleting a user deletes their likes, whose triggers still write here.
 */
export const viewerMarks = pgTable('viewer_marks', {
  userId: integer('user_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

export const complaints = pgTable(
  'complaints',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetType: text('target_type', { enum: ['post', 'comment', 'user'] }).notNull(),
    targetId: bigint('target_id', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
    /** When a moderator's action closed it (services/moderation.ts), and what that action did; null while open. */
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    outcome: text('outcome', { enum: MODERATION_OUTCOMES }),
  },
  (t) => [
    // One complaint per user and target (-1011 on a second).
    uniqueIndex('complaints_user_target_idx').on(t.userId, t.targetType, t.targetId),
    // The open complaints of a target: the review queue, and the count that hides it automatically.
    index('complaints_open_idx')
      .on(t.targetType, t.targetId)
      .where(sql`${t.closedAt} is null`),
  ],
);

/** Who may moderate: set only by the operator's `npm run moderator` (src/server/tools/moderator.ts), never through the API. */
export const moderators = pgTable('moderators', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Every moderation action, one row each, append-only: a trigger of migration 0011_moderation
 * refuses UPDATE, DELETE and TRUNCATE. moderator_id is null for the automatic hide;
 * target_user_id is whose post, comment or account it was (their history in the review queue).
 */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    moderatorId: integer('moderator_id').references(() => users.id),
    action: text('action', { enum: MODERATION_ACTIONS }).notNull(),
    targetType: text('target_type', { enum: ['post', 'comment', 'user'] }).notNull(),
    targetId: bigint('target_id', { mode: 'number' }).notNull(),
    targetUserId: integer('target_user_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason').notNull().default(''),
    /** A suspension's end ('infinity' for good). */
    until: timestamp('until', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('moderation_actions_target_user_idx').on(t.targetUserId, t.id.desc())],
);

export const notes = pgTable(
  'notes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('notes_user_idx').on(t.userId, t.id.desc())],
);

export const exploreItems = pgTable(
  'explore_items',
  {
    id: serial('id').primaryKey(),
    page: text('page').notNull(),
    blockName: text('block_name').notNull(),
    title: text('title').notNull(),
    redirectParam: text('redirect_param').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('explore_items_block_idx').on(t.page, t.blockName, t.sort)],
);

/**
 * Joint book lists (/booklist/{code}, made with the reading app): found by their code, each with
 * its cover and its books in order. Covers are pictures of the images table (/img/{id}), with
 * their size so the page keeps their place.
 */
export const booklists = pgTable('booklists', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  title: text('title').notNull(),
  intro: text('intro').notNull().default(''),
  coverUrl: text('cover_url').notNull(),
  coverWidth: integer('cover_width').notNull(),
  coverHeight: integer('cover_height').notNull(),
  createdAt: createdAt(),
});

/**
 * A book of a list: why it is there (one line) and where it leads, a course or a column of the
 * learning site (link_id) or a page of the reading app (link_url).
 */
export const booklistBooks = pgTable(
  'booklist_books',
  {
    id: serial('id').primaryKey(),
    booklistId: integer('booklist_id')
      .notNull()
      .references(() => booklists.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull().default(0),
    title: text('title').notNull(),
    author: text('author').notNull(),
    coverUrl: text('cover_url').notNull(),
    coverWidth: integer('cover_width').notNull(),
    coverHeight: integer('cover_height').notNull(),
    reason: text('reason').notNull(),
    /** course | column (link_id) | reading (link_url). */
    linkType: text('link_type').notNull(),
    /** What the link says: the course's or column's name, or where the reading app opens. */
    linkTitle: text('link_title').notNull(),
    linkId: integer('link_id'),
    linkUrl: text('link_url'),
  },
  (t) => [
    index('booklist_books_list_idx').on(t.booklistId, t.sort),
    check(
      'booklist_books_link_check',
      sql`(${t.linkType} in ('course', 'column') and ${t.linkId} is not null) or (${t.linkType} = 'reading' and ${t.linkUrl} is not null)`,
    ),
  ],
);

export const configItems = pgTable('config_items', {
  key: text('key').primaryKey(),
  /** JSON text, parsed before it is sent (services/site-content.ts). */
  content: text('content').notNull(),
});

export const trackingEvents = pgTable('tracking_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  event: text('event').notNull(),
  uid: integer('uid'),
  properties: jsonb('properties').notNull(),
  createdAt: createdAt(),
});

/**
 * Writes a client may retry (services/once.ts): (user, endpoint, client_id) is unique, written in
 * the same transaction as the write's effect; a replay answers the stored result, a replay with
 * another body (request_hash differs) answers -1009. Kept at least 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    /** The endpoint's name (commentAdd, voteSubmit, ...). */
    kind: text('kind').notNull(),
    /** sha256 of the validated body without client_id. */
    requestHash: text('request_hash').notNull().default(''),
    /** The data of the original answer. */
    result: jsonb('result').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('idempotency_user_kind_client_idx').on(t.userId, t.kind, t.clientId),
    index('idempotency_created_idx').on(t.createdAt),
  ],
);

/**
 * What others did to a user's posts, comments and account (services/notices.ts). A comment or a
 * reply is one notice; likes of one target and new followers are one notice per China day
 * (`day`), its actors in notice_actors. `seq` is the latest activity's place (from its own
 * sequence): the list walks it downwards and a joining actor moves the group to the top.
 */
export const noticesSeq = pgSequence('notices_seq');

export const notices = pgTable(
  'notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['comment', 'reply', 'like', 'follow', 'moderation'] }).notNull(),
    /** The list's tab: comment (comments and replies), like or follow; system (moderation) is listed under all only. */
    tab: text('tab', { enum: ['comment', 'like', 'follow', 'system'] }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull().default(sql`nextval('notices_seq')`),
    /** 0 for a follow. */
    postId: bigint('post_id', { mode: 'number' }).notNull().default(0),
    /** The new comment or reply, or the liked comment; 0 if none. */
    commentId: bigint('comment_id', { mode: 'number' }).notNull().default(0),
    /** A reply's answered comment (the recipient's own); 0 otherwise. */
    targetCommentId: bigint('target_comment_id', { mode: 'number' }).notNull().default(0),
    /** China day number of a like or follow group; 0 for comments and replies. */
    day: integer('day').notNull().default(0),
    actorCount: integer('actor_count').notNull().default(1),
    unread: boolean('unread').notNull().default(true),
    /** A moderation notice's text (services/moderation.ts): it has no actor, no moderator is named. */
    message: text('message').notNull().default(''),
    /** The user a moderation notice is about (a suspension, a complaint about a user); 0 if none. */
    targetUserId: integer('target_user_id').notNull().default(0),
    /**
     * The previews the list shows, stored when the notice is made (services/notices.ts): what was
     * acted on (the post, or the comment liked or answered) and the new comment or reply, each
     * cut by notice_excerpt (migration 0015), kept right when a comment is hidden or deleted.
     */
    targetExcerpt: text('target_excerpt').notNull().default(''),
    contentExcerpt: text('content_excerpt').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notices_user_seq_idx').on(t.userId, t.seq.desc()),
    index('notices_user_tab_seq_idx').on(t.userId, t.tab, t.seq.desc()),
    // What mark-read touches: the unread ones only, however long the history.
    index('notices_unread_idx')
      .on(t.userId, t.seq)
      .where(sql`${t.unread}`),
    // The group a like or follow joins.
    uniqueIndex('notices_group_idx')
      .on(t.userId, t.type, t.postId, t.commentId, t.day)
      .where(sql`${t.type} in ('like', 'follow')`),
    // What a deleted post or comment takes with it.
    index('notices_post_idx')
      .on(t.postId)
      .where(sql`${t.postId} <> 0`),
    index('notices_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} <> 0`),
    // The replies whose answered comment a delete takes out of their preview.
    index('notices_target_comment_idx')
      .on(t.targetCommentId)
      .where(sql`${t.targetCommentId} <> 0`),
  ],
);

/** Who is in a notice, newest first by `seq` (one for a comment or reply). */
export const noticeActors = pgTable(
  'notice_actors',
  {
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    actedAt: timestamp('acted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.actorId] }), index('notice_actors_order_idx').on(t.noticeId, t.seq.desc())],
);

/** Fixed-window counters for rate limits, shared by every API process. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
  count: integer('count').notNull().default(0),
});

/**
 * A browser's Web Push subscription, made by a logged-in user on one device: notices are pushed to
 * it while that device's ticket is live, and it goes with the ticket at logout. `last_seq` is the
 * newest notice pushed to it, claimed before a push so that one process sends each.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId), index('push_subscriptions_ticket_idx').on(t.ticketId)],
);

/** The server's VAPID key pair, made at the first start unless the configuration gives one: every process signs with it. */
export const pushKeys = pgTable(
  'push_keys',
  {
    id: smallint('id').primaryKey(),
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('push_keys_single', sql`${t.id} = 1`)],
);
