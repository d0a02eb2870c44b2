import { lazy, Suspense, useState } from 'react';
import { Avatar } from '../../../ui/Avatar.tsx';

const AvatarZoom = lazy(() => import('./AvatarZoom.tsx'));

/**
 * A lone picture that zooms in place (post images open the full-screen gallery instead). The
 * zoom library loads on the first click; until then the avatar is a plain button.
 */
export function ZoomableAvatar({ src, nick, size }: { src: string; nick: string; size: number }) {
  const [zoomed, setZoomed] = useState(false);
  const [opened, setOpened] = useState(false);
  const avatar = <Avatar src={src} nick={nick} size={size} />;
  if (!src) return avatar;
  if (!opened) {
    return (
      <button
        type="button"
        className="avatar-zoom"
        aria-label="查看头像大图"
        onClick={() => {
          setOpened(true);
          setZoomed(true);
        }}
      >
        {avatar}
      </button>
    );
  }
  return (
    <Suspense fallback={avatar}>
      <AvatarZoom isZoomed={zoomed} onZoomChange={setZoomed}>
        {avatar}
      </AvatarZoom>
    </Suspense>
  );
}
