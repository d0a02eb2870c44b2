/**
 * The API contract: every call of SPEC.md section 7 and DESIGN.md section 3a, once.
 * The server registers a route per entry (validation, serialisation, OpenAPI) and the
 * client's http layer takes the same entry, so paths and payloads cannot drift apart.
 */
import { z } from 'zod';
import {
  COMMENT_MAX_CHARS,
  CODE_MAX_CHARS,
  FEEDBACK_MAX_CHARS,
  NOTE_LIST_DEFAULT_SIZE,
  POST_MAX_CHANNELS,
  POST_MAX_CHARS,
  POST_MAX_IMAGES,
  VOTE_MAX_OPTIONS,
} from './constants.ts';
import {
  channelCategorySchema,
  channelDetailSchema,
  channelSchema,
  codeSnippetSchema,
  commentSchema,
  configItemSchema,
  exploreItemSchema,
  idSchema,
  listSchema,
  loginUserSchema,
  noteSchema,
  pageRequestSchema,
  postSchema,
  topicDetailSchema,
  userBriefSchema,
  userInfoSchema,
  voteSchema,
} from './schemas.ts';

/** Who may call: anyone, anyone (answers differ when logged in), or logged-in users only (-2000). */
export type Auth = 'none' | 'optional' | 'required';

export interface Endpoint<
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
  A extends Auth = Auth,
> {
  method: 'GET' | 'POST';
  path: string;
  /** The JSON body of a POST, or the query string of a GET. */
  input: Input;
  /** The `data` of a successful envelope. */
  output: Output;
  auth: A;
  tag: string;
  summary: string;
}

export type EndpointInput<E extends Endpoint> = z.input<E['input']>;
export type EndpointOutput<E extends Endpoint> = z.output<E['output']>;

function endpoint<I extends z.ZodType, O extends z.ZodType, A extends Auth>(def: Endpoint<I, O, A>): Endpoint<I, O, A> {
  return def;
}

const empty = z.object({});
const visitUser = z.union(
  [z.object({ visit_user_id: idSchema }), z.object({ visit_ucode: z.string().min(1).max(64) })],
  { error: '需要 visit_user_id（数字）或 visit_ucode' },
);
/** `client_id`: generated once per write on the client and reused on every retry (exactly-once writes). */
const clientId = z.string().min(8, 'client_id 太短').max(64, 'client_id 太长');
const likeTarget = z.union([z.object({ post_id: idSchema }), z.object({ comment_id: idSchema })], {
  error: '需要 post_id 或 comment_id',
});
const channelPostsTab = z.enum(['all', 'follow', 'good']);

export const imageInputSchema = z.object({
  type: z.literal('image'),
  url: z.string().min(1).max(500),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export const codeInputSchema = z.object({
  type: z.literal('code'),
  language: z.string().min(1).max(32),
  title: z.string().max(100).default(''),
  code: z.string().min(1, '代码不能为空').max(CODE_MAX_CHARS, `代码不能超过 ${CODE_MAX_CHARS} 字`),
});
export const attachInputSchema = z.discriminatedUnion('type', [imageInputSchema, codeInputSchema]);
export type AttachInput = z.input<typeof attachInputSchema>;

export const voteInputSchema = z.object({
  title: z.string().trim().min(1, '投票标题不能为空').max(100),
  multiple: z.boolean().default(false),
  options: z
    .array(z.string().trim().min(1, '选项不能为空').max(50))
    .min(2, '投票至少需要 2 个选项')
    .max(VOTE_MAX_OPTIONS, `投票最多 ${VOTE_MAX_OPTIONS} 个选项`),
  /** Ms; absent: never closes. */
  end_time: z.number().int().positive().optional(),
});

export const postAddInputSchema = z.object({
  content: z.string().trim().min(1, '内容不能为空').max(POST_MAX_CHARS, `内容不能超过 ${POST_MAX_CHARS} 字`),
  channel_id: z.array(idSchema).max(POST_MAX_CHANNELS, `最多选择 ${POST_MAX_CHANNELS} 个频道`).default([]),
  attach: z
    .array(attachInputSchema)
    .max(POST_MAX_IMAGES + 1, `最多 ${POST_MAX_IMAGES} 张图片`)
    .default([]),
  /** Topic names separated by # or commas, as the draft store keeps them. */
  topic_tags: z.string().max(200).optional(),
  vote: voteInputSchema.optional(),
  client_id: clientId,
});
export type PostAddInput = z.input<typeof postAddInputSchema>;

const loginUserWithTicket = loginUserSchema.extend({ ticket: z.string(), device_id: z.string() });

export const api = {
  // ---- account service ----
  loginCode: endpoint({
    method: 'POST',
    path: '/serv/v1/user/login/code',
    input: z.object({ cellphone: z.string().regex(/^1\d{10}$/, '请输入正确的手机号') }),
    output: z.object({ expires_in: z.number().int() }),
    auth: 'none',
    tag: 'account',
    summary: 'Send a one-time login code to a phone number',
  }),
  login: endpoint({
    method: 'POST',
    path: '/serv/v1/user/login',
    input: z.object({
      cellphone: z.string().regex(/^1\d{10}$/, '请输入正确的手机号'),
      code: z.string().max(16),
      device_id: z.string().min(8).max(64).optional(),
      device_kind: z.enum(['pc', 'mobile']).default('mobile'),
    }),
    output: loginUserWithTicket,
    auth: 'none',
    tag: 'account',
    summary: 'Log in with a phone number and one-time code; sets the ticket cookie',
  }),
  logout: endpoint({
    method: 'POST',
    path: '/serv/v1/user/logout',
    input: empty,
    output: empty,
    auth: 'required',
    tag: 'account',
    summary: 'End the current ticket',
  }),
  auth: endpoint({
    method: 'GET',
    path: '/serv/v1/user/auth',
    input: z.object({ t: z.string().optional() }),
    output: loginUserSchema,
    auth: 'optional',
    tag: 'account',
    summary: 'The login user, or -2000',
  }),
  checkUser: endpoint({
    method: 'GET',
    path: '/serv/v1/user/check_user',
    input: z.object({}),
    output: z.object({ result: z.boolean() }),
    auth: 'required',
    tag: 'university',
    summary: 'Whether the login user is a university user',
  }),

  // ---- main service: channels ----
  channelDetail: endpoint({
    method: 'POST',
    path: '/serv/v1/channel/detail',
    input: z.object({ channel_id: idSchema }),
    output: channelDetailSchema,
    auth: 'optional',
    tag: 'channel',
    summary: 'One channel',
  }),
  recommendChannelList: endpoint({
    method: 'POST',
    path: '/serv/v1/channel/recommend_channel_list',
    input: z.object({ size: z.number().int().min(1).max(50).optional() }),
    output: z.object({ list: z.array(channelDetailSchema) }),
    auth: 'optional',
    tag: 'channel',
    summary: 'Channels worth following (most followed first, not yet followed)',
  }),
  categoryChannel: endpoint({
    method: 'POST',
    path: '/serv/v1/channel/category_channel',
    input: empty,
    output: z.object({ list: z.array(channelCategorySchema) }),
    auth: 'optional',
    tag: 'channel',
    summary: 'Every channel, grouped by category',
  }),
  channelPosts: endpoint({
    method: 'POST',
    path: '/serv/v1/channel/posts',
    input: pageRequestSchema.extend({ channel_id: idSchema.optional(), tab: channelPostsTab.default('all') }),
    output: listSchema(postSchema),
    auth: 'optional',
    tag: 'post',
    summary: 'Posts, newest first: all, of one channel, of followed channels (tab follow), or featured (tab good)',
  }),
  followChannel: endpoint({
    method: 'POST',
    path: '/serv/v1/follower/follower_channel',
    input: z.object({ channel_id: idSchema }),
    output: z.object({ is_follow: z.boolean() }),
    auth: 'required',
    tag: 'channel',
    summary: 'Follow a channel',
  }),
  unfollowChannel: endpoint({
    method: 'POST',
    path: '/serv/v1/follower/follower_channel_cancel',
    input: z.object({ channel_id: idSchema }),
    output: z.object({ is_follow: z.boolean() }),
    auth: 'required',
    tag: 'channel',
    summary: 'Stop following a channel',
  }),
  userChannelList: endpoint({
    method: 'POST',
    path: '/serv/v1/channel/user_channel_list',
    input: z.intersection(z.object({ source: z.literal(1).default(1) }), visitUser),
    output: z.object({ list: z.array(channelSchema) }),
    auth: 'optional',
    tag: 'channel',
    summary: "A user's followed channels",
  }),

  // ---- main service: users ----
  followUser: endpoint({
    method: 'POST',
    path: '/serv/v1/follower/follower_user',
    input: z.object({ user_id: idSchema }),
    output: z.object({ is_follow: z.boolean() }),
    auth: 'required',
    tag: 'user',
    summary: 'Follow a user',
  }),
  unfollowUser: endpoint({
    method: 'POST',
    path: '/serv/v1/follower/follower_user_cancel',
    input: z.object({ user_id: idSchema }),
    output: z.object({ is_follow: z.boolean() }),
    auth: 'required',
    tag: 'user',
    summary: 'Stop following a user',
  }),
  userInfo: endpoint({
    method: 'POST',
    path: '/serv/v1/user/info',
    input: z.intersection(z.object({ data_mode: z.union([z.literal(0), z.literal(1)]).default(1) }), visitUser),
    output: userInfoSchema,
    auth: 'optional',
    tag: 'user',
    summary: 'A user profile by numeric id or ucode',
  }),
  userPosts: endpoint({
    method: 'POST',
    path: '/serv/v1/user/posts',
    input: z.intersection(pageRequestSchema, visitUser),
    output: listSchema(postSchema),
    auth: 'optional',
    tag: 'user',
    summary: "A user's posts, newest first",
  }),
  noteList: endpoint({
    method: 'POST',
    path: '/serv/v1/user/note/list',
    input: z.object({
      size: z.number().int().min(1).max(50).default(NOTE_LIST_DEFAULT_SIZE),
      prev: z.number().int().nonnegative().default(0),
      visit_ucode: z.string().min(1).max(64),
    }),
    output: listSchema(noteSchema),
    auth: 'optional',
    tag: 'user',
    summary: "A user's notes; prev is the cursor",
  }),

  // ---- main service: posts ----
  postDetail: endpoint({
    method: 'POST',
    path: '/serv/v1/post/detail',
    input: z.object({ post_id: idSchema }),
    output: postSchema,
    auth: 'optional',
    tag: 'post',
    summary: 'One post',
  }),
  postAdd: endpoint({
    method: 'POST',
    path: '/serv/v1/post/add',
    input: postAddInputSchema,
    output: postSchema,
    auth: 'required',
    tag: 'post',
    summary: 'Write a post (exactly once per client_id)',
  }),
  postDelete: endpoint({
    method: 'POST',
    path: '/serv/v1/post/delete',
    input: z.object({ post_id: idSchema }),
    output: z.object({ post_id: z.number().int() }),
    auth: 'required',
    tag: 'post',
    summary: 'Delete your own post',
  }),
  likeAdd: endpoint({
    method: 'POST',
    path: '/serv/v1/likes/add',
    input: z.intersection(likeTarget, z.object({ type: z.number().int().default(1), client_id: clientId.optional() })),
    output: z.object({ is_success: z.boolean(), like_count: z.number().int() }),
    auth: 'required',
    tag: 'like',
    summary: 'Like a post or a comment',
  }),
  likeCancel: endpoint({
    method: 'POST',
    path: '/serv/v1/likes/cancel',
    input: z.intersection(likeTarget, z.object({ type: z.number().int().default(1), client_id: clientId.optional() })),
    output: z.object({ is_success: z.boolean(), like_count: z.number().int() }),
    auth: 'required',
    tag: 'like',
    summary: 'Take back a like',
  }),
  likeList: endpoint({
    method: 'POST',
    path: '/serv/v1/likes/list',
    input: pageRequestSchema.extend({ post_id: idSchema }),
    output: listSchema(userBriefSchema),
    auth: 'optional',
    tag: 'like',
    summary: 'Users who liked a post, latest first',
  }),
  commentList: endpoint({
    method: 'POST',
    path: '/serv/v1/comment/list',
    input: pageRequestSchema.extend({ post_id: idSchema }),
    output: listSchema(commentSchema),
    auth: 'optional',
    tag: 'comment',
    summary: 'Comments of a post with their first replies, oldest first',
  }),
  commentAdd: endpoint({
    method: 'POST',
    path: '/serv/v1/comment/add',
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
    auth: 'required',
    tag: 'comment',
    summary: 'Comment on a post or reply to a comment (exactly once per client_id)',
  }),
  commentDelete: endpoint({
    method: 'POST',
    path: '/serv/v1/comment/delete',
    input: z.object({ comment_id: idSchema }),
    output: z.object({ comment_id: z.number().int() }),
    auth: 'required',
    tag: 'comment',
    summary: 'Delete your own comment',
  }),
  voteSubmit: endpoint({
    method: 'POST',
    path: '/serv/v1/vote/submit',
    input: z.object({
      post_id: idSchema,
      option_ids: z.array(idSchema).min(1, '请选择投票选项'),
      client_id: clientId,
    }),
    output: voteSchema,
    auth: 'required',
    tag: 'vote',
    summary: 'Vote on a post',
  }),
  topicList: endpoint({
    method: 'POST',
    path: '/serv/v1/topic/list',
    input: pageRequestSchema,
    output: listSchema(topicDetailSchema),
    auth: 'optional',
    tag: 'topic',
    summary: 'Topics, most posts first',
  }),
  topicDetail: endpoint({
    method: 'POST',
    path: '/serv/v1/topic/detail',
    input: z.object({ topic_id: idSchema }),
    output: topicDetailSchema,
    auth: 'optional',
    tag: 'topic',
    summary: 'One topic',
  }),
  topicPosts: endpoint({
    method: 'POST',
    path: '/serv/v1/topic/posts',
    input: pageRequestSchema.extend({ topic_id: idSchema }),
    output: listSchema(postSchema),
    auth: 'optional',
    tag: 'topic',
    summary: 'Posts of a topic, newest first',
  }),
  codeDetail: endpoint({
    method: 'POST',
    path: '/serv/v1/code/detail',
    input: z.object({ post_id: idSchema, uuid: z.string().min(1).max(64) }),
    output: codeSnippetSchema,
    auth: 'optional',
    tag: 'code',
    summary: 'One code snippet of a post',
  }),
  complainAdd: endpoint({
    method: 'POST',
    path: '/serv/v1/complain/add',
    // Content rules are business errors (-2901/-2902), checked by the service, not by shape.
    input: z.object({
      target_type: z.enum(['post', 'comment', 'user']),
      target_id: idSchema,
      reason: z.string().max(50),
      content: z.string().max(FEEDBACK_MAX_CHARS * 4),
      client_id: clientId,
    }),
    output: z.object({ complain_id: z.number().int() }),
    auth: 'required',
    tag: 'complain',
    summary: 'Report a post, comment or user',
  }),

  // ---- time service ----
  exploreList: endpoint({
    method: 'POST',
    path: '/serv/v3/explore/list',
    input: z.object({ page: z.string().min(1).max(32), block_name: z.string().min(1).max(32) }),
    output: z.object({ info: z.object({ list: z.array(exploreItemSchema) }) }),
    auth: 'none',
    tag: 'time',
    summary: 'Explore items of a page block (the sidebar asks page horde, block sidebar)',
  }),
  configList: endpoint({
    method: 'POST',
    path: '/serv/v2/config/list',
    input: z.object({ keys: z.array(z.string().min(1).max(64)).min(1).max(20) }),
    output: z.object({ list: z.array(configItemSchema) }),
    auth: 'none',
    tag: 'time',
    summary: 'Config items by key; content parsed from JSON',
  }),
  noteUpdate: endpoint({
    method: 'POST',
    path: '/serv/v3/note/update',
    // The wire body is base64 of this JSON, marked by a header (SPEC.md section 7).
    input: z.object({ id: idSchema.optional(), content: z.string().trim().min(1).max(POST_MAX_CHARS) }),
    output: noteSchema,
    auth: 'required',
    tag: 'time',
    summary: 'Create or update a note (base64 JSON body)',
  }),

  // ---- misc service (WeChat only) ----
  wxShareSign: endpoint({
    method: 'GET',
    path: '/wxmisc/wxshare/sign',
    input: z.object({
      url: z.string().url('url 应为完整的网址').max(2000),
      mpid: z.string().max(64).optional(),
    }),
    output: z.object({ appId: z.string(), timestamp: z.number().int(), nonceStr: z.string(), signature: z.string() }),
    auth: 'none',
    tag: 'misc',
    summary: 'WeChat JS-SDK config signature (sha1) for a page URL',
  }),

  // ---- tracking collector ----
  collect: endpoint({
    method: 'POST',
    path: '/serv/collect',
    input: z.object({
      app_id: z.string().max(64),
      events: z
        .array(
          z.object({
            event: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, '事件名只能包含小写字母、数字和下划线'),
            properties: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).default({}),
            time: z.number().int().positive().optional(),
          }),
        )
        .min(1)
        .max(50),
    }),
    output: z.object({ accepted: z.number().int() }),
    auth: 'optional',
    tag: 'tracking',
    summary: 'A batch of behaviour events (click_resource_position, personal_home_page_view, ...)',
  }),
} as const;

export type Api = typeof api;

/** The header that marks a base64-encoded JSON body. */
export const BASE64_BODY_HEADER = 'x-body-encoding';
export const BASE64_BODY_VALUE = 'base64';

export const TICKET_COOKIE = 'GCESS';
export const TICKET_HEADER = 'ticket';
export const DEVICE_ID_HEADER = 'device-id';

/** HTTP status of a ticket ended by a login on another device of the same kind. */
export const HTTP_LOGGED_IN_ELSEWHERE = 452;

export const OTHER_PATHS = {
  ticketDelete: '/serv/v1/user/ticket/delete',
  uploadImage: '/serv/v1/upload/image',
  images: '/img',
  docs: '/docs',
} as const;
