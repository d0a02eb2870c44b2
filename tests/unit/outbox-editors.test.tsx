/**
 * Writes the server refused after they waited in the outbox come back to their editors
 * as drafts with the message: a comment into its (empty) comment box, a complaint into its form,
 * a post into the composer's draft as it was (pictures not yet uploaded keep their Blobs). And
 * the 待发送 button counts what the user would call waiting.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { set as idbSet } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPLAIN_REASONS } from '../../src/shared/constants.ts';
import type { LoginUser } from '../../src/shared/schemas.ts';
import type { WriteOf } from '../../src/client/entities/outbox/types.ts';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
import { ComplainForm } from '../../src/client/features/complain/components/ComplainForm.tsx';
import { draftOfReturned, postOf } from '../../src/client/features/compose/post-write.ts';
import { emptyDraft } from '../../src/client/features/compose/drafts.ts';
import { draftKey, useCommentDrafts } from '../../src/client/features/post/comment-drafts.ts';
import { CommentComposer } from '../../src/client/features/post/components/CommentComposer.tsx';
import { readQueue } from '../../src/client/lib/write-queue/queue.ts';
import { outboxDb, useOutbox, type QueuedWrite } from '../../src/client/lib/write-queue/store.ts';
import { createQueryClient } from '../../src/client/lib/query-client.ts';
import { resetOutbox } from '../support/outbox.ts';
import { renderWithProviders } from './render-in-app.tsx';

const ME: LoginUser = { uid: 1, ucode: 'ME', nick: '我', avatar: '', cellphone: '', ctime: 0, student: 0, usertype: 1 };

async function returned(item: Omit<QueuedWrite, 'uid' | 'at' | 'state' | 'label' | 'text'>, error: string): Promise<void> {
  const write: QueuedWrite = { uid: 1, at: 1, state: 'returned', label: '', text: '', error, ...item };
  await idbSet([write.at, write.id], write, outboxDb());
  await readQueue();
}

let queryClient: QueryClient;
beforeEach(async () => {
  await resetOutbox();
  useCommentDrafts.setState({ drafts: {} });
  queryClient = createQueryClient({ onError: () => undefined });
  queryClient.setQueryData(sessionKeys.user, ME);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ code: 0, data: { list: COMPLAIN_REASONS } }), { headers: { 'content-type': 'application/json' } })),
  );
});
afterEach(() => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
});

const wrap = (children: React.ReactNode) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;

describe('a refused comment', () => {
  const comment = { id: 'comment-back-1', kind: 'comment', data: { body: { post_id: 7, content: '被退回的评论' }, author: { uid: 1, nick: '我', avatar: '' } } };

  it('comes back into its empty comment box, with the message, and leaves the outbox', async () => {
    await returned(comment, '动态不存在');
    render(wrap(<CommentComposer postId={7} />));
    // Loaded on demand and put back through IndexedDB: slow on a loaded machine.
    await waitFor(() => expect(screen.getByRole('textbox', { name: '写评论' })).toHaveProperty('value', '被退回的评论'), { timeout: 10_000 });
    expect(screen.getByRole('alert').textContent).toBe('未发出：动态不存在');
    await waitFor(() => expect(useOutbox.getState().items).toEqual([]));
    // A new comment when sent: a new client_id.
    expect(useCommentDrafts.getState().drafts[draftKey(7, 0, ME.uid)]?.clientId).not.toBe('comment-back-1');
  });

  it('waits while the box holds other words, and stays out of other posts’ boxes', async () => {
    await returned(comment, '动态不存在');
    useCommentDrafts.getState().write(draftKey(7, 0, ME.uid), '正在写的另一条');
    render(wrap(<CommentComposer postId={7} />));
    render(wrap(<CommentComposer postId={8} />));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByRole('textbox', { name: '写评论' }).map((box) => (box as HTMLTextAreaElement).value)).toEqual(['正在写的另一条', '']);
    expect(useOutbox.getState().items.map((item) => item.id)).toEqual(['comment-back-1']);
  });
});

describe('a refused complaint', () => {
  it('comes back into the form for its target, reason, words and message', async () => {
    const words = '很'.repeat(501);
    await returned(
      { id: 'complain-back-1', kind: 'complain', data: { body: { target_type: 'post', target_id: 7, reason: 'spam', content: words } } },
      '反馈内容请不要超过 500 字',
    );
    render(wrap(<ComplainForm type="post" id={7} onDone={() => undefined} />));
    await waitFor(() => expect(screen.getByRole('textbox', { name: '补充说明（选填）' })).toHaveProperty('value', words));
    await waitFor(() => expect(screen.getByRole('radio', { name: '垃圾广告' })).toHaveProperty('checked', true));
    expect(screen.getByRole('alert').textContent).toBe('反馈内容请不要超过 500 字');
    await waitFor(() => expect(useOutbox.getState().items).toEqual([]));
  });
});

describe('a post through the outbox', () => {
  it('comes back as the draft it was: words, channels, code, topics, poll, pictures (with their Blobs until uploaded), and a new client_id', () => {
    const picture = new Blob(['png'], { type: 'image/png' });
    const draft = {
      ...emptyDraft(),
      publishParams: {
        id: 'post-client-id-1',
        content: '  离线写的动态  ',
        channel_id: [2, 5],
        attach: [
          { localId: 'a', name: 'a.png', url: '/img/a', width: 40, height: 30, status: 'uploaded' as const },
          { localId: 'b', name: 'b.png', blob: picture, status: 'failed' as const },
        ],
      },
      codeContent: 'print(1)',
      codeLanguage: 'python',
      codeTitle: '示例',
      topicTags: '#学习#',
      vote: { title: '投票', multiple: false, options: ['甲', '乙'], endsAt: '' },
    };
    const { body, images } = postOf(draft);
    expect(body).toMatchObject({
      content: '离线写的动态',
      channel_id: [2, 5],
      attach: [{ type: 'code', language: 'python', title: '示例', code: 'print(1)' }],
      topic_tags: '#学习#',
      vote: { title: '投票', multiple: false, options: ['甲', '乙'] },
    });
    expect(images).toEqual([
      { localId: 'a', name: 'a.png', blob: undefined, url: '/img/a', width: 40, height: 30, status: 'uploaded' },
      { localId: 'b', name: 'b.png', blob: picture, status: 'failed' },
    ]);
    const item: WriteOf<'post'> = {
      id: 'post-client-id-1',
      at: 1,
      uid: 1,
      kind: 'post',
      label: '动态',
      text: '离线写的动态',
      state: 'returned',
      data: { body, images, author: { uid: 1, nick: '我', avatar: '' } },
    };
    const back = draftOfReturned(item);
    expect(back.publishParams.id).not.toBe('post-client-id-1');
    expect(back.publishParams.content).toBe('离线写的动态');
    expect(back.publishParams.channel_id).toEqual([2, 5]);
    expect(back.publishParams.attach.map((image) => [image.localId, image.status, image.blob])).toEqual([
      ['a', 'uploaded', undefined],
      ['b', 'waiting', picture],
    ]);
    expect([back.codeContent, back.codeLanguage, back.codeTitle, back.topicTags, back.vote]).toEqual([
      'print(1)',
      'python',
      '示例',
      '#学习#',
      draft.vote,
    ]);
  });
});

describe('the 待发送 button', () => {
  const write = (id: string, uid: number): QueuedWrite => ({ id, uid, at: 1, kind: 'like', label: '点赞', text: '', state: 'waiting', data: {} });

  it('counts the logged-in user’s waiting writes, not those on their first attempt, nor another user’s, nor any while nobody is known', async () => {
    const { OutboxHost } = await import('../../src/client/ui/outbox-panel/OutboxHost.tsx');
    useOutbox.setState({ items: [write('mine', 1), write('theirs', 2)], trying: [], viewer: 1 });
    // Inside a router, as the app holds it: the list it opens goes to a write's page.
    renderWithProviders(<OutboxHost />, { queryClient });
    await waitFor(() => expect(screen.getByRole('button', { name: /^待发送/ }).textContent).toBe('待发送 1'));
    // On its first attempt (being sent now), a write is not called waiting.
    useOutbox.setState({ trying: ['mine'] });
    await waitFor(() => expect(screen.queryByRole('button', { name: /^待发送/ })).toBeNull());
    // That attempt failed (offline): now it waits, and shows.
    useOutbox.setState({ trying: [] });
    await waitFor(() => expect(screen.getByRole('button', { name: /^待发送/ }).textContent).toBe('待发送 1'));
    // Not known who is logged in, or a visitor, or another account on this device: nothing shows.
    useOutbox.setState({ viewer: undefined });
    await waitFor(() => expect(screen.queryByRole('button', { name: /^待发送/ })).toBeNull());
    useOutbox.setState({ viewer: 2 });
    await waitFor(() => expect(screen.getByRole('button', { name: /^待发送/ }).textContent).toBe('待发送 1'));
    useOutbox.setState({ viewer: null });
    await waitFor(() => expect(screen.queryByRole('button', { name: /^待发送/ })).toBeNull());
    useOutbox.setState({ viewer: 3 });
    await waitFor(() => expect(screen.queryByRole('button', { name: /^待发送/ })).toBeNull());
  });
});
