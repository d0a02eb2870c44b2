const entry = document.querySelector('script[data-app-entry]')?.getAttribute('data-app-entry');
const start = () => import(entry);

// A tap on the page before the app is up (a card, a like): the last one is kept, and the app
// answers it once it has taken over these very elements (src/client/app/early-tap.ts). A link
// and a text field work without the app.
const root = document.getElementById('root');
let lastTap;
const keepTap = (event) => {
  const target = event.target;
  if (!(target instanceof Element) || !root?.contains(target) || target.closest('a[href], input, textarea, select, label')) return;
  lastTap = target;
};
document.addEventListener('click', keepTap, true);
window.takeEarlyTap = () => {
  document.removeEventListener('click', keepTap, true);
  return lastTap;
};

if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
