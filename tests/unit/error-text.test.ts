/** What the user reads for a failed request: the catalogue's words, or the server's where it says more. */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/client/lib/error-text.ts';

const refusal = (code: number, message: string) => Object.assign(new Error(message), { code });

describe('errorText', () => {
  it('shows the catalogue’s words for a code the server does not refine', () => {
    expect(errorText(refusal(-2902, 'content too long'))).toBe('反馈内容请不要超过 500 字');
  });

  it('shows the server’s words where they say more: a field, a suspension’s end, why a moderator may not act', () => {
    expect(errorText(refusal(-1014, '账号已被禁言，至 2026-12-06 12:00 解除'))).toBe('账号已被禁言，至 2026-12-06 12:00 解除');
    expect(errorText(refusal(-1006, '不能禁言其他管理员'))).toBe('不能禁言其他管理员');
    expect(errorText(refusal(-1006, ''))).toBe('没有权限进行此操作');
  });
});
