/**
 * The API contract: the zod schemas of every call of SPEC.md section 7 and DESIGN.md section
 * 3a. Routes (method, path, auth) come from endpoints.ts. The server registers each entry
 * (validation, serialisation, OpenAPI); the client types its calls from these schemas.
 */
import { z } from 'zod';
import { routes, type Route } from './endpoints.ts';
import {
  COMPLAIN_REASONS,
  type ComplainReason,
  COMMENT_MAX_CHARS,
  CODE_MAX_CHARS,
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
 * calls and likes, whose repeats are harmless without it.
 */
const clientId = z.string().min(8, 'client_id 太短').max(64, 'client_id 太长');
const likeTarget = z.union([z.object({ post_id: idSchema }), z.object({ comment_id: idSchema })], {
  error: '需要 post_id 或 comment_id',
});
const channelPostsTab = z.enum(['all', 'follow', 'good']);
const complainReasonKeys = COMPLAIN_REASONS.map((item) => item.reason) as [ComplainReason, ...ComplainReason[]];
/** '' (no reason chosen: then the text must say it) or one of COMPLAIN_REASONS. */
const complainReason = z.union([z.literal(''), z.enum(complainReasonKeys)], { error: '投诉理由无效' });

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
    summary: 'Log in with a phone number and one-time code; sets the ticket cookie',
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

  // ---- time service ----
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
    // The wire body is base64 of this JSON, marked by a header (SPEC.md section 7).
    input: z.object({ id: idSchema.optional(), content: z.string().trim().min(1).max(POST_MAX_CHARS) }),
    output: noteSchema,
    tag: 'time',
    summary: 'Create or update a note (base64 JSON body)',
  }),

  // ---- misc service (WeChat only) ----
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
    tag: 'tracking',
    summary: 'A batch of behaviour events (click_resource_position, personal_home_page_view, ...)',
  }),
} as const;

export type Api = typeof api;
