/**
 * The bottom action picker (SPEC.md section 2): a slide-up sheet of icon + text items.
 * One at a time with messages and dialogs (layer store).
 */
import type { ReactNode } from 'react';
import { create } from 'zustand';
import { useLayerStore } from '../overlay/layer-store.ts';

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
  id: number;
  title: string | null;
  items: PickerItem[];
  cancelText: string;
}

interface PickerState {
  current: PickerSheet | null;
  open: (options: PickerOptions) => Promise<PickerItem | null>;
  /** Closes the sheet with the chosen item, or null for cancel. */
  choose: (item: PickerItem | null) => void;
}

let nextId = 1;
let pending: { layerId: number; resolve: (item: PickerItem | null) => void } | null = null;

export const usePickerStore = create<PickerState>()((set, get) => ({
  current: null,
  open(options) {
    return new Promise((resolve) => {
      const id = nextId++;
      const layerId = useLayerStore.getState().open('picker', () => {
        if (get().current?.id === id) get().choose(null);
      });
      pending = { layerId, resolve };
      set({ current: { id, title: options.title ?? null, items: options.items, cancelText: options.cancelText ?? '取消' } });
    });
  },
  choose(item) {
    const done = pending;
    if (!get().current || !done) return;
    pending = null;
    set({ current: null });
    useLayerStore.getState().release(done.layerId);
    done.resolve(item);
  },
}));

/** `const item = await openPicker({items})`: the chosen item, or null when dismissed. */
export function openPicker(options: PickerOptions): Promise<PickerItem | null> {
  return usePickerStore.getState().open(options);
}
