/**
 * The bottom action picker: a slide-up sheet of icon + text items.
 * One at a time with messages and dialogs (layer store).
 */
import type { ReactNode } from 'react';
import { createPromptStore } from '../overlay/prompt-store.ts';

export interface PickerItem {
  key: string;
  text: string;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
}

export interface PickerOptions {
  title?: string;
  items: PickerItem[];
  /** Text of the cancel row; default 取消. */
  cancelText?: string;
}

export interface PickerSheet {
  title: string | null;
  items: PickerItem[];
  cancelText: string;
}

/** Resolves the chosen item, or null when dismissed. */
export const usePickerStore = createPromptStore<PickerSheet, PickerItem | null>('picker', null);

/** `const item = await openPicker({items})`: the chosen item, or null when dismissed. */
export function openPicker(options: PickerOptions): Promise<PickerItem | null> {
  return usePickerStore.getState().open({ title: options.title ?? null, items: options.items, cancelText: options.cancelText ?? '取消' });
}
