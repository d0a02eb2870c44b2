/**
 * Every call's method, path, auth and kind, as plain data: the client, the service worker and
 * the server all read it. The zod schemas of each call's input and output are in api.ts, which
 * only the server and tests load at run time; the client takes their types alone, so zod never
 * ships to browsers.
 */
import type { z } from 'zod';
import type { api } from './api.ts';

/** Who may call: anyone, anyone (answers differ when logged in), or logged-in users only (-2000). */
export type Auth = 'none' | 'optional' | 'required';

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  auth: Auth;
  /** Reads change nothing, so the service worker may answer them from its cache offline. */
  kind: 'read' | 'write';
  /** Answers 304, with no body, to a caller whose If-None-Match holds the answer's ETag. */
  revalidates?: true;
}

export const routes = {
  loginCode: { method: 'POST', path: '/serv/v1/user/login/code', auth: 'none', kind: 'write' },
  login: { method: 'POST', path: '/serv/v1/user/login', auth: 'none', kind: 'write' },
  logout: { method: 'POST', path: '/serv/v1/user/logout', auth: 'required', kind: 'write' },
  auth: { method: 'GET', path: '/serv/v1/user/auth', auth: 'optional', kind: 'read' },
  checkUser: { method: 'GET', path: '/serv/v1/user/check_user', auth: 'required', kind: 'read' },
  channelDetail: { method: 'POST', path: '/serv/v1/channel/detail', auth: 'optional', kind: 'read' },
  recommendChannelList: { method: 'POST', path: '/serv/v1/channel/recommend_channel_list', auth: 'optional', kind: 'read' },
  categoryChannel: { method: 'POST', path: '/serv/v1/channel/category_channel', auth: 'optional', kind: 'read' },
  channelPosts: { method: 'POST', path: '/serv/v1/channel/posts', auth: 'optional', kind: 'read' },
  followChannel: { method: 'POST', path: '/serv/v1/follower/follower_channel', auth: 'required', kind: 'write' },
  unfollowChannel: { method: 'POST', path: '/serv/v1/follower/follower_channel_cancel', auth: 'required', kind: 'write' },
  userChannelList: { method: 'POST', path: '/serv/v1/channel/user_channel_list', auth: 'optional', kind: 'read' },
  followUser: { method: 'POST', path: '/serv/v1/follower/follower_user', auth: 'required', kind: 'write' },
  unfollowUser: { method: 'POST', path: '/serv/v1/follower/follower_user_cancel', auth: 'required', kind: 'write' },
  userInfo: { method: 'POST', path: '/serv/v1/user/info', auth: 'optional', kind: 'read' },
  userPosts: { method: 'POST', path: '/serv/v1/user/posts', auth: 'optional', kind: 'read' },
  noteList: { method: 'POST', path: '/serv/v1/user/note/list', auth: 'optional', kind: 'read' },
  nickUpdate: { method: 'POST', path: '/serv/v1/user/nick/update', auth: 'required', kind: 'write' },
  postDetail: { method: 'POST', path: '/serv/v1/post/detail', auth: 'optional', kind: 'read' },
  postAdd: { method: 'POST', path: '/serv/v1/post/add', auth: 'required', kind: 'write' },
  postDelete: { method: 'POST', path: '/serv/v1/post/delete', auth: 'required', kind: 'write' },
  likeAdd: { method: 'POST', path: '/serv/v1/likes/add', auth: 'required', kind: 'write' },
  likeCancel: { method: 'POST', path: '/serv/v1/likes/cancel', auth: 'required', kind: 'write' },
  likeList: { method: 'POST', path: '/serv/v1/likes/list', auth: 'optional', kind: 'read' },
  commentList: { method: 'POST', path: '/serv/v1/comment/list', auth: 'optional', kind: 'read' },
  commentReplies: { method: 'POST', path: '/serv/v1/comment/replies', auth: 'optional', kind: 'read' },
  commentAdd: { method: 'POST', path: '/serv/v1/comment/add', auth: 'required', kind: 'write' },
  commentDelete: { method: 'POST', path: '/serv/v1/comment/delete', auth: 'required', kind: 'write' },
  voteSubmit: { method: 'POST', path: '/serv/v1/vote/submit', auth: 'required', kind: 'write' },
  search: { method: 'POST', path: '/serv/v1/search', auth: 'optional', kind: 'read' },
  topicList: { method: 'POST', path: '/serv/v1/topic/list', auth: 'optional', kind: 'read' },
  topicDetail: { method: 'POST', path: '/serv/v1/topic/detail', auth: 'optional', kind: 'read' },
  topicPosts: { method: 'POST', path: '/serv/v1/topic/posts', auth: 'optional', kind: 'read' },
  codeDetail: { method: 'POST', path: '/serv/v1/code/detail', auth: 'optional', kind: 'read' },
  booklistDetail: { method: 'POST', path: '/serv/v1/booklist/detail', auth: 'none', kind: 'read' },
  complainAdd: { method: 'POST', path: '/serv/v1/complain/add', auth: 'required', kind: 'write' },
  complainReasons: { method: 'POST', path: '/serv/v1/complain/reasons', auth: 'none', kind: 'read' },
  exploreList: { method: 'POST', path: '/serv/v3/explore/list', auth: 'none', kind: 'read' },
  configList: { method: 'POST', path: '/serv/v2/config/list', auth: 'none', kind: 'read' },
  noteUpdate: { method: 'POST', path: '/serv/v3/note/update', auth: 'required', kind: 'write' },
  wxShareSign: { method: 'GET', path: '/wxmisc/wxshare/sign', auth: 'none', kind: 'read' },
  collect: { method: 'POST', path: '/serv/collect', auth: 'optional', kind: 'write' },
  noticeList: { method: 'POST', path: '/serv/v1/notice/list', auth: 'required', kind: 'read' },
  noticeUnreadCount: { method: 'POST', path: '/serv/v1/notice/unread_count', auth: 'required', kind: 'read', revalidates: true },
  noticeRead: { method: 'POST', path: '/serv/v1/notice/read', auth: 'required', kind: 'write' },
  noticeSettings: { method: 'POST', path: '/serv/v1/notice/settings', auth: 'required', kind: 'write' },
  // Web Push: the server's public key, and a device's subscription (pushed new notices while its ticket lives).
  pushKey: { method: 'POST', path: '/serv/v1/push/key', auth: 'none', kind: 'read' },
  pushSubscribe: { method: 'POST', path: '/serv/v1/push/subscribe', auth: 'required', kind: 'write' },
  pushUnsubscribe: { method: 'POST', path: '/serv/v1/push/unsubscribe', auth: 'required', kind: 'write' },
  // Moderators only (-1006 for anyone else): the review queue, the actions on reported content and users, the audit log.
  moderationQueue: { method: 'POST', path: '/serv/v1/moderation/queue', auth: 'required', kind: 'read' },
  moderationHide: { method: 'POST', path: '/serv/v1/moderation/hide', auth: 'required', kind: 'write' },
  moderationRestore: { method: 'POST', path: '/serv/v1/moderation/restore', auth: 'required', kind: 'write' },
  moderationDismiss: { method: 'POST', path: '/serv/v1/moderation/dismiss', auth: 'required', kind: 'write' },
  moderationSuspend: { method: 'POST', path: '/serv/v1/moderation/suspend', auth: 'required', kind: 'write' },
  moderationLift: { method: 'POST', path: '/serv/v1/moderation/lift', auth: 'required', kind: 'write' },
  moderationLog: { method: 'POST', path: '/serv/v1/moderation/log', auth: 'required', kind: 'read' },
} as const satisfies Record<string, Route>;

export type EndpointName = keyof typeof routes;

type Contract = typeof api;
export type InputOf<K extends EndpointName> = z.input<Contract[K]['input']>;
export type OutputOf<K extends EndpointName> = z.output<Contract[K]['output']>;

/** A route that carries its name, so the client's request() knows its input and output types. */
export type ClientEndpoint<K extends EndpointName = EndpointName> = (typeof routes)[K] & { name: K };

export const endpoints = Object.fromEntries(
  Object.entries(routes).map(([name, route]) => [name, { ...route, name }]),
) as { [K in EndpointName]: ClientEndpoint<K> };

/** The header that marks a base64-encoded JSON body (the note update call, noteUpdate, sends one). */
export const BASE64_BODY_HEADER = 'x-body-encoding';
export const BASE64_BODY_VALUE = 'base64';

export const TICKET_COOKIE = 'GCESS';
export const TICKET_HEADER = 'ticket';
export const DEVICE_ID_HEADER = 'device-id';
/**
 * Set by the page (readable, not httpOnly) when a user logs out and the server may not have heard
 * yet (offline): whatever request next reaches the server with it ends the ticket first.
 */
export const LOGOUT_PENDING_COOKIE = 'horde_logout'; // horde: src/client/README.md ('horde')

/** HTTP status of a ticket ended by a login on another device of the same kind. */
export const HTTP_LOGGED_IN_ELSEWHERE = 452;

/** Paths outside the JSON contract. */
export const OTHER_PATHS = {
  ticketDelete: '/serv/v1/user/ticket/delete',
  uploadImage: '/serv/v1/upload/image',
  images: '/img',
  live: '/serv/v1/live',
  docs: '/docs',
} as const;
