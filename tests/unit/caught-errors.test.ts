/**
 * Errors a React boundary caught: the server's answer that something does not exist (the page
 * shows its not-found state) is not logged; every other failure is, as React would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../src/shared/errors.ts';
import { reportCaughtError } from '../../src/client/app/caught-errors.ts';
import { ApiError } from '../../src/client/lib/http.ts';

const apiError = (code: number) => new ApiError({ code, msg: '书单不存在或已被删除', kind: 'business', status: 200, path: '/serv/v1/booklist/detail' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a caught error', () => {
  it('is not logged when the server said the thing does not exist', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    reportCaughtError(apiError(ErrorCode.NotFound));
    expect(log).not.toHaveBeenCalled();
  });

  it('is logged otherwise: another refusal, a failed request, a bug', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const others = [apiError(ErrorCode.Forbidden), new TypeError('x is undefined'), 'thrown text'];
    for (const error of others) reportCaughtError(error);
    expect(log.mock.calls).toEqual(others.map((error) => [error]));
  });
});
