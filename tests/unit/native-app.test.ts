/** The native app's share payload and audio status. */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SHARE_PLATFORMS, nativeSharePayload } from '../../src/client/platform/native-share.ts';
import { startAppAudioStatus, useAppAudioStore } from '../../src/client/platform/app-audio-store.ts';

describe('nativeSharePayload', () => {
  it('offers the default platforms and fills every field of SPEC section 3', () => {
    const payload = nativeSharePayload({ title: '小林的动态', desc: '今天学完了', link: 'https://x.example/message/detail/1?utm_source=a', imgUrl: 'https://x.example/i.png' });
    expect(payload).toEqual({
      plats: ['WechatSession', 'WechatTimeLine', 'QQ', 'Sina', 'Copy'],
      title: '小林的动态',
      des: '今天学完了',
      share_content: '小林的动态 https://x.example/message/detail/1?utm_source=a',
      params: {
        title: '小林的动态',
        desc: '今天学完了',
        link: 'https://x.example/message/detail/1?utm_source=a',
        imgUrl: 'https://x.example/i.png',
        type: 'webpage',
        dataUrl: '',
        pagePath: '',
        miniID: '',
        weiboTitle: '小林的动态 https://x.example/message/detail/1?utm_source=a',
        showImage: false,
      },
    });
    expect(payload.plats).toEqual([...DEFAULT_SHARE_PLATFORMS]);
    expect(nativeSharePayload({ title: 't', link: 'l', imgUrl: 'i' }, ['Copy'])).toMatchObject({ plats: ['Copy'], des: '' });
  });
});

describe('appAudioStatus', () => {
  afterEach(() => useAppAudioStore.getState().setAppAudioStatus(null));

  it('starts from the bridge, follows window.appAudioStatus and the event, and ignores what it does not know', () => {
    startAppAudioStatus('playing');
    expect(useAppAudioStore.getState().appAudioStatus).toBe('playing');
    expect(document.documentElement.dataset.appAudio).toBe('playing');
    window.appAudioStatus?.('paused');
    expect(useAppAudioStore.getState().appAudioStatus).toBe('paused');
    window.dispatchEvent(new CustomEvent('appAudioStatus', { detail: 'stopped' }));
    expect(useAppAudioStore.getState().appAudioStatus).toBe('stopped');
    window.appAudioStatus?.('louder');
    expect(useAppAudioStore.getState().appAudioStatus).toBeNull();
    expect(document.documentElement.dataset.appAudio).toBeUndefined();
  });
});
