/**
 * The code editor (features/code/components/CodeEditor.tsx) in jsdom: CodeMirror loads and is
 * named 代码; typing calls onChange with the typed code and the rest of the value; the language
 * <select> calls onChange with the chosen language and the editor parses it; the title is capped
 * at the server's 100; the preview shows token spans and the count follows CODE_MAX_CHARS; a
 * value from outside replaces the text, while a late echo of the editor's own text does not.
 */
import { EditorView } from '@codemirror/view';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_MAX_CHARS } from '../../src/shared/constants.ts';
import CodeEditor, { CODE_TITLE_MAX_CHARS, type CodeValue } from '../../src/client/features/code/components/CodeEditor.tsx';

afterEach(cleanup);

function Harness({ initial, onChange }: { initial: CodeValue; onChange: (value: CodeValue) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <CodeEditor
        value={value}
        onChange={(next) => {
          onChange(next);
          setValue(next);
        }}
      />
      <button type="button" onClick={() => setValue({ ...value, code: 'restored = True\n' })}>
        restore
      </button>
    </>
  );
}

/** The CodeMirror view once it has loaded (the fallback text area is gone then). */
async function codeMirror(container: HTMLElement): Promise<EditorView> {
  const dom = await waitFor(() => {
    const element = container.querySelector<HTMLElement>('.cm-editor');
    expect(element).not.toBeNull();
    return element!;
  });
  return EditorView.findFromDOM(dom)!;
}

/** Types as a keyboard would: an input transaction at the cursor. */
function type(view: EditorView, text: string) {
  act(() => {
    const at = view.state.selection.main.head;
    view.dispatch({ changes: { from: at, insert: text }, selection: { anchor: at + text.length }, userEvent: 'input.type' });
  });
}

describe('CodeEditor', () => {
  it('loads CodeMirror named 代码 with line numbers, and typing calls onChange with the code', async () => {
    const onChange = vi.fn();
    const { container } = render(<Harness initial={{ language: 'javascript', title: '排序', code: '' }} onChange={onChange} />);
    const view = await codeMirror(container);
    expect(screen.getByRole('textbox', { name: '代码' })).toBe(view.contentDOM);
    expect(container.querySelector('.cm-lineNumbers')).not.toBeNull();
    expect(container.querySelector('textarea')).toBeNull();

    type(view, 'const a = 1;');
    expect(onChange).toHaveBeenLastCalledWith({ language: 'javascript', title: '排序', code: 'const a = 1;' });
    type(view, '\nlet b;');
    expect(onChange).toHaveBeenLastCalledWith({ language: 'javascript', title: '排序', code: 'const a = 1;\nlet b;' });
    expect(view.state.doc.toString()).toBe('const a = 1;\nlet b;');
  });

  it('calls onChange with the chosen language, and the editor parses it', async () => {
    const onChange = vi.fn();
    const { container } = render(<Harness initial={{ language: '', title: '', code: 'def greet():\n    pass\n' }} onChange={onChange} />);
    const view = await codeMirror(container);
    const select = screen.getByRole('combobox', { name: '语言' }) as HTMLSelectElement;
    expect(select.value).toBe('text');
    expect([...select.options].map((o) => o.textContent)).toEqual(expect.arrayContaining(['JavaScript', 'TypeScript', 'Python', 'Java', 'Go', 'SQL', 'C/C++', 'Rust', 'Shell']));

    fireEvent.change(select, { target: { value: 'python' } });
    expect(onChange).toHaveBeenLastCalledWith({ language: 'python', title: '', code: 'def greet():\n    pass\n' });
    expect(select.value).toBe('python');
    // The language's support reaches the editor: its tokens get the tok-* classes.
    await waitFor(() => expect(view.contentDOM.querySelector('.tok-keyword')?.textContent).toBe('def'));
  });

  it('shows an alias as its language', async () => {
    render(<Harness initial={{ language: 'bash', title: '', code: '' }} onChange={() => {}} />);
    expect((screen.getByRole('combobox', { name: '语言' }) as HTMLSelectElement).value).toBe('shell');
  });

  it('takes a title of at most 100 characters', async () => {
    const onChange = vi.fn();
    render(<Harness initial={{ language: 'go', title: '', code: '' }} onChange={onChange} />);
    const title = screen.getByRole('textbox', { name: '标题' }) as HTMLInputElement;
    expect(title.maxLength).toBe(CODE_TITLE_MAX_CHARS);
    fireEvent.change(title, { target: { value: '二分查找' } });
    expect(onChange).toHaveBeenLastCalledWith({ language: 'go', title: '二分查找', code: '' });
    fireEvent.change(title, { target: { value: 'x'.repeat(120) } });
    expect(onChange).toHaveBeenLastCalledWith({ language: 'go', title: 'x'.repeat(100), code: '' });
  });

  it('previews the code with token spans and counts it against CODE_MAX_CHARS', async () => {
    const { container } = render(<Harness initial={{ language: 'rust', title: '', code: 'fn main() {}' }} onChange={() => {}} />);
    const preview = screen.getByRole('region', { name: '代码预览' });
    await waitFor(() => expect(preview.querySelector('.tok-keyword')?.textContent).toBe('fn'));
    expect(container.textContent).toContain(`12/${CODE_MAX_CHARS.toLocaleString('zh-CN')}`);

    const view = await codeMirror(container);
    type(view, 'x'.repeat(CODE_MAX_CHARS));
    expect(screen.getByRole('status').textContent).toBe('超出 12 字 · ');
  });

  it('replaces the text with a value from outside, and ignores a late echo of its own', async () => {
    const onChange = vi.fn();
    const { container } = render(<Harness initial={{ language: 'python', title: '', code: '' }} onChange={onChange} />);
    const view = await codeMirror(container);
    fireEvent.click(screen.getByRole('button', { name: 'restore' }));
    expect(view.state.doc.toString()).toBe('restored = True\n');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('keeps fast typing when the parent renders an older value late', async () => {
    let sent: CodeValue[] = [];
    function Slow() {
      const [value, setValue] = useState<CodeValue>({ language: 'go', title: '', code: '' });
      return (
        <>
          <CodeEditor value={value} onChange={(next) => sent.push(next)} />
          <button type="button" onClick={() => setValue(sent[0]!)}>
            first
          </button>
        </>
      );
    }
    const { container } = render(<Slow />);
    const view = await codeMirror(container);
    sent = [];
    type(view, 'a');
    type(view, 'b');
    // The parent catches up with the first keystroke only now: the editor keeps "ab".
    fireEvent.click(screen.getByRole('button', { name: 'first' }));
    expect(view.state.doc.toString()).toBe('ab');
  });
});
