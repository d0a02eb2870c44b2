// @vitest-environment node
/**
 * Which pages the service worker keeps for the next start of /home (sw/kept-first-screen.ts, sw/keepable-page.ts):
 * the server's /home, its first feed page inside, every script it starts in the worker's own
 * precache; a page of another version (an entry this worker does not have), an error or the
 * bare shell is never kept nor served.
 */
import { describe, expect, it } from 'vitest';
import { keepablePage, scriptsOfPage } from '../../sw/keepable-page.ts';

/** /home as the server serves it with its first screen: the start script naming the entry, the runtime preloaded. */
const SERVED_HOME = `<!doctype html><html><head><link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-a1.js"><style>body{}</style></head>
<body><script type="application/json" data-first-read="channelPosts">{"code":0,"data":{"list":[{"content":"\\u003cscript src=\\"/assets/evil.js\\">"}],"page":{"more":false,"next_index":0}}}</script>
<div id="root"><div class="first-screen first-screen--mobile"><p>&lt;script src=&quot;/assets/evil.js&quot;&gt;</p></div></div>
<script type="module" src="/start-after-first-paint.js" data-app-entry="/assets/index-b2.js"></script></body></html>`;

const html = (body: string, status = 200, type = 'text/html; charset=utf-8') => new Response(body, { status, headers: { 'content-type': type } });
const precacheOf = (paths: string[]) => async (path: string) => paths.includes(path);
const THIS_VERSION = precacheOf(['/assets/rolldown-runtime-a1.js', '/start-after-first-paint.js', '/assets/index-b2.js', '/index.html']);

describe('the page the worker keeps', () => {
  it('names the scripts the page starts and preloads, never text that looks like one', () => {
    expect(scriptsOfPage(SERVED_HOME).sort()).toEqual(['/assets/index-b2.js', '/assets/rolldown-runtime-a1.js', '/start-after-first-paint.js']);
  });

  it('is the server’s /home with its first feed page, every script of it in this worker’s precache', async () => {
    expect(await keepablePage(html(SERVED_HOME), THIS_VERSION)).toBe(SERVED_HOME);
  });

  it('is never a page of another version, an error, the shell without the feed, or not a page', async () => {
    const otherVersion = precacheOf(['/assets/rolldown-runtime-a1.js', '/start-after-first-paint.js', '/assets/index-c3.js']);
    expect(await keepablePage(html(SERVED_HOME), otherVersion)).toBeUndefined();
    expect(await keepablePage(html(SERVED_HOME, 503), THIS_VERSION)).toBeUndefined();
    expect(await keepablePage(html(SERVED_HOME.replace('data-first-read="channelPosts"', 'data-first-read="postDetail"')), THIS_VERSION)).toBeUndefined();
    expect(await keepablePage(html(SERVED_HOME, 200, 'application/json'), THIS_VERSION)).toBeUndefined();
    const noScripts = SERVED_HOME.replace(/<script type="module"[^>]*><\/script>/, '').replace(/<link rel="modulepreload"[^>]*>/, '');
    expect(await keepablePage(html(noScripts), THIS_VERSION)).toBeUndefined();
  });
});
