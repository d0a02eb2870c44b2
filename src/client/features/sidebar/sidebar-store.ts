/** Which sidebar items the user opened or closed (kept for the session, per item key). */
import { create } from 'zustand';

interface SidebarState {
  expanded: Record<string, boolean>;
  setOpen: (key: string, open: boolean) => void;
  /** Flips an item from its current state (`open` is how it shows now). */
  toggle: (key: string, open: boolean) => void;
}

export const useSidebarStore = create<SidebarState>()((set) => ({
  expanded: {},
  setOpen: (key, open) => set((state) => ({ expanded: { ...state.expanded, [key]: open } })),
  toggle: (key, open) => set((state) => ({ expanded: { ...state.expanded, [key]: !open } })),
}));
