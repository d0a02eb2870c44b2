/**
 * The snippet page's view (features/code/components/CodeView.tsx): the code shows as token
 * spans of its language with a line number per line, hostile code stays text, an unknown
 * language shows its own name and plain text, and 复制代码 copies the code as it is.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CodeSnippet } from '../../src/shared/schemas.ts';
import { CodeView } from '../../src/client/features/code/components/CodeView.tsx';
import { cachedLines, prepareHighlight } from '../../src/client/features/code/highlight.ts';

function renderInRouter(ui: ReactNode) {
  const root = createRootRoute({ component: () => <>{ui}</> });
  const routeTree = root.addChildren([createRoute({ getParentRoute: () => root, path: '$' })]);
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: ['/code/1/x'] }) });
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const snippet = (over: Partial<CodeSnippet>): CodeSnippet => ({
  uuid: 'u-1',
  post_id: 7,
  language: 'python',
  title: '问候',
  code: 'def greet(name):\n    return "hi " + name  # say hi\n',
  ...over,
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('CodeView', () => {
  it('renders the snippet as token spans with line numbers', async () => {
    const { container } = renderInRouter(<CodeView snippet={snippet({})} />);
    const region = await screen.findByRole('region', { name: '代码' });
    await waitFor(() => expect(region.querySelector('.tok-keyword')?.textContent).toBe('def'));
    expect([...region.querySelectorAll('.tok-string')].map((s) => s.textContent)).toContain('"hi "');
    expect(region.querySelector('.tok-comment')?.textContent).toBe('# say hi');
    expect([...region.querySelectorAll('.code-line__no')].map((n) => n.textContent)).toEqual(['1', '2']);
    expect(screen.getByText('Python')).toBeTruthy();
    expect(screen.getByText('2 行')).toBeTruthy();
    expect(container.querySelector('pre')?.textContent?.replace(/^\d+/gm, '')).toContain('return "hi " + name');
  });

  it('shows what a loader prepared highlighted on its first render', async () => {
    const code = 'fn main() { let x = 1; }';
    await prepareHighlight(code, 'rust');
    expect(cachedLines(code, 'rust')).toBeDefined();
    renderInRouter(<CodeView snippet={snippet({ code, language: 'rust' })} />);
    const region = await screen.findByRole('region', { name: '代码' });
    expect(region.querySelector('.tok-keyword')?.textContent).toBe('fn');
  });

  it('keeps hostile code as text, and an unknown language as plain text under its own name', async () => {
    const code = '</span><script>window.hacked = 1</script><img src=x onerror="alert(1)">';
    renderInRouter(<CodeView snippet={snippet({ code, language: 'brainfuck' })} />);
    const region = await screen.findByRole('region', { name: '代码' });
    expect(screen.getByText('brainfuck')).toBeTruthy();
    expect(region.querySelector('script, img')).toBeNull();
    expect(region.querySelector('.code-line__text')?.textContent).toBe(code);
    expect(region.querySelector('[class^="tok-"]')).toBeNull();
  });

  it('copies the code with 复制代码', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const code = 'SELECT 1;\n';
    renderInRouter(<CodeView snippet={snippet({ code, language: 'sql' })} />);
    fireEvent.click(await screen.findByRole('button', { name: '复制代码' }));
    expect(writeText).toHaveBeenCalledWith(code);
  });
});
