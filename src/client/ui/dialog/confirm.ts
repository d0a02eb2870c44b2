/**
 * The confirm dialog: title, content, optional cancel and ok buttons; it closes on OK or Cancel and
 * runs the matching callback. Opening another message, picker or dialog closes it as cancelled.
 */
import type { ReactNode } from 'react';
import { useConfirmStore } from './confirm-store.ts';

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

/** `await confirm({title, content})` resolves true on OK, false on cancel or Esc. */
export async function confirm(options: ConfirmOptions): Promise<boolean> {
  const ok = await useConfirmStore.getState().open({
    title: options.title ?? null,
    content: options.content ?? null,
    okText: options.okText === false ? null : (options.okText ?? '确定'),
    cancelText: options.cancelText === false ? null : (options.cancelText ?? '取消'),
    danger: options.danger ?? false,
  });
  if (ok) options.onOk?.();
  else options.onCancel?.();
  return ok;
}
