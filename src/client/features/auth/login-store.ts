/**
 * Whether the phone login popup is open. It is not one of the single-at-a-time layers
 * (message, picker, dialog): a toast about the network must not close a half-typed login.
 */
import { create } from 'zustand';
import { forgetAfterLogin } from '../../entities/session/login.ts';

interface LoginDialogState {
  open: boolean;
  openLogin: () => void;
  close: () => void;
}

export const useLoginDialogStore = create<LoginDialogState>()((set) => ({
  open: false,
  openLogin: () => set({ open: true }),
  close: () => {
    // Closed without logging in: the action that asked for the login is dropped. (After a
    // login it has already run: the login's own success waits for it.)
    forgetAfterLogin();
    set({ open: false });
  },
}));

/** Closes the popup (leaving the page). */
export function closeLoginDialog(): void {
  useLoginDialogStore.getState().close();
}
