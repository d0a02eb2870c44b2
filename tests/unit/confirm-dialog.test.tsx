import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmHost } from '../../src/client/ui/dialog/ConfirmHost.tsx';
import { confirm } from '../../src/client/ui/dialog/confirm.ts';
import { useConfirmStore } from '../../src/client/ui/dialog/confirm-store.ts';

describe('ConfirmHost', () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => useConfirmStore.getState().settle(false));
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows title and content in a modal <dialog>, focuses OK and cancels on Escape', async () => {
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
    const dialog = await screen.findByRole('alertdialog', { name: '下线通知' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog.dataset.shownModal).toBe('true');
    expect(screen.getByText('你的账号已在其他设备登录')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '确定' }));
    // Escape makes the browser fire `cancel` on the dialog.
    act(() => {
      fireEvent(dialog, new Event('cancel', { cancelable: true }));
    });
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('runs onOk or onCancel with the answer', async () => {
    render(<ConfirmHost />);
    const onOk = vi.fn();
    const onCancel = vi.fn();
    let answer!: Promise<boolean>;
    act(() => {
      answer = confirm({ title: '删除动态', onOk, onCancel });
    });
    const cancel = await screen.findByRole('button', { name: '取消' });
    act(() => {
      fireEvent.click(cancel);
    });
    await expect(answer).resolves.toBe(false);
    expect(onCancel).toHaveBeenCalledOnce();
    expect(onOk).not.toHaveBeenCalled();
  });

  it('resolves true on OK and can hide the cancel button', async () => {
    render(<ConfirmHost />);
    let answer!: Promise<boolean>;
    act(() => {
      answer = confirm({ title: '提示', content: '已保存', cancelText: false });
    });
    const ok = await screen.findByRole('button', { name: '确定' });
    expect(screen.queryByRole('button', { name: '取消' })).toBeNull();
    act(() => {
      fireEvent.click(ok);
    });
    await expect(answer).resolves.toBe(true);
  });
});
