/**
 * CodeMirror 6 as the code editor uses it. This module is the only one that imports CodeMirror
 * statically, and CodeEditor loads it with import() once an editor is shown, so CodeMirror is
 * in no other chunk. Tokens are written with classHighlighter: the same tok-* classes as
 * highlightToHtml (lib/code-languages.ts), coloured by lib/code-highlight.css.
 */
import { defaultKeymap, history, historyKeymap, indentLess, indentMore, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting, type LanguageSupport } from '@codemirror/language';
import { Compartment, EditorSelection, EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { resolveLanguage } from '../../lib/code-languages.ts';

export interface CodeMirrorOptions {
  doc: string;
  /** The id of the element that names the editor (its visible label 代码). */
  labelledBy: string;
  describedBy?: string;
  placeholder?: string;
  /** Every change of the text, with the whole text. */
  onDocChange: (code: string) => void;
}

export interface CodeMirrorHandle {
  readonly view: EditorView;
  /** The text now in the editor. */
  code(): string;
  /** Replaces the whole text (a value from outside), keeping the cursor where it can. */
  setCode(code: string): void;
  setLanguage(support: LanguageSupport | null, language: string): void;
  /** Focuses the editor, the cursor at `at` (or where it was). */
  focus(at?: number): void;
  /** What Tab and Shift+Tab do, for keyboards without them (phones). */
  indent(): void;
  outdent(): void;
  destroy(): void;
}

/** Indentation as each language's community writes it. */
function indentFor(language: string): string {
  switch (resolveLanguage(language)) {
    case 'go':
      return '\t';
    case 'python':
    case 'java':
    case 'cpp':
    case 'rust':
      return '    ';
    default:
      return '  ';
  }
}

/** Colours and type from the design tokens, so light and dark follow the page. */
const theme = EditorView.theme({
  '&': {
    backgroundColor: 'var(--color-code-bg)',
    color: 'var(--color-text)',
    fontSize: 'var(--font-size-sm)',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.7', minHeight: 'var(--code-editor-min-height, 240px)' },
  '.cm-content': { padding: 'var(--space-3) 0', caretColor: 'var(--color-brand-strong)' },
  '.cm-line': { padding: '0 var(--space-4) 0 var(--space-2)' },
  '.cm-gutters': {
    backgroundColor: 'var(--color-code-bg)',
    color: 'var(--color-text-tertiary)',
    border: 'none',
    borderRight: '1px solid var(--color-hairline)',
  },
  '.cm-lineNumbers .cm-gutterElement': { padding: '0 var(--space-2) 0 var(--space-3)', minWidth: '2.5em' },
  '.cm-activeLine': { backgroundColor: 'var(--color-hairline)' },
  '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--color-text-secondary)' },
  '&:not(.cm-focused) .cm-activeLine': { backgroundColor: 'transparent' },
  '&:not(.cm-focused) .cm-activeLineGutter': { color: 'inherit' },
  // Secondary, not tertiary: it must read 4.5:1 on the focused line's tint too.
  '.cm-placeholder': { color: 'var(--color-text-secondary)' },
  '.cm-matchingBracket': { backgroundColor: 'var(--color-brand-soft)', outline: '1px solid var(--color-brand)' },
  '.cm-nonmatchingBracket': { color: 'var(--color-danger)' },
});

export function createCodeMirror(parent: HTMLElement, options: CodeMirrorOptions): CodeMirrorHandle {
  const language = new Compartment();
  let applying = false;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(classHighlighter),
        EditorState.tabSize.of(4),
        language.of(indentUnit.of('  ')),
        // Tab indents; Escape then Tab leaves the editor (CodeMirror's own way out).
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        placeholder(options.placeholder ?? ''),
        EditorView.contentAttributes.of({
          'aria-labelledby': options.labelledBy,
          ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
          autocapitalize: 'off',
          autocorrect: 'off',
          spellcheck: 'false',
          translate: 'no',
        }),
        theme,
        EditorView.updateListener.of((update) => {
          if (update.docChanged && !applying) options.onDocChange(update.state.doc.toString());
        }),
      ],
    }),
  });

  const run = (command: typeof indentMore) => {
    command({ state: view.state, dispatch: (tr) => view.dispatch(tr) });
    view.focus();
  };

  return {
    view,
    code: () => view.state.doc.toString(),
    setCode(code) {
      if (code === view.state.doc.toString()) return;
      const head = Math.min(view.state.selection.main.head, code.length);
      applying = true;
      try {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code }, selection: EditorSelection.cursor(head) });
      } finally {
        applying = false;
      }
    },
    setLanguage(support, name) {
      view.dispatch({ effects: language.reconfigure([indentUnit.of(indentFor(name)), support ?? []]) });
    },
    focus(at) {
      if (at !== undefined) view.dispatch({ selection: EditorSelection.cursor(Math.min(at, view.state.doc.length)), scrollIntoView: true });
      view.focus();
    },
    indent() {
      const { state } = view;
      if (state.selection.ranges.every((range) => range.empty)) {
        view.dispatch(state.update(state.replaceSelection(state.facet(indentUnit)), { scrollIntoView: true, userEvent: 'input' }));
        view.focus();
      } else run(indentMore);
    },
    outdent: () => run(indentLess),
    destroy: () => view.destroy(),
  };
}
