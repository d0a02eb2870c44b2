import { LazyLayer, lazyComponent } from '../LazyLayer.tsx';
import { useGalleryStore } from './gallery-store.ts';

// The gallery's code (gestures, zoom) loads when an image is first opened.
const GalleryView = lazyComponent(() => import('./GalleryView.tsx'));

export function GalleryHost() {
  const open = useGalleryStore((s) => s.open);
  const close = useGalleryStore((s) => s.close);
  if (!open) return null;
  return (
    <LazyLayer onError={close}>
      <GalleryView />
    </LazyLayer>
  );
}
