/**
 * The installable app: its web app manifest and the service worker's build (sw/sw.ts, given the
 * precache list), for vite.config.ts. The build writes the manifest with the default provider's
 * name; the server serves it and the page with the run-time PROVIDER_NAME
 * (src/server/http/client-page.ts).
 */
import type { Plugin } from 'vite';
import { type ManifestOptions, VitePWA } from 'vite-plugin-pwa';
import { communityTexts, DEFAULT_CLIENT_CONFIG } from '../shared/client-config.ts';
import { SHARE_FILES_FIELD, SHARE_TARGET_PATH } from '../shared/static-paths.ts';

const texts = communityTexts(DEFAULT_CLIENT_CONFIG.providerName);

/** The web app manifest, written as dist/client/manifest.webmanifest. */
const webAppManifest: Partial<ManifestOptions> = {
  id: '/home',
  name: texts.appName,
  short_name: texts.appName,
  description: texts.manifestDescription,
  lang: 'zh-CN',
  dir: 'ltr',
  categories: ['education', 'social', 'news'],
  start_url: '/home',
  scope: '/',
  display: 'standalone',
  background_color: '#f5f6f7',
  theme_color: '#fa8919',
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  // The installed icon's menu (long press, right click). Logged out, 发动态 asks for a login first.
  shortcuts: [
    {
      name: '发动态',
      description: '写一条新动态',
      url: '/home?compose=1',
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
    },
    {
      name: '关注',
      description: '关注的频道和用户的动态',
      url: '/follow',
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
    },
  ],
  // The richer install dialog: the app as it looks (public/screenshots, not precached).
  screenshots: [
    { src: '/screenshots/feed-narrow.png', sizes: '720x1280', type: 'image/png', form_factor: 'narrow', label: '手机上的动态首页' },
    { src: '/screenshots/feed-wide.png', sizes: '1280x800', type: 'image/png', form_factor: 'wide', label: '电脑上的动态首页与侧栏' },
  ],
  // Sharing a page, text or pictures to the installed app opens the composer with them
  // (sw/share-target.ts keeps the pictures, features/compose/share.ts takes them).
  share_target: {
    action: SHARE_TARGET_PATH,
    method: 'POST',
    enctype: 'multipart/form-data',
    params: { title: 'title', text: 'text', url: 'url', files: [{ name: SHARE_FILES_FIELD, accept: ['image/*'] }] },
  },
  display_override: ['standalone', 'minimal-ui'],
  // One window: a link or a share that opens the installed app goes to the window already open, focused.
  launch_handler: { client_mode: ['navigate-existing', 'auto'] },
};

/** vite-plugin-pwa: the service worker built from sw/ with the precache list injected, and the manifest written. */
export function pwa(): Plugin[] {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'sw',
    filename: 'sw.ts',
    injectRegister: false,
    registerType: 'prompt',
    includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
    injectManifest: {
      globPatterns: ['**/*.{js,css,html,woff2}'],
      rollupFormat: 'es',
    },
    manifest: webAppManifest,
    devOptions: { enabled: false },
  });
}
