/**
 * What to tell the user about a failure: for a request, the catalogue's message for a known code
 * (src/shared/error-messages.ts), else the server's own words; for anything else its own message;
 * else 未知错误. The catalogue loads with the code that shows messages (the error hook, the forms),
 * not with the first screen.
 */
import { messageForCode } from '#shared/error-messages.ts';
import { ErrorCode } from '#shared/errors.ts';

export function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number') {
    const { code, message } = error as { code: number; message?: unknown };
    return messageForCode(code, typeof message === 'string' ? message : undefined);
  }
  // Not a request (a broken link, a chunk that did not load): its own words.
  if (error instanceof Error && error.message) return error.message;
  return messageForCode(ErrorCode.Unknown);
}
