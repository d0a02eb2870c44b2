/**
 * The rich-text renderer (its own chunk, loaded by RichText when a text is first shown rich):
 * Markdown (markdown.ts) -> HTML -> DOMPurify (sanitize.ts) -> the cut (cut.ts) -> HTML,
 * sanitized once more as the string it is.
 * KaTeX loads only for a text with math; fenced code is highlighted by highlightToHtml (its
 * language packages load on demand). Results are kept, so a text shown again (a kept-alive
 * page coming back, an expanded post remounted) renders at once, with nothing to wait for.
 */
import { highlightToHtml } from '../../lib/code-languages.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { cutRendered, type CutLimits } from './cut.ts';
import { createMarkdown, escapeHtml, scanTokens, type RichEnv } from './markdown.ts';
import { prepareSanitizers, sanitizeHtml, sanitizeToFragment } from './sanitize.ts';
import '../../lib/code-highlight.css';

export type { CutLimits } from './cut.ts';

export interface RenderedText {
  /** Sanitized HTML. */
  html: string;
  /** Whether the cut left something out. */
  cut: boolean;
}

let md: ReturnType<typeof createMarkdown> | undefined;
const markdown = () => (md ??= createMarkdown());

/**
 * What the first render would otherwise do all at once (the Markdown parser, the sanitizers):
 * RichText runs each in a task of its own once the chunk has loaded, none of them a long task.
 */
export const setUpSteps: ReadonlyArray<() => unknown> = [markdown, prepareSanitizers];

type MathRenderer = (tex: string, displayMode: boolean) => string;
let katexLoad: Promise<MathRenderer> | undefined;

/** KaTeX's chunk, once; a failed load (offline, nothing cached) is tried again next time. */
function loadMath(): Promise<MathRenderer> {
  katexLoad ??= loadChunk(() => import('./katex.ts')).then(
    (module) => module.renderMath,
    (error: unknown) => {
      katexLoad = undefined;
      throw error;
    },
  );
  return katexLoad;
}

const MAX_KEPT = 300;
const kept = new Map<string, RenderedText>();

function keyOf(text: string, cut: CutLimits | undefined): string {
  return `${cut ? `${cut.length}/${cut.lines}` : 'full'}\n${text}`;
}

/** The rendering of `text` if it was rendered before (synchronous). */
export function renderedBefore(text: string, cut?: CutLimits): RenderedText | undefined {
  return kept.get(keyOf(text, cut));
}

/** Renders `text` (see the file's comment); never rejects: at worst formulas show as their source. */
export async function renderRichText(text: string, cut?: CutLimits): Promise<RenderedText> {
  const key = keyOf(text, cut);
  const known = kept.get(key);
  if (known) return known;
  const env: RichEnv = {};
  const md = markdown();
  const tokens = md.parse(text, env);
  const needs = scanTokens(tokens);
  let complete = true;
  const [renderMath, highlighted] = await Promise.all([
    needs.math
      ? loadMath().catch(() => {
          complete = false;
          return undefined;
        })
      : undefined,
    Promise.all(needs.fences.map(async (fence) => [fence.index, await highlightToHtml(fence.code, fence.language)] as const)),
  ]);
  if (renderMath) {
    env.renderMath = (tex, displayMode) => {
      try {
        return renderMath(tex, displayMode);
      } catch {
        return `<code class="rich-math-source">${escapeHtml(tex)}</code>`;
      }
    };
  }
  env.highlighted = new Map(highlighted);
  const fragment = sanitizeToFragment(md.renderer.render(tokens, md.options, env));
  const wasCut = cut ? cutRendered(fragment, cut) : false;
  const box = document.createElement('div');
  box.append(fragment);
  // The HTML React will parse is sanitized as such too: the cut edited a DOM, and what a DOM
  // serializes to must never parse into more than it held (mutation XSS).
  const result: RenderedText = { html: sanitizeHtml(box.innerHTML), cut: wasCut };
  // Formulas shown as source because KaTeX did not load are not kept: the next showing tries again.
  if (complete) {
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, result);
  }
  return result;
}
