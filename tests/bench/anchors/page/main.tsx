/**
 * The bare React 19 page the first screen is measured against: ten short posts from a static JSON of the
 * same origin, rendered with nothing else (no router, no query cache, no persisted state). The
 * request starts as the module runs and the list is state set when it answers. (Not Suspense
 * with use(): React holds a boundary's fallback at least 300 ms once it has shown, which would
 * slow the anchor, not measure React.) The bench builds it with Vite and measures it beside the
 * community's first screen.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface AnchorPost {
  id: number;
  author: string;
  /** ISO 8601. */
  time: string;
  content: string;
}

const posts: Promise<AnchorPost[]> = fetch('/posts.json').then((response) => response.json() as Promise<AnchorPost[]>);
const timeFormat = new Intl.DateTimeFormat('zh-CN', { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' });

function Feed() {
  const [list, setList] = useState<AnchorPost[]>([]);
  useEffect(() => void posts.then(setList), []);
  return (
    <main>
      <h1>动态</h1>
      {list.map((post) => (
        <PostCard key={post.id} post={post} />
      ))}
    </main>
  );
}

function PostCard({ post }: { post: AnchorPost }) {
  return (
    <article aria-labelledby={`post-${post.id}-author`}>
      <header>
        <strong id={`post-${post.id}-author`}>{post.author}</strong>
        <time dateTime={post.time}>{timeFormat.format(new Date(post.time))}</time>
      </header>
      <p>{post.content}</p>
    </article>
  );
}

createRoot(document.getElementById('root')!).render(<Feed />);
