import { Link } from '@tanstack/react-router';
import type { CodeSnippet } from '#shared/schemas.ts';
import { IconCopy } from '../../../ui/icons-secondary.tsx';
import { copyWithToast } from '../../../ui/copy.ts';
import './code.css';

/** A whole snippet: monospace with line numbers, horizontal scroll, and a copy button. */
export function CodeView({ snippet }: { snippet: CodeSnippet }) {
  const lines = snippet.code.replace(/\n$/, '').split('\n');
  return (
    <article className="code-view card" aria-labelledby="code-title">
      <header className="code-view__head">
        <div className="code-view__heading">
          <h1 id="code-title" className="code-view__title">
            {snippet.title || '代码片段'}
          </h1>
          <span className="code-card__lang">{snippet.language}</span>
          <span className="code-view__lines">{lines.length} 行</span>
        </div>
        <button type="button" className="button button--ghost button--small" onClick={() => void copyWithToast(snippet.code)}>
          <IconCopy size={16} />
          复制代码
        </button>
      </header>
      <div className="code-view__body" tabIndex={0} role="region" aria-label="代码">
        <pre className="code-view__pre">
          <code>
            {lines.map((line, i) => (
              <span key={i} className="code-line">
                <span className="code-line__no" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="code-line__text">{line || ' '}</span>
                {'\n'}
              </span>
            ))}
          </code>
        </pre>
      </div>
      <footer className="code-view__foot">
        <Link to="/message/detail/$id" params={{ id: String(snippet.post_id) }} className="text-link">
          查看所在动态
        </Link>
      </footer>
    </article>
  );
}
