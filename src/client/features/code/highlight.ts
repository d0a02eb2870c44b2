/**
 * Highlighted lines for React: the last few results are kept, so a page whose loader prepared
 * them (prepareHighlight) renders highlighted at once; otherwise the escaped text shows first
 * and the tokens follow when the language has loaded.
 */
import { useEffect, useState } from 'react';
import { PLAIN_TEXT, escapeHtml, highlightToLines, resolveLanguage } from '../../lib/code-languages.ts';

const KEEP = 8;
const cache = new Map<string, string[]>();

const keyOf = (code: string, language: string) => `${resolveLanguage(language)}\u0000${code}`;

/** Lines split as highlightToLines splits them, escaped, without tokens. */
export function plainLines(code: string): string[] {
  return code.replace(/\r\n?/g, '\n').split('\n').map(escapeHtml);
}

export function cachedLines(code: string, language: string): string[] | undefined {
  return cache.get(keyOf(code, language));
}

/** Highlights and keeps the result for the next render of the same code. Never rejects. */
export async function prepareHighlight(code: string, language: string): Promise<string[]> {
  const key = keyOf(code, language);
  const known = cache.get(key);
  if (known) return known;
  const lines = await highlightToLines(code, language);
  // No token at all in a known language: its support did not load (or there is nothing to
  // colour); not kept, so the next render tries again.
  if (resolveLanguage(language) !== PLAIN_TEXT && !lines.some((line) => line.includes('<span'))) return lines;
  cache.delete(key);
  cache.set(key, lines);
  while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  return lines;
}

/**
 * prepareHighlight for a route loader: waits at most `ms`, so a language that is slow to arrive
 * never holds the page (it shows the plain text and colours in when the language has loaded).
 */
export function prepareHighlightWithin(code: string, language: string, ms = 3000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void prepareHighlight(code, language).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The lines of `code` as safe HTML: highlighted when ready, escaped text until then.
 * `delay` (ms) waits for typing to pause before highlighting again, and `keepPrevious` shows the
 * last highlighted text meanwhile rather than flashing plain text (the editor's preview).
 */
export function useHighlightedLines(
  code: string,
  language: string,
  { delay = 0, keepPrevious = false }: { delay?: number; keepPrevious?: boolean } = {},
): { lines: string[]; highlighted: boolean } {
  const key = keyOf(code, language);
  const [result, setResult] = useState<{ key: string; lines: string[] } | null>(null);
  const cached = cache.get(key);

  useEffect(() => {
    if (cache.has(key)) return;
    let current = true;
    const timer = setTimeout(() => {
      void prepareHighlight(code, language).then((lines) => {
        if (current) setResult({ key, lines });
      });
    }, delay);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, code, language, delay]);

  if (cached) return { lines: cached, highlighted: true };
  if (result?.key === key) return { lines: result.lines, highlighted: true };
  if (keepPrevious && result) return { lines: result.lines, highlighted: false };
  return { lines: plainLines(code), highlighted: false };
}
