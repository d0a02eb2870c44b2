/**
 * Toasts: one at a time, types info, success, warning, error, loading and toast; auto-closed after
 * `duration` seconds (default 1.5; 0 stays until closed), placed at 48% of the window height unless
 * a `top` is given.
 */
import type { ReactNode } from 'react';
import { create } from 'zustand';
import { TOAST_DEFAULT_DURATION_S } from '#shared/constants.ts';
import { useLayerStore } from '../overlay/layer-store.ts';

export type ToastType = 'info' | 'success' | 'warning' | 'error' | 'loading' | 'toast';

export interface ToastOptions {
  message: string;
  type?: ToastType;
  /** Seconds; 0 keeps the toast until it is closed. Default 1.5 (loading: 0). */
  duration?: number;
  /** Shows a close button. */
  closable?: boolean;
  /** Replaces the type icon. */
  prefix?: ReactNode;
  /** Distance from the top in px; default: centred at 48% of the height. */
  top?: number;
  /** A stable name: showing a toast with the same name again updates it in place. */
  name?: string;
  onClose?: () => void;
}

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  duration: number;
  closable: boolean;
  prefix: ReactNode;
  top: number | null;
  name: string | null;
  onClose: (() => void) | undefined;
}

interface ToastState {
  current: Toast | null;
  show: (options: ToastOptions) => number;
  /** Closes the toast with this id (or whichever is open); a stale id does nothing. */
  close: (id?: number) => void;
  /** The toast with this id is not on screen yet (its view's code loads): its time has not begun. */
  hold: (id: number) => void;
  /** The toast with this id is on screen now: a held one has its whole duration from here. */
  shown: (id: number) => void;
}

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;
let layerId: number | undefined;
/** The toast whose time waits until it is on screen. */
let heldId: number | undefined;

function clearTimer(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
}

function startTimer(toast: Toast, close: (id: number) => void): void {
  clearTimer();
  if (toast.duration > 0) timer = setTimeout(() => close(toast.id), toast.duration * 1000);
}

export function defaultDuration(type: ToastType): number {
  // A loading toast describes work in progress; it stays until the work closes it.
  return type === 'loading' ? 0 : TOAST_DEFAULT_DURATION_S;
}

export const useToastStore = create<ToastState>()((set, get) => ({
  current: null,
  show(options) {
    const type = options.type ?? 'toast';
    const duration = Math.max(0, options.duration ?? defaultDuration(type));
    const previous = get().current;
    const id = nextId++;
    const toast: Toast = {
      id,
      type,
      message: options.message,
      duration,
      closable: options.closable ?? false,
      prefix: options.prefix,
      top: options.top ?? null,
      name: options.name ?? null,
      onClose: options.onClose,
    };
    clearTimer();
    set({ current: toast });
    // The previous toast is replaced: tell its owner it is gone.
    if (previous && previous.id !== id) previous.onClose?.();
    const layers = useLayerStore.getState();
    if (layerId === undefined || layers.active?.id !== layerId) {
      layerId = layers.open('message', () => {
        layerId = undefined;
        get().close();
      });
    }
    startTimer(toast, get().close);
    return id;
  },
  hold(id) {
    if (get().current?.id !== id) return;
    clearTimer();
    heldId = id;
  },
  shown(id) {
    const current = get().current;
    if (heldId !== id || current?.id !== id) return;
    heldId = undefined;
    startTimer(current, get().close);
  },
  close(id) {
    const current = get().current;
    if (!current || (id !== undefined && current.id !== id)) return;
    clearTimer();
    set({ current: null });
    if (layerId !== undefined) {
      const released = layerId;
      layerId = undefined;
      useLayerStore.getState().release(released);
    }
    current.onClose?.();
  },
}));

type Shortcut = (message: string, options?: Omit<ToastOptions, 'message' | 'type'>) => number;

function shortcut(type: ToastType): Shortcut {
  return (message, options) => useToastStore.getState().show({ ...options, message, type });
}

/** The toast API for features: `toast.error('...')`, `toast.close(id)`. */
export const toast = {
  show: (options: ToastOptions) => useToastStore.getState().show(options),
  info: shortcut('info'),
  success: shortcut('success'),
  warning: shortcut('warning'),
  error: shortcut('error'),
  loading: shortcut('loading'),
  toast: shortcut('toast'),
  close: (id?: number) => useToastStore.getState().close(id),
};
