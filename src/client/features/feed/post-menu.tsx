/**
 * A post's 更多 menu (the bottom picker): 分享, and 投诉 on others' posts or 删除 on one's own.
 * Loaded when first opened.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { useRouter } from '@tanstack/react-router';
import type { Post } from '#shared/schemas.ts';
import { cutText } from '#shared/text-length.ts';
import { makeWrite } from '../../entities/outbox/index.ts';
import { sessionQueryOptions } from '../../entities/session/queries.ts';
import { confirm } from '../../ui/dialog/confirm.ts';
import { IconFlag, IconShare, IconTrash } from '../../ui/icons-secondary.tsx';
import { openPicker } from '../../ui/picker/open-picker.ts';
import { shareLink } from '../../ui/share.ts';
import { toast } from '../../ui/toast/toast-store.ts';

interface PostMenuContext {
  queryClient: QueryClient;
  isOwn: boolean;
  /** The post's address, absolute. */
  url: string;
  openComplaint: () => void;
  /** Before the post disappears: leave its detail page if that is where we are. */
  leaveDeleted: () => Promise<void>;
}

/**
 * Opens the menu of a card's 更多 button. What the menu needs from the app is worked out here,
 * in the lazily loaded chunk, not in the card (the first visit to /home carries every byte of it).
 */
export function openCardMenu(post: Post, queryClient: QueryClient, router: ReturnType<typeof useRouter>): Promise<void> {
  const detail = router.buildLocation({ to: '/message/detail/$id', params: { id: String(post.id) } });
  return openPostMenu(post, {
    queryClient,
    isOwn: queryClient.getQueryData(sessionQueryOptions().queryKey)?.uid === post.user.uid,
    url: new URL(detail.href, window.location.origin).href,
    openComplaint: () => void router.navigate({ to: '/complain', search: { type: 'post', id: post.id } }),
    leaveDeleted: async () => {
      if (router.state.location.pathname === detail.pathname) await router.navigate({ to: '/home', replace: true });
    },
  });
}

async function openPostMenu(post: Post, ctx: PostMenuContext): Promise<void> {
  const choice = await openPicker({
    items: [
      { key: 'share', text: '分享', icon: <IconShare /> },
      // One's own post: 删除, never 投诉.
      ...(ctx.isOwn ? [{ key: 'delete', text: '删除', icon: <IconTrash />, danger: true }] : [{ key: 'complain', text: '投诉', icon: <IconFlag /> }]),
    ],
  });
  if (choice?.key === 'share') {
    const image = post.attach.find((a) => a.type === 'image');
    await shareLink({
      title: `${post.user.nick}的动态`,
      text: cutText(post.content, 60),
      url: ctx.url,
      ...(image ? { imageUrl: new URL(image.url, ctx.url).href } : {}),
    });
  } else if (choice?.key === 'complain') {
    ctx.openComplaint();
  } else if (choice?.key === 'delete') {
    const ok = await confirm({ title: '删除动态', content: '删除后无法恢复，确定删除这条动态吗？', okText: '删除', danger: true });
    if (!ok) return;
    // Off the page it was on first: the post leaves every list at once (sent now, or once online).
    await ctx.leaveDeleted();
    const outcome = await makeWrite(ctx.queryClient, 'postDelete', { post_id: post.id });
    if (outcome.status === 'sent') toast.success('动态已删除');
    else if (outcome.status === 'queued') toast.info('已加入待发送，联网后删除');
  }
}
