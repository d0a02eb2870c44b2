/**
 * The bottom action picker's state: a slide-up sheet of icon + text items, opened with openPicker()
 * (open-picker.ts), apart so that the first screen, which only hosts it, does not carry it.
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

export interface PickerSheet {
  title: string | null;
  items: PickerItem[];
  cancelText: string;
}

/** Resolves the chosen item, or null when dismissed. */
export const usePickerStore = createPromptStore<PickerSheet, PickerItem | null>('picker', null);
