/**
 * The error codes the server answers and the client tells apart by name (the real service's, and
 * ours marked "Added"), and the messages the client shows on its own. Every code of the real
 * service, with its message, is in error-messages.ts; a code gets a name here once code uses it. The catalogue of messages by code is error-messages.ts: the server
 * answers with it, and the client's error hook and forms show it (it loads with them, not with
 * the first screen).
 */

export const ErrorCode = {
  /** Session error: the client opens the login popup and swallows the error. */
  SessionInvalid: -1001,
  Internal: -1002,
  Unknown: -1003,
  /** Added: a request body or query that does not match its schema. */
  BadRequest: -1004,
  /** Added: the post, comment, channel, user or topic does not exist (or was deleted). */
  NotFound: -1005,
  /** Added: the logged-in user may not do this (e.g. delete another user's post). */
  Forbidden: -1006,
  /** Added: an upload that is not an image or is too large. */
  BadUpload: -1007,
  /** Added: a second vote on the same poll. */
  AlreadyVoted: -1008,
  /** Added: a client_id used again with a different request body. */
  IdempotencyMismatch: -1009,
  /** Added: the poll's end_time has passed. */
  VoteClosed: -1010,
  /** Added: a second complaint by the same user about the same target. */
  AlreadyComplained: -1011,
  /** Added: a complaint about one's own post, comment or self. */
  OwnComplaint: -1012,
  /** Added: the login code could not be delivered (the SMS gateway behind the login-code webhook failed). */
  CodeNotSent: -1013,
  /** Added: a write of a user a moderator suspended (禁言); the message says until when. */
  Suspended: -1014,
  NotLoggedIn: -2000,
  TooFrequent: -2005,
  DailyLimit: -2006,
  FeedbackInvalid: -2901,
  FeedbackTooLong: -2902,
  CodeWrong: -3007,
  Relogin: -3003,
  CodeEmpty: -3004,
  CodeExpired: -3005,
  FollowLimit: -5007,
  /** Client-side only: the request never reached the server. */
  Network: -10086,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The message of -10086: a request that never reached the server. */
export const NETWORK_ERROR_MESSAGE = '请求出错，请检查网络';

/** Messages the client shows on its own, with no request behind them. */
export const clientMessages = {
  copyDone: '复制成功',
  copyFailed: '复制失败',
  copyUnsupported: '不支持复制',
  badLink: '链接出现错误',
  upgradeApp: '需要升级到极客时间最新版',
  upgradeAppToBuy: '请升级到极客时间最新版后，点击该链接购买',
  userInfoEmpty: '用户信息为空',
  userInfoFailed: '获取用户信息失败',
  offline: '网络异常',
} as const;
