import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useWidgetDrag } from '../../src/client/app/layout/use-widget-drag.ts';
import type { Point } from '../../src/client/app/layout/widget-position.ts';

describe('useWidgetDrag', () => {
  const moveTo = vi.fn<(to: Point) => void>();
  const clicked = vi.fn<(dragged: boolean) => void>();

  function Widget({ position }: { position: Point | null }) {
    const [handlers, afterDrag] = useWidgetDrag(position, moveTo);
    return (
      <div data-testid="widget" {...handlers}>
        <button type="button" onClick={() => clicked(afterDrag())}>
          open
        </button>
        <button type="button" className="ai-widget__close">
          close
        </button>
      </div>
    );
  }
  const press = (type: 'pointerDown' | 'pointerMove' | 'pointerUp', x: number, y: number, target = screen.getByText('open')) =>
    act(() => {
      fireEvent[type](target, { pointerId: 7, button: 0, clientX: x, clientY: y });
    });

  beforeEach(() => {
    // jsdom has no pointer capture.
    Object.assign(HTMLElement.prototype, { setPointerCapture() {}, releasePointerCapture() {}, hasPointerCapture: () => true });
  });
  afterEach(() => {
    cleanup();
    vi.clearAllMocks();
    for (const name of ['setPointerCapture', 'releasePointerCapture', 'hasPointerCapture'] as const) {
      delete (HTMLElement.prototype as Partial<HTMLElement>)[name];
    }
  });

  it('moves the widget by what the pointer travelled, from where it was', () => {
    render(<Widget position={{ x: 100, y: 200 }} />);
    press('pointerDown', 10, 10);
    press('pointerMove', 40, -30);
    expect(moveTo).toHaveBeenLastCalledWith({ x: 130, y: 160 });
    press('pointerUp', 40, -30);
    press('pointerMove', 90, 90);
    expect(moveTo).toHaveBeenCalledTimes(1);
  });

  it('a press that travels under 5 px is a click; a drag’s closing click does nothing, once', () => {
    render(<Widget position={{ x: 0, y: 0 }} />);
    press('pointerDown', 10, 10);
    press('pointerMove', 13, 13);
    press('pointerUp', 13, 13);
    fireEvent.click(screen.getByText('open'));
    expect(moveTo).not.toHaveBeenCalled();
    expect(clicked).toHaveBeenLastCalledWith(false);

    press('pointerDown', 10, 10);
    press('pointerMove', 30, 10);
    press('pointerUp', 30, 10);
    fireEvent.click(screen.getByText('open'));
    expect(clicked).toHaveBeenLastCalledWith(true);
    fireEvent.click(screen.getByText('open'));
    expect(clicked).toHaveBeenLastCalledWith(false);
  });

  it('neither the close button nor a widget not yet placed drags', () => {
    const { rerender } = render(<Widget position={{ x: 0, y: 0 }} />);
    press('pointerDown', 10, 10, screen.getByText('close'));
    press('pointerMove', 90, 90, screen.getByText('close'));
    rerender(<Widget position={null} />);
    press('pointerDown', 10, 10);
    press('pointerMove', 90, 90);
    expect(moveTo).not.toHaveBeenCalled();
  });
});
