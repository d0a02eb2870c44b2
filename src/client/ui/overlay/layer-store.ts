/**
 * The global layer coordinator: only one message, picker or dialog exists at a time; opening a new
 * one closes the previous. Each concern keeps its own store (toast, picker, confirm); this store
 * only knows which one is on screen and how to close it.
 */
import { create } from 'zustand';

export type LayerKind = 'message' | 'picker' | 'dialog';

export interface Layer {
  id: number;
  kind: LayerKind;
  /** Closes the layer as if it had been dismissed (a dialog counts as cancelled). */
  close: () => void;
}

interface LayerState {
  active: Layer | null;
  /** Registers a new layer and closes the one before it. Returns the new layer's id. */
  open: (kind: LayerKind, close: () => void) => number;
  /** Forgets a layer that closed itself; a stale id (already replaced) is ignored. */
  release: (id: number) => void;
}

let nextLayerId = 1;

export const useLayerStore = create<LayerState>()((set, get) => ({
  active: null,
  open(kind, close) {
    const previous = get().active;
    const id = nextLayerId++;
    set({ active: { id, kind, close } });
    // Close the previous one after the new one is registered, so its release() is a no-op.
    previous?.close();
    return id;
  },
  release(id) {
    if (get().active?.id === id) set({ active: null });
  },
}));
