import { Link } from '@tanstack/react-router';
import type { CodeAttach } from '#shared/schemas.ts';
import { IconCode } from '../../../ui/icons-secondary.tsx';

const PREVIEW_LINES = 6;

/** A code snippet of a post: title, language and its first lines; opens /code/$postid/$uuid. */
export default function CodeCard({ postId, code }: { postId: number; code: CodeAttach }) {
  const lines = code.preview.split('\n');
  const preview = lines.slice(0, PREVIEW_LINES).join('\n');
  return (
    <Link
      to="/code/$postid/$uuid"
      params={{ postid: String(postId), uuid: code.uuid }}
      className="code-card"
      onClick={(e) => e.stopPropagation()}
    >
      <span className="code-card__head">
        <IconCode size={18} />
        <span className="code-card__title">{code.title || '代码片段'}</span>
        <span className="code-card__lang">{code.language}</span>
      </span>
      <pre className="code-card__preview" aria-hidden="true">
        <code>{preview}</code>
      </pre>
      <span className="code-card__more">查看完整代码</span>
    </Link>
  );
}
