/**
 * zod schemas of every entity the API sends. Field names are the
 * wire names (snake_case). Times are epoch milliseconds.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE, MODERATION_ACTIONS, NOTICE_TYPES } from './constants.ts';

/** Ids are int4 columns: 1 .. 2147483647. */
export const MAX_ID = 2_147_483_647;
export const ID_MESSAGE = '应为正整数编号';
const digits = /^[0-9]{1,10}$/;

/**
 * An id: a positive integer, or a string of decimal digits (public clients of the real service
 * send `"post_id":"511"`), converted to a number, at most MAX_ID. Anything else fails with one
 * Chinese message, never zod's English.
 */
export const idSchema = z.union([z.number(), z.string()], { error: ID_MESSAGE }).transform((value, ctx) => {
  const id = typeof value === 'number' ? value : digits.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(id) || id < 1 || id > MAX_ID) {
    ctx.issues.push({ code: 'custom', message: ID_MESSAGE, input: value });
    return z.NEVER;
  }
  return id;
});

export const pageRequestSchema = z.object({
  /** The cursor: `next_index` of the previous page; absent or 0 for the first page. */
  index: z.number().int().nonnegative().optional(),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
export type PageRequest = z.infer<typeof pageRequestSchema>;

export const pageInfoSchema = z.object({ more: z.boolean(), next_index: z.number().int() });
export type PageInfo = z.infer<typeof pageInfoSchema>;

export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), page: pageInfoSchema });
}
export interface Paged<T> {
  list: T[];
  page: PageInfo;
}

export const userBriefSchema = z.object({
  uid: z.number().int(),
  ucode: z.string(),
  nick: z.string(),
  avatar: z.string(),
  is_follow: z.boolean(),
});
export type UserBrief = z.infer<typeof userBriefSchema>;

export const loginUserSchema = z.object({
  uid: z.number().int(),
  ucode: z.string(),
  nick: z.string(),
  avatar: z.string(),
  /** Masked, e.g. 138****0000. */
  cellphone: z.string(),
  ctime: z.number().int(),
  student: z.union([z.literal(0), z.literal(1)]),
  usertype: z.number().int(),
  /** A moderator (the operator's `npm run moderator`): the app offers them 内容审核. */
  is_moderator: z.boolean().optional(),
});
export type LoginUser = z.infer<typeof loginUserSchema>;

export const userInfoSchema = userBriefSchema.extend({
  intro: z.string(),
  is_self: z.boolean(),
  follower_count: z.number().int(),
  following_count: z.number().int(),
  post_count: z.number().int(),
  like_count: z.number().int(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const channelSchema = z.object({
  channel_id: z.number().int(),
  channel_name: z.string(),
});
export type Channel = z.infer<typeof channelSchema>;

export const channelDetailSchema = channelSchema.extend({
  intro: z.string(),
  icon: z.string(),
  category_id: z.number().int(),
  follower_count: z.number().int(),
  post_count: z.number().int(),
  is_follow: z.boolean(),
});
export type ChannelDetail = z.infer<typeof channelDetailSchema>;

export const channelCategorySchema = z.object({
  category_id: z.number().int(),
  category_name: z.string(),
  list: z.array(channelDetailSchema),
});
export type ChannelCategory = z.infer<typeof channelCategorySchema>;

export const topicSchema = z.object({
  topic_id: z.number().int(),
  topic_name: z.string(),
});
export type Topic = z.infer<typeof topicSchema>;

export const topicDetailSchema = topicSchema.extend({
  intro: z.string(),
  cover: z.string(),
  post_count: z.number().int(),
});
export type TopicDetail = z.infer<typeof topicDetailSchema>;

/** A picture with its size in pixels, so a page keeps its place before it loads. */
export const sizedImageSchema = z.object({
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type SizedImage = z.infer<typeof sizedImageSchema>;

/**
 * Where a book of a joint book list leads: a course (its intro) or a column (its intro) of the
 * learning site, by id, opened as the app opens every learning-site page (the native app's own
 * page inside the app); or a page of the reading app (an https URL), opened in a new window.
 * `title` is what the link says (the course's or the column's name).
 */
export const booklistLinkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('course'), id: z.number().int().positive(), title: z.string() }),
  z.object({ type: z.literal('column'), id: z.number().int().positive(), title: z.string() }),
  z.object({ type: z.literal('reading'), url: z.string(), title: z.string() }),
]);
export type BooklistLink = z.infer<typeof booklistLinkSchema>;

export const booklistBookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  author: z.string(),
  cover: sizedImageSchema,
  /** Why it is on the list, in one line. */
  reason: z.string(),
  link: booklistLinkSchema,
});
export type BooklistBook = z.infer<typeof booklistBookSchema>;

/** A joint book list (/booklist/{code}): curated with the reading app, found by its code; books in the list's order. */
export const booklistSchema = z.object({
  code: z.string(),
  title: z.string(),
  intro: z.string(),
  cover: sizedImageSchema,
  books: z.array(booklistBookSchema),
});
export type Booklist = z.infer<typeof booklistSchema>;

export const imageAttachSchema = z.object({
  type: z.literal('image'),
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export const codeAttachSchema = z.object({
  type: z.literal('code'),
  uuid: z.string(),
  language: z.string(),
  title: z.string(),
  /** The first lines, for the card; the whole snippet comes from code/detail. */
  preview: z.string(),
});
export const attachSchema = z.discriminatedUnion('type', [imageAttachSchema, codeAttachSchema]);
export type Attach = z.infer<typeof attachSchema>;
export type ImageAttach = z.infer<typeof imageAttachSchema>;
export type CodeAttach = z.infer<typeof codeAttachSchema>;

/** The answer of upload/image (OTHER_PATHS.uploadImage): where the stored image lives and its size after EXIF orientation. */
export const uploadedImageSchema = z.object({
  /** /img/{id}; /img/{id}?w=320 answers a copy at most 320 px wide. */
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;

export const voteOptionSchema = z.object({
  option_id: z.number().int(),
  text: z.string(),
  count: z.number().int(),
  is_voted: z.boolean(),
});
export const voteSchema = z.object({
  vote_id: z.number().int(),
  title: z.string(),
  multiple: z.boolean(),
  /** Null: the vote never closes. */
  end_time: z.number().int().nullable(),
  total: z.number().int(),
  is_voted: z.boolean(),
  options: z.array(voteOptionSchema),
});
export type Vote = z.infer<typeof voteSchema>;

export const postSchema = z.object({
  id: z.number().int(),
  user: userBriefSchema,
  content: z.string(),
  channels: z.array(channelSchema),
  topics: z.array(topicSchema),
  attach: z.array(attachSchema),
  vote: voteSchema.nullable(),
  like_count: z.number().int(),
  comment_count: z.number().int(),
  is_like: z.boolean(),
  is_good: z.boolean(),
  create_time: z.number().int(),
  /**
   * Present (true) only on a post a moderator hid, which only its author (in their own centre
   * and its detail) and moderators read: the client shows 该内容已被隐藏 and hidden_reason.
   */
  hidden: z.boolean().optional(),
  hidden_reason: z.string().optional(),
});
export type Post = z.infer<typeof postSchema>;

export const commentBaseSchema = z.object({
  id: z.number().int(),
  post_id: z.number().int(),
  user: userBriefSchema,
  content: z.string(),
  like_count: z.number().int(),
  is_like: z.boolean(),
  create_time: z.number().int(),
  /** The user this comment answers, for replies. */
  reply_user: userBriefSchema.nullable(),
  /** A deleted comment that still has live replies keeps its place: content '' and is_deleted true (该评论已删除). */
  is_deleted: z.boolean(),
  /**
   * Present (true) only on a comment a moderator hid. Its author reads it whole with
   * hidden_reason (该内容已被隐藏); anyone else sees only a hidden top-level comment that has
   * replies, in its place as a deleted one (content '', is_deleted true) without the reason.
   */
  hidden: z.boolean().optional(),
  hidden_reason: z.string().optional(),
});
export const commentSchema = commentBaseSchema.extend({
  reply_count: z.number().int(),
  /** The first replies; the rest on demand. */
  replies: z.array(commentBaseSchema),
});
export type CommentBase = z.infer<typeof commentBaseSchema>;
export type Comment = z.infer<typeof commentSchema>;

export const codeSnippetSchema = z.object({
  uuid: z.string(),
  post_id: z.number().int(),
  language: z.string(),
  title: z.string(),
  code: z.string(),
});
export type CodeSnippet = z.infer<typeof codeSnippetSchema>;

export const exploreItemSchema = z.object({
  title: z.string(),
  id: z.number().int(),
  /** An in-app path (/topic/list) or an external http(s) URL, which opens in a new window. */
  redirect_param: z.string(),
});
export type ExploreItem = z.infer<typeof exploreItemSchema>;

export const configItemSchema = z.object({
  key: z.string(),
  /** Stored as JSON text; parsed before it is sent. */
  content: z.unknown(),
});
export type ConfigItem = z.infer<typeof configItemSchema>;

export const noteSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  create_time: z.number().int(),
  update_time: z.number().int(),
});
export type Note = z.infer<typeof noteSchema>;

export { NOTICE_TABS, NOTICE_TYPES, type NoticeTab, type NoticeType } from './constants.ts';

export const noticeSchema = z.object({
  /** Stable id of the notice (a group keeps its id as actors join it). */
  id: z.number().int(),
  type: z.enum(NOTICE_TYPES),
  /** Newest first, at most NOTICE_ACTORS_SHOWN of them (none for a moderation notice). */
  actors: z.array(userBriefSchema),
  /** Everyone in the group (1 for a comment or a reply, 0 for a moderation notice). */
  actor_count: z.number().int(),
  /** The post the notice is about (0 for a follow). */
  post_id: z.number().int(),
  /** The comment it is about or made: the new comment or reply, or the liked comment (0 if none). */
  comment_id: z.number().int(),
  /** A short excerpt of what was liked or commented on (the post's or one's own comment's text). */
  target_excerpt: z.string(),
  /** A short excerpt of the new comment or reply ('' for likes and follows); a moderation notice's whole text. */
  content_excerpt: z.string(),
  /** The app path it opens: /message/detail/{post}?comment={id}, or /usercenter/{follower} (a moderation notice about a user: theirs). */
  route: z.string(),
  unread: z.boolean(),
  /** When its latest actor acted (ms). */
  update_time: z.number().int(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const noticeSettingsSchema = z.object({
  /** 收到评论: comments on one's posts and replies to one's comments. */
  comment: z.boolean(),
  /** 收到赞 */
  like: z.boolean(),
  /** 新增粉丝 */
  follow: z.boolean(),
});
export type NoticeSettings = z.infer<typeof noticeSettingsSchema>;

export const noticeUnreadSchema = z.object({
  count: z.number().int().nonnegative(),
});

/**
 * A search hit's excerpt: the text around what matched, in pieces, each marked whether it is a
 * match. The client draws the marks; nothing in it is ever read as HTML.
 */
export const searchExcerptSchema = z.array(z.object({ text: z.string(), hit: z.boolean() }));
export type SearchExcerpt = z.infer<typeof searchExcerptSchema>;

/** One result of search/: what a list of that kind shows, and for a post the excerpt that matched. */
export const searchHitSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('post'), post: postSchema, excerpt: searchExcerptSchema }),
  z.object({ type: z.literal('topic'), topic: topicDetailSchema, excerpt: searchExcerptSchema }),
  z.object({ type: z.literal('channel'), channel: channelDetailSchema, excerpt: searchExcerptSchema }),
  z.object({ type: z.literal('user'), user: userBriefSchema, excerpt: searchExcerptSchema }),
]);
export type SearchHit = z.infer<typeof searchHitSchema>;

// ---- moderation ----

/** One row of the moderation audit log: who did what to whose post, comment or account. */
export const moderationLogEntrySchema = z.object({
  id: z.number().int(),
  action: z.enum(MODERATION_ACTIONS),
  /** Null for the automatic hide (auto_hide). */
  moderator: userBriefSchema.nullable(),
  target_type: z.enum(['post', 'comment', 'user']),
  target_id: z.number().int(),
  /** Whose post, comment or account it was. */
  target_user: userBriefSchema,
  reason: z.string(),
  /** A suspension's end (ms); null otherwise and for a suspension for good (forever). */
  until: z.number().int().nullable(),
  forever: z.boolean(),
  create_time: z.number().int(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;

/** A reported comment as a moderator reviews it (its author is the queue item's author). */
export const moderatedCommentSchema = z.object({
  id: z.number().int(),
  post_id: z.number().int(),
  content: z.string(),
  create_time: z.number().int(),
  hidden: z.boolean(),
  hidden_reason: z.string().nullable(),
});

/** The author of reported content (or the reported user) and what a moderator weighs: recent posts, earlier actions. */
export const moderatedAuthorSchema = z.object({
  user: userBriefSchema,
  is_moderator: z.boolean(),
  suspended: z.boolean(),
  /** The suspension's end (ms) while suspended; null when free or suspended for good. */
  suspended_until: z.number().int().nullable(),
  /** Their latest posts (hidden ones too), newest first, each its first 200 characters. */
  recent_posts: z.array(z.object({ id: z.number().int(), content: z.string(), create_time: z.number().int(), hidden: z.boolean() })),
  /** Earlier moderation actions on their posts, comments and account, newest first. */
  actions: z.array(moderationLogEntrySchema),
});

/** One reported target of the review queue: its open complaints together, and the target as users see it. */
export const moderationQueueItemSchema = z.object({
  target_type: z.enum(['post', 'comment', 'user']),
  target_id: z.number().int(),
  /** Open complaints (one per user). */
  complaint_count: z.number().int(),
  /** The oldest and the newest open complaint (ms). */
  first_time: z.number().int(),
  last_time: z.number().int(),
  /** Reasons given, most given first (text as complain/reasons lists it; 未选择 for none). */
  reasons: z.array(z.object({ reason: z.string(), text: z.string(), count: z.number().int() })),
  /** What the complainants wrote, newest first (at most 50; no complainant is named). */
  complaints: z.array(z.object({ reason: z.string(), content: z.string(), create_time: z.number().int() })),
  hidden: z.boolean(),
  /** Hidden automatically, pending review (restore or hide decides). */
  auto_hidden: z.boolean(),
  hidden_reason: z.string().nullable(),
  /** The post or comment was deleted by its author since: only dismiss is left to do. */
  gone: z.boolean(),
  /** A reported post in the feed's card shape (null for other targets, or when gone). */
  post: postSchema.nullable(),
  /** A reported comment (null for other targets, or when gone). */
  comment: moderatedCommentSchema.nullable(),
  author: moderatedAuthorSchema,
});
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;

/** The answer of hide, restore and dismiss. */
export const moderationResultSchema = z.object({
  action_id: z.number().int(),
  target_type: z.enum(['post', 'comment', 'user']),
  target_id: z.number().int(),
  /** Open complaints about the target the action closed. */
  closed_complaints: z.number().int(),
  /** Whether the post or comment is hidden now (false for a user). */
  hidden: z.boolean(),
});
export type ModerationResult = z.infer<typeof moderationResultSchema>;

/** The answer of suspend and lift. */
export const suspensionResultSchema = z.object({
  action_id: z.number().int(),
  user_id: z.number().int(),
  closed_complaints: z.number().int(),
  suspended: z.boolean(),
  /** The suspension's end (ms); null when lifted or for good. */
  suspended_until: z.number().int().nullable(),
});
export type SuspensionResult = z.infer<typeof suspensionResultSchema>;
