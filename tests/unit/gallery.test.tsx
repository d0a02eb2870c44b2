import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GalleryHost } from '../../src/client/ui/gallery/GalleryHost.tsx';
import GalleryView from '../../src/client/ui/gallery/GalleryView.tsx';
import { clampZoom, MAX_ZOOM, openGallery, useGalleryStore } from '../../src/client/ui/gallery/gallery-store.ts';

const images = [1, 2, 3].map((i) => ({ src: `/img/${i}`, width: 800, height: 600, alt: `图 ${i}` }));

describe('gallery', () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => useGalleryStore.getState().close());
    cleanup();
    vi.restoreAllMocks();
  });

  it('never loops and zooms at most 3x', () => {
    openGallery(images, 0);
    expect(useGalleryStore.getState().go(-1)).toBe(false);
    expect(useGalleryStore.getState().index).toBe(0);
    useGalleryStore.getState().go(1);
    useGalleryStore.getState().go(1);
    expect(useGalleryStore.getState().go(1)).toBe(false);
    expect(useGalleryStore.getState().index).toBe(2);
    expect(MAX_ZOOM).toBe(3);
    expect(clampZoom(10)).toBe(3);
    expect(clampZoom(0.2)).toBe(1);
  });

  it('loads its code when an image is first opened, as a modal <dialog>', async () => {
    render(<GalleryHost />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => openGallery(images, 0));
    const dialog = await screen.findByRole('dialog', { name: '图片查看' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog.dataset.shownModal).toBe('true');
  });

  it('arrow keys stop at the first and last image; no caption or counter; Escape closes', () => {
    render(<GalleryView />);
    act(() => openGallery(images, 1));
    const dialog = screen.getByRole('dialog', { name: '图片查看' });
    const current = () => dialog.querySelector('img')?.getAttribute('src');
    expect(current()).toBe('/img/2');
    act(() => {
      fireEvent.keyDown(window, { key: 'ArrowLeft' });
    });
    expect(current()).toBe('/img/1');
    act(() => {
      fireEvent.keyDown(window, { key: 'ArrowLeft' });
    });
    expect(current()).toBe('/img/1');
    act(() => {
      fireEvent.keyDown(window, { key: 'ArrowRight' });
      fireEvent.keyDown(window, { key: 'ArrowRight' });
      fireEvent.keyDown(window, { key: 'ArrowRight' });
    });
    expect(current()).toBe('/img/3');
    expect(dialog.textContent).not.toMatch(/\d+\s*\/\s*\d+/);
    expect(dialog.querySelector('figcaption')).toBeNull();
    act(() => {
      fireEvent(dialog, new Event('cancel', { cancelable: true }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  describe('taps on mobile', () => {
    beforeEach(() => {
      vi.useFakeTimers();
      // jsdom has no pointer capture.
      Object.assign(HTMLElement.prototype, { setPointerCapture() {} });
    });
    afterEach(() => {
      vi.useRealTimers();
      delete (HTMLElement.prototype as Partial<HTMLElement>).setPointerCapture;
    });

    const image = () => screen.getByRole('dialog', { name: '图片查看' }).querySelector('img')!;
    const pointer = (type: 'pointerDown' | 'pointerMove' | 'pointerUp', x: number) =>
      act(() => {
        fireEvent[type](image(), { pointerId: 1, button: 0, clientX: x, clientY: 300 });
      });
    const tap = (x = 200) => {
      pointer('pointerDown', x);
      pointer('pointerUp', x);
    };

    it('a second tap within 300 ms zooms instead of closing', () => {
      render(<GalleryView />);
      act(() => openGallery(images, 0));
      tap();
      act(() => vi.advanceTimersByTime(280));
      tap();
      act(() => vi.advanceTimersByTime(1000));
      expect(screen.getByRole('dialog', { name: '图片查看' })).toBeTruthy();
      expect(image().dataset.zoom).toBe('2.00');
    });

    it('a single tap closes; a swipe right after a tap pages instead', () => {
      render(<GalleryView />);
      act(() => openGallery(images, 0));
      tap();
      act(() => vi.advanceTimersByTime(100));
      pointer('pointerDown', 300);
      pointer('pointerMove', 150);
      pointer('pointerUp', 150);
      act(() => vi.advanceTimersByTime(1000));
      expect(image().getAttribute('src')).toBe('/img/2');
      tap();
      act(() => vi.advanceTimersByTime(300));
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  it('once closed, it lets go of the thumbnails, and closing again leaves the focus alone', () => {
    const thumb = document.createElement('button');
    const other = document.createElement('button');
    document.body.append(thumb, other);
    act(() => openGallery([{ ...images[0]!, element: thumb }], 0));
    act(() => useGalleryStore.getState().close());
    expect(document.activeElement).toBe(thumb);
    // It holds on to nothing of the page (the thumbnails) once closed.
    expect(useGalleryStore.getState().items).toEqual([]);
    other.focus();
    act(() => useGalleryStore.getState().close());
    expect(document.activeElement).toBe(other);
    thumb.remove();
    other.remove();
  });
});
