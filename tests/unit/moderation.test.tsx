/**
 * The moderators' queue in the client: what a moderator may do about an item (never suspend a
 * moderator; restore only what is hidden), and 处理: the picker, the confirmation, then one call
 * with the reason typed, its client_id kept when the answer was lost so a second try is applied once.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModerationQueueItem } from '../../src/shared/schemas.ts';
import { choicesFor, QueueItem } from '../../src/client/features/moderation/components/QueueItem.tsx';
import { useConfirmStore } from '../../src/client/ui/dialog/confirm-store.ts';
import { usePickerStore } from '../../src/client/ui/picker/picker-store.ts';
import { makePost } from './fixtures.ts';
import { renderWithProviders } from './render-in-app.tsx';

const AUTHOR = { uid: 7, ucode: 'U7', nick: '作者', avatar: '', is_follow: false };

function queueItem(over: Partial<ModerationQueueItem> = {}, author: Partial<ModerationQueueItem['author']> = {}): ModerationQueueItem {
  return {
    target_type: 'post',
    target_id: 42,
    complaint_count: 3,
    first_time: 1_700_000_000_000,
    last_time: 1_700_000_100_000,
    reasons: [{ reason: 'ad', text: '垃圾广告', count: 3 }],
    complaints: [{ reason: 'ad', content: '一直发广告', create_time: 1_700_000_100_000 }],
    hidden: false,
    auto_hidden: false,
    hidden_reason: null,
    gone: false,
    post: makePost(42, { content: '加微信领课程' }),
    comment: null,
    author: { user: AUTHOR, is_moderator: false, suspended: false, suspended_until: null, recent_posts: [], actions: [], ...author },
    ...over,
  };
}

const keys = (item: ModerationQueueItem) => choicesFor(item).map((choice) => choice.item.key);

describe('what a moderator may do about a queue item', () => {
  it('hides a shown post, dismisses, or suspends its author for 1, 7, 30 days or for good', () => {
    expect(keys(queueItem())).toEqual(['hide', 'dismiss', 'suspend-1', 'suspend-7', 'suspend-30', 'suspend-forever']);
  });

  it('restores a hidden post; an automatic hide may also be confirmed by a hide', () => {
    expect(keys(queueItem({ hidden: true }))).toEqual(['restore', 'dismiss', 'suspend-1', 'suspend-7', 'suspend-30', 'suspend-forever']);
    expect(keys(queueItem({ hidden: true, auto_hidden: true })).slice(0, 2)).toEqual(['hide', 'restore']);
  });

  it('never offers to suspend a moderator, and lifts a suspension that is on', () => {
    expect(keys(queueItem({}, { is_moderator: true }))).toEqual(['hide', 'dismiss']);
    expect(keys(queueItem({ target_type: 'user', post: null }, { suspended: true, suspended_until: 1_800_000_000_000 }))).toEqual([
      'dismiss',
      'suspend-1',
      'suspend-7',
      'suspend-30',
      'suspend-forever',
      'lift',
    ]);
  });

  it('only dismisses what its author deleted since', () => {
    expect(keys(queueItem({ gone: true, post: null }, { is_moderator: true }))).toEqual(['dismiss']);
  });
});

describe('处理', () => {
  beforeEach(() => vi.spyOn(window, 'scrollTo').mockImplementation(() => {}));
  afterEach(() => {
    act(() => usePickerStore.getState().settle(null));
    act(() => useConfirmStore.getState().settle(false));
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** Taps 处理, picks `text` in the picker, and confirms. */
  async function decide(text: string) {
    fireEvent.click(screen.getByRole('button', { name: '处理' }));
    await waitFor(() => expect(usePickerStore.getState().current).not.toBeNull());
    const picked = usePickerStore.getState().current!.items.find((item) => item.text === text)!;
    act(() => usePickerStore.getState().settle(picked));
    await waitFor(() => expect(useConfirmStore.getState().current).not.toBeNull());
    expect(String(useConfirmStore.getState().current!.content)).toContain('理由：广告引流');
    act(() => useConfirmStore.getState().settle(true));
  }

  it('sends the choice with the reason typed, once confirmed; a lost answer is tried again with the same client_id', async () => {
    const bodies: Record<string, unknown>[] = [];
    let lose = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        if (lose) {
          lose = false;
          throw new TypeError('Failed to fetch');
        }
        const data = { action_id: 1, target_type: 'post', target_id: 42, closed_complaints: 3, hidden: true };
        return new Response(JSON.stringify({ code: 0, data }), { headers: { 'content-type': 'application/json' } });
      }),
    );
    renderWithProviders(<QueueItem item={queueItem()} renderPost={(post) => <p>{post.content}</p>} />);
    expect(await screen.findByText('加微信领课程')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('处理理由'), { target: { value: '  广告引流 ' } });

    await decide('隐藏动态');
    await waitFor(() => expect(bodies).toHaveLength(1));
    await waitFor(() => expect((screen.getByRole('button', { name: '处理' }) as HTMLButtonElement).disabled).toBe(false));
    await decide('隐藏动态');
    await waitFor(() => expect(bodies).toHaveLength(2));

    expect(bodies[0]).toMatchObject({ target_type: 'post', target_id: 42, reason: '广告引流' });
    expect(typeof bodies[0]!.client_id).toBe('string');
    expect(bodies[1]!.client_id).toBe(bodies[0]!.client_id);
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<QueueItem item={queueItem()} renderPost={() => null} />);
    fireEvent.click(await screen.findByRole('button', { name: '处理' }));
    await waitFor(() => expect(usePickerStore.getState().current).not.toBeNull());
    act(() => usePickerStore.getState().settle(usePickerStore.getState().current!.items[0]!));
    await waitFor(() => expect(useConfirmStore.getState().current).not.toBeNull());
    act(() => useConfirmStore.getState().settle(false));
    await act(async () => {});
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
