/**
 * The WeChat browser, loaded there only: the JS-SDK from its configured URL, configured with the
 * server's signature of the current URL on load and again WECHAT_RESIGN_DELAY_MS (300 ms) after
 * each route change (the signature covers one URL, and the SPA changes it); once configured, the
 * page's share content for friends and moments. The page works whether the SDK or the signature
 * arrives or not.
 */
import { WECHAT_RESIGN_DELAY_MS } from '#shared/constants.ts';
import { endpoints } from '#shared/endpoints.ts';
import { request } from '../../lib/http.ts';
import { onPageShareSet, pageShare } from '../../platform/page-share.ts';
import { loadWechatSdk, type WechatSdk } from '../../platform/wechat-sdk.ts';
import type { HostContext } from './start.ts';

/** The APIs the page uses: the share menus (and their older names, for older WeChat). */
export const WECHAT_JS_API_LIST = ['updateAppMessageShareData', 'updateTimelineShareData', 'onMenuShareAppMessage', 'onMenuShareTimeline'];

function share(wx: WechatSdk): void {
  const { title, desc, link, imgUrl } = pageShare();
  wx.updateAppMessageShareData({ title, desc, link, imgUrl });
  // Moments show the title alone.
  wx.updateTimelineShareData({ title, link, imgUrl });
}

export async function startWechat({ router }: HostContext): Promise<void> {
  const wx = await loadWechatSdk();
  if (!wx) return;
  wx.error((result) => console.warn('WeChat JS-SDK config failed', result));
  let signedUrl = '';
  let configured = false;
  const sign = async () => {
    const url = location.href.split('#')[0]!;
    // The first resolve of the router, or a change of the hash alone, keeps the URL signed.
    if (url === signedUrl) return;
    signedUrl = url;
    try {
      const signed = await request(endpoints.wxShareSign, { url });
      wx.config({ debug: false, ...signed, jsApiList: WECHAT_JS_API_LIST });
      wx.ready(() => {
        configured = true;
        share(wx);
      });
    } catch {
      // Unsigned, WeChat's menu shares the bare page: nothing the reader must hear about.
      signedUrl = '';
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  router.subscribe('onResolved', (event) => {
    if (!event.hrefChanged) return;
    clearTimeout(timer);
    timer = setTimeout(() => void sign(), WECHAT_RESIGN_DELAY_MS);
  });
  // A post's page sets its content when the post arrives, which may be after the signature.
  onPageShareSet(() => configured && location.href.split('#')[0] === signedUrl && share(wx));
  await sign();
}
