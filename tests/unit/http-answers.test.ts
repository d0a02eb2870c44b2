// @vitest-environment node
/**
 * How the client reads an answer: a 503 with the envelope (the server's database is away for a
 * moment) is an error worth retrying, keeping the server's code and words; the same code with
 * HTTP 200 is the server's refusal.
 */
import { describe, expect, it } from 'vitest';
import { answerOf, type ApiError } from '../../src/client/lib/http.ts';
import { failureOf } from '../../src/client/lib/write-queue/rules.ts';

const unavailable = { code: -1, error: { code: -1002, msg: '服务暂时不可用，请稍后重试' } };

function thrown(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('no error');
}

describe('answerOf', () => {
  it('reads a 503 envelope as a failure to try again, with its code and words', () => {
    const error = thrown(() => answerOf(503, unavailable, '/serv/v1/comment/add'));
    expect({ kind: error.kind, code: error.code, message: error.message, status: error.status }).toEqual({
      kind: 'http',
      code: -1002,
      message: '服务暂时不可用，请稍后重试',
      status: 503,
    });
    // A queued write waits and is sent again; it is not refused.
    expect(failureOf(error, false)).toBe('later');
    expect(failureOf(error, true)).toBe('later');
  });

  it('reads the same code with HTTP 200 as the server refusing', () => {
    const error = thrown(() => answerOf(200, unavailable, '/serv/v1/comment/add'));
    expect(error.kind).toBe('business');
    expect(failureOf(error, true)).toBe('refused');
  });
});
