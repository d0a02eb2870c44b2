import { useSuspenseQuery } from '@tanstack/react-query';
import { createLazyRoute, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { BooklistView } from '../features/booklist/components/BooklistView.tsx';
import { booklistQueryOptions } from '../features/booklist/queries.ts';
import { setPageShare } from '../platform/page-share.ts';
import { shareLink } from '../ui/share.ts';
import type { RouterContext } from './root.tsx';

/** The loader of booklistRoute: loaded with this page's code. */
export async function loadBooklist({ context, params }: { context: RouterContext; params: { code: string } }): Promise<void> {
  await context.queryClient.ensureQueryData(booklistQueryOptions(params.code));
}

export const booklistLazyRoute = createLazyRoute('/booklist/$code')({ component: BooklistPage });

function BooklistPage() {
  const { code } = booklistLazyRoute.useParams();
  const router = useRouter();
  const { data: list } = useSuspenseQuery(booklistQueryOptions(code));
  // Shared from the host's menu (WeChat, the mini-program), the list speaks for itself.
  useEffect(() => setPageShare({ title: list.title, desc: list.intro, imgUrl: list.cover.url }), [list]);
  const share = () => {
    const url = new URL(router.buildLocation({ to: '/booklist/$code', params: { code: list.code } }).href, window.location.origin);
    void shareLink({ title: list.title, text: list.intro, url: url.href, imageUrl: new URL(list.cover.url, url).href });
  };
  return <BooklistView list={list} onShare={share} />;
}
