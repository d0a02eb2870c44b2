/**
 * A WeChat mini-program's web view, loaded there only. Requests carry the stored Ticket and
 * Device-Id as everywhere in the mini-program (credentials.ts); the rest goes through the JS-SDK's
 * `wx.miniProgram` bridge:
 * - share: the mini-program shares the web view from its own menu, with what the page last
 *   posted (wx.miniProgram.postMessage, delivered when it shares): posted on load and after each
 *   route change; a 分享 in the page posts the chosen content and says where the menu is;
 * - navigation: a web view opens no new windows and no other sites, so links out of this app
 *   (and window.open) go to the mini-program's web-view page with the URL.
 */
import { WECHAT_RESIGN_DELAY_MS } from '#shared/constants.ts';
import { onPageShareSet, pageShare } from '../../platform/page-share.ts';
import { loadWechatSdk } from '../../platform/wechat-sdk.ts';
import { setHostShare } from '../../ui/share.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import type { HostContext } from './start.ts';

/** The mini-program's page that shows a web address (its `url` parameter). */
export const MINIPROGRAM_WEBVIEW_PAGE = '/pages/webview/webview';

export async function startMiniProgram({ router }: HostContext): Promise<void> {
  const bridge = (await loadWechatSdk())?.miniProgram;
  if (!bridge) return;
  let posted = '';
  const post = (share = pageShare()) => {
    posted = JSON.stringify(share);
    bridge.postMessage({ data: { type: 'share', ...share } });
  };
  // Only when it says something new: the first page may resolve after the post made on load.
  const postIfChanged = () => JSON.stringify(pageShare()) !== posted && post();

  const openOutside = (url: string) => bridge.navigateTo({ url: `${MINIPROGRAM_WEBVIEW_PAGE}?url=${encodeURIComponent(url)}` });
  window.open = (url?: string | URL) => {
    if (url) openOutside(new URL(url, location.href).href);
    return null;
  };
  document.addEventListener(
    'click',
    (event) => {
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      if (!(anchor instanceof HTMLAnchorElement) || event.defaultPrevented) return;
      const url = new URL(anchor.href, location.href);
      if (url.origin === location.origin && anchor.target !== '_blank') return;
      if (!/^https?:$/.test(url.protocol)) return;
      event.preventDefault();
      openOutside(url.href);
    },
    true,
  );

  setHostShare((content) => {
    post({ ...pageShare(), title: content.title, desc: content.text ?? '', link: content.url, ...(content.imageUrl ? { imgUrl: content.imageUrl } : {}) });
    toast.info('点击右上角「···」分享给朋友');
  });

  let timer: ReturnType<typeof setTimeout> | undefined;
  router.subscribe('onResolved', (event) => {
    if (!event.hrefChanged) return;
    clearTimeout(timer);
    // After the new page has set its title and share content.
    timer = setTimeout(postIfChanged, WECHAT_RESIGN_DELAY_MS);
  });
  // A post's page sets its content when the post arrives, maybe later than that.
  onPageShareSet(postIfChanged);
  post();
}
