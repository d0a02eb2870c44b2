/**
 * The API contract: the zod schemas of every call's input and output (its entities are
 * schemas.ts). Routes (method, path, auth) come from endpoints.ts. The server registers each entry
 * (validation, serialisation, OpenAPI); the client types its calls from these schemas.
 */
import { z } from 'zod';
import { routes, type Route } from './endpoints.ts';
import {
  BOOKLIST_CODE_PATTERN,
  COMPLAIN_REASONS,
  type ComplainReason,
  COMMENT_MAX_CHARS,
  CODE_MAX_CHARS,
  MODERATION_REASON_MAX_CHARS,
  NOTE_LIST_DEFAULT_SIZE,
  NICK_MAX_LENGTH,
  NICK_MIN_LENGTH,
  NOTE_MAX_CHARS,
  POST_MAX_CHANNELS,
  POST_MAX_IMAGES,
  POST_MAX_LENGTH,
  POST_MAX_TOPICS,
  SEARCH_QUERY_MAX_CHARS,
  SEARCH_TYPES,
  TOPIC_NAME_MAX_CHARS,
  TRACKING_MAX_EVENTS,
  TRACKING_MAX_PROPERTIES,
  VOTE_MAX_OPTIONS,
  VOTE_MIN_OPTIONS,
} from './constants.ts';
import { hasMoreGraphemesThan, isLongerThan } from './text-length.ts';
import { splitTopicTags } from './topic-tags.ts';
import {
  booklistSchema,
  channelCategorySchema,
  channelDetailSchema,
  channelSchema,
  codeSnippetSchema,
  commentBaseSchema,
  commentSchema,
  configItemSchema,
  exploreItemSchema,
  idSchema,
  listSchema,
  loginUserSchema,
  moderationLogEntrySchema,
  moderationQueueItemSchema,
  moderationResultSchema,
  NOTICE_TABS,
  noticeSchema,
  noticeSettingsSchema,
  noticeUnreadSchema,
  noteSchema,
  pageRequestSchema,
  postSchema,
  searchHitSchema,
  suspensionResultSchema,
  topicDetailSchema,
  userBriefSchema,
  userInfoSchema,
  voteSchema,
} from './schemas.ts';

/** A call of the contract: its route (endpoints.ts) plus the schemas of its input and output. */
export interface Endpoint<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType, R extends Route = Route>
  extends Route {
  method: R['method'];
  path: R['path'];
  auth: R['auth'];
  kind: R['kind'];
  /** The JSON body of a POST, or the query string of a GET. */
  input: Input;
  /** The `data` of a successful envelope. */
  output: Output;
  tag: string;
  summary: string;
}

export type EndpointInput<E extends Endpoint> = z.input<E['input']>;
export type EndpointOutput<E extends Endpoint> = z.output<E['output']>;

function endpoint<R extends Route, I extends z.ZodType, O extends z.ZodType>(
  route: R,
  schemas: { input: I; output: O; tag: string; summary: string },
): Endpoint<I, O, R> {
  return { ...route, ...schemas };
}

const empty = z.object({});
const visitUser = z.union(
  [z.object({ visit_user_id: idSchema }), z.object({ visit_ucode: z.string().min(1).max(64) })],
  { error: '需要 visit_user_id（数字）或 visit_ucode' },
);
/**
 * `client_id`: generated once per write on the client and reused on every retry (exactly-once
 * writes: a replay answers the original result). Required on comment/add, vote/submit,
 * complain/add and post/add; optional (but honoured) on post/delete, comment/delete, the follow
 * calls and likes, whose repeats are harmless without it, and on note/update (a retried save
 * without it would make the note twice).
 */
const clientId = z.string().min(8, 'client_id 太短').max(64, 'client_id 太长');

/** A browser's PushSubscription as its toJSON() gives it: where to send, and the keys to encrypt for (base64url). */
const pushSubscriptionSchema = z.object({
  endpoint: z.string().max(2048, '推送地址太长').url('推送地址无效'),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{87}$/, '推送密钥无效'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{22}$/, '推送密钥无效'),
  }),
});
const likeTarget = z.union([z.object({ post_id: idSchema }), z.object({ comment_id: idSchema })], {
  error: '需要 post_id 或 comment_id',
});
const channelPostsTab = z.enum(['all', 'follow', 'good']);
const complainReasonKeys = COMPLAIN_REASONS.map((item) => item.reason) as [ComplainReason, ...ComplainReason[]];
/** '' (no reason chosen: then the text must say it) or one of COMPLAIN_REASONS. */
const complainReason = z.union([z.literal(''), z.enum(complainReasonKeys)], { error: '投诉理由无效' });

/** An image of post/add: a url upload/image answered to this user (/img/{id}); its size comes from the upload. */
export const imageInputSchema = z.object({
  type: z.literal('image'),
  url: z.string().min(1, '图片地址不能为空').max(500),
  /** Ignored: the server takes the size it recorded at upload. */
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});
export const codeInputSchema = z.object({
  type: z.literal('code'),
  language: z.string().trim().min(1, '请选择代码语言').max(32, '代码语言无效'),
  title: z.string().trim().max(100, '代码标题不能超过 100 字').default(''),
  code: z
    .string()
    .max(CODE_MAX_CHARS, `代码不能超过 ${CODE_MAX_CHARS} 字`)
    .refine((code) => code.trim() !== '', '代码不能为空'),
});
export const attachInputSchema = z.discriminatedUnion('type', [imageInputSchema, codeInputSchema], {
  error: 'attach 的每一项应为图片 {type:"image", url} 或代码 {type:"code", language, title, code}',
});
export type AttachInput = z.input<typeof attachInputSchema>;

export const voteInputSchema = z.object({
  title: z.string().trim().min(1, '投票标题不能为空').max(100, '投票标题不能超过 100 字'),
  multiple: z.boolean().default(false),
  options: z
    .array(z.string().trim().min(1, '投票选项不能为空').max(50, '投票选项不能超过 50 字'))
    .min(VOTE_MIN_OPTIONS, `投票至少需要 ${VOTE_MIN_OPTIONS} 个选项`)
    .max(VOTE_MAX_OPTIONS, `投票最多 ${VOTE_MAX_OPTIONS} 个选项`)
    .refine((options) => new Set(options).size === options.length, '投票选项不能重复'),
  /** Ms (10 digits: seconds, as toMilliseconds of timestamp.ts reads it); must be in the future; absent: never closes. */
  end_time: z.number().int().positive().optional(),
});

/** A moderator's reason: required for a hide and a suspension, optional otherwise. */
const moderationReason = z
  .string({ error: 'reason 应为文字' })
  .trim()
  .max(MODERATION_REASON_MAX_CHARS, `理由不能超过 ${MODERATION_REASON_MAX_CHARS} 字`);
const requiredModerationReason = moderationReason.min(1, '请填写理由');
const moderatedContent = z.enum(['post', 'comment'], { error: 'target_type 应为 post 或 comment' });
const moderatedTarget = z.enum(['post', 'comment', 'user'], { error: 'target_type 应为 post、comment 或 user' });
/** How long a suspension lasts: 1, 7 or 30 days, or 'forever'. */
const suspensionDays = z.union([z.literal(1), z.literal(7), z.literal(30), z.literal('forever')], {
  error: 'days 应为 1、7、30 或 "forever"',
});

// ---- text length (textLength of text-length.ts: an emoji 4, other non-ASCII 2, anything else 1) ----

export const POST_TOO_LONG = `内容不能超过 ${POST_MAX_LENGTH} 字符（中文算 2 个，表情算 4 个）`;

/**
 * The text of a post: not blank, at most POST_MAX_LENGTH as textLength counts. Code units
 * first, cheaply; then the count, which stops as soon as the limit is passed.
 */
const postContent = z
  .string({ error: '内容应为文字' })
  .trim()
  .min(1, '内容不能为空')
  // Refused before it is counted: only a text of long clusters (a letter under many accents)
  // could have more code units than this and count within the limit.
  .max(POST_MAX_LENGTH * 4, { error: POST_TOO_LONG, abort: true })
  .refine((content) => !isLongerThan(content, POST_MAX_LENGTH), POST_TOO_LONG);

// ---- topic tags ----

export { splitTopicTags };

const topicTags = z
  .string({ error: 'topic_tags 应为文字，如 #话题#' })
  .max(500, '话题太长')
  .transform((tags, ctx) => {
    const names = splitTopicTags(tags);
    if (names.length > POST_MAX_TOPICS) {
      ctx.issues.push({ code: 'custom', message: `最多 ${POST_MAX_TOPICS} 个话题`, input: tags });
      return z.NEVER;
    }
    const long = names.find((name) => hasMoreGraphemesThan(name, TOPIC_NAME_MAX_CHARS));
    if (long !== undefined) {
      ctx.issues.push({ code: 'custom', message: `话题不能超过 ${TOPIC_NAME_MAX_CHARS} 个字：${long}`, input: tags });
      return z.NEVER;
    }
    return names;
  });

export const postAddInputSchema = z.object({
  content: postContent,
  channel_id: z
    .array(idSchema)
    .min(1, '请选择频道')
    .max(POST_MAX_CHANNELS, `最多选择 ${POST_MAX_CHANNELS} 个频道`)
    .refine((ids) => new Set(ids).size === ids.length, '频道不能重复')
    .prefault([]),
  attach: z
    .array(attachInputSchema)
    .max(POST_MAX_IMAGES * 2, `最多 ${POST_MAX_IMAGES} 张图片`)
    .superRefine((attach, ctx) => {
      const images = attach.flatMap((item) => (item.type === 'image' ? [item.url] : []));
      if (images.length > POST_MAX_IMAGES) ctx.addIssue({ code: 'custom', message: `最多 ${POST_MAX_IMAGES} 张图片` });
      if (new Set(images).size !== images.length) ctx.addIssue({ code: 'custom', message: '同一张图片只能添加一次' });
      if (attach.length - images.length > 1) ctx.addIssue({ code: 'custom', message: '最多添加一段代码' });
    })
    .prefault([]),
  /** Topic names separated by #, commas or spaces, as the draft store keeps them (`#话题一# #话题二#`); new names make new topics. */
  topic_tags: topicTags.optional(),
  vote: voteInputSchema.optional(),
  client_id: clientId,
});
export type PostAddInput = z.input<typeof postAddInputSchema>;

/** The login's answer: the ticket only to a caller that sends Device-Id (mini-program, native app); browsers get the cookie alone. */
// ---- nicknames ----

export const NICK_TOO_LONG = `昵称最多 ${NICK_MAX_LENGTH} 个字符（中文算 2 个，表情算 4 个）`;
export const NICK_TOO_SHORT = `昵称至少 ${NICK_MIN_LENGTH} 个字符（中文算 2 个）`;

/**
 * What a nickname may not hold: control characters, line and paragraph separators, and
 * invisible format characters (direction overrides, zero-width spaces), except the joiner and
 * the tag characters that emoji are made with.
 */
const NICK_FORBIDDEN = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200D\u{E0020}-\u{E007F}])\p{Cf}/u;

/** A nickname: trimmed, in NFC, no control characters, 2 to 20 units as textLength counts (code units first, cheaply). */
export const nickSchema = z
  .string({ error: '昵称应为文字' })
  .max(NICK_MAX_LENGTH * 4, { error: NICK_TOO_LONG, abort: true })
  .transform((nick) => nick.trim().normalize('NFC'))
  .refine((nick) => !NICK_FORBIDDEN.test(nick), '昵称不能包含控制字符或不可见字符')
  .refine((nick) => !isLongerThan(nick, NICK_MAX_LENGTH), NICK_TOO_LONG)
  .refine((nick) => isLongerThan(nick, NICK_MIN_LENGTH - 1), NICK_TOO_SHORT);

const loginUserWithTicket = loginUserSchema.extend({ ticket: z.string().optional(), device_id: z.string() });

export const api = {
  // ---- account service ----
  loginCode: endpoint(routes.loginCode, {
    input: z.object({ cellphone: z.string().regex(/^1\d{10}$/, '请输入正确的手机号') }),
    output: z.object({ expires_in: z.number().int() }),
    tag: 'account',
    summary: 'Send a one-time login code to a phone number',
  }),
  login: endpoint(routes.login, {
    input: z.object({
      cellphone: z.string().regex(/^1\d{10}$/, '请输入正确的手机号'),
      code: z.string().max(16),
      device_id: z.string().min(8).max(64).optional(),
      device_kind: z.enum(['pc', 'mobile']).default('mobile'),
    }),
    output: loginUserWithTicket,
    tag: 'account',
    summary: 'Log in with a phone number and one-time code; sets the ticket cookie (the ticket is in the answer only for a caller sending Device-Id)',
  }),
  logout: endpoint(routes.logout, {
    input: empty,
    output: empty,
    tag: 'account',
    summary: 'End the current ticket',
  }),
  auth: endpoint(routes.auth, {
    input: z.object({ t: z.string().optional() }),
    output: loginUserSchema,
    tag: 'account',
    summary: 'The login user, or -2000',
  }),
  checkUser: endpoint(routes.checkUser, {
    input: z.object({}),
    output: z.object({ result: z.boolean() }),
    tag: 'university',
    summary: 'Whether the login user is a university user',
  }),

  // ---- main service: channels ----
  channelDetail: endpoint(routes.channelDetail, {
    input: z.object({ channel_id: idSchema }),
    output: channelDetailSchema,
    tag: 'channel',
    summary: 'One channel',
  }),
  recommendChannelList: endpoint(routes.recommendChannelList, {
    input: z.object({ size: z.number().int().min(1).max(50).optional() }),
    output: z.object({ list: z.array(channelDetailSchema) }),
    tag: 'channel',
    summary: 'Channels worth following (most followed first, not yet followed)',
  }),
  categoryChannel: endpoint(routes.categoryChannel, {
    input: empty,
    output: z.object({ list: z.array(channelCategorySchema) }),
    tag: 'channel',
    summary: 'Every channel, grouped by category',
  }),
  channelPosts: endpoint(routes.channelPosts, {
    input: pageRequestSchema.extend({ channel_id: idSchema.optional(), tab: channelPostsTab.default('all') }),
    output: listSchema(postSchema),
    tag: 'post',
    summary: 'Posts, newest first: all, of one channel, of followed channels (tab follow), or featured (tab good)',
  }),
  followChannel: endpoint(routes.followChannel, {
    input: z.object({ channel_id: idSchema, client_id: clientId.optional() }),
    output: z.object({ is_follow: z.boolean() }),
    tag: 'channel',
    summary: 'Follow a channel',
  }),
  unfollowChannel: endpoint(routes.unfollowChannel, {
    input: z.object({ channel_id: idSchema, client_id: clientId.optional() }),
    output: z.object({ is_follow: z.boolean() }),
    tag: 'channel',
    summary: 'Stop following a channel',
  }),
  userChannelList: endpoint(routes.userChannelList, {
    input: z.intersection(z.object({ source: z.literal(1).default(1) }), visitUser),
    output: z.object({ list: z.array(channelSchema) }),
    tag: 'channel',
    summary: "A user's followed channels",
  }),

  // ---- main service: users ----
  followUser: endpoint(routes.followUser, {
    input: z.object({ user_id: idSchema, client_id: clientId.optional() }),
    output: z.object({ is_follow: z.boolean() }),
    tag: 'user',
    summary: 'Follow a user',
  }),
  unfollowUser: endpoint(routes.unfollowUser, {
    input: z.object({ user_id: idSchema, client_id: clientId.optional() }),
    output: z.object({ is_follow: z.boolean() }),
    tag: 'user',
    summary: 'Stop following a user',
  }),
  userInfo: endpoint(routes.userInfo, {
    input: z.intersection(z.object({ data_mode: z.union([z.literal(0), z.literal(1)]).default(1) }), visitUser),
    output: userInfoSchema,
    tag: 'user',
    summary: 'A user profile by numeric id or ucode',
  }),
  userPosts: endpoint(routes.userPosts, {
    input: z.intersection(pageRequestSchema, visitUser),
    output: listSchema(postSchema),
    tag: 'user',
    summary: "A user's posts, newest first",
  }),
  nickUpdate: endpoint(routes.nickUpdate, {
    input: z.object({ nick: nickSchema, client_id: clientId.optional() }),
    output: loginUserSchema,
    tag: 'user',
    summary: "Set the login user's nickname (unique whatever its case; -1004 when taken)",
  }),
  noteList: endpoint(routes.noteList, {
    input: z.object({
      size: z.number().int().min(1).max(50).default(NOTE_LIST_DEFAULT_SIZE),
      prev: z.number().int().nonnegative().default(0),
      visit_ucode: z.string().min(1).max(64),
    }),
    output: listSchema(noteSchema),
    tag: 'user',
    summary: "A user's notes; prev is the cursor",
  }),

  // ---- main service: posts ----
  postDetail: endpoint(routes.postDetail, {
    input: z.object({ post_id: idSchema }),
    output: postSchema,
    tag: 'post',
    summary: 'One post',
  }),
  postAdd: endpoint(routes.postAdd, {
    input: postAddInputSchema,
    output: postSchema,
    tag: 'post',
    summary: 'Write a post (exactly once per client_id)',
  }),
  postDelete: endpoint(routes.postDelete, {
    input: z.object({ post_id: idSchema, client_id: clientId.optional() }),
    output: z.object({ post_id: z.number().int() }),
    tag: 'post',
    summary: 'Delete your own post',
  }),
  likeAdd: endpoint(routes.likeAdd, {
    input: z.intersection(likeTarget, z.object({ type: z.number().int().default(1), client_id: clientId.optional() })),
    output: z.object({ is_success: z.boolean(), like_count: z.number().int() }),
    tag: 'like',
    summary: 'Like a post or a comment',
  }),
  likeCancel: endpoint(routes.likeCancel, {
    input: z.intersection(likeTarget, z.object({ type: z.number().int().default(1), client_id: clientId.optional() })),
    output: z.object({ is_success: z.boolean(), like_count: z.number().int() }),
    tag: 'like',
    summary: 'Take back a like',
  }),
  likeList: endpoint(routes.likeList, {
    input: pageRequestSchema.extend({ post_id: idSchema }),
    output: listSchema(userBriefSchema),
    tag: 'like',
    summary: 'Users who liked a post, latest first',
  }),
  commentList: endpoint(routes.commentList, {
    input: pageRequestSchema.extend({ post_id: idSchema }),
    output: listSchema(commentSchema),
    tag: 'comment',
    summary: 'Comments of a post with their first replies, oldest first',
  }),
  commentReplies: endpoint(routes.commentReplies, {
    input: pageRequestSchema.extend({ comment_id: idSchema }),
    output: listSchema(commentBaseSchema),
    tag: 'comment',
    summary: 'Replies to a top-level comment, oldest first (the first page starts with the replies comment/list carries)',
  }),
  commentAdd: endpoint(routes.commentAdd, {
    input: z.object({
      post_id: idSchema,
      content: z
        .string()
        .trim()
        .min(1, '评论不能为空')
        .max(COMMENT_MAX_CHARS, `评论不能超过 ${COMMENT_MAX_CHARS} 字`),
      reply_id: idSchema.optional(),
      client_id: clientId,
    }),
    output: commentSchema,
    tag: 'comment',
    summary: 'Comment on a post or reply to a comment (exactly once per client_id)',
  }),
  commentDelete: endpoint(routes.commentDelete, {
    input: z.object({ comment_id: idSchema, client_id: clientId.optional() }),
    output: z.object({ comment_id: z.number().int() }),
    tag: 'comment',
    summary: 'Delete your own comment',
  }),
  voteSubmit: endpoint(routes.voteSubmit, {
    input: z.object({
      post_id: idSchema,
      option_ids: z.array(idSchema).min(1, '请选择投票选项'),
      client_id: clientId,
    }),
    output: voteSchema,
    tag: 'vote',
    summary: 'Vote on a post',
  }),
  search: endpoint(routes.search, {
    input: pageRequestSchema.extend({
      q: z
        .string({ error: 'q 应为要搜索的文字' })
        .trim()
        .min(1, '请输入要搜索的内容')
        .max(SEARCH_QUERY_MAX_CHARS, `搜索内容不能超过 ${SEARCH_QUERY_MAX_CHARS} 字`),
      type: z.enum(SEARCH_TYPES, { error: 'type 应为 post、topic、channel 或 user' }).default('post'),
    }),
    output: listSchema(searchHitSchema),
    tag: 'search',
    summary: 'Search posts (content, topics, code titles), topics, channels or users, in Chinese and English; best match first, then newest',
  }),
  topicList: endpoint(routes.topicList, {
    input: pageRequestSchema,
    output: listSchema(topicDetailSchema),
    tag: 'topic',
    summary: 'Topics, most posts first',
  }),
  topicDetail: endpoint(routes.topicDetail, {
    input: z.object({ topic_id: idSchema }),
    output: topicDetailSchema,
    tag: 'topic',
    summary: 'One topic',
  }),
  topicPosts: endpoint(routes.topicPosts, {
    input: pageRequestSchema.extend({ topic_id: idSchema }),
    output: listSchema(postSchema),
    tag: 'topic',
    summary: 'Posts of a topic, newest first',
  }),
  codeDetail: endpoint(routes.codeDetail, {
    input: z.object({ post_id: idSchema, uuid: z.string().min(1).max(64) }),
    output: codeSnippetSchema,
    tag: 'code',
    summary: 'One code snippet of a post',
  }),
  booklistDetail: endpoint(routes.booklistDetail, {
    input: z.object({
      code: z
        .string({ error: 'code 应为书单编号（文字）' })
        .trim()
        .regex(BOOKLIST_CODE_PATTERN, '书单编号应为 1 到 64 个字母、数字、_ 或 -'),
    }),
    output: booklistSchema,
    tag: 'booklist',
    summary: 'A joint book list by its code (title, intro, cover, books with their links); -1005 for an unknown code',
  }),
  complainAdd: endpoint(routes.complainAdd, {
    // Content rules are business errors (-2901/-2902), checked by the service, not by shape.
    input: z.object({
      target_type: z.enum(['post', 'comment', 'user']),
      target_id: idSchema,
      reason: complainReason,
      // Any length: over FEEDBACK_MAX_CHARS (500) user-perceived characters is -2902, answered by the service.
      content: z.string(),
      client_id: clientId,
    }),
    output: z.object({ complain_id: z.number().int() }),
    tag: 'complain',
    summary: 'Report a post, comment or user',
  }),
  complainReasons: endpoint(routes.complainReasons, {
    input: empty,
    output: z.object({ list: z.array(z.object({ reason: z.string(), text: z.string() })) }),
    tag: 'complain',
    summary: 'The reasons a complaint may give, in display order',
  }),

  // ---- site content and notes: the upstream's time service (tag time; server routes/site-content.ts, users.ts) ----
  exploreList: endpoint(routes.exploreList, {
    input: z.object({ page: z.string().min(1).max(32), block_name: z.string().min(1).max(32) }),
    output: z.object({ info: z.object({ list: z.array(exploreItemSchema) }) }),
    tag: 'time',
    summary: 'Explore items of a page block (the sidebar asks page horde, block sidebar)',
  }),
  configList: endpoint(routes.configList, {
    input: z.object({ keys: z.array(z.string().min(1).max(64)).min(1).max(20) }),
    output: z.object({ list: z.array(configItemSchema) }),
    tag: 'time',
    summary: 'Config items by key; content parsed from JSON',
  }),
  noteUpdate: endpoint(routes.noteUpdate, {
    // The wire body is base64 of this JSON, marked by a header (BASE64_BODY_HEADER of endpoints.ts).
    input: z.object({ id: idSchema.optional(), content: z.string().trim().min(1).max(NOTE_MAX_CHARS), client_id: clientId.optional() }),
    output: noteSchema,
    tag: 'time',
    summary: 'Create or update a note (base64 JSON body; exactly once per client_id)',
  }),

  // ---- WeChat share signature: the upstream's misc service (tag misc; server routes/wechat-share.ts) ----
  wxShareSign: endpoint(routes.wxShareSign, {
    input: z.object({
      url: z.string().url('url 应为完整的网址').max(2000),
      mpid: z.string().max(64).optional(),
    }),
    output: z.object({ appId: z.string(), timestamp: z.number().int(), nonceStr: z.string(), signature: z.string() }),
    tag: 'misc',
    summary: 'WeChat JS-SDK config signature (sha1) for a page URL',
  }),

  // ---- tracking collector ----
  collect: endpoint(routes.collect, {
    input: z.object({
      app_id: z.string().max(64),
      /** The collector's log store (test and production differ); stored with each event. */
      log_store: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'log_store 只能包含字母、数字、_ . -').optional(),
      events: z
        .array(
          z.object({
            event: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, '事件名只能包含小写字母、数字和下划线'),
            properties: z
              .record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
              .refine((properties) => Object.keys(properties).length <= TRACKING_MAX_PROPERTIES, `每个事件最多 ${TRACKING_MAX_PROPERTIES} 个属性`)
              .default({}),
            time: z.number().int().positive().optional(),
          }),
        )
        .min(1)
        .max(TRACKING_MAX_EVENTS, `一次最多上报 ${TRACKING_MAX_EVENTS} 个事件`),
    }),
    output: z.object({ accepted: z.number().int() }),
    tag: 'tracking',
    summary: 'A batch of behaviour events (click_resource_position, personal_home_page_view, ...)',
  }),

  // ---- notices: what others did to one's posts, comments and account ----
  noticeList: endpoint(routes.noticeList, {
    input: pageRequestSchema.extend({ type: z.enum(NOTICE_TABS).default('all') }),
    output: listSchema(noticeSchema),
    tag: 'notice',
    summary: "The login user's notices, latest activity first (keyset-paged like the feeds)",
  }),
  noticeUnreadCount: endpoint(routes.noticeUnreadCount, {
    input: empty,
    output: noticeUnreadSchema,
    tag: 'notice',
    summary: "How many of the login user's notices are unread (one indexed read)",
  }),
  noticeRead: endpoint(routes.noticeRead, {
    input: z.object({ up_to_id: idSchema.optional(), client_id: clientId.optional() }),
    output: noticeUnreadSchema,
    tag: 'notice',
    summary: 'Mark read the notices up to and including the given one (as the list orders them), or all; answers the unread count left',
  }),
  noticeSettings: endpoint(routes.noticeSettings, {
    input: noticeSettingsSchema.partial().extend({ client_id: clientId.optional() }),
    output: noticeSettingsSchema,
    tag: 'notice',
    summary: 'Read (empty input) or change which kinds of notice the login user receives; honoured from the next write on',
  }),
  pushKey: endpoint(routes.pushKey, {
    input: empty,
    output: z.object({ public_key: z.string() }),
    tag: 'notice',
    summary: "The server's VAPID public key (base64url), the applicationServerKey of a browser's push subscription",
  }),
  pushSubscribe: endpoint(routes.pushSubscribe, {
    input: pushSubscriptionSchema.extend({ client_id: clientId.optional() }),
    output: z.object({ subscribed: z.boolean() }),
    tag: 'notice',
    summary:
      "Pushes the login user's new notices to this browser's subscription while this device's ticket lives (logout ends it); a subscription another user had moves to this one",
  }),
  pushUnsubscribe: endpoint(routes.pushUnsubscribe, {
    input: z.object({ endpoint: z.string().max(2048), client_id: clientId.optional() }),
    output: z.object({ subscribed: z.boolean() }),
    tag: 'notice',
    summary: "Stops pushing to this subscription of the login user's (nothing when it is not theirs)",
  }),

  // ---- moderation: moderators only (-1006 for anyone else); each action writes one row of the audit log ----
  moderationQueue: endpoint(routes.moderationQueue, {
    input: pageRequestSchema,
    output: listSchema(moderationQueueItemSchema),
    tag: 'moderation',
    summary:
      'Open complaints grouped by target: automatically hidden first, then the most reported, then the oldest; index is the offset (next_index)',
  }),
  moderationHide: endpoint(routes.moderationHide, {
    input: z.object({ target_type: moderatedContent, target_id: idSchema, reason: requiredModerationReason, client_id: clientId }),
    output: moderationResultSchema,
    tag: 'moderation',
    summary: "Hide a post or comment from everyone but its author (who sees the reason); closes its open complaints (exactly once per client_id)",
  }),
  moderationRestore: endpoint(routes.moderationRestore, {
    input: z.object({ target_type: moderatedContent, target_id: idSchema, reason: moderationReason.default(''), client_id: clientId }),
    output: moderationResultSchema,
    tag: 'moderation',
    summary: 'Show a post or comment again for good: later complaints queue it without hiding it automatically; closes its open complaints',
  }),
  moderationDismiss: endpoint(routes.moderationDismiss, {
    input: z.object({ target_type: moderatedTarget, target_id: idSchema, reason: moderationReason.default(''), client_id: clientId }),
    output: moderationResultSchema,
    tag: 'moderation',
    summary: "Close a target's open complaints with no action (an automatic hide, pending review, is undone; a moderator's stays)",
  }),
  moderationSuspend: endpoint(routes.moderationSuspend, {
    input: z.object({ user_id: idSchema, days: suspensionDays, reason: requiredModerationReason, client_id: clientId }),
    output: suspensionResultSchema,
    tag: 'moderation',
    summary: 'Suspend a user (禁言) for 1, 7 or 30 days or for good: every write answers -1014 until then; closes the open complaints about them',
  }),
  moderationLift: endpoint(routes.moderationLift, {
    input: z.object({ user_id: idSchema, reason: moderationReason.default(''), client_id: clientId }),
    output: suspensionResultSchema,
    tag: 'moderation',
    summary: "Lift a user's suspension; closes the open complaints about them",
  }),
  moderationLog: endpoint(routes.moderationLog, {
    input: pageRequestSchema.extend({ user_id: idSchema.optional() }),
    output: listSchema(moderationLogEntrySchema),
    tag: 'moderation',
    summary: "The audit log, newest first (keyset-paged by id); user_id: only the actions on that user's posts, comments and account",
  }),
} as const;

export type Api = typeof api;
