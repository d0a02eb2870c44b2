/**
 * Inside the native app, loaded there only:
 * - every target of this app (a post, a user centre, a topic) and of the learning site (courses,
 *   columns, articles, daily lessons) opens through its app link when the app's version passes
 *   the target's gate (platform/app-gates.ts), else 需要升级到极客时间最新版; navigations of the
 *   router are held by a history blocker, links of the learning site by a click listener;
 * - login is the app's own (its login link); its loginSuccess / logoutSuccess events refresh or
 *   clear the login user (features/auth/install.ts);
 * - sharing goes to the app's share sheet with the share payload and the default platforms;
 * - appAudioStatus follows the app's player.
 */
import { setLoginOpener } from '../../entities/session/login.ts';
import { nativeBridge } from '../../entities/session/credentials.ts';
import { targetOpening } from '../../platform/app-gates.ts';
import { targetOfUrl, type AppTarget } from '../../platform/app-links.ts';
import { startAppAudioStatus } from '../../platform/app-audio-store.ts';
import { nativeSharePayload } from '../../platform/native-share.ts';
import { pageShare } from '../../platform/page-share.ts';
import { clientConfig } from '../../platform/runtime-config.ts';
import { setHostShare } from '../../ui/share.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import type { HostContext } from './start.ts';

export function startNativeApp({ router, env }: HostContext): void {
  const bridge = nativeBridge();

  /** Opens `target` the app's way; false when it is a page this web view shows itself. */
  const open = (target: AppTarget): boolean => {
    const opening = targetOpening(env, target, clientConfig.appScheme);
    if (opening.kind === 'web') return false;
    if (opening.kind === 'upgrade') toast.warning('需要升级到极客时间最新版');
    else if (bridge?.openUrl) bridge.openUrl(opening.href);
    else window.location.href = opening.href;
    return true;
  };

  router.history.block({
    blockerFn: ({ nextLocation, action }) => {
      if (action !== 'PUSH' && action !== 'REPLACE') return false;
      const target = targetOfUrl(new URL(nextLocation.href, location.origin), location.origin, clientConfig.learningSiteUrl);
      return target ? open(target) : false;
    },
    enableBeforeUnload: false,
  });

  // Links to the learning site (in post text, say) are anchors the router never sees.
  document.addEventListener(
    'click',
    (event) => {
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      if (!(anchor instanceof HTMLAnchorElement) || event.defaultPrevented) return;
      const url = new URL(anchor.href, location.href);
      if (url.origin === location.origin) return;
      const target = targetOfUrl(url, location.origin, clientConfig.learningSiteUrl);
      if (target && open(target)) event.preventDefault();
    },
    true,
  );

  setLoginOpener(() => void open({ name: 'login' }));

  if (bridge?.share) {
    const share = bridge.share.bind(bridge);
    setHostShare((content) => {
      const page = pageShare();
      share(
        JSON.stringify(
          nativeSharePayload({
            title: content.title,
            desc: content.text ?? page.desc,
            link: content.url,
            imgUrl: content.imageUrl ?? page.imgUrl,
          }),
        ),
      );
    });
  }

  startAppAudioStatus(bridge?.getAudioStatus?.());
}
