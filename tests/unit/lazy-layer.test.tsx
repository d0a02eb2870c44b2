/**
 * ui/LazyLayer.tsx: a layer whose code does not load shows what it is given instead (or nothing),
 * once, and the next layer to open loads it again; a layer the user asked for closes with a toast.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyLayer, lazyComponent } from '../../src/client/ui/LazyLayer.tsx';
import { useToastStore } from '../../src/client/ui/toast/toast-store.ts';

afterEach(() => {
  cleanup();
  act(() => useToastStore.getState().close());
});

/** A component whose code fails to load `failures` times, then loads; how often it was asked for. */
function flakyComponent(failures: number) {
  const loads = { count: 0 };
  const Component = lazyComponent<{ text: string }>(() => {
    loads.count += 1;
    if (loads.count <= failures) return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    return Promise.resolve({ default: ({ text }: { text: string }) => <p>{text}</p> });
  });
  return { Component, loads };
}

describe('a lazy component preloaded', () => {
  it('renders in the first commit of a layer mounted after its code came: nothing for a hydration to leave to later', async () => {
    const { Component, loads } = flakyComponent(0);
    await Component.preload();
    const { container } = render(
      <LazyLayer>
        <Component text="已经在这里" />
      </LazyLayer>,
    );
    // No act() or wait: what the first commit wrote.
    expect(container.textContent).toBe('已经在这里');
    expect(loads.count).toBe(1);
  });
});

describe('a LazyLayer whose code does not load', () => {
  it('shows its stand-in, having asked for the code once (React retrying the render does not load it again and again)', async () => {
    const { Component, loads } = flakyComponent(Infinity);
    render(
      <LazyLayer failed={<p>代码没有加载</p>}>
        <Component text="内容" />
      </LazyLayer>,
    );
    expect(await screen.findByText('代码没有加载')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(loads.count).toBe(1);
  });

  it('loads again when the next layer opens, and shows the code once it comes', async () => {
    const { Component, loads } = flakyComponent(1);
    const first = render(
      <LazyLayer>
        <Component text="第一次" />
      </LazyLayer>,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.queryByText('第一次')).toBeNull();
    first.unmount();
    render(
      <LazyLayer>
        <Component text="第二次" />
      </LazyLayer>,
    );
    expect(await screen.findByText('第二次')).toBeTruthy();
    expect(loads.count).toBe(2);
  });

  it('closes a layer the user asked for, with a toast that says why', async () => {
    const { Component, loads } = flakyComponent(Infinity);
    function Opened() {
      const [open, setOpen] = useState(true);
      return open ? (
        <LazyLayer onError={() => setOpen(false)}>
          <Component text="内容" />
        </LazyLayer>
      ) : (
        <p>已关闭</p>
      );
    }
    render(<Opened />);
    expect(await screen.findByText('已关闭')).toBeTruthy();
    expect(useToastStore.getState().current?.message).toBe('页面加载失败，请检查网络后刷新页面');
    expect(loads.count).toBe(1);
  });
});
