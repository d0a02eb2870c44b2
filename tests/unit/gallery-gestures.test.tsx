import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toggledView, UNZOOMED, useImageView, wheeledView } from '../../src/client/ui/gallery/image-view.ts';
import { useGalleryGestures } from '../../src/client/ui/gallery/use-gallery-gestures.ts';

describe('the gallery image view', () => {
  it('a double tap zooms 2x around the point, and back', () => {
    const box = { left: 0, top: 0, width: 400, height: 300 } as DOMRect;
    const zoomed = toggledView(UNZOOMED, { x: 300, y: 150 }, box);
    expect(zoomed).toEqual({ scale: 2, x: -100, y: -0 });
    expect(toggledView(zoomed, { x: 0, y: 0 }, box)).toBe(UNZOOMED);
    expect(toggledView(UNZOOMED, { x: 300, y: 150 }, undefined)).toEqual({ scale: 2, x: -0, y: -0 });
  });

  it('the wheel zooms by steps, never past 3x, and unzoomed drops the pan', () => {
    const once = wheeledView(UNZOOMED, -1);
    expect(once.scale).toBeCloseTo(1.15);
    let view = once;
    for (let i = 0; i < 20; i++) view = wheeledView(view, -1);
    expect(view.scale).toBe(3);
    expect(wheeledView({ scale: 1.1, x: 20, y: 5 }, 1)).toBe(UNZOOMED);
  });
});

describe('useGalleryGestures', () => {
  const go = vi.fn();
  const close = vi.fn();

  function Harness({ isMobile, imageKey = 'a' }: { isMobile: boolean; imageKey?: string }) {
    const rootRef = useRef<HTMLDivElement>(null);
    const [view, setView] = useImageView(imageKey);
    const gestures = useGalleryGestures({ view, setView, isMobile, rootRef, go, close });
    return (
      <div ref={rootRef} data-testid="root" data-view={JSON.stringify(view)} {...gestures}>
        <img alt="" />
        <button type="button">x</button>
      </div>
    );
  }
  const root = () => screen.getByTestId('root');
  const view = () => JSON.parse(root().dataset.view!) as { scale: number; x: number; y: number };
  const pointer = (type: 'pointerDown' | 'pointerMove' | 'pointerUp', x: number, y = 100, pointerId = 1, target: Element = root()) =>
    act(() => {
      fireEvent[type](target, { pointerId, clientX: x, clientY: y });
    });

  beforeEach(() => {
    vi.useFakeTimers();
    // jsdom has no pointer capture.
    Object.assign(HTMLElement.prototype, { setPointerCapture() {} });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.clearAllMocks();
    delete (HTMLElement.prototype as Partial<HTMLElement>).setPointerCapture;
  });

  it('a swipe pages: left goes on, right goes back; a short one does nothing', () => {
    render(<Harness isMobile />);
    pointer('pointerDown', 300);
    pointer('pointerMove', 200);
    pointer('pointerUp', 200);
    expect(go).toHaveBeenLastCalledWith(1);
    pointer('pointerDown', 100);
    pointer('pointerMove', 200);
    pointer('pointerUp', 200);
    expect(go).toHaveBeenLastCalledWith(-1);
    pointer('pointerDown', 100);
    pointer('pointerMove', 130);
    pointer('pointerUp', 130);
    expect(go).toHaveBeenCalledTimes(2);
    act(() => vi.advanceTimersByTime(1000));
    expect(close).not.toHaveBeenCalled();
  });

  it('two fingers pinch-zoom, up to 3x, and a zoomed image pans instead of paging', () => {
    render(<Harness isMobile />);
    pointer('pointerDown', 100, 100, 1);
    pointer('pointerDown', 200, 100, 2);
    pointer('pointerMove', 300, 100, 2);
    expect(view().scale).toBe(2);
    pointer('pointerMove', 900, 100, 2);
    expect(view().scale).toBe(3);
    pointer('pointerUp', 100, 100, 1);
    pointer('pointerUp', 900, 100, 2);
    pointer('pointerDown', 100, 100);
    pointer('pointerMove', 40, 130);
    pointer('pointerUp', 40, 130);
    expect(view()).toEqual({ scale: 3, x: -60, y: 30 });
    expect(go).not.toHaveBeenCalled();
  });

  it('on desktop a click on the image waits for a double click; beside it, it closes', () => {
    render(<Harness isMobile={false} />);
    const image = root().querySelector('img')!;
    pointer('pointerDown', 10, 10, 1, image);
    pointer('pointerUp', 10, 10, 1, image);
    act(() => vi.advanceTimersByTime(1000));
    expect(close).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1000));
    pointer('pointerDown', 10);
    pointer('pointerUp', 10);
    act(() => vi.advanceTimersByTime(1000));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('presses on a button are left to the button', () => {
    render(<Harness isMobile />);
    const button = screen.getByRole('button');
    pointer('pointerDown', 10, 10, 1, button);
    pointer('pointerUp', 10, 10, 1, button);
    act(() => vi.advanceTimersByTime(1000));
    expect(close).not.toHaveBeenCalled();
  });

  it('another image starts unzoomed', () => {
    const { rerender } = render(<Harness isMobile={false} />);
    act(() => {
      fireEvent.wheel(root(), { deltaY: -1 });
    });
    expect(view().scale).toBeCloseTo(1.15);
    rerender(<Harness isMobile={false} imageKey="b" />);
    expect(view()).toEqual(UNZOOMED);
  });
});
