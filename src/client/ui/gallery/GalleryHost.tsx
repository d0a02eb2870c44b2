import { lazy, Suspense } from 'react';
import { useGalleryStore } from './gallery-store.ts';

// The gallery's code (gestures, zoom) loads when an image is first opened.
const GalleryView = lazy(() => import('./GalleryView.tsx'));

export function GalleryHost() {
  const open = useGalleryStore((s) => s.open);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <GalleryView />
    </Suspense>
  );
}
