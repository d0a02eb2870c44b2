/** "App 内打开" links for pages the native app can show. */
import { appLink, type AppTarget } from '../platform/app-links.ts';
import { currentEnvironment } from '../platform/environment.ts';
import { clientConfig } from '../platform/runtime-config.ts';


/** The deep link, offered only in a mobile browser or WeChat (inside the app it is pointless). */
export function openInAppHref(target: AppTarget): string | null {
  const env = currentEnvironment();
  if (env.kind === 'app' || env.kind === 'wechat-miniprogram' || !env.isMobileDevice) return null;
  return appLink(target, clientConfig.appScheme);
}
