import { messageForCode } from '#shared/error-messages.ts';
import { ErrorCode } from '#shared/errors.ts';

/** A rule the user broke: answered as the error envelope with its catalogue code, never as a 500. */
export class BusinessError extends Error {
  readonly code: number;
  /** HTTP status of the answer: 200 like the real service, except where SPEC.md says otherwise (452). */
  readonly status: number;

  constructor(code: number, msg?: string, status = 200) {
    super(msg ?? messageForCode(code));
    this.name = 'BusinessError';
    this.code = code;
    this.status = status;
  }
}

export const notFound = (what = '内容') => new BusinessError(ErrorCode.NotFound, `${what}不存在或已被删除`);
export const badRequest = (msg: string) => new BusinessError(ErrorCode.BadRequest, msg);
export const notLoggedIn = () => new BusinessError(ErrorCode.NotLoggedIn);
export const forbidden = () => new BusinessError(ErrorCode.Forbidden);
