import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmHost } from '../../src/client/ui/dialog/ConfirmHost.tsx';
import { confirm } from '../../src/client/ui/dialog/confirm.ts';
import { useConfirmStore } from '../../src/client/ui/dialog/confirm-store.ts';
import { PickerHost } from '../../src/client/ui/picker/PickerHost.tsx';
import { openPicker } from '../../src/client/ui/picker/open-picker.ts';
import { usePickerStore } from '../../src/client/ui/picker/picker-store.ts';

/**
 * A click on the backdrop (the <dialog>'s own area around its panel), which began inside the
 * panel (dragging to select text) or not.
 */
function clickBackdrop(modal: HTMLElement, { startedInside }: { startedInside: boolean }) {
  const panel = modal.firstElementChild!;
  fireEvent.pointerDown(startedInside ? panel : modal);
  fireEvent.click(modal);
}

describe('dismissing a modal by its backdrop', () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => {
      usePickerStore.getState().settle(null);
      useConfirmStore.getState().settle(false);
    });
    cleanup();
    vi.restoreAllMocks();
  });

  it('keeps the picker open when a drag from inside ends on the backdrop, and closes it on a real click', async () => {
    render(<PickerHost />);
    act(() => void openPicker({ title: '更多操作', items: [{ key: 'copy', text: '复制链接' }] }));
    const sheet = await screen.findByRole('dialog', { name: '更多操作' });
    clickBackdrop(sheet, { startedInside: true });
    expect(usePickerStore.getState().current).not.toBeNull();
    clickBackdrop(sheet, { startedInside: false });
    expect(usePickerStore.getState().current).toBeNull();
  });

  it('does the same for the confirm dialog, which a backdrop click cancels only when it has a cancel button', async () => {
    render(<ConfirmHost />);
    act(() => void confirm({ title: '删除动态', content: '删除后不可恢复' }));
    const dialog = await screen.findByRole('alertdialog', { name: '删除动态' });
    clickBackdrop(dialog, { startedInside: true });
    expect(useConfirmStore.getState().current).not.toBeNull();
    clickBackdrop(dialog, { startedInside: false });
    expect(useConfirmStore.getState().current).toBeNull();

    act(() => void confirm({ title: '下线通知', cancelText: false }));
    clickBackdrop(await screen.findByRole('alertdialog', { name: '下线通知' }), { startedInside: false });
    expect(useConfirmStore.getState().current).not.toBeNull();
  });
});
