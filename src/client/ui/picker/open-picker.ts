/**
 * The bottom action picker: a slide-up sheet of icon + text items.
 * One at a time with messages and dialogs (layer store).
 */
import { usePickerStore, type PickerItem } from './picker-store.ts';

export interface PickerOptions {
  title?: string;
  items: PickerItem[];
  /** Text of the cancel row; default 取消. */
  cancelText?: string;
}

/** `const item = await openPicker({items})`: the chosen item, or null when dismissed. */
export function openPicker(options: PickerOptions): Promise<PickerItem | null> {
  return usePickerStore.getState().open({ title: options.title ?? null, items: options.items, cancelText: options.cancelText ?? '取消' });
}
