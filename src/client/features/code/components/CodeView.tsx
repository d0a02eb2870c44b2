import { Link } from '@tanstack/react-router';
import type { CodeSnippet } from '#shared/schemas.ts';
import { PLAIN_TEXT, languageLabel, resolveLanguage } from '../../../lib/code-languages.ts';
import { copyWithToast } from '../../../ui/copy.ts';
import { IconCopy } from '../../../ui/icons-secondary.tsx';
import { HighlightedCode } from './HighlightedCode.tsx';
import './code.css';

/** A whole snippet: highlighted, with line numbers, horizontal scroll, and a copy button. */
export function CodeView({ snippet }: { snippet: CodeSnippet }) {
  // A language the registry does not know keeps its own name (shown as plain text).
  const language = resolveLanguage(snippet.language) === PLAIN_TEXT && snippet.language.trim() ? snippet.language : languageLabel(snippet.language);
  const lineCount = snippet.code.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n').length;
  return (
    <article className="code-view card" aria-labelledby="code-title">
      <header className="code-view__head">
        <div className="code-view__heading">
          <h1 id="code-title" className="code-view__title">
            {snippet.title || '代码片段'}
          </h1>
          <span className="code-lang">{language}</span>
          <span className="code-view__lines">{lineCount} 行</span>
        </div>
        <button type="button" className="button button--ghost button--small" onClick={() => void copyWithToast(snippet.code)}>
          <IconCopy size={16} />
          复制代码
        </button>
      </header>
      <HighlightedCode code={snippet.code} language={snippet.language} label="代码" />
      <footer className="code-view__foot">
        <Link to="/message/detail/$id" params={{ id: String(snippet.post_id) }} className="text-link">
          查看所在动态
        </Link>
      </footer>
    </article>
  );
}
