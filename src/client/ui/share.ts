/**
 * Sharing a page: the system share sheet (Web Share API) where the browser has one, otherwise
 * the link is copied (复制成功, 复制失败 or 不支持复制).
 */
import { copyWithToast } from './copy.ts';

export interface ShareContent {
  title: string;
  text?: string;
  url: string;
}

export async function shareLink(content: ShareContent): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share(content);
      return;
    } catch (error) {
      // The user closed the sheet: nothing to say.
      if (error instanceof DOMException && error.name === 'AbortError') return;
    }
  }
  await copyWithToast(content.url);
}
