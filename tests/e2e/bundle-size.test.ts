/**
 * The JavaScript of a first visit to /home: every script the page loads in a fresh profile (the
 * entry, and what it loads right after the first screen), gzip level 9, summed over files, at
 * both layouts, beside the same of the stack alone (tests/bench/anchors/stack: the libraries our
 * first screen starts, built here with Vite as the bench builds it). Sizes are deterministic, so
 * this budget is a test; how fast they load is a benchmark's business. Needs `npm run build` first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStackAnchor, startAnchorServer, type AnchorServer } from '../bench/anchors/anchors.ts';
import { FIRST_SCREEN_PAGE_MODULE } from '../../src/shared/first-screen.ts';
import { scriptsOf, type BuildManifest } from '../../src/server/http/first-screen.ts';
import { PROJECT_ROOT } from './support/app.ts';
import { sharedApp } from './support/fixtures.ts';
import { FIRST_VISIT_JS_OVER_STACK, firstVisitScripts, totalBytes } from './support/first-visit.ts';

// A first visit is often a stranger on a phone's network deciding whether to stay: whatever the
// first screen does not need loads later, in chunks of its own (as workbox-window does, the
// service worker's registration, once the page is up: still counted).
const app = sharedApp();

describe('first visit to /home', () => {
  let stackDir: string;
  let stack: AnchorServer;

  beforeAll(async () => {
    stackDir = await mkdtemp(join(tmpdir(), 'stack-anchor-'));
    stack = await startAnchorServer(await buildStackAnchor(stackDir));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (stackDir) await rm(stackDir, { recursive: true, force: true });
  });

  it.each([
    ['PC', { width: 1280, height: 900 }],
    ['mobile', { width: 375, height: 740 }],
  ])(`loads at most ${FIRST_VISIT_JS_OVER_STACK} times the JavaScript of the stack alone (%s)`, async (layout, viewport) => {
    const sizes = await firstVisitScripts(app.url, viewport);
    const total = totalBytes(sizes);
    const stackTotal = totalBytes(await firstVisitScripts(stack.url, viewport, stack.dir));
    console.log(`first visit JS (${layout}): ${total} bytes gzip-9 in ${sizes.size} files, ${(total / stackTotal).toFixed(3)} × the stack's ${stackTotal}`, Object.fromEntries(sizes));
    // Every page but /home, the modals and the composer come later, in chunks of their own.
    expect([...sizes.keys()].some((path) => /message\.lazy|user\.lazy|feeds\.lazy|GalleryView|LoginPanel|PostVote|CodeCard|remove-markdown/.test(path))).toBe(false);
    expect(stackTotal).toBeGreaterThan(100_000);
    expect(total / stackTotal).toBeLessThanOrEqual(FIRST_VISIT_JS_OVER_STACK);
  });
});

describe('the page of the build', () => {
  // A file the entry imports would otherwise be asked for only once the entry has arrived and
  // been parsed: one more round trip before anything renders.
  it('preloads every file the entry script imports, and nothing a later screen needs', () => {
    const html = readFileSync(join(PROJECT_ROOT, 'dist/client/index.html'), 'utf8');
    const entry = /<script type="module" crossorigin src="\/assets\/([^"]+)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const code = readFileSync(join(PROJECT_ROOT, 'dist/client/assets', entry!), 'utf8');
    const imported = [...code.matchAll(/(?:^|[;}\s])import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+)["']/g)].map((match) => match[1]);
    const preloaded = [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/assets\/([^"]+)">/g)].map((match) => match[1]);
    expect(imported.length).toBeGreaterThan(0);
    expect(preloaded.sort()).toEqual([...new Set(imported)].sort());
  });

  // V8 compiles a file with the hint while it downloads, off the main thread (vite.config.ts):
  // the functions the start calls are not compiled one by one in its tasks.
  it('marks the code a page runs as it starts for V8 to compile at once, and not the code loaded later', () => {
    const assets = join(PROJECT_ROOT, 'dist/client');
    const manifest = JSON.parse(readFileSync(join(assets, '.vite/manifest.json'), 'utf8')) as BuildManifest;
    const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!;
    const starting = [entry.file, ...(entry.imports ?? []).map((key) => manifest[key]!.file)].map((file) => `/${file}`);
    // The pages the server renders, and the rich-text renderer a post's text needs at once.
    const richText = ['src/client/ui/rich-text/sanitize.ts', 'src/client/ui/rich-text/renderer.ts'];
    for (const module of [...Object.values(FIRST_SCREEN_PAGE_MODULE), ...richText]) if (module) starting.push(...scriptsOf(manifest, module));
    const later = ['src/client/features/code/components/CodeEditor.tsx', 'src/client/ui/gallery/GalleryView.tsx', 'src/client/ui/rich-text/katex.ts'].map(
      (module) => `/${manifest[module]!.file}`,
    );
    expect(starting.length).toBeGreaterThan(5);
    const hinted = (path: string) => readFileSync(join(assets, path), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n');
    expect(starting.filter((path) => !hinted(path))).toEqual([]);
    expect(later.filter(hinted)).toEqual([]);
    // The source maps moved down a line with the code: a line of mappings for each line of code.
    const mapped = [...starting, ...later].filter((path) => existsSync(join(assets, `${path}.map`)));
    expect(mapped.length).toBeGreaterThan(5);
    for (const path of mapped) {
      const code = readFileSync(join(assets, path), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '');
      const lines = code.split('\n').length;
      const map = JSON.parse(readFileSync(join(assets, `${path}.map`), 'utf8')) as { mappings: string };
      expect(map.mappings.split(';').length, path).toBe(lines);
    }
  });
});
