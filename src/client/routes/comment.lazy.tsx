import { createLazyRoute, useRouter } from '@tanstack/react-router';
import { CommentComposer } from '../features/post/components/CommentComposer.tsx';
import { canGoBackInSession } from '../lib/visit-history.ts';
import { HomeLink } from '../ui/HomeLink.tsx';
import { IconComment } from '../ui/icons.tsx';
import { Page } from '../ui/Page.tsx';
import { EmptyState } from '../ui/states.tsx';

export const commentLazyRoute = createLazyRoute('/comment')({ component: CommentPage });

/** /comment (写评论), the mobile comment box: write, 发送, and back to the post. */
function CommentPage() {
  const { post_id: postId, reply_id: replyId, reply_to: replyNick } = commentLazyRoute.useSearch();
  const router = useRouter();
  if (postId === undefined) {
    return (
      <Page title="写评论">
        <div className="card">
          <EmptyState
            icon={<IconComment size={40} />}
            title="说说你的看法"
            description="在动态详情页就可以写评论、回复其他同学。"
            action={<HomeLink label="去看看动态" />}
          />
        </div>
      </Page>
    );
  }
  const backToPost = () => {
    if (canGoBackInSession()) router.history.back();
    else void router.navigate({ to: '/message/detail/$id', params: { id: String(postId) }, replace: true });
  };
  return (
    <Page title="写评论">
      <div className="card">
        <CommentComposer
          postId={postId}
          replyTo={replyId !== undefined ? { id: replyId, nick: replyNick || '这条评论' } : null}
          autoFocus
          rows={6}
          onSent={backToPost}
        />
      </div>
    </Page>
  );
}
