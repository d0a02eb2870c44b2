/**
 * Code snippets in the built app against the real server: a seeded snippet's page shows its code
 * as token spans with line numbers (the language loaded on demand), scrolls long lines sideways
 * on a phone, and 复制代码 puts the code on the clipboard; a first visit to /home loads nothing
 * of CodeMirror, Lezer or the code feature.
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '#shared/api.ts';
import type { CodeSnippet } from '#shared/schemas.ts';
import { PROJECT_ROOT, allFeedPosts, callApi } from './support/app.ts';
import { sharedApp, withBrowser } from './support/fixtures.ts';

const ASSETS = join(PROJECT_ROOT, 'dist/client/assets');

/**
 * The built chunks that hold code of the editor or the highlighter, found by their source maps:
 * CodeMirror, Lezer, the language packages, features/code and the language registry.
 */
function codeChunks(): Map<string, string[]> {
  const chunks = new Map<string, string[]>();
  for (const file of readdirSync(ASSETS).filter((f) => f.endsWith('.js'))) {
    let sources: string[];
    try {
      sources = (JSON.parse(readFileSync(join(ASSETS, `${file}.map`), 'utf8')) as { sources: string[] }).sources;
    } catch {
      continue; // a chunk without a map (the runtime helper) is none of ours
    }
    const code = sources.filter((s) => /node_modules\/(@codemirror|@lezer|codemirror)\/|src\/client\/(features\/code|lib\/code-languages)/.test(s));
    if (code.length > 0) chunks.set(`/assets/${file}`, code);
  }
  return chunks;
}

/** Paths of the scripts a page loads while `visit` runs. */
async function scriptsDuring(page: Page, visit: () => Promise<void>): Promise<Set<string>> {
  const scripts = new Set<string>();
  const onRequest = (request: { resourceType(): string; url(): string }) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  };
  page.on('request', onRequest);
  try {
    await visit();
  } finally {
    page.off('request', onRequest);
  }
  return scripts;
}

describe('code snippets', () => {
  const app = sharedApp();
  const snippets: CodeSnippet[] = [];

  beforeAll(async () => {
    const posts = await allFeedPosts(app);
    for (const post of posts) {
      for (const attach of post.attach) {
        if (attach.type === 'code') snippets.push(await callApi(app, api.codeDetail, { post_id: post.id, uuid: attach.uuid }));
      }
    }
  });

  it('shows a seeded snippet highlighted with line numbers, and 复制代码 copies it (PC)', async () => {
    const snippet = snippets.find((s) => s.language === 'python') ?? snippets[0]!;
    expect(snippet).toBeDefined();
    await withBrowser(app, { viewport: { width: 1280, height: 900 } }, async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
      const chunks = codeChunks();
      const scripts = await scriptsDuring(page, async () => {
        await page.goto(`${app.url}/code/${snippet.post_id}/${snippet.uuid}`);
        await page.getByRole('region', { name: '代码' }).locator('[class*="tok-"]').first().waitFor();
      });
      // The language came with the page, on demand.
      expect([...scripts].some((path) => chunks.get(path)?.some((s) => s.includes('@lezer/')))).toBe(true);

      const region = page.getByRole('region', { name: '代码' });
      const tokens = await region.locator('span[class^="tok-"]').evaluateAll((spans) => spans.map((s) => [s.className, s.textContent]));
      expect(tokens.length).toBeGreaterThan(5);
      expect(tokens.some(([cls]) => cls === 'tok-keyword')).toBe(true);
      // Coloured by the token stylesheet: a keyword is not in the text's colour.
      const colours = await region.evaluate((el) => {
        const keyword = el.querySelector('.tok-keyword')!;
        return [getComputedStyle(keyword).color, getComputedStyle(el.querySelector('.code-line__text')!).color];
      });
      expect(colours[0]).not.toBe(colours[1]);

      const lines = snippet.code.replace(/\n$/, '').split('\n');
      expect(await region.locator('.code-line__no').allTextContents()).toEqual(lines.map((_, i) => String(i + 1)));
      expect(await region.locator('.code-line__text').allTextContents()).toEqual(lines.map((line) => line || ' '));

      await page.getByRole('button', { name: '复制代码' }).click();
      await page.getByText('复制成功').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet.code);
    });
  });

  it('scrolls a long line sideways on a phone, the line numbers staying in view', async () => {
    const snippet = [...snippets].sort((a, b) => maxLine(b.code) - maxLine(a.code))[0]!;
    expect(maxLine(snippet.code)).toBeGreaterThan(40);
    await withBrowser(app, { viewport: { width: 375, height: 740 } }, async ({ page }) => {
      await page.goto(`${app.url}/code/${snippet.post_id}/${snippet.uuid}`);
      const region = page.getByRole('region', { name: '代码' });
      await region.locator('[class*="tok-"]').first().waitFor();
      const before = await region.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return { scrolls: el.scrollWidth > el.clientWidth, pageWidth: document.documentElement.scrollWidth, left: box.left, width: box.width };
      });
      expect(before.scrolls).toBe(true);
      // The page itself does not scroll sideways: only the code does.
      expect(before.pageWidth).toBeLessThanOrEqual(375);
      const after = await region.evaluate((el) => {
        el.scrollLeft = 200;
        return { scrollLeft: el.scrollLeft, numberLeft: el.querySelector('.code-line__no')!.getBoundingClientRect().left, left: el.getBoundingClientRect().left };
      });
      expect(after.scrollLeft).toBeGreaterThan(0);
      expect(Math.abs(after.numberLeft - after.left)).toBeLessThan(2);
    });
  });

  it.each([
    ['PC', { width: 1280, height: 900 }],
    ['mobile', { width: 375, height: 740 }],
  ])('loads nothing of the editor or the highlighter on a first visit to /home (%s)', async (_layout, viewport) => {
    const chunks = codeChunks();
    // The build has them, in chunks of their own: the editor's CodeMirror among them.
    expect([...chunks.values()].some((sources) => sources.some((s) => s.includes('@codemirror/view')))).toBe(true);
    expect([...chunks.values()].some((sources) => sources.some((s) => s.includes('features/code/editor-setup')))).toBe(true);
    await withBrowser(app, { viewport }, async ({ page }) => {
      const scripts = await scriptsDuring(page, async () => {
        await page.goto(`${app.url}/home`, { waitUntil: 'networkidle' });
        await page.locator('main article').first().waitFor();
        await page.waitForLoadState('networkidle');
      });
      expect(scripts.size).toBeGreaterThan(0);
      const loaded = [...scripts].filter((path) => chunks.has(path)).map((path) => `${path}: ${chunks.get(path)!.slice(0, 3).join(', ')}`);
      expect(loaded).toEqual([]);
      expect(await page.evaluate(() => document.querySelector('.cm-editor, [class^="tok-"]'))).toBeNull();
    });
  });
});

function maxLine(code: string): number {
  return Math.max(...code.split('\n').map((line) => line.length));
}
