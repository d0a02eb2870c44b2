/**
 * The full-screen image gallery: no looping, zoom up to 3x, no caption or counter, arrow keys
 * blocked at the first and last image.
 */
import { create } from 'zustand';
import { GALLERY_MAX_ZOOM } from '#shared/constants.ts';

export interface GalleryImage {
  src: string;
  width: number;
  height: number;
  alt?: string;
  /** The thumbnail that opened the gallery; focus returns to it. */
  element?: HTMLElement | null;
}

interface GalleryState {
  items: GalleryImage[];
  index: number;
  open: boolean;
  show: (items: GalleryImage[], index?: number) => void;
  close: () => void;
  /** Moves by delta; never past the first or last image (no looping). Returns whether it moved. */
  go: (delta: number) => boolean;
}

export const MAX_ZOOM = GALLERY_MAX_ZOOM;

export function clampZoom(scale: number): number {
  return Math.min(MAX_ZOOM, Math.max(1, scale));
}

export const useGalleryStore = create<GalleryState>()((set, get) => ({
  items: [],
  index: 0,
  open: false,
  show(items, index = 0) {
    if (items.length === 0) return;
    set({ items, index: Math.min(Math.max(0, index), items.length - 1), open: true });
  },
  close() {
    const { items, index, open } = get();
    // Closing a closed gallery must not pull focus to a thumbnail of an earlier opening.
    if (!open) return;
    // Drop the items: their thumbnails would keep a page that is gone in memory.
    set({ open: false, items: [], index: 0 });
    items[index]?.element?.focus({ preventScroll: true });
  },
  go(delta) {
    const { index, items } = get();
    const next = index + delta;
    if (next < 0 || next >= items.length) return false;
    set({ index: next });
    return true;
  },
}));

export function openGallery(items: GalleryImage[], index = 0): void {
  useGalleryStore.getState().show(items, index);
}
