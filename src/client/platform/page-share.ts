/**
 * What a page says about itself when shared from the host (WeChat's menu, the mini-program's,
 * the app's share sheet): a page that knows better (a post) sets it while shown; otherwise the
 * document title, the page description and the app icon. The link is always the current
 * address, so it keeps the carried gk_/utm_/code parameters.
 */
export interface PageShare {
  title: string;
  desc: string;
  link: string;
  imgUrl: string;
}

let current: Partial<Omit<PageShare, 'link'>> | null = null;
const listeners = new Set<() => void>();

/**
 * Sets this page's share content; returns the reset for when the page goes. A page sets it when
 * its data arrives, which may be after the host read it on the route change: hosts listen.
 */
export function setPageShare(content: Partial<Omit<PageShare, 'link'>>): () => void {
  current = content;
  for (const listener of listeners) listener();
  return () => {
    if (current === content) current = null;
  };
}

/** Calls `listener` each time a page sets its share content; returns the unsubscribe. */
export function onPageShareSet(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function pageShare(): PageShare {
  const description = document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content ?? '';
  return {
    title: current?.title || document.title,
    desc: current?.desc || description,
    link: location.href.split('#')[0]!,
    imgUrl: new URL(current?.imgUrl || '/icons/icon-512.png', location.href).href,
  };
}
