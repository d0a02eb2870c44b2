/**
 * The settings the client needs at run time. The server reads them from its environment
 * (src/server/config.ts) and serves them inside index.html as
 *
 *   <script id="app-config" type="application/json">{...}</script>
 *
 * so a deployment changes them without a rebuild. The client reads
 * `JSON.parse(document.getElementById(CLIENT_CONFIG_ELEMENT_ID).textContent)` and falls back to
 * DEFAULT_CLIENT_CONFIG (for instance under the Vite dev server, which serves the raw page).
 */

export interface ClientConfig {
  /** The provider's name: page titles, manifest, texts that name the community. */
  providerName: string;
  /** Base URL of the learning site (courses, columns, articles), without a trailing slash. */
  learningSiteUrl: string;
  /** Scheme of native app links, e.g. `geektime://`. */
  appScheme: string;
  /** The page the AI assistant widget opens. */
  aiAssistantUrl: string;
  /** App id sent with tracking events. */
  analyticsAppId: string;
  /** The collector's log store: test and production deployments name different stores. */
  analyticsLogStore: string;
  /** Where tracking batches go: a path of this server, or an http(s) URL of another collector. */
  analyticsCollectorUrl: string;
  /** WeChat JS-SDK app id (wx.config). */
  wechatAppId: string;
  /** The WeChat JS-SDK script, loaded only inside WeChat (browser and mini-program web view). */
  wechatJsSdkUrl: string;
}

/** The defaults of a local start; the server's defaults are these same values. */
export const DEFAULT_CLIENT_CONFIG: ClientConfig = {
  providerName: '极客时间',
  learningSiteUrl: 'https://time.geekbang.org',
  appScheme: 'geektime://',
  aiAssistantUrl: 'https://time.geekbang.org/ai',
  analyticsAppId: 'community-feed',
  analyticsLogStore: 'community-feed-test',
  analyticsCollectorUrl: '/serv/collect',
  wechatAppId: 'wx0000000000000000',
  wechatJsSdkUrl: 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js',
};

/** id of the <script type="application/json"> element that carries the config in index.html. */
export const CLIENT_CONFIG_ELEMENT_ID = 'app-config';

/** The texts that name the community, written from the provider's name (page head, manifest). */
export function communityTexts(providerName: string) {
  const community = `${providerName}社区`;
  return {
    /** <title>: page titles default to the provider's name. */
    title: providerName,
    /** <meta name="apple-mobile-web-app-title">, manifest name and short_name. */
    appName: community,
    /** <meta name="description">. */
    pageDescription: `${community}：学习者的动态、频道、话题、代码片段与笔记，和同路人一起学习交流。`,
    /** The manifest's description. */
    manifestDescription: `${providerName}学习社区：动态、频道、话题与代码片段`,
    /** <noscript>. */
    noscript: `请开启 JavaScript 以使用${community}。`,
  };
}
