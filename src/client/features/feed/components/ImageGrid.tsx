import type { CSSProperties, MouseEvent } from 'react';
import type { ImageAttach } from '#shared/schemas.ts';
import { openGallery } from '../../../ui/gallery/gallery-store.ts';

/** The longest side of a single image in the feed, in px. */
const SINGLE_MAX = 320;

function singleStyle(image: ImageAttach): CSSProperties {
  const ratio = image.width / image.height;
  // Very tall or wide images are shown cropped at 3:1 so one post never takes the whole screen.
  const shownRatio = Math.min(3, Math.max(1 / 3, ratio));
  const width = shownRatio >= 1 ? SINGLE_MAX : Math.round(SINGLE_MAX * shownRatio);
  return { width: `min(100%, ${width}px)`, aspectRatio: `${shownRatio}` };
}

/**
 * Post images: one image keeps its shape (aspect ratio from the server's width and height,
 * so nothing shifts while it loads); two to nine sit in square cells of a 3-column grid
 * (2x2 for four). Lazy-loaded; a click opens the full-screen gallery at that image.
 */
export function ImageGrid({ images, alt }: { images: ImageAttach[]; alt: string }) {
  if (images.length === 0) return null;
  const open = (index: number) => (event: MouseEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    const buttons = Array.from(
      event.currentTarget.closest('.image-grid')?.querySelectorAll<HTMLElement>('.image-grid__cell') ?? [],
    );
    openGallery(
      images.map((image, i) => ({
        src: image.url,
        width: image.width,
        height: image.height,
        alt: `${alt} 图 ${i + 1}`,
        element: buttons[i] ?? null,
      })),
      index,
    );
  };
  const layout = images.length === 1 ? 'single' : images.length === 4 ? 'quad' : 'grid';
  return (
    <div className={`image-grid image-grid--${layout}`}>
      {images.map((image, i) => (
        <button
          key={`${image.url}-${i}`}
          type="button"
          className="image-grid__cell"
          style={layout === 'single' ? singleStyle(image) : undefined}
          onClick={open(i)}
          aria-label={`查看大图 ${i + 1}/${images.length}`}
        >
          <img
            src={image.url}
            width={image.width}
            height={image.height}
            alt=""
            loading="lazy"
            decoding="async"
          />
        </button>
      ))}
    </div>
  );
}
