/**
 * A post's 更多 menu (SPEC.md section 2, the bottom picker): 分享, 投诉, and 删除 on one's own
 * post. Loaded when first opened.
 */
import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Post } from '#shared/schemas.ts';
import { cutText } from '#shared/format.ts';
import { emitAppEvent } from '../../lib/app-events.ts';
import { request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';
import { runMutation } from '../../lib/query-client.ts';
import { confirm } from '../../ui/dialog/confirm-store.ts';
import { IconFlag, IconShare, IconTrash } from '../../ui/icons-secondary.tsx';
import { openPicker } from '../../ui/picker/picker-store.ts';
import { shareLink } from '../../ui/share.ts';
import { toast } from '../../ui/toast/toast-store.ts';

export interface PostMenuContext {
  queryClient: QueryClient;
  isOwn: boolean;
  /** The post's address, absolute. */
  url: string;
  openComplaint: () => void;
  /** Before the post disappears: leave its detail page if that is where we are. */
  leaveDeleted: () => void;
}

export async function openPostMenu(post: Post, ctx: PostMenuContext): Promise<void> {
  const choice = await openPicker({
    items: [
      { key: 'share', text: '分享', icon: <IconShare /> },
      { key: 'complain', text: '投诉', icon: <IconFlag /> },
      ...(ctx.isOwn ? [{ key: 'delete', text: '删除', icon: <IconTrash />, danger: true }] : []),
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
    const clientId = newClientId();
    await runMutation(ctx.queryClient, { mutationFn: () => request(endpoints.postDelete, { post_id: post.id, client_id: clientId }) }, undefined);
    ctx.leaveDeleted();
    // The deletePost event of SPEC.md section 4: the post leaves every list, in every tab.
    emitAppEvent('deletePost', { post_id: post.id });
    toast.success('动态已删除');
  }
}
