/**
 * The share payload the native app's share sheet takes: the platforms offered (by default
 * WechatSession, WechatTimeLine, QQ, Sina, Copy), the texts, and params for each platform's card.
 */
/** The platforms the share sheet offers unless told otherwise. */
export const DEFAULT_SHARE_PLATFORMS = ['WechatSession', 'WechatTimeLine', 'QQ', 'Sina', 'Copy'] as const;

export interface NativeSharePayload {
  plats: string[];
  title: string;
  des: string;
  share_content: string;
  params: {
    title: string;
    desc: string;
    link: string;
    imgUrl: string;
    /** What the card is: a web page. */
    type: string;
    dataUrl: string;
    /** A mini-program card's page and id: none, the web page is shared. */
    pagePath: string;
    miniID: string;
    weiboTitle: string;
    showImage: boolean;
  };
}

export function nativeSharePayload(
  content: { title: string; desc?: string | undefined; link: string; imgUrl: string },
  plats: readonly string[] = DEFAULT_SHARE_PLATFORMS,
): NativeSharePayload {
  const desc = content.desc ?? '';
  return {
    plats: [...plats],
    title: content.title,
    des: desc,
    share_content: `${content.title} ${content.link}`,
    params: {
      title: content.title,
      desc,
      link: content.link,
      imgUrl: content.imgUrl,
      type: 'webpage',
      dataUrl: '',
      pagePath: '',
      miniID: '',
      // Weibo takes one text: the title with the link.
      weiboTitle: `${content.title} ${content.link}`,
      showImage: false,
    },
  };
}
