/**
 * What the reader does before the app has started (src/client/lib/early-acts-catcher.ts, run from
 * its own source as the page runs it; src/client/lib/early-acts.ts): taps kept in order, once per
 * control, marked pending, answered once; typed words and choices handed to their component once.
 */
import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catchEarlyActs } from '../../src/client/lib/early-acts-catcher.ts';
import { answerEarlyTaps, takeEarlyTaps } from '../../src/client/lib/early-acts.ts';
import { useEarlyValue } from '../../src/client/lib/early-value.ts';

const tap = (target: Element) => target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
const type = (field: HTMLInputElement | HTMLTextAreaElement, value: string) => {
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('early acts', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.body.appendChild(document.createElement('div'));
    root.id = 'root';
    root.innerHTML = `
      <button id="like"><svg id="heart"></svg><span id="count">3</span></button>
      <button id="more">更多</button>
      <a href="/message/detail/1" id="link">post</a>
      <p id="text">a card's text</p>
      <textarea name="comment-1" id="box"></textarea>
      <label><input type="checkbox" name="vote-7" value="1" id="one">one</label>
      <label><input type="checkbox" name="vote-7" value="2" id="two">two</label>`;
    // As the page runs it: its source alone, nothing of its module around it.
    new Function(`(${catchEarlyActs.toString()})();`)();
  });
  afterEach(() => {
    takeEarlyTaps();
    delete window.earlyActs;
    document.body.replaceChildren();
  });
  const byId = (id: string) => document.getElementById(id)!;

  it('keeps the taps on controls in order, one per control, each marked pending; links and fields are the browser’s', () => {
    tap(byId('heart'));
    tap(byId('count'));
    tap(byId('link'));
    tap(byId('text'));
    tap(byId('more'));
    tap(byId('box'));
    tap(document.body);
    expect(byId('like').hasAttribute('data-early-tap')).toBe(true);
    expect(byId('more').hasAttribute('data-early-tap')).toBe(true);
    expect(takeEarlyTaps()).toEqual([byId('heart'), byId('text'), byId('more')]);
    // Kept no more once taken: React hears the page from then on.
    tap(byId('like'));
    expect(takeEarlyTaps()).toEqual([]);
  });

  it('lets the page hear a kept tap only when it is answered: a hydration under way must not answer it too', () => {
    // React listens on its root from the start of its render, before that render is committed.
    const heard: string[] = [];
    root.addEventListener('click', (event) => heard.push((event.target as Element).id), true);
    tap(byId('like'));
    tap(byId('like'));
    tap(byId('link'));
    expect(heard).toEqual(['link']);
    answerEarlyTaps(takeEarlyTaps());
    expect(heard).toEqual(['link', 'like']);
  });

  it('answers each tap once on its element, and drops one whose element the app replaced', () => {
    tap(byId('like'));
    tap(byId('more'));
    const clicks: string[] = [];
    root.addEventListener('click', (event) => clicks.push((event.target as Element).id));
    const taps = takeEarlyTaps();
    const more = byId('more');
    more.replaceWith(more.cloneNode(true));
    answerEarlyTaps(taps);
    expect(clicks).toEqual(['like']);
    expect(byId('like').hasAttribute('data-early-tap')).toBe(false);
  });

  it('keeps what was typed and chosen by field name, given once', () => {
    type(byId('box') as HTMLTextAreaElement, '早到');
    type(byId('box') as HTMLTextAreaElement, '早到的评论');
    (byId('two') as HTMLInputElement).checked = true;
    byId('two').dispatchEvent(new Event('input', { bubbles: true }));
    (byId('one') as HTMLInputElement).checked = true;
    byId('one').dispatchEvent(new Event('input', { bubbles: true }));
    expect(window.earlyActs?.takeValue('comment-1')).toBe('早到的评论');
    expect(window.earlyActs?.takeValue('comment-1')).toBeUndefined();
    expect(window.earlyActs?.takeValue('vote-7')).toEqual(['1', '2']);
  });

  it('hands a field’s early words to its component as it mounts, and nothing to another field', () => {
    type(byId('box') as HTMLTextAreaElement, '早到的评论');
    takeEarlyTaps();
    function Box({ name }: { name: string | undefined }) {
      const [text, setText] = useState('');
      useEarlyValue(name, (value) => setText([value].flat().join('')));
      return <output>{text || '(empty)'}</output>;
    }
    const other = render(<Box name="comment-2" />);
    expect(other.container.textContent).toBe('(empty)');
    const unnamed = render(<Box name={undefined} />);
    expect(unnamed.container.textContent).toBe('(empty)');
    const own = render(<Box name="comment-1" />);
    expect(own.container.textContent).toBe('早到的评论');
    // Once: a box mounted later starts empty.
    const later = render(<Box name="comment-1" />);
    expect(later.container.textContent).toBe('(empty)');
    act(() => undefined);
  });
});
