/**
 * A layer that asks the user something and answers a promise: the confirm dialog (OK or
 * cancel) and the bottom picker (an item or nothing). One at a time with every other message,
 * picker and dialog (layer-store): opened over another, that one is dismissed.
 */
import { create } from 'zustand';
import { useLayerStore, type LayerKind } from './layer-store.ts';

export interface PromptState<Shown, Answer> {
  /** What is on screen, or null. */
  current: (Shown & { id: number }) | null;
  open: (shown: Shown) => Promise<Answer>;
  /** Closes it with an answer. */
  settle: (answer: Answer) => void;
}

export function createPromptStore<Shown, Answer>(kind: LayerKind, dismissed: Answer) {
  let nextId = 1;
  let pending: { layerId: number; resolve: (answer: Answer) => void } | null = null;
  return create<PromptState<Shown, Answer>>()((set, get) => ({
    current: null,
    open(shown) {
      return new Promise<Answer>((resolve) => {
        const id = nextId++;
        const layerId = useLayerStore.getState().open(kind, () => {
          if (get().current?.id === id) get().settle(dismissed);
        });
        pending = { layerId, resolve };
        set({ current: { ...shown, id } });
      });
    },
    settle(answer) {
      const done = pending;
      if (!get().current || !done) return;
      pending = null;
      set({ current: null });
      useLayerStore.getState().release(done.layerId);
      done.resolve(answer);
    },
  }));
}
