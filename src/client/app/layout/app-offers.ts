/** A new version of the app is waiting (the service worker reported it); `apply` reloads into it. */
import { create } from 'zustand';

interface UpdateState {
  apply: (() => void) | null;
  dismissed: boolean;
  offer: (apply: () => void) => void;
  dismiss: () => void;
}

export const useUpdateStore = create<UpdateState>()((set) => ({
  apply: null,
  dismissed: false,
  offer: (apply) => set({ apply, dismissed: false }),
  dismiss: () => set({ dismissed: true }),
}));
