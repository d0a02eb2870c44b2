import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmHost } from '../../src/client/ui/dialog/ConfirmHost.tsx';
import { confirm, useConfirmStore } from '../../src/client/ui/dialog/confirm-store.ts';
import { isBodyScrollLocked } from '../../src/client/ui/overlay/scroll-lock.ts';

describe('ConfirmHost', () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => useConfirmStore.getState().settle(false));
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows title and content, focuses OK, traps Tab and cancels on Escape', async () => {
    render(
      <>
        <button type="button">outside</button>
        <ConfirmHost />
      </>,
    );
    let answer!: Promise<boolean>;
    act(() => {
      answer = confirm({ title: '下线通知', content: '你的账号已在其他设备登录', okText: '确定' });
    });
    const dialog = screen.getByRole('alertdialog', { name: '下线通知' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByText('你的账号已在其他设备登录')).toBeTruthy();
    const ok = screen.getByRole('button', { name: '确定' });
    const cancel = screen.getByRole('button', { name: '取消' });
    expect(document.activeElement).toBe(ok);
    expect(isBodyScrollLocked()).toBe(true);
    // Tab from the last button wraps to the first, never outside.
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(ok);
    act(() => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(isBodyScrollLocked()).toBe(false);
  });

  it('resolves true on OK and can hide the cancel button', async () => {
    render(<ConfirmHost />);
    let answer!: Promise<boolean>;
    act(() => {
      answer = confirm({ title: '提示', content: '已保存', cancelText: false });
    });
    expect(screen.queryByRole('button', { name: '取消' })).toBeNull();
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: '确定' }));
    });
    await expect(answer).resolves.toBe(true);
  });
});
