/** Copying text to the clipboard, told in a toast: 复制成功, 复制失败 or 不支持复制. */
import { toast } from './toast/toast-store.ts';

export type CopyResult = 'done' | 'failed' | 'unsupported';

function legacyCopy(text: string): boolean {
  if (typeof document.execCommand !== 'function') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export async function copyText(text: string): Promise<CopyResult> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return 'done';
    } catch {
      return legacyCopy(text) ? 'done' : 'failed';
    }
  }
  if (typeof document.execCommand !== 'function') return 'unsupported';
  return legacyCopy(text) ? 'done' : 'failed';
}

/** Copies and says how it went: 复制成功 / 复制失败 / 不支持复制. */
export async function copyWithToast(text: string): Promise<CopyResult> {
  const result = await copyText(text);
  if (result === 'done') toast.success('复制成功');
  else if (result === 'failed') toast.error('复制失败');
  else toast.warning('不支持复制');
  return result;
}
