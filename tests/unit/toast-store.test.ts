// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirm } from '../../src/client/ui/dialog/confirm.ts';
import { useConfirmStore } from '../../src/client/ui/dialog/confirm-store.ts';
import { useLayerStore } from '../../src/client/ui/overlay/layer-store.ts';
import { openPicker } from '../../src/client/ui/picker/open-picker.ts';
import { usePickerStore } from '../../src/client/ui/picker/picker-store.ts';
import { defaultDuration, toast, useToastStore } from '../../src/client/ui/toast/toast-store.ts';

describe('toast store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    toast.close();
    useConfirmStore.getState().settle(false);
    usePickerStore.getState().settle(null);
    vi.useRealTimers();
  });

  it('closes after 1.5 s by default', () => {
    toast.success('复制成功');
    expect(useToastStore.getState().current).toMatchObject({ type: 'success', message: '复制成功', duration: 1.5 });
    vi.advanceTimersByTime(1499);
    expect(useToastStore.getState().current).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(useToastStore.getState().current).toBeNull();
  });

  it('keeps a toast with duration 0 until it is closed', () => {
    const onClose = vi.fn();
    const id = toast.info('一直在', { duration: 0, closable: true, onClose });
    vi.advanceTimersByTime(60_000);
    expect(useToastStore.getState().current?.id).toBe(id);
    toast.close(id);
    expect(useToastStore.getState().current).toBeNull();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('supports every type; loading stays until closed', () => {
    for (const type of ['info', 'success', 'warning', 'error', 'toast'] as const) {
      expect(defaultDuration(type)).toBe(1.5);
      toast[type]('x');
      expect(useToastStore.getState().current?.type).toBe(type);
    }
    expect(defaultDuration('loading')).toBe(0);
    toast.loading('加载中');
    vi.advanceTimersByTime(10_000);
    expect(useToastStore.getState().current?.type).toBe('loading');
  });

  it('shows one toast at a time: a new one replaces the old', () => {
    const firstClosed = vi.fn();
    const first = toast.info('第一条', { onClose: firstClosed });
    const second = toast.error('第二条');
    expect(useToastStore.getState().current?.id).toBe(second);
    expect(firstClosed).toHaveBeenCalledOnce();
    // The first one's timer must not close the second.
    toast.close(first);
    expect(useToastStore.getState().current?.id).toBe(second);
    vi.advanceTimersByTime(1500);
    expect(useToastStore.getState().current).toBeNull();
  });

  it('takes a custom top', () => {
    toast.info('上方', { top: 100 });
    expect(useToastStore.getState().current?.top).toBe(100);
  });
});

describe('one message, picker or dialog at a time', () => {
  afterEach(() => {
    toast.close();
    useConfirmStore.getState().settle(false);
    usePickerStore.getState().settle(null);
  });

  it('opening a dialog closes the toast; a toast closes the dialog as cancelled', async () => {
    toast.info('hello', { duration: 0 });
    const onCancel = vi.fn();
    const answer = confirm({ title: '删除动态', content: '删除后不可恢复', onCancel });
    expect(useToastStore.getState().current).toBeNull();
    expect(useLayerStore.getState().active?.kind).toBe('dialog');
    toast.error('出错了');
    await expect(answer).resolves.toBe(false);
    expect(onCancel).toHaveBeenCalledOnce();
    expect(useConfirmStore.getState().current).toBeNull();
    expect(useLayerStore.getState().active?.kind).toBe('message');
  });

  it('a picker replaces a dialog and resolves null when replaced', async () => {
    const answer = confirm({ title: 'A' });
    const picked = openPicker({ items: [{ key: 'share', text: '分享' }] });
    await expect(answer).resolves.toBe(false);
    expect(usePickerStore.getState().current?.items[0]?.text).toBe('分享');
    confirm({ title: 'B' });
    await expect(picked).resolves.toBeNull();
  });

  it('confirm runs onOk and resolves true', async () => {
    const onOk = vi.fn();
    const answer = confirm({ title: '确认', onOk });
    useConfirmStore.getState().settle(true);
    await expect(answer).resolves.toBe(true);
    expect(onOk).toHaveBeenCalledOnce();
    expect(useLayerStore.getState().active).toBeNull();
  });
});
