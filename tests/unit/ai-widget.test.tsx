import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AI_WIDGET_HIDDEN_KEY, useAiWidgetStore } from '../../src/client/app/layout/ai-widget-store.ts';
import AiWidget from '../../src/client/app/layout/AiWidget.tsx';
import { HeaderAiEntry } from '../../src/client/app/layout/Header.tsx';
import { clampPosition, initialPosition } from '../../src/client/app/layout/widget-position.ts';

describe('AI widget', () => {
  beforeEach(() => {
    localStorage.clear();
    useAiWidgetStore.getState().reload();
  });
  afterEach(() => {
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

  it('is visible by default; closing hides it, is remembered and shows the header entry', () => {
    render(
      <>
        <HeaderAiEntry />
        <AiWidget />
      </>,
    );
    expect(screen.getByRole('button', { name: /打开AI助手/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^AI助手/ })).toBeNull();
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: '关闭AI助手' }));
    });
    expect(screen.queryByRole('button', { name: /打开AI助手/ })).toBeNull();
    expect(localStorage.getItem(AI_WIDGET_HIDDEN_KEY)).toBe('1');
    expect(screen.getByRole('button', { name: /^AI助手/ })).toBeTruthy();
  });

  it('opens the AI page in a new window on click, and moves with arrow keys', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(<AiWidget />);
    const body = screen.getByRole('button', { name: /打开AI助手/ });
    fireEvent.click(body);
    expect(open).toHaveBeenCalledWith(expect.stringMatching(/^https?:/), '_blank', expect.stringContaining('noopener'));
    const widget = screen.getByTestId('ai-widget');
    const before = widget.style.transform;
    act(() => {
      fireEvent.keyDown(body, { key: 'ArrowLeft' });
    });
    expect(widget.style.transform).not.toBe(before);
  });

  it('does not open the page after a drag', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(<AiWidget />);
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
    fireEvent.click(screen.getByRole('button', { name: /打开AI助手/ }));
    expect(open).not.toHaveBeenCalled();
    expect(widget.style.transform).not.toBe(before);
  });
});
