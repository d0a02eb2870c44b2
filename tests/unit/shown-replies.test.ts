import { describe, expect, it } from 'vitest';
import type { CommentBase } from '../../src/shared/schemas.ts';
import { shownReplies } from '../../src/client/features/post/use-reply-thread.ts';

const reply = (id: number, content = `r${id}`) => ({ id, content }) as unknown as CommentBase;

describe('shownReplies', () => {
  it('a closed thread shows what comment/list carried, as it came', () => {
    const carried = [reply(3), reply(1)];
    expect(shownReplies(carried, []).map((r) => r.id)).toEqual([3, 1]);
  });

  it('an open one shows every reply once, in id order, the fetched copy winning', () => {
    const shown = shownReplies([reply(1), reply(4, 'old')], [reply(2), reply(4, 'new'), reply(3)]);
    expect(shown.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(shown[3]!.content).toBe('new');
  });
});
