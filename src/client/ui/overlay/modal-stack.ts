/**
 * The open modal <dialog>s, innermost last. A modal dialog makes the rest of the page inert and
 * sits in the browser's top layer, so whatever must stay visible and announced above it (the
 * toasts) renders inside the innermost one.
 */
import { create } from 'zustand';

interface ModalStackState {
  dialogs: HTMLDialogElement[];
  push: (dialog: HTMLDialogElement) => void;
  remove: (dialog: HTMLDialogElement) => void;
}

export const useModalStack = create<ModalStackState>()((set) => ({
  dialogs: [],
  push: (dialog) => set((s) => ({ dialogs: [...s.dialogs.filter((d) => d !== dialog), dialog] })),
  remove: (dialog) => set((s) => ({ dialogs: s.dialogs.filter((d) => d !== dialog) })),
}));

export const selectInnermostModal = (s: ModalStackState): HTMLDialogElement | null => s.dialogs.at(-1) ?? null;
