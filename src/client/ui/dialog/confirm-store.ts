/**
 * The confirm dialog (SPEC.md sections 2 and 4): title, content, optional cancel and ok
 * buttons; it closes on OK or Cancel and runs the matching callback. Opening another
 * message, picker or dialog closes it as cancelled.
 */
import type { ReactNode } from 'react';
import { create } from 'zustand';
import { useLayerStore } from '../overlay/layer-store.ts';

export interface ConfirmOptions {
  title?: ReactNode;
  content?: ReactNode;
  /** Text of the OK button; false hides it. Default 确定. */
  okText?: string | false;
  /** Text of the cancel button; false hides it. Default 取消. */
  cancelText?: string | false;
  /** Styles the OK button as destructive. */
  danger?: boolean;
  onOk?: () => void;
  onCancel?: () => void;
}

export interface ConfirmDialogState {
  id: number;
  title: ReactNode;
  content: ReactNode;
  okText: string | null;
  cancelText: string | null;
  danger: boolean;
}

interface Pending {
  layerId: number;
  resolve: (ok: boolean) => void;
  onOk: (() => void) | undefined;
  onCancel: (() => void) | undefined;
}

interface ConfirmState {
  current: ConfirmDialogState | null;
  open: (options: ConfirmOptions) => Promise<boolean>;
  /** Closes the dialog: true runs onOk, false runs onCancel. */
  settle: (ok: boolean) => void;
}

let nextId = 1;
let pending: Pending | null = null;

export const useConfirmStore = create<ConfirmState>()((set, get) => ({
  current: null,
  open(options) {
    return new Promise<boolean>((resolve) => {
      const id = nextId++;
      const layerId = useLayerStore.getState().open('dialog', () => {
        if (get().current?.id === id) get().settle(false);
      });
      pending = { layerId, resolve, onOk: options.onOk, onCancel: options.onCancel };
      set({
        current: {
          id,
          title: options.title ?? null,
          content: options.content ?? null,
          okText: options.okText === false ? null : (options.okText ?? '确定'),
          cancelText: options.cancelText === false ? null : (options.cancelText ?? '取消'),
          danger: options.danger ?? false,
        },
      });
    });
  },
  settle(ok) {
    const done = pending;
    if (!get().current || !done) return;
    pending = null;
    set({ current: null });
    useLayerStore.getState().release(done.layerId);
    if (ok) done.onOk?.();
    else done.onCancel?.();
    done.resolve(ok);
  },
}));

/** `await confirm({title, content})` resolves true on OK, false on cancel or Esc. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return useConfirmStore.getState().open(options);
}
