import { useSuspenseQuery } from '@tanstack/react-query';
import type { RouterContext } from './root.tsx';
import { createLazyRoute, Link, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { cutText } from '#shared/text-length.ts';
import type { ImageAttach, Post } from '#shared/schemas.ts';
import { postDetailQueryOptions } from '../entities/post/queries.ts';
import { PostCard } from '../features/feed/components/PostCard.tsx';
import { preloadPostParts } from '../features/feed/post-parts.ts';
import { preloadRichText } from '../features/feed/components/PostContent.tsx';
import { Likers } from '../features/post/components/Likers.tsx';
import { PostComments } from '../features/post/components/PostComments.tsx';
import { downloadBlob, drawPoster } from '../features/post/poster.ts';
import { commentsQueryOptions } from '../entities/comment/queries.ts';
import { AuthorFollowButton } from '../features/user/components/AuthorFollowButton.tsx';
import { fullTime } from '../format/time.ts';
import { setPageShare } from '../platform/page-share.ts';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { LogoMark } from '../ui/Logo.tsx';
import { Page } from '../ui/Page.tsx';
import { RichText } from '../ui/RichText.tsx';
import { shareLink } from '../ui/share.ts';
import { toast } from '../ui/toast/toast-store.ts';
import { openInAppHref } from './app-link.ts';
import { parseId } from './params.ts';
import './open-in-app.css';
import './poster.css';

/** The loader of messageDetail: loaded with this page's code. */
export async function loadMessageDetail({ context, params }: { context: RouterContext; params: { id: string } }): Promise<void> {
  const postId = parseId(params.id);
  void context.queryClient.prefetchInfiniteQuery(commentsQueryOptions(postId));
  // The post's rich text is in this page's code: loaded before the first render (the server's
  // and the hydration's alike), it renders at once rather than after a suspension.
  await Promise.all([context.queryClient.ensureQueryData(postDetailQueryOptions(postId)).then(preloadPostParts), preloadRichText()]);
}

/** The loader of messagePoster: loaded with this page's code. */
export async function loadMessagePoster({ context, params }: { context: RouterContext; params: { id: string } }): Promise<void> {
  await context.queryClient.ensureQueryData(postDetailQueryOptions(parseId(params.id)));
}

export const messageDetailLazyRoute = createLazyRoute('/message/detail/$id')({ component: MessageDetailPage });

function MessageDetailPage() {
  const { id } = messageDetailLazyRoute.useParams();
  const postId = parseId(id);
  const { data: post } = useSuspenseQuery(postDetailQueryOptions(postId));
  const focusCommentId = messageDetailLazyRoute.useSearch({ select: (search) => search.comment });
  const inApp = openInAppHref({ name: 'hordePostDetail', postId });
  // Shared from the host's menu (WeChat, the mini-program), the post speaks for itself.
  useEffect(() => {
    const image = post.attach.find((a): a is ImageAttach => a.type === 'image');
    return setPageShare({ title: `${post.user.nick}的动态`, desc: cutText(post.content, 60), ...(image ? { imgUrl: image.url } : {}) });
  }, [post]);
  return (
    <div className="content-page">
      <h1 className="visually-hidden">动态详情</h1>
      {inApp ? (
        <a className="open-in-app" href={inApp}>
          <LogoMark size={22} />
          <span>在{PROVIDER_NAME} App 内查看，互动更方便</span>
          <span className="open-in-app__action">打开</span>
        </a>
      ) : null}
      <PostCard post={post} full aside={<AuthorFollowButton uid={post.user.uid} isFollow={post.user.is_follow} />} />
      <Likers postId={post.id} total={post.like_count} liked={post.is_like} />
      <PostComments post={post} focusCommentId={focusCommentId} />
    </div>
  );
}

export const messagePosterLazyRoute = createLazyRoute('/message/detail/poster/$id')({ component: MessagePosterPage });

function MessagePosterPage() {
  const { id } = messagePosterLazyRoute.useParams();
  const { data: post } = useSuspenseQuery(postDetailQueryOptions(parseId(id)));
  const image = post.attach.find((a): a is ImageAttach => a.type === 'image');
  return (
    <Page title="动态详情">
      <figure className="poster card">
        <div className="poster__author">
          <Avatar src={post.user.avatar} nick={post.user.nick} size={40} />
          <div>
            <p className="poster__nick">{post.user.nick}</p>
            <p className="poster__time">{fullTime(post.create_time)}</p>
          </div>
        </div>
        <blockquote className="poster__text">
          <RichText text={post.content} cut={{ length: 300, lines: 6 }} />
        </blockquote>
        {image ? (
          <img
            className="poster__image"
            src={image.url}
            width={image.width}
            height={image.height}
            alt=""
            loading="lazy"
            style={{ aspectRatio: `${image.width} / ${image.height}` }}
          />
        ) : null}
        <figcaption className="poster__brand">
          <LogoMark size={24} />
          <span>{PROVIDER_NAME}社区 · 和同行一起学习</span>
        </figcaption>
      </figure>
      <PosterActions post={post} />
      <p className="page-lead poster__hint">
        分享这张卡片给朋友，或{' '}
        <Link to="/message/detail/$id" params={{ id }} className="text-link">
          查看完整动态和评论
        </Link>
      </p>
    </Page>
  );
}

/** 保存图片 (the card as a PNG) and 分享 (the PNG where the system share sheet takes files, else the link). */
function PosterActions({ post }: { post: Post }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const picture = () => drawPoster(post, `${PROVIDER_NAME}社区 · 和同行一起学习`, fullTime(post.create_time));
  const name = `${PROVIDER_NAME}-动态-${post.id}.png`;
  const run = (action: () => Promise<void>) => {
    setBusy(true);
    action()
      .catch(() => toast.error('图片生成失败，请稍后重试'))
      .finally(() => setBusy(false));
  };
  const save = () =>
    run(async () => {
      downloadBlob(await picture(), name);
      toast.success('图片已保存');
    });
  const share = () =>
    run(async () => {
      const url = new URL(router.buildLocation({ to: '/message/detail/$id', params: { id: String(post.id) } }).href, window.location.origin).href;
      const file = new File([await picture()], name, { type: 'image/png' });
      const content = { title: `${post.user.nick}的动态`, url };
      if (navigator.canShare?.({ files: [file] })) {
        await navigator.share({ ...content, files: [file] }).catch((error: unknown) => {
          if (!(error instanceof DOMException && error.name === 'AbortError')) throw error;
        });
      } else await shareLink(content);
    });
  return (
    <div className="poster__actions">
      <button type="button" className="button button--primary" disabled={busy} onClick={save}>
        保存图片
      </button>
      <button type="button" className="button button--ghost" disabled={busy} onClick={share}>
        分享
      </button>
    </div>
  );
}
