/**
 * The pieces of `npm run bench`'s first-screen groups (tests/bench/first-screen.ts), kept from
 * rotting by `npm test` (the groups themselves run Lighthouse and Chromium for minutes and assert
 * nothing): the figures read from a Lighthouse result and their medians over rounds, the
 * per-round ratios, and the bare React anchors, built with Vite and served by their own process
 * as the bench serves them. Nothing here is timed.
 */
import { request } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOR_POSTS_PATH, ANCHOR_SW_PATH, buildAnchors, startAnchorServer, type AnchorServer, type BuiltAnchors } from '../bench/anchors/anchors.ts';
import { lighthouseFigures, summarizeLighthouse, type LighthouseResultLike } from '../bench/lighthouse-figures.ts';
import { median, medianRatio } from '../bench/stats.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { firstVisitScripts, totalBytes } from '../e2e/support/first-visit.ts';

type Audits = LighthouseResultLike['audits'];

/** A Lighthouse result with the parts the bench reads (the real one has many more). */
function lighthouseResult(options: {
  scores: [number | null, number | null, number | null, number | null];
  lcpMs: number;
  extraAudits?: Audits;
  refs?: Partial<Record<'performance' | 'accessibility' | 'best-practices' | 'seo', { id: string; weight: number }[]>>;
  warnings?: string[];
}): LighthouseResultLike {
  const metric = (id: string, numericValue: number) => ({ id, title: id, score: 0.9, scoreDisplayMode: 'numeric', numericValue, displayValue: `${numericValue}` });
  const [performance, accessibility, bestPractices, seo] = options.scores;
  return {
    runWarnings: options.warnings ?? [],
    audits: {
      'largest-contentful-paint': metric('largest-contentful-paint', options.lcpMs),
      'first-contentful-paint': { ...metric('first-contentful-paint', options.lcpMs / 2), score: 1 },
      'total-blocking-time': { ...metric('total-blocking-time', 30), score: 1 },
      interactive: { ...metric('interactive', options.lcpMs + 1000), score: 1 },
      ...options.extraAudits,
    },
    categories: {
      performance: {
        score: performance,
        auditRefs: [
          { id: 'largest-contentful-paint', weight: 25 },
          { id: 'first-contentful-paint', weight: 10 },
          { id: 'total-blocking-time', weight: 30 },
          ...(options.refs?.performance ?? []),
        ],
      },
      accessibility: { score: accessibility, auditRefs: options.refs?.accessibility ?? [] },
      'best-practices': { score: bestPractices, auditRefs: options.refs?.['best-practices'] ?? [] },
      seo: { score: seo, auditRefs: options.refs?.seo ?? [] },
    },
  };
}

describe('the figures of a Lighthouse run', () => {
  const contrast = { id: 'color-contrast', title: 'Background and foreground colors do not have a sufficient contrast ratio.', scoreDisplayMode: 'binary' };
  const inspectorIssues = { id: 'inspector-issues', title: 'Issues were logged', scoreDisplayMode: 'binary' };

  it('reads the four category scores out of 100, the metrics, and every audit below 1 with its category and weight', () => {
    const figures = lighthouseFigures(
      lighthouseResult({
        scores: [0.94, 0.88, 1, 0.92],
        lcpMs: 2345.6,
        extraAudits: {
          'color-contrast': { ...contrast, score: 0 },
          'inspector-issues': { ...inspectorIssues, score: 1 },
          'has-hsts': { id: 'has-hsts', title: 'Use a strong HSTS policy', score: null, scoreDisplayMode: 'informative' },
          'unused-javascript': { id: 'unused-javascript', title: 'Reduce unused JavaScript', score: 0.5, scoreDisplayMode: 'metricSavings', displayValue: 'Est savings of 20 KiB' },
          'font-size': { id: 'font-size', title: 'Document uses legible font sizes', score: null, scoreDisplayMode: 'error', errorMessage: 'no text' },
        },
        refs: {
          performance: [{ id: 'unused-javascript', weight: 0 }],
          accessibility: [{ id: 'color-contrast', weight: 7 }],
          'best-practices': [
            { id: 'inspector-issues', weight: 1 },
            { id: 'has-hsts', weight: 0 },
          ],
          seo: [{ id: 'font-size', weight: 1 }],
        },
        warnings: ['The tested device appears to have a slower CPU than Lighthouse expects.'],
      }),
    );
    expect(figures.scores).toEqual({ performance: 94, accessibility: 88, 'best-practices': 100, seo: 92 });
    expect(figures.lcpMs).toBe(2345.6);
    expect(figures.fcpMs).toBe(1172.8);
    expect(figures.tbtMs).toBe(30);
    expect(figures.ttiMs).toBe(3345.6);
    // The LCP metric itself is below 1 (0.9); a passed, an informative (score null) audit is not listed.
    expect(figures.failing.map((audit) => [audit.category, audit.id, audit.weight, audit.score])).toEqual([
      ['performance', 'largest-contentful-paint', 25, 0.9],
      ['performance', 'unused-javascript', 0, 0.5],
      ['accessibility', 'color-contrast', 7, 0],
      ['seo', 'font-size', 1, null],
    ]);
    expect(figures.failing.find((audit) => audit.id === 'font-size')?.displayValue).toBe('error: no text');
    expect(figures.warnings).toHaveLength(1);
  });

  it('names the elements an accessibility audit failed on, and why, since it has no value of its own', () => {
    const node = (selector: string) => ({ node: { selector, explanation: `Fix any of the following:\n  Target has insufficient size (44px by 15.9px)` } });
    const figures = lighthouseFigures(
      lighthouseResult({
        scores: [1, 0.96, 1, 1],
        lcpMs: 1000,
        extraAudits: {
          'target-size': {
            id: 'target-size',
            title: 'Touch targets do not have sufficient size or spacing.',
            score: 0,
            scoreDisplayMode: 'binary',
            details: { items: ['li.comment > button', 'a.more', 'b', 'c'].map(node) },
          },
        },
        refs: { accessibility: [{ id: 'target-size', weight: 7 }] },
      }),
    );
    expect(figures.failing.find((audit) => audit.id === 'target-size')?.displayValue).toBe(
      'li.comment > button (Target has insufficient size (44px by 15.9px)); a.more (Target has insufficient size (44px by 15.9px)); b (Target has insufficient size (44px by 15.9px)); and 1 more',
    );
  });

  it('a category Lighthouse could not score is null, not 0', () => {
    expect(lighthouseFigures(lighthouseResult({ scores: [0.5, null, 1, 1], lcpMs: 1000 })).scores.accessibility).toBeNull();
  });

  it('summarizes rounds by the median of each score and metric, whatever the order of the rounds', () => {
    const runs = [
      lighthouseResult({ scores: [0.96, 0.88, 1, 1], lcpMs: 2400, extraAudits: { 'color-contrast': { ...contrast, score: 0 } }, refs: { accessibility: [{ id: 'color-contrast', weight: 7 }] }, warnings: ['slow CPU'] }),
      lighthouseResult({ scores: [0.94, 0.92, 0.96, null], lcpMs: 2300, warnings: ['slow CPU'] }),
      lighthouseResult({ scores: [0.99, 0.9, 1, 1], lcpMs: 3100, extraAudits: { 'color-contrast': { ...contrast, score: 0 } }, refs: { accessibility: [{ id: 'color-contrast', weight: 7 }] } }),
    ].map(lighthouseFigures);
    const summary = summarizeLighthouse(runs);
    expect(summary.runs).toBe(3);
    // 94, 96, 99 -> 96; 88, 90, 92 -> 90; SEO scored in two rounds only: the median of those two.
    expect(summary.scores).toEqual({ performance: 96, accessibility: 90, 'best-practices': 100, seo: 100 });
    expect(summary.lcpMs).toBe(2400);
    expect(summary.fcpMs).toBe(1200);
    expect(summary.ttiMs).toBe(3400);
    const reversed = summarizeLighthouse([...runs].reverse());
    expect([reversed.scores, reversed.lcpMs, reversed.fcpMs, reversed.tbtMs]).toEqual([summary.scores, summary.lcpMs, summary.fcpMs, summary.tbtMs]);
    expect(summary.failing.map((audit) => [audit.id, audit.failedRuns, audit.medianScore])).toEqual([
      ['largest-contentful-paint', 3, 0.9],
      ['color-contrast', 2, 0],
    ]);
    expect(reversed.failing.map((audit) => [audit.id, audit.failedRuns, audit.medianScore])).toEqual(
      summary.failing.map((audit) => [audit.id, audit.failedRuns, audit.medianScore]),
    );
    // What Lighthouse showed for the audit, round by round.
    expect(summary.failing[0]!.displayValues).toEqual(['2400', '2300', '3100']);
    expect(summary.warnings).toEqual(['slow CPU']);
  });

  it('medians: the middle value, the mean of the two middle ones for an even count; ratios per round', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    // Round by round (2/1, 4/4, 9/3), not the ratio of the medians (4/3).
    expect(medianRatio([2, 4, 9], [1, 4, 3])).toBe(2);
    expect(() => medianRatio([1, 2], [1])).toThrow();
  });
});

/** One GET with the given headers; node:http, so the answer's encoding is seen as sent. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the bare React anchors', () => {
  let outDir: string;
  let built: BuiltAnchors;
  let bare: AnchorServer;
  let offline: AnchorServer;
  let stack: AnchorServer;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'bench-anchors-test-'));
    built = await buildAnchors(outDir);
    [bare, offline, stack] = await Promise.all([startAnchorServer(built.bare), startAnchorServer(built.offline), startAnchorServer(built.stack)]);
  }, 60_000);

  afterAll(async () => {
    await bare?.stop();
    await offline?.stop();
    await stack?.stop();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  const files = async (dir: string) =>
    (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length));

  it('build a React page whose script fetches the ten posts of the JSON, without a service worker in the bare one', async () => {
    const html = await readFile(join(built.bare, 'index.html'), 'utf8');
    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeTruthy();
    const code = await readFile(join(built.bare, script!), 'utf8');
    expect(code).toContain(ANCHOR_POSTS_PATH);
    expect(code).toContain('react.transitional.element'); // React 19's element tag: React is in the bundle
    const posts = JSON.parse(await readFile(join(built.bare, ANCHOR_POSTS_PATH), 'utf8')) as { id: number; content: string }[];
    expect(posts).toHaveLength(10);
    expect(await files(built.bare)).not.toContain(ANCHOR_SW_PATH);
    expect(html).not.toContain('serviceWorker');
  });

  it("build the stack alone as a page that works: its /home shows the JSON's ten posts through the router and the query cache, and a visit loads more JS than the bare page's", async () => {
    const viewport = { width: 375, height: 740 };
    const browser = await launchBrowser({ viewport });
    try {
      await browser.page.goto(`${stack.url}/home`);
      await expect.poll(() => browser.page.locator('main article').count()).toBe(10);
      // dayjs's format, not the bare page's Intl one.
      await expect(browser.page.locator('main article time').first().textContent()).resolves.toMatch(/^\d{1,2}月\d{1,2}日 \d\d:\d\d$/);
      // The router's Link, and the cache persisted through idb-keyval.
      await expect(browser.page.locator('main h1 a[href="/home"]').count()).resolves.toBe(1);
      const persisted = () => browser.page.evaluate(() => indexedDB.databases().then((databases) => databases.map((database) => database.name)));
      await expect.poll(persisted).toContain('stack-anchor');
    } finally {
      await browser.close();
    }
    const stackBytes = totalBytes(await firstVisitScripts(stack.url, viewport, built.stack));
    const bareBytes = totalBytes(await firstVisitScripts(bare.url, viewport, built.bare));
    expect(bareBytes).toBeGreaterThan(50_000); // React and react-dom at least
    expect(stackBytes).toBeGreaterThan(bareBytes + 25_000); // the router and the query cache besides
  }, 60_000);

  it('give the offline anchor a worker that precaches every file of its build and a registration in the page', async () => {
    const worker = await readFile(join(built.offline, ANCHOR_SW_PATH), 'utf8');
    const served = (await files(built.offline)).filter((path) => path !== ANCHOR_SW_PATH);
    expect(served).toEqual(expect.arrayContaining(['/index.html', ANCHOR_POSTS_PATH]));
    // The list as the build wrote it (a string literal in any quotes), not merely somewhere in the code.
    const precached = /addAll\(\[([^\]]*)\]\)/.exec(worker)?.[1]?.split(',').map((item) => item.trim().slice(1, -1));
    expect(precached?.sort(), worker).toEqual(served.sort());
    expect(worker).not.toContain('__PRECACHE__');
    expect(await readFile(join(built.offline, 'index.html'), 'utf8')).toContain(`navigator.serviceWorker.register('${ANCHOR_SW_PATH}')`);
  });

  it('serve each from a process of its own, compressed and cached as our server serves the client', async () => {
    expect(bare.pid).not.toBe(process.pid);
    const html = await readFile(join(built.bare, 'index.html'), 'utf8');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await get(`${bare.url}${script}`, { 'accept-encoding': 'gzip' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await get(`${bare.url}${script}`, { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('br');

    for (const path of ['/', '/home', '/message/detail/1']) {
      const page = await get(`${bare.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers['cache-control'], path).toBe('no-cache');
      expect(page.body.toString('utf8'), path).toBe(html);
    }
    const json = await get(`${bare.url}${ANCHOR_POSTS_PATH}`);
    expect(JSON.parse(json.body.toString('utf8'))).toHaveLength(10);
    expect((await get(`${bare.url}/assets/missing.js`)).status).toBe(404);

    const worker = await get(`${offline.url}${ANCHOR_SW_PATH}`);
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
  });
});
