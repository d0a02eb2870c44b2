/**
 * The confirm dialog's state: title, content, optional cancel and ok buttons. It is opened with
 * confirm() (confirm.ts), apart so that the first screen, which only hosts it, does not carry it.
 */
import type { ReactNode } from 'react';
import { createPromptStore } from '../overlay/prompt-store.ts';

export interface ConfirmDialogState {
  title: ReactNode;
  content: ReactNode;
  okText: string | null;
  cancelText: string | null;
  danger: boolean;
}

/** Resolves true on OK, false on cancel, Esc or replacement. */
export const useConfirmStore = createPromptStore<ConfirmDialogState, boolean>('dialog', false);
