import { useId } from 'react';
import { CODE_MAX_CHARS } from '#shared/constants.ts';
import { CODE_LANGUAGES, PLAIN_TEXT, PLAIN_TEXT_LABEL, resolveLanguage } from '../../../lib/code-languages.ts';
import type { CodeMirrorHandle } from '../editor-setup.ts';
import { useCodeMirrorEditor } from '../use-code-mirror-editor.ts';
import { HighlightedCode } from './HighlightedCode.tsx';
import '../../../lib/code-highlight.css';
import './code.css';
import './code-editor.css';

/** A code snippet as a post attaches it (`attach` of post/add, type 'code'). */
export interface CodeValue {
  language: string;
  title: string;
  code: string;
}

export interface CodeEditorProps {
  value: CodeValue;
  onChange: (value: CodeValue) => void;
  /** Puts the cursor in the code when the editor opens. */
  autoFocus?: boolean;
}

/** The server's limit of a snippet's title (post/add `attach`, codeInputSchema). */
export const CODE_TITLE_MAX_CHARS = 100;

const count = (n: number) => n.toLocaleString('zh-CN');
const CODE_PLACEHOLDER = '在这里输入或粘贴代码';

/**
 * The code editor: a language <select>, a title (标题, up to 100 characters), CodeMirror 6
 * (named 代码; line numbers, Tab indents, undo) and a preview highlighted as the snippet page
 * shows it, with the length against CODE_MAX_CHARS. Controlled: `value` in, every change out
 * through `onChange` with the whole value.
 *
 * CodeMirror itself (../editor-setup.ts) loads with import() when this mounts; until then, or if
 * it cannot load, a plain text area takes the typing, and the cursor moves over when it arrives.
 */
export default function CodeEditor({ value, onChange, autoFocus = false }: CodeEditorProps) {
  const id = useId();
  // The select shows the registry's id ('bash' shows as Shell); a language it does not know
  // shows as plain text and is kept as it was until the user picks another.
  const language = resolveLanguage(value.language);
  const { hostRef, fallbackRef, editor, loadFailed } = useCodeMirrorEditor({
    code: value.code,
    language,
    onCode: (code) => onChange({ ...value, code }),
    autoFocus,
    labelledBy: `${id}-code`,
    describedBy: `${id}-hint`,
    placeholder: CODE_PLACEHOLDER,
  });
  const length = value.code.length;
  const tooLong = length > CODE_MAX_CHARS;

  return (
    <div className="code-editor">
      <CodeEditorFields id={id} value={value} language={language} onChange={onChange} />

      <CodeHead id={id} editor={editor} />
      <div className={`code-editor__surface${tooLong ? ' code-editor__surface--over' : ''}`}>
        <div ref={hostRef} className="code-editor__host" />
        {!editor && (
          <textarea
            ref={fallbackRef}
            className="code-editor__fallback"
            aria-labelledby={`${id}-code`}
            aria-describedby={`${id}-hint`}
            aria-busy={!loadFailed}
            value={value.code}
            rows={12}
            wrap="off"
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            placeholder={CODE_PLACEHOLDER}
            onChange={(event) => onChange({ ...value, code: event.target.value })}
          />
        )}
      </div>
      <CodeStatus id={id} length={length} loadFailed={loadFailed} />

      <section className="code-editor__preview" aria-labelledby={`${id}-preview`}>
        <h2 id={`${id}-preview`} className="code-editor__label">
          预览
        </h2>
        {value.code.trim() ? (
          <HighlightedCode code={value.code} language={language} label="代码预览" delay={150} keepPrevious />
        ) : (
          <p className="code-editor__empty">输入代码后，这里显示高亮效果</p>
        )}
      </section>
    </div>
  );
}

/** The language <select> and the title (标题) with its count. */
function CodeEditorFields({ id, value, language, onChange }: { id: string; value: CodeValue; language: string; onChange: (value: CodeValue) => void }) {
  const titleLength = value.title.length;
  return (
    <div className="code-editor__fields">
      <div className="code-editor__field code-editor__field--language">
        <label className="code-editor__label" htmlFor={`${id}-language`}>
          语言
        </label>
        <select
          id={`${id}-language`}
          className="code-editor__select"
          value={language}
          onChange={(event) => onChange({ ...value, language: event.target.value })}
        >
          {CODE_LANGUAGES.map((item) => (
            <option key={item.id} value={item.id}>
              {item.label}
            </option>
          ))}
          <option value={PLAIN_TEXT}>{PLAIN_TEXT_LABEL}</option>
        </select>
      </div>
      <div className="code-editor__field code-editor__field--title">
        <div className="code-editor__label-row">
          <label className="code-editor__label" htmlFor={`${id}-title`}>
            标题
          </label>
          <span id={`${id}-title-count`} className="code-editor__title-count">
            {titleLength}/{CODE_TITLE_MAX_CHARS}
          </span>
        </div>
        <input
          id={`${id}-title`}
          className="code-editor__input"
          type="text"
          value={value.title}
          maxLength={CODE_TITLE_MAX_CHARS}
          placeholder="选填，如：快速排序"
          enterKeyHint="next"
          aria-describedby={`${id}-title-count`}
          onChange={(event) => onChange({ ...value, title: event.target.value.slice(0, CODE_TITLE_MAX_CHARS) })}
        />
      </div>
    </div>
  );
}

/** The label 代码, and once CodeMirror is there, buttons for Tab and Shift+Tab (phones have neither key). */
function CodeHead({ id, editor }: { id: string; editor: CodeMirrorHandle | null }) {
  return (
    <div className="code-editor__code-head">
      <span id={`${id}-code`} className="code-editor__label">
        代码
      </span>
      {editor && (
        <span className="code-editor__keys">
          <button type="button" className="button button--ghost button--small" onPointerDown={(e) => e.preventDefault()} onClick={() => editor.outdent()}>
            减少缩进
          </button>
          <button type="button" className="button button--ghost button--small" onPointerDown={(e) => e.preventDefault()} onClick={() => editor.indent()}>
            缩进
          </button>
        </span>
      )}
    </div>
  );
}

/** The hint under the code and its length against CODE_MAX_CHARS. */
function CodeStatus({ id, length, loadFailed }: { id: string; length: number; loadFailed: boolean }) {
  const tooLong = length > CODE_MAX_CHARS;
  return (
    <div className="code-editor__status">
      <span id={`${id}-hint`} className="code-editor__hint">
        {loadFailed ? '编辑器没能加载，可以先在这里输入纯文本' : 'Tab 缩进，Esc 后按 Tab 离开编辑区'}
      </span>
      <span className={`code-editor__count${tooLong ? ' code-editor__count--over' : ''}`}>
        <span role="status">{tooLong ? `超出 ${count(length - CODE_MAX_CHARS)} 字 · ` : ''}</span>
        {count(length)}/{count(CODE_MAX_CHARS)}
      </span>
    </div>
  );
}
