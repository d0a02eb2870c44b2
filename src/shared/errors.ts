/**
 * The error codes the server answers and the client tells apart by name (ErrorCode: the real
 * service's, and ours marked "Added", in error-codes.ts), and the messages the client shows on its
 * own. Every code of the real service, with its message, is in error-messages.ts; a code gets a
 * name once code uses it. The catalogue of messages by code is error-messages.ts: the server
 * answers with it, and the client's error hook and forms show it (it loads with them, not with
 * the first screen).
 */

export * as ErrorCode from './error-codes.ts';

/** The message of -10086: a request that never reached the server. */
export const NETWORK_ERROR_MESSAGE = '请求出错，请检查网络';

/** Messages the client shows on its own, with no request behind them. */
export const clientMessages = {
  badLink: '链接出现错误',
  offline: '网络异常',
} as const;
