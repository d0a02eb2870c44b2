import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IconCopy } from '../../src/client/ui/icons-secondary.tsx';
import { PickerHost } from '../../src/client/ui/picker/PickerHost.tsx';
import { openPicker } from '../../src/client/ui/picker/open-picker.ts';
import { usePickerStore } from '../../src/client/ui/picker/picker-store.ts';

describe('PickerHost', () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => usePickerStore.getState().settle(null));
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows icon + text items and resolves with the chosen one', async () => {
    render(<PickerHost />);
    let picked!: ReturnType<typeof openPicker>;
    act(() => {
      picked = openPicker({
        title: '更多操作',
        items: [
          { key: 'copy', text: '复制链接', icon: <IconCopy /> },
          { key: 'report', text: '投诉', danger: true },
        ],
      });
    });
    const sheet = await screen.findByRole('dialog', { name: '更多操作' });
    expect(sheet.tagName).toBe('DIALOG');
    expect(sheet.dataset.shownModal).toBe('true');
    expect(sheet.querySelector('svg')).not.toBeNull();
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: '投诉' }));
    });
    await expect(picked).resolves.toMatchObject({ key: 'report' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('resolves null on 取消 and on Escape', async () => {
    render(<PickerHost />);
    let picked!: ReturnType<typeof openPicker>;
    act(() => {
      picked = openPicker({ items: [{ key: 'a', text: '分享' }] });
    });
    const cancel = await screen.findByRole('button', { name: '取消' });
    act(() => {
      fireEvent.click(cancel);
    });
    await expect(picked).resolves.toBeNull();
    act(() => {
      picked = openPicker({ items: [{ key: 'a', text: '分享' }] });
    });
    const sheet = await screen.findByRole('dialog');
    act(() => {
      fireEvent(sheet, new Event('cancel', { cancelable: true }));
    });
    await expect(picked).resolves.toBeNull();
  });
});
