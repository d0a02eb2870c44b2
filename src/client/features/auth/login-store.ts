/**
 * Whether the phone login popup is open. It is not one of the single-at-a-time layers
 * (message, picker, dialog): a toast about the network must not close a half-typed login.
 */
import { create } from 'zustand';

interface LoginDialogState {
  open: boolean;
  openLogin: () => void;
  close: () => void;
}

export const useLoginDialogStore = create<LoginDialogState>()((set) => ({
  open: false,
  openLogin: () => set({ open: true }),
  close: () => set({ open: false }),
}));

/** Closes the popup (leaving the page). */
export function closeLoginDialog(): void {
  useLoginDialogStore.getState().close();
}
