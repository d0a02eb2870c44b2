/**
 * The AI assistant widget (SPEC.md sections 1 and 4): visible by default; closing it hides
 * it, remembers that in localStorage and shows the header AI entry (showHeaderAiEnter).
 */
import { create } from 'zustand';

export const AI_WIDGET_HIDDEN_KEY = 'horde:ai-widget-hidden';

/** The external AI chatbot page (build-time VITE_AI_ASSISTANT_URL). */
export const AI_ASSISTANT_URL: string = import.meta.env.VITE_AI_ASSISTANT_URL || 'https://time.geekbang.org/ai';

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
  hidden: readHidden(),
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

/** Whether the header shows the small AI助手 entry. */
export const selectShowHeaderAiEnter = (state: AiWidgetState): boolean => state.hidden;

export function openAiAssistant(): void {
  window.open(AI_ASSISTANT_URL, '_blank', 'noopener,noreferrer');
}
