/**
 * What the reader does on the server's first screen before the app has started: it is painted from
 * the page's HTML, so people tap and type while the app's code is still on its way. This function
 * runs as the page's first script, inline at the start of its body (vite.config.ts puts its source
 * there, the server allows it by its hash: src/server/http/client-page.ts), so nothing done after
 * the first paint is missed. It keeps:
 *
 * - the taps on the page's controls, in order, one per control (a second tap on a button that did
 *   nothing yet is the same wish): each is marked `data-early-tap` (base.css shows it as pending) and
 *   the app clicks it once its first render is committed (lib/early-acts.ts), React hearing none
 *   of them before. A link, a text field, a choice and a label work without the app, and are left
 *   to the browser;
 * - what was typed or chosen in a named field, by its name (one that says whose it is: comment-12):
 *   the component that takes the field over starts from it (useEarlyValue), even where the app had
 *   to render that field again.
 *
 * It is written in itself alone (no import, nothing of its module around it): its source is what
 * the page runs.
 */
export function catchEarlyActs(): void {
  const taps: Element[] = [];
  const values: Record<string, string | string[]> = {};
  const inRoot = (target: EventTarget | null): target is Element => target instanceof Element && target.closest('#root') !== null;
  const keepTap = (event: Event) => {
    const target = event.target;
    if (!inRoot(target) || target.closest('a[href], input, textarea, select, label')) return;
    // The tap is answered once, by the app when it has taken the page over: React, listening from
    // the start of its render, must not hear it meanwhile.
    event.stopPropagation();
    const control = target.closest('button, [role="button"], [role="tab"]');
    if (control) {
      if (control.hasAttribute('data-early-tap')) return;
      control.setAttribute('data-early-tap', '');
    }
    taps.push(target);
  };
  const keepValue = (event: Event) => {
    const field = event.target;
    if (!inRoot(field) || !(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) || !field.name) return;
    values[field.name] =
      field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox')
        ? [...document.getElementsByName(field.name)].filter((choice) => choice instanceof HTMLInputElement && choice.checked).map((choice) => (choice as HTMLInputElement).value)
        : field.value;
  };
  document.addEventListener('click', keepTap, true);
  document.addEventListener('input', keepValue, true);
  window.earlyActs = {
    takeTaps() {
      document.removeEventListener('click', keepTap, true);
      document.removeEventListener('input', keepValue, true);
      return taps.splice(0);
    },
    takeValue(name) {
      const value = values[name];
      delete values[name];
      return value;
    },
  };
}

declare global {
  interface Window {
    /** Set by catchEarlyActs, the page's first script. */
    earlyActs?: {
      /** Stops keeping taps and values (the page is the app's from here on) and gives the taps, in order. */
      takeTaps(): Element[];
      /** What was typed or chosen in the field of this name before its component took it over, once. */
      takeValue(name: string): string | string[] | undefined;
    };
  }
}
