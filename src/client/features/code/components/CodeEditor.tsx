import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { CODE_MAX_CHARS } from '#shared/constants.ts';
import { CODE_LANGUAGES, PLAIN_TEXT, PLAIN_TEXT_LABEL, loadLanguage, resolveLanguage } from '../../../lib/code-languages.ts';
import type { CodeMirrorHandle } from '../editor-setup.ts';
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
  const hostRef = useRef<HTMLDivElement>(null);
  const fallbackRef = useRef<HTMLTextAreaElement>(null);
  const [editor, setEditor] = useState<CodeMirrorHandle | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  // The select shows the registry's id ('bash' shows as Shell); a language it does not know
  // shows as plain text and is kept as it was until the user picks another.
  const language = resolveLanguage(value.language);
  // Texts this editor sent out through onChange and not yet seen back in `value`: their echo
  // (even a late one) is not a change from outside. `seen` is the last value.code the editor
  // has taken into account (the one it was created with, at first).
  const echoes = useRef<string[]>([]);
  const seen = useRef<string | null>(null);
  const length = value.code.length;
  const tooLong = length > CODE_MAX_CHARS;
  const titleLength = value.title.length;

  const emitCode = useEffectEvent((code: string) => {
    echoes.current.push(code);
    if (echoes.current.length > 50) echoes.current.shift();
    onChange({ ...value, code });
  });
  const initial = useEffectEvent(() => ({ code: value.code, autoFocus }));

  // CodeMirror: loaded and mounted once; the latest onChange and value are read when it fires.
  useEffect(() => {
    let handle: CodeMirrorHandle | null = null;
    let cancelled = false;
    import('../editor-setup.ts')
      .then(({ createCodeMirror }) => {
        if (cancelled || !hostRef.current) return;
        const fallback = fallbackRef.current;
        const hadFocus = fallback !== null && document.activeElement === fallback;
        const cursor = fallback?.selectionStart ?? 0;
        const start = initial();
        const doc = fallback?.value ?? start.code;
        seen.current = doc;
        echoes.current = [];
        handle = createCodeMirror(hostRef.current, {
          doc,
          labelledBy: `${id}-code`,
          describedBy: `${id}-hint`,
          placeholder: '在这里输入或粘贴代码',
          onDocChange: (code) => emitCode(code),
        });
        // Until React re-renders without it, the text area would be a second 代码 text box.
        if (fallback) fallback.style.display = 'none';
        setEditor(handle);
        if (hadFocus) handle.focus(cursor);
        else if (start.autoFocus) handle.focus();
      })
      .catch(() => {
        if (!cancelled) setLoadFailed(true);
      });
    return () => {
      cancelled = true;
      handle?.destroy();
      setEditor(null);
    };
  }, [id]);

  // A value from outside (a draft restored, the composer's reset) replaces the text; the
  // editor's own changes coming back (in order, maybe late) do not.
  useEffect(() => {
    if (!editor || value.code === seen.current) return;
    seen.current = value.code;
    const echo = echoes.current.indexOf(value.code);
    if (echo >= 0) {
      echoes.current.splice(0, echo + 1);
      return;
    }
    echoes.current = [];
    editor.setCode(value.code);
  }, [editor, value.code]);

  // The language's parser and indentation, loaded on demand (the same support as the preview).
  useEffect(() => {
    if (!editor) return;
    let current = true;
    loadLanguage(language)
      .catch(() => null)
      .then((support) => {
        if (current) editor.setLanguage(support, language);
      });
    return () => {
      current = false;
    };
  }, [editor, language]);

  useEffect(() => {
    if (autoFocus && !editor) fallbackRef.current?.focus();
    // Only on opening: the editor takes focus itself once it has loaded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="code-editor">
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
            placeholder="在这里输入或粘贴代码"
            onChange={(event) => onChange({ ...value, code: event.target.value })}
          />
        )}
      </div>
      <div className="code-editor__status">
        <span id={`${id}-hint`} className="code-editor__hint">
          {loadFailed ? '编辑器没能加载，可以先在这里输入纯文本' : 'Tab 缩进，Esc 后按 Tab 离开编辑区'}
        </span>
        <span className={`code-editor__count${tooLong ? ' code-editor__count--over' : ''}`}>
          <span role="status">{tooLong ? `超出 ${count(length - CODE_MAX_CHARS)} 字 · ` : ''}</span>
          {count(length)}/{count(CODE_MAX_CHARS)}
        </span>
      </div>

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
