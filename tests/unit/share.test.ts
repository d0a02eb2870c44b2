// @vitest-environment node
/** A share to the installed app, into the post draft (features/compose/share.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { flushDrafts, postDraftKey, useDrafts } from '../../src/client/features/compose/drafts.ts';
import { hasShare, sharedText, takeShare } from '../../src/client/features/compose/share.ts';

const draftText = () => {
  const stored = useDrafts.getState().stored[postDraftKey(undefined)];
  return stored && 'publishParams' in stored ? stored.publishParams.content : undefined;
};

describe('sharedText', () => {
  it('writes the title, text and link one per line', () => {
    expect(sharedText({ title: ' 标题 ', text: '正文', url: 'https://example.com/a' })).toBe('标题\n正文\nhttps://example.com/a');
  });

  it('writes each only once: a link already in the text, a title sent as the text', () => {
    expect(sharedText({ title: '好文', text: '好文 https://example.com/a', url: 'https://example.com/a' })).toBe(
      '好文 https://example.com/a',
    );
    expect(sharedText({ title: '同一句', text: '同一句' })).toBe('同一句');
    expect(sharedText({ url: 'https://example.com/a', text: null })).toBe('https://example.com/a');
    expect(sharedText({ title: '  ', text: '' })).toBe('');
  });
});

describe('hasShare', () => {
  it('needs a title, text or link that is not blank', () => {
    expect(hasShare(new URLSearchParams('compose=1&text=x'))).toBe(true);
    expect(hasShare(new URLSearchParams('compose=1&title=%20'))).toBe(false);
    expect(hasShare(new URLSearchParams('compose=1'))).toBe(false);
  });
});

describe('takeShare', () => {
  afterEach(async () => {
    useDrafts.getState().remove(postDraftKey(undefined));
    await flushDrafts();
  });

  it('puts the share after the text the draft already held, keeping its client_id', async () => {
    useDrafts.getState().edit(postDraftKey(undefined), (draft) => ({ ...draft, publishParams: { ...draft.publishParams, content: '先写的 ' } }));
    await flushDrafts();
    const stored = useDrafts.getState().stored[postDraftKey(undefined)];
    const clientId = stored && 'publishParams' in stored ? stored.publishParams.id : '';
    await takeShare(new URLSearchParams({ title: '标题', url: 'https://example.com/a' }), undefined);
    expect(draftText()).toBe('先写的\n\n标题\nhttps://example.com/a');
    const after = useDrafts.getState().stored[postDraftKey(undefined)];
    expect(after && 'publishParams' in after ? after.publishParams.id : '').toBe(clientId);
  });

  it('starts a draft with the share when there was none, and leaves the draft alone without one', async () => {
    await takeShare(new URLSearchParams({ text: '分享的话' }), undefined);
    expect(draftText()).toBe('分享的话');
    await takeShare(new URLSearchParams({ other: 'x' }), undefined);
    expect(draftText()).toBe('分享的话');
  });
});
