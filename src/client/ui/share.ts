/**
 * Sharing a page: through the host when it has its own way (the native app's share sheet, the
 * mini-program's menu: setHostShare), else the system share sheet (Web Share API) where the
 * browser has one, otherwise the link is copied (复制成功, 复制失败 or 不支持复制).
 */
import { copyWithToast } from './copy.ts';

export interface ShareContent {
  title: string;
  text?: string;
  url: string;
  /** A picture of what is shared (an absolute URL), for hosts that show one. */
  imageUrl?: string;
}

type HostShare = (content: ShareContent) => void | Promise<void>;
let hostShare: HostShare | null = null;

/** The host's own sharing, set once by the host's bridge when it loads. */
export function setHostShare(share: HostShare): void {
  hostShare = share;
}

export async function shareLink(content: ShareContent): Promise<void> {
  if (hostShare) return hostShare(content);
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
