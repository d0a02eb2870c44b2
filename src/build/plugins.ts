/**
 * The client build's own Vite plugins (vite.config.ts lists them): what the bundle does to the
 * page and its scripts beyond Vite's defaults. Runs in Node at build time; nothing of it ships.
 */
import { minify, type Plugin, type Rolldown } from 'vite';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIRST_SCREEN_PAGE_MODULE, START_AFTER_FIRST_PAINT_PATH } from '../shared/first-screen.ts';
import { catchEarlyActs } from '../client/lib/early-acts-catcher.ts';

/**
 * The build's copy of public/start-after-first-paint.js minified: every page the server renders
 * loads it first (a first visit counts its bytes), and its comments are for us, not for phones.
 * By the bundle's own minifier, before the service worker's precache is made (closeBundle),
 * which names the file by its content.
 */
export function minifiedStartScript(): Plugin {
  return {
    name: 'minified-start-script',
    apply: 'build',
    async writeBundle({ dir }) {
      const file = join(dir ?? 'dist/client', START_AFTER_FIRST_PAINT_PATH);
      const { code } = await minify(file, await readFile(file, 'utf8'), { module: true });
      await writeFile(file, code);
    },
  };
}

/**
 * What the reader does before the app has started is kept from the first paint on: the page's
 * first script, inline at the start of its body (src/client/lib/early-acts-catcher.ts), minified.
 * An inline script runs where the page's policy names it by its hash (src/server/http/client-page.ts).
 */
export function earlyActsCatcher(): Plugin {
  let code: string | undefined;
  return {
    name: 'early-acts-catcher',
    async transformIndexHtml() {
      code ??= (await minify('early-acts-catcher.js', `(${catchEarlyActs.toString()})();`, { module: false })).code.trim();
      return [{ tag: 'script', attrs: { 'data-early-acts': true }, children: code, injectTo: 'body-prepend' }];
    },
  };
}

/** V8's explicit compile hint for a whole file (Chrome 136 on; other engines read a comment). */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Code a page runs as it starts besides its route's: the rich-text renderer (ui/RichText.tsx loads
 * it in two chunks), which renders a post's text and its comments right after the page is up.
 */
const STARTING_RICH_TEXT_MODULES = ['src/client/ui/rich-text/sanitize.ts', 'src/client/ui/rich-text/renderer.ts'];

/**
 * The hint on the code a page runs as it starts: the entry, the code of the pages the server
 * renders first (FIRST_SCREEN_PAGE_MODULE) and the rich-text renderer, with what they import.
 * V8 then compiles their functions while the file downloads, off the main thread, rather than
 * each on the main thread when first called: about 130-180 ms of a post's start on this
 * machine's CPU, spread over the tasks Lighthouse counts as blocking. Code loaded later (the
 * editor, KaTeX, the gallery) stays compiled lazily, as little of it runs. On the file's first
 * line, where V8 looks for it; the source map moves down a line with the code.
 */
export function compileHintsOnStartingCode(): Plugin {
  const startingModules = [...Object.values(FIRST_SCREEN_PAGE_MODULE).filter((module) => module !== undefined), ...STARTING_RICH_TEXT_MODULES];
  return {
    name: 'compile-hints-on-starting-code',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
        const starting = new Set<Rolldown.OutputChunk>();
        const add = (chunk: Rolldown.OutputChunk | undefined) => {
          if (!chunk || starting.has(chunk)) return;
          starting.add(chunk);
          for (const imported of chunk.imports) add(chunks.get(imported));
        };
        for (const chunk of chunks.values()) {
          if (chunk.isEntry || startingModules.some((module) => chunk.facadeModuleId?.endsWith(`/${module}`))) add(chunk);
        }
        for (const chunk of starting) {
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          // The map's file is an asset of its own by now (as Vite's own edits here update it).
          const mapFile = bundle[`${chunk.fileName}.map`];
          if (mapFile?.type === 'asset' && typeof mapFile.source === 'string') {
            const map = JSON.parse(mapFile.source) as { mappings: string };
            mapFile.source = JSON.stringify({ ...map, mappings: `;${map.mappings}` });
          }
        }
      },
    },
  };
}
