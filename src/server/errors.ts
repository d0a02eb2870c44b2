import { messageForCode } from '#shared/error-messages.ts';
import { ErrorCode } from '#shared/errors.ts';
import { CHINA_UTC_OFFSET_MINUTES } from '#shared/timestamp.ts';

/** A rule the user broke: answered as the error envelope with its catalogue code, never as a 500. */
export class BusinessError extends Error {
  readonly code: number;
  /** HTTP status of the answer: 200 like the real service, except where it answers otherwise (452 for a ticket ended elsewhere). */
  readonly status: number;
  /** Seconds the client should wait before trying again (sent as Retry-After); -2005 always has them. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: number, msg?: string, status = 200, retryAfterSeconds?: number) {
    super(msg ?? messageForCode(code));
    this.name = 'BusinessError';
    this.code = code;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** -2005 请求频繁, to be tried again once the window that refused it ends (at least a second from now). */
export const tooFrequent = (windowRemainingMs: number) =>
  new BusinessError(ErrorCode.TooFrequent, undefined, 200, Math.max(1, Math.ceil(windowRemainingMs / 1000)));

export const notFound = (what = '内容') => new BusinessError(ErrorCode.NotFound, `${what}不存在或已被删除`);
export const badRequest = (msg: string) => new BusinessError(ErrorCode.BadRequest, msg);
export const notLoggedIn = () => new BusinessError(ErrorCode.NotLoggedIn);
export const forbidden = () => new BusinessError(ErrorCode.Forbidden);

/** A moment as the platform's readers read it: China Standard Time, to the minute (2026-12-06 12:00). */
export function chinaMinute(ms: number): string {
  return new Date(ms + CHINA_UTC_OFFSET_MINUTES * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** -1014: the user is suspended until `untilMs` (ms since 1970), or for good (null). */
export const suspended = (untilMs: number | null) =>
  new BusinessError(ErrorCode.Suspended, untilMs === null ? '账号已被永久禁言' : `账号已被禁言，至 ${chinaMinute(untilMs)} 解除`);
