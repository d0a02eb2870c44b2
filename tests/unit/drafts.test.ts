/**
 * The draft store: a key is required, every change reaches IndexedDB, a reload brings the draft
 * back, publishing clears it, and a tab holding an older text never overwrites a newer one written
 * by another tab. (Pictures kept as blobs across a reload need a real browser's IndexedDB:
 * tests/e2e/compose.test.ts.)
 */
import { createStore, get as idbGet, set as idbSet, update } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backupUnsavedDrafts, emptyDraft, flushDrafts, loadDrafts, newerDrafts, postDraftKey, useDrafts, type PostDraft } from '../../src/client/features/compose/drafts.ts';

const idb = createStore('horde-drafts', 'drafts');
const stored = () => idbGet<Record<string, PostDraft | { removedAt: number }>>('drafts', idb);
const write = (text: string) =>
  useDrafts.getState().edit(postDraftKey(undefined), (d) => ({ ...d, publishParams: { ...d.publishParams, content: text } }));
/** A fresh page: nothing in memory, as after a reload. */
const reload = async () => {
  useDrafts.setState({ stored: {}, loaded: false });
  await loadDrafts();
};

describe('drafts', () => {
  beforeEach(async () => {
    await idbSet('drafts', {}, idb);
    useDrafts.setState({ stored: {}, loaded: false });
  });
  afterEach(async () => {
    await flushDrafts();
  });

  it('refuse an empty key and save nothing', async () => {
    expect(useDrafts.getState().edit('', (d) => d)).toBe(false);
    await flushDrafts();
    expect(await stored()).toEqual({});
  });

  it('come back after a reload, with their client_id', async () => {
    write('在地铁上写的');
    const id = useDrafts.getState().stored[postDraftKey(undefined)] as PostDraft;
    await flushDrafts();
    await reload();
    const back = useDrafts.getState().stored[postDraftKey(undefined)] as PostDraft;
    expect(back.publishParams.content).toBe('在地铁上写的');
    expect(back.publishParams.id).toBe(id.publishParams.id);
    expect(back.publishParams.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('are cleared by publishing, and an older copy cannot bring them back', async () => {
    write('发出去的');
    await flushDrafts();
    const old = (await stored())![postDraftKey(undefined)] as PostDraft;
    useDrafts.getState().remove(postDraftKey(undefined));
    await flushDrafts();
    // Another tab that still holds the draft from before saves it, as its flushDrafts would.
    await update('drafts', (current) => newerDrafts(current ?? {}, { [postDraftKey(undefined)]: old }), idb);
    await reload();
    expect('publishParams' in (useDrafts.getState().stored[postDraftKey(undefined)] ?? {})).toBe(false);
  });

  it('never let a tab with an older text overwrite a newer one', async () => {
    write('这个标签页的旧文字');
    const older = useDrafts.getState().stored[postDraftKey(undefined)] as PostDraft;
    // Meanwhile another tab saved a newer text.
    const newer = { ...older, publishParams: { ...older.publishParams, content: '另一个标签页的新文字' }, editedAt: older.editedAt + 1000 };
    await idbSet('drafts', { [postDraftKey(undefined)]: newer }, idb);
    // This tab's (older) text is written when its page is hidden.
    await flushDrafts();
    expect(((await stored())![postDraftKey(undefined)] as PostDraft).publishParams.content).toBe('另一个标签页的新文字');
    // And on hearing of the other tab, this tab takes the newer text.
    await loadDrafts();
    expect((useDrafts.getState().stored[postDraftKey(undefined)] as PostDraft).publishParams.content).toBe('另一个标签页的新文字');
  });

  it('stay published when publishing happens in the millisecond of the last edit', async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      write('同一毫秒发出去的');
      const old = useDrafts.getState().stored[postDraftKey(undefined)] as PostDraft;
      useDrafts.getState().remove(postDraftKey(undefined));
      await flushDrafts();
      await update('drafts', (current) => newerDrafts(current ?? {}, { [postDraftKey(undefined)]: old }), idb);
      await reload();
      expect('publishParams' in (useDrafts.getState().stored[postDraftKey(undefined)] ?? {})).toBe(false);
    } finally {
      now.mockRestore();
    }
  });

  it('are copied to localStorage as each change is made, until IndexedDB has them (a crashed tab runs no pagehide)', async () => {
    write('崩溃前刚打的字');
    // No flush, no pagehide: only what the change itself did.
    expect(localStorage.getItem('horde-drafts-unsaved')).toContain('崩溃前刚打的字');
    await flushDrafts();
    expect(localStorage.getItem('horde-drafts-unsaved')).toBeNull();
  });

  it('come back when the page went before IndexedDB committed the last change', async () => {
    write('按下刷新前的最后一个字');
    // The page goes: the synchronous copy is made, the IndexedDB write begins and is dropped.
    backupUnsavedDrafts();
    const copy = localStorage.getItem('horde-drafts-unsaved')!;
    await flushDrafts();
    await idbSet('drafts', {}, idb);
    localStorage.setItem('horde-drafts-unsaved', copy);
    await reload();
    expect((useDrafts.getState().stored[postDraftKey(undefined)] as PostDraft).publishParams.content).toBe('按下刷新前的最后一个字');
    // Written to IndexedDB at that start, the copy is dropped.
    expect(((await stored())![postDraftKey(undefined)] as PostDraft).publishParams.content).toBe('按下刷新前的最后一个字');
    expect(localStorage.getItem('horde-drafts-unsaved')).toBeNull();
  });

  it('write a new picture at once, not after the delay: its blob has no other copy', async () => {
    useDrafts.getState().edit(postDraftKey(undefined), (d) => ({
      ...d,
      publishParams: { ...d.publishParams, attach: [{ localId: 'p1', name: '截图.png', blob: new Blob(['png']), status: 'waiting' }] },
    }));
    // Well inside DRAFT_SAVE_DELAY_MS: the write has begun and commits without a flush.
    await vi.waitFor(async () => expect(((await stored())?.[postDraftKey(undefined)] as PostDraft | undefined)?.publishParams.attach).toHaveLength(1), {
      timeout: 150,
      interval: 10,
    });
  });

  it('merge key by key, newest first', () => {
    const a = { ...emptyDraft(100), topicTags: 'a' };
    const b = { ...emptyDraft(200), topicTags: 'b' };
    expect(newerDrafts({ x: a, y: b }, { x: b, y: a })).toEqual({ x: b, y: b });
    expect(newerDrafts({ x: a }, { x: { removedAt: 150 } })).toEqual({ x: { removedAt: 150 } });
    expect(newerDrafts({ x: { removedAt: 150 } }, { x: b })).toEqual({ x: b });
  });
});
