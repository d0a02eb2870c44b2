import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AI_WIDGET_HIDDEN_KEY, useAiWidgetStore } from '../../src/client/app/layout/ai-widget-store.ts';
import AiWidget from '../../src/client/app/layout/AiWidget.tsx';
import { HeaderAiEntry } from '../../src/client/app/layout/Header.tsx';
import { clearHeight } from '../../src/client/app/layout/widget-clear-place.ts';
import { clampPosition, DOCK_VISIBLE_PX, dockedPosition, initialPosition, PC_DOCK_VISIBLE_PX, roomBesideContent } from '../../src/client/app/layout/widget-position.ts';
import { useLayoutStore } from '../../src/client/platform/layout-store.ts';

/** The widget's button that opens the assistant: named by its visible text. */
const OPEN_NAME = 'AI助手学习路上，有问必答（新窗口打开）';

describe('AI widget', () => {
  beforeEach(() => {
    localStorage.clear();
    useAiWidgetStore.getState().reload();
    useLayoutStore.setState({ isMobile: false });
    // A PC window with room for it beside the 1200 px page.
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(1700);
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(900);
  });
  afterEach(() => {
    useLayoutStore.setState({ isMobile: true });
    cleanup();
    vi.restoreAllMocks();
  });

  it('starts 230 px from the right and 110 + 200 px from the bottom, inside the viewport', () => {
    expect(initialPosition({ width: 200, height: 72 }, { width: 1280, height: 900 })).toEqual({ x: 1050, y: 590 });
    expect(clampPosition({ x: -50, y: 5000 }, { width: 200, height: 72 }, { width: 375, height: 812 })).toEqual({
      x: 8,
      y: 732,
    });
  });

  it('is visible by default; closing hides it, is remembered and shows the header entry', async () => {
    render(
      <>
        <HeaderAiEntry />
        <AiWidget />
      </>,
    );
    // The whole promo's code comes with its first showing.
    expect(await screen.findByRole('button', { name: OPEN_NAME })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^AI助手（新窗口）/ })).toBeNull();
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: '关闭AI助手' }));
    });
    expect(screen.queryByRole('button', { name: OPEN_NAME })).toBeNull();
    expect(localStorage.getItem(AI_WIDGET_HIDDEN_KEY)).toBe('1');
    expect(screen.getByRole('button', { name: /^AI助手/ })).toBeTruthy();
  });

  it('opens the AI page in a new window on click, and moves with arrow keys', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(<AiWidget />);
    const body = await screen.findByRole('button', { name: OPEN_NAME });
    expect(body.getAttribute('aria-describedby') && document.getElementById(body.getAttribute('aria-describedby')!)?.textContent).toBe(
      '方向键可移动位置',
    );
    fireEvent.click(body);
    expect(open).toHaveBeenCalledWith(expect.stringMatching(/^https?:/), '_blank', expect.stringContaining('noopener'));
    const widget = screen.getByTestId('ai-widget');
    const before = widget.style.transform;
    act(() => {
      fireEvent.keyDown(body, { key: 'ArrowLeft' });
    });
    expect(widget.style.transform).not.toBe(before);
  });

  it('does not open the page after a drag', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(<AiWidget />);
    await screen.findByRole('button', { name: OPEN_NAME });
    const widget = screen.getByTestId('ai-widget');
    widget.setPointerCapture = () => {};
    widget.hasPointerCapture = () => true;
    widget.releasePointerCapture = () => {};
    const before = widget.style.transform;
    act(() => {
      fireEvent.pointerDown(widget, { pointerId: 1, button: 0, clientX: 300, clientY: 300 });
      fireEvent.pointerMove(widget, { pointerId: 1, clientX: 200, clientY: 250 });
      fireEvent.pointerUp(widget, { pointerId: 1, clientX: 200, clientY: 250 });
    });
    fireEvent.click(screen.getByRole('button', { name: OPEN_NAME }));
    expect(open).not.toHaveBeenCalled();
    expect(widget.style.transform).not.toBe(before);
  });

  it('has room beside the 1200 px page only where the whole widget fits in the margin at its first place', () => {
    expect(roomBesideContent(1280)).toBe(false);
    expect(roomBesideContent(1600)).toBe(false);
    expect(roomBesideContent(1680)).toBe(true);
    const start = initialPosition({ width: 200, height: 72 }, { width: 1680, height: 900 });
    expect(start.x).toBeGreaterThanOrEqual((1680 + 1200) / 2);
  });

  it('on a PC window without that room waits docked at the right edge too, clear of the page', () => {
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(1280);
    render(<AiWidget />);
    expect(screen.getByTestId('ai-widget').style.transform).toBe(`translate3d(${1280 - PC_DOCK_VISIBLE_PX}px, ${900 - 310}px, 0)`);
    expect(screen.queryByRole('button', { name: OPEN_NAME })).toBeNull();
    expect(screen.getByRole('button', { name: 'AI助手' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('on a phone waits docked at the right edge, out of the text column, and comes out on a tap', async () => {
    useLayoutStore.setState({ isMobile: true });
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(375);
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(740);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(<AiWidget />);
    const widget = screen.getByTestId('ai-widget');
    // Only 16 px show, inside the 16 px padding the post text keeps from the edge.
    expect(DOCK_VISIBLE_PX).toBeLessThanOrEqual(16);
    expect(widget.style.transform).toBe(`translate3d(${375 - DOCK_VISIBLE_PX}px, ${740 - 310}px, 0)`);
    expect(screen.queryByRole('button', { name: OPEN_NAME })).toBeNull();
    const tab = screen.getByRole('button', { name: 'AI助手' });
    expect(tab.getAttribute('aria-expanded')).toBe('false');
    act(() => {
      fireEvent.click(tab);
    });
    const body = await screen.findByRole('button', { name: OPEN_NAME });
    expect(widget.style.transform).not.toContain(`${375 - DOCK_VISIBLE_PX}px`);
    fireEvent.click(body);
    expect(open).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: '关闭AI助手' })).toBeTruthy();
    // Scrolling on puts it back at the edge, at the same height.
    act(() => {
      window.dispatchEvent(new Event('scroll'));
    });
    expect(widget.style.transform).toBe(`translate3d(${375 - DOCK_VISIBLE_PX}px, ${740 - 310}px, 0)`);
    expect(dockedPosition(5000, { width: 44, height: 44 }, { width: 375, height: 740 })).toEqual({ x: 359, y: 688 });
  });

  it('brought out, takes the nearest height where it lies over no control, and none where every height has one', () => {
    const widget = { width: 200, height: 70 };
    const view = { width: 375, height: 740 };
    const box = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });
    // Nothing in its column: where it was.
    expect(clearHeight(167, 430, widget, view, [box(0, 0, 100, 740)])).toBe(430);
    // A card's 更多 at 420-450 and a link at 520-540: just below the 更多, or above, whichever is nearer.
    const y = clearHeight(167, 430, widget, view, [box(330, 420, 370, 450), box(170, 520, 260, 540)]);
    expect(y).not.toBeNull();
    expect(y! >= 454 ? y! + 70 <= 516 : y! + 70 <= 416).toBe(true);
    // Controls every 60 px down the whole column: no place.
    const rows = Array.from({ length: 13 }, (_, i) => box(180, i * 60, 360, i * 60 + 20));
    expect(clearHeight(167, 430, widget, view, rows)).toBeNull();
  });

  it('on a phone goes straight to the AI page when there is no place to bring it out to', async () => {
    useLayoutStore.setState({ isMobile: true });
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(375);
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(740);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    // A column of buttons, each 30 px, from the top of the window to its bottom.
    const page = document.createElement('div');
    for (let top = 0; top < 740; top += 30) {
      const button = document.createElement('button');
      button.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: top, width: 375, height: 30 });
      page.append(button);
    }
    document.body.append(page);
    try {
      render(<AiWidget />);
      act(() => {
        fireEvent.click(screen.getByRole('button', { name: 'AI助手' }));
      });
      await vi.waitFor(() => expect(open).toHaveBeenCalledTimes(1));
      expect(screen.queryByRole('button', { name: OPEN_NAME })).toBeNull();
    } finally {
      page.remove();
    }
  });
});
