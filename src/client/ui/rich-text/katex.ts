/**
 * KaTeX, bundled with the app (never a CDN), in a chunk of its own that loads only when a text
 * has math; its stylesheet and fonts travel with it (the fonts are precached by the service
 * worker, so formulas render offline).
 */
import katex from 'katex';
import 'katex/dist/katex.min.css';

/**
 * One formula as HTML (and MathML for screen readers). Untrusted input: `trust: false` (no
 * \href, \url, \includegraphics, \htmlClass, \htmlId, \htmlStyle, \htmlData), sizes capped
 * (`\rule{1000em}{1000em}` cannot cover the page), macro expansion bounded, errors shown in
 * place instead of thrown.
 */
export function renderMath(tex: string, displayMode: boolean): string {
  return katex.renderToString(tex, {
    displayMode,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    output: 'htmlAndMathml',
    maxSize: 10,
    maxExpand: 500,
    errorColor: '#cc0000',
  });
}
