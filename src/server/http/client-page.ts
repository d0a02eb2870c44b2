/**
 * The built client's three files that carry run-time settings, rendered once at start from the
 * build and the configuration:
 *
 * - index.html gets the client config as inline JSON (<script id="app-config">), the
 *   community's name in <title>, the description, apple-mobile-web-app-title and <noscript>,
 *   and the build's stylesheets inline (inlineStylesheets);
 *   it is served with contentSecurityPolicy(config) (static-client.ts);
 * - manifest.webmanifest gets name, short_name and description from the provider's name;
 * - sw.js gets new precache revisions for those two files, a hash of the build's revision and
 *   what we serve, so a config change changes sw.js: the browser installs the updated service
 *   worker, which precaches the new page instead of keeping the old config forever.
 */
import { createHash } from 'node:crypto';
import { CLIENT_CONFIG_ELEMENT_ID, communityTexts, type ClientConfig } from '#shared/client-config.ts';

/**
 * The Content-Security-Policy of the page (index.html, for every navigation). Scripts only from
 * this origin's files and the WeChat JS-SDK's origin (it loads only inside WeChat), and the page's
 * own inline scripts (`inlineScripts`: the build's, inlineScriptsOf) each by its hash: no other
 * inline script, no eval (the inlined config is `<script type="application/json">`, data that never
 * runs), no plugins, no <base> elsewhere, framed only by this origin, forms only to it. Styles may
 * be inline (Vite's build inlines a small <style>, React and KaTeX write style attributes). Images
 * from anywhere over https (avatars, covers) and data:/blob: (previews, the poster); fonts from
 * this origin (KaTeX's, precached) and data:; calls to this origin and the tracking collector's
 * (when it is another); workers and the manifest from this origin only. default-src covers the
 * rest (frames, media) with this origin.
 */
export function contentSecurityPolicy(
  config: Pick<ClientConfig, 'wechatJsSdkUrl' | 'analyticsCollectorUrl'>,
  inlineScripts: readonly string[] = [],
): string {
  const originOf = (url: string) => (/^https?:\/\//i.test(url) ? ` ${new URL(url).origin}` : '');
  const hashes = inlineScripts.map((script) => ` 'sha256-${createHash('sha256').update(script).digest('base64')}'`).join('');
  return [
    "default-src 'self'",
    `script-src 'self'${hashes}${originOf(config.wechatJsSdkUrl)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'self'",
    "form-action 'self'",
    "img-src 'self' data: blob: https:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    `connect-src 'self'${originOf(config.analyticsCollectorUrl)}`,
    "worker-src 'self'",
    "manifest-src 'self'",
  ].join('; ');
}

/** The text of each inline script of `html` that runs (not one with a src, not JSON data). */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes = '']) => !/\bsrc=/i.test(attributes) && !/\btype="application\/json"/i.test(attributes))
    .map(([, , body = '']) => body);
}

/** Text safe inside an HTML element or a double-quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON safe inside <script type="application/json">: no `<` (so no `</script>` or `<!--`),
 * no `>` or `&`, and no U+2028/U+2029. JSON.parse reads the escapes back as the same text.
 */
export function jsonForScript(value: unknown): string {
  return jsonTextForScript(JSON.stringify(value));
}

/** jsonForScript for JSON that is text already (an answer of the API). */
export function jsonTextForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Replaces the element `pattern` finds, or adds `element` where `insert` says when the build has none. */
function setElement(html: string, pattern: RegExp, element: string, insert: (html: string, element: string) => string): string {
  let found = false;
  const replaced = html.replace(pattern, () => {
    found = true;
    return element;
  });
  return found ? replaced : insert(html, element);
}

// Replacement functions, never replacement strings: a `$&` in a provider's name stays text.
const intoHead = (html: string, element: string) => html.replace(/<\/head>/i, (head) => `  ${element}\n  ${head}`);
export const atBodyStart = (html: string, element: string) => html.replace(/<body(\s[^>]*)?>/i, (body) => `${body}\n    ${element}`);

/** A <meta name="..."> element of any attribute order, self-closed or not. */
const metaNamed = (name: string) => new RegExp(`<meta\\s[^>]*name=["']${name}["'][^>]*>`, 'gi');

/**
 * The link that names an inlined stylesheet: `disabled`, never applied; and of a type no browser
 * loads, never fetched (Chromium fetches a disabled stylesheet all the same, on the first visit's
 * connection, before the first paint).
 */
const inlinedStylesheetLink = (href: string) => `<link rel="stylesheet" href="${href}" type="text/x-inlined-above" disabled>`;

/**
 * The build's own stylesheets (<link rel="stylesheet" href="/assets/….css">) written into the
 * page as <style>: the first paint waits for no request but the page (render-blocking CSS was
 * most of a first visit's wait). A file that cannot be read, or whose text could close the
 * element, keeps its link.
 *
 * Each inlined stylesheet is still named by a link (inlinedStylesheetLink), which the app's code
 * finds when a lazy chunk that lists it loads: Vite's preload helper adds no stylesheet the page
 * already links, so no second copy arrives later to restyle and lay out the whole page again (the
 * entry's stylesheet, fetched again on a post's page, did).
 */
export function inlineStylesheets(html: string, readAsset: (href: string) => string | undefined): string {
  return html.replace(/<link\s[^>]*rel=["']stylesheet["'][^>]*>/gi, (link) => {
    const href = /\shref=["'](\/assets\/[^"'?#]+\.css)["']/i.exec(link)?.[1];
    if (href === undefined || /\sdisabled[\s>=]/i.test(link)) return link;
    const css = readAsset(href);
    if (css === undefined || /<\/style/i.test(css)) return link;
    return `<style>${css}</style>${inlinedStylesheetLink(href)}`;
  });
}

/** Whether the page still links a stylesheet it must fetch before it can paint (one not inlined). */
export const linksStylesheetToFetch = (html: string) => /<link\s(?![^>]*\sdisabled[\s>=])[^>]*rel=["']stylesheet["'][^>]*>/i.test(html);

export function renderIndexHtml(buildHtml: string, config: ClientConfig, readAsset?: (href: string) => string | undefined): string {
  if (!/<\/head>/i.test(buildHtml) || !/<body(\s[^>]*)?>/i.test(buildHtml)) throw new Error('index.html has no <head> or <body>');
  const texts = communityTexts(config.providerName);
  let html = readAsset ? inlineStylesheets(buildHtml, readAsset) : buildHtml;
  // Any config element the build carries (say, the Vite dev default) gives way to ours.
  html = html.replace(new RegExp(`<script[^>]*id=["']${CLIENT_CONFIG_ELEMENT_ID}["'][^>]*>[\\s\\S]*?</script>\\s*`, 'gi'), '');
  html = setElement(html, /<title>[\s\S]*?<\/title>/gi, `<title>${escapeHtml(texts.title)}</title>`, intoHead);
  html = setElement(html, metaNamed('description'), `<meta name="description" content="${escapeHtml(texts.pageDescription)}" />`, intoHead);
  html = setElement(
    html,
    metaNamed('apple-mobile-web-app-title'),
    `<meta name="apple-mobile-web-app-title" content="${escapeHtml(texts.appName)}" />`,
    intoHead,
  );
  html = setElement(html, /<noscript>[\s\S]*?<\/noscript>/gi, `<noscript>${escapeHtml(texts.noscript)}</noscript>`, atBodyStart);
  // Before the app's scripts (right after the charset, which must stay in the first 1024 bytes).
  const configElement = `<script id="${CLIENT_CONFIG_ELEMENT_ID}" type="application/json">${jsonForScript(config)}</script>`;
  const charset = /<meta\s[^>]*charset=[^>]*>/i.exec(html);
  if (charset) {
    const end = charset.index + charset[0].length;
    return `${html.slice(0, end)}\n    ${configElement}${html.slice(end)}`;
  }
  return html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}\n    ${configElement}`);
}

/** The web app manifest with the community's name and description from the provider's name. */
export function renderManifest(buildManifest: string, config: ClientConfig): string {
  const manifest = JSON.parse(buildManifest) as Record<string, unknown>;
  const texts = communityTexts(config.providerName);
  return JSON.stringify({ ...manifest, name: texts.appName, short_name: texts.appName, description: texts.manifestDescription });
}

export const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * Replaces the revision of `url` in sw.js's precache manifest (`{"revision":"…","url":"index.html"}`,
 * as vite-plugin-pwa writes it, in either key order). null when the entry is not there.
 */
export function replacePrecacheRevision(
  sw: string,
  url: string,
  revise: (buildRevision: string) => string,
): string | null {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const entry = new RegExp(
    `\\{"revision":"([^"]*)","url":"${escaped}"\\}|\\{"url":"${escaped}","revision":"([^"]*)"\\}`,
    'g',
  );
  let found = false;
  const out = sw.replace(entry, (_match, first: string | undefined, second: string | undefined) => {
    found = true;
    return JSON.stringify({ revision: revise(first ?? second ?? ''), url });
  });
  return found ? out : null;
}

export interface RenderedClient {
  indexHtml: string;
  manifest: string | undefined;
  sw: string | undefined;
  /** Files whose precache entry could not be found in sw.js (a changed build format). */
  unrevised: string[];
}

/** Renders the three files from the build's text (undefined: the build has no such file). */
export function renderClient(
  build: { indexHtml: string; manifest?: string | undefined; sw?: string | undefined; readAsset?: (href: string) => string | undefined },
  config: ClientConfig,
): RenderedClient {
  const indexHtml = renderIndexHtml(build.indexHtml, config, build.readAsset);
  const manifest = build.manifest === undefined ? undefined : renderManifest(build.manifest, config);
  const unrevised: string[] = [];
  let sw = build.sw;
  if (sw !== undefined) {
    const served: [string, string | undefined][] = [
      ['index.html', indexHtml],
      ['manifest.webmanifest', manifest],
    ];
    for (const [url, content] of served) {
      if (content === undefined) continue;
      const revised = replacePrecacheRevision(sw, url, (buildRevision) => md5(`${buildRevision}\n${content}`));
      if (revised === null) unrevised.push(url);
      else sw = revised;
    }
  }
  return { indexHtml, manifest, sw, unrevised };
}
