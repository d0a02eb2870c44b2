import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { loadLanguage } from '../../lib/code-languages.ts';
import { createCodeEchoes } from './code-echoes.ts';
import type { CodeMirrorHandle, CodeMirrorOptions } from './editor-setup.ts';

interface Options {
  /** The code as the value holds it now. */
  code: string;
  /** The resolved language id the editor parses and indents by. */
  language: string;
  /** Every change typed into CodeMirror, with the whole text. */
  onCode: (code: string) => void;
  autoFocus: boolean;
  /** Ids of the label (代码) and the hint that describe the editor. */
  labelledBy: string;
  describedBy: string;
  placeholder: string;
}

/**
 * The lifecycle of the code editor's CodeMirror: loaded with import() and mounted once into
 * `hostRef`, taking over the text, focus and cursor of the fallback text area (`fallbackRef`)
 * that takes the typing until then; a value from outside replaces its text; the language's
 * parser follows `language`; destroyed on unmount. `editor` is null until it has loaded, and
 * `loadFailed` says it never will.
 */
export function useCodeMirrorEditor(options: Options) {
  const { code, language, autoFocus } = options;
  const hostRef = useRef<HTMLDivElement>(null);
  const fallbackRef = useRef<HTMLTextAreaElement>(null);
  const [editor, setEditor] = useState<CodeMirrorHandle | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const echoes = useRef(createCodeEchoes());

  const emitCode = useEffectEvent((text: string) => {
    echoes.current.sent(text);
    options.onCode(text);
  });
  const setup = useEffectEvent(
    (): CodeMirrorOptions & { autoFocus: boolean } => ({
      doc: code,
      labelledBy: options.labelledBy,
      describedBy: options.describedBy,
      placeholder: options.placeholder,
      onDocChange: (text) => emitCode(text),
      autoFocus,
    }),
  );

  // Loaded and mounted once; the latest onChange and value are read when it fires.
  useEffect(() => {
    let handle: CodeMirrorHandle | null = null;
    let cancelled = false;
    import('./editor-setup.ts')
      .then(({ createCodeMirror }) => {
        if (cancelled || !hostRef.current) return;
        const { autoFocus: focusOnLoad, ...start } = setup();
        const fallback = fallbackRef.current;
        const hadFocus = fallback !== null && document.activeElement === fallback;
        const cursor = fallback?.selectionStart ?? 0;
        const doc = fallback?.value ?? start.doc;
        echoes.current.reset(doc);
        handle = createCodeMirror(hostRef.current, { ...start, doc });
        // Until React re-renders without it, the text area would be a second 代码 text box.
        if (fallback) fallback.style.display = 'none';
        setEditor(handle);
        if (hadFocus) handle.focus(cursor);
        else if (focusOnLoad) handle.focus();
      })
      .catch(() => {
        if (!cancelled) setLoadFailed(true);
      });
    return () => {
      cancelled = true;
      handle?.destroy();
      setEditor(null);
    };
  }, []);

  // A value from outside replaces the text; the editor's own changes coming back do not.
  useEffect(() => {
    if (editor && echoes.current.fromOutside(code)) editor.setCode(code);
  }, [editor, code]);

  useEditorLanguage(editor, language);

  useEffect(() => {
    if (autoFocus && !editor) fallbackRef.current?.focus();
    // Only on opening: the editor takes focus itself once it has loaded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { hostRef, fallbackRef, editor, loadFailed };
}

/** The language's parser and indentation, loaded on demand (the same support as the preview). */
function useEditorLanguage(editor: CodeMirrorHandle | null, language: string) {
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
}
