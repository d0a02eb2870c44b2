/**
 * The AI assistant widget: visible by default; closing it hides it, remembers that in localStorage
 * and shows the header AI entry (showHeaderAiEnter).
 */
import { create } from 'zustand';
import { clientConfig } from '../../platform/runtime-config.ts';

export const AI_WIDGET_HIDDEN_KEY = 'horde:ai-widget-hidden'; // horde: src/client/README.md ('horde')


function readHidden(): boolean {
  try {
    return localStorage.getItem(AI_WIDGET_HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

interface AiWidgetState {
  hidden: boolean;
  close: () => void;
  /** Reads the remembered choice again (another tab may have closed it). */
  reload: () => void;
}

export const useAiWidgetStore = create<AiWidgetState>()((set) => ({
  // As a page the server rendered shows it (zustand's server snapshot, which hydration reads);
  // the remembered choice is read below, and shows once the page is hydrated.
  hidden: false,
  close() {
    try {
      localStorage.setItem(AI_WIDGET_HIDDEN_KEY, '1');
    } catch {
      // Private mode: hidden for this page only.
    }
    set({ hidden: true });
  },
  reload: () => set({ hidden: readHidden() }),
}));

useAiWidgetStore.getState().reload();

/** Whether the header shows the small AI助手 entry. */
export const selectShowHeaderAiEnter = (state: AiWidgetState): boolean => state.hidden;

export function openAiAssistant(): void {
  window.open(clientConfig.aiAssistantUrl, '_blank', 'noopener,noreferrer');
}
