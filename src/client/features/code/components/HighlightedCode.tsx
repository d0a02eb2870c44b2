import type { CSSProperties } from 'react';
import { resolveLanguage } from '../../../lib/code-languages.ts';
import { useHighlightedLines } from '../highlight.ts';
import '../../../lib/code-highlight.css';
import './code.css';

/**
 * Code with line numbers and tokens coloured by the language registry (lib/code-languages.ts),
 * scrolling sideways for long lines. The HTML of each line comes from highlightToLines: escaped
 * text and <span class="tok-..."> only.
 */
export function HighlightedCode({
  code,
  language,
  label,
  delay,
  keepPrevious,
}: {
  code: string;
  language: string;
  /** The accessible name of the scrolling region. */
  label: string;
  delay?: number;
  keepPrevious?: boolean;
}) {
  const { lines: all, highlighted } = useHighlightedLines(code, language, { delay, keepPrevious });
  // A last newline ends the last line; it does not start an empty one.
  const lines = all.length > 1 && all[all.length - 1] === '' ? all.slice(0, -1) : all;
  const digits = String(lines.length).length;
  return (
    <div
      className="code-block"
      role="region"
      aria-label={label}
      tabIndex={0}
      data-highlighted={highlighted || undefined}
      style={{ '--code-gutter': `${Math.max(digits, 2) + 1.5}ch` } as CSSProperties}
    >
      <pre className="code-block__pre">
        <code className="code-block__code" data-language={resolveLanguage(language)}>
          {lines.map((html, i) => (
            <span key={i} className="code-line">
              <span className="code-line__no" aria-hidden="true">
                {i + 1}
              </span>
              <span className="code-line__text" dangerouslySetInnerHTML={{ __html: html || ' ' }} />
              {'\n'}
            </span>
          ))}
        </code>
      </pre>
    </div>
  );
}
